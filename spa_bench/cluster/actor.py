"""The device host: one long-lived Ray actor per device, on the node the device belongs to.

It opens its device once (a real device by serial, or a virtual phone it starts and prepares, exactly as
a local run does) and then runs the episodes the driver sends, one at a time, with the runner's own
`EpisodeRunner` into a scratch folder of its own. What it returns is what the driver records: the log and
the episode's files (as bytes, or left in the shared `--artifact-dir` for the driver to copy). It never
writes the run folder, so an episode is recorded once, by the driver, whatever Ray retries or loses.
In the shared folder it writes only under its driver session's own subfolder (`<run-id>/<session>/`):
an actor of a driver that was killed may go on for a moment, and must not touch the files of the
driver that resumes the run.
A second method, `interrupt`, may run while an episode does (the actor has two threads): Ctrl-C on the
driver ends the running episodes as `interrupted`, as locally.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from spa_bench.agent import AGENTS, Agent
from spa_bench.device.device import Device
from spa_bench.device.info import DeviceInfo
from spa_bench.errors import DeviceError, classify
from spa_bench.models.cache import ModelCache, use_cache
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, ErrorInfo
from spa_bench.runner.episode import EpisodeJob, EpisodeLimits, EpisodeRunner, error_info
from spa_bench.runner.pool import DevicePool, connect_devices, start_virtual_pool
from spa_bench.runner.scheduler import DeviceReport
from spa_bench.secrets import register_secrets


@dataclass(frozen=True)
class RegistryAgentFactory:
    """An agent factory that travels: the registry reference, looked up again on the device's host
    (a `file.py:Class` reference must exist at the same path there; the driver makes it absolute)."""

    reference: str

    def __call__(self, **kwargs: Any) -> Agent:
        factory = AGENTS.get(self.reference)
        return factory(**kwargs)


def portable_job(job: EpisodeJob) -> EpisodeJob:
    """The job with its agent factory replaced by its registry reference (classes loaded from a user's
    file do not pickle by name)."""
    location, _, name = job.agent.agent.rpartition(":")
    reference = job.agent.agent
    if location.endswith(".py"):
        reference = f"{Path(location).expanduser().resolve()}:{name}"
    return replace(job, agent_factory=RegistryAgentFactory(reference))


def session_dir(artifact_dir: Path, run_id: str, session: str) -> Path:
    """Where the actors of one driver session leave episodes in the shared artifact dir."""
    return artifact_dir / run_id / session


@dataclass(frozen=True)
class DeviceSpec:
    """Which device an actor opens: a serial on its host, or a virtual phone it starts."""

    serial: str | None = None
    host: str | None = None  # the node's address, recorded with the device in every episode log
    console_port: int | None = None
    phone_size: str = "1080x2400"
    phone_clock: str | None = None


@dataclass(frozen=True)
class EpisodeRequest:
    job: EpisodeJob
    attempt: int
    earlier_errors: list[ErrorInfo]
    limits: EpisodeLimits
    run_id: str
    session: str  # the driver session's id: its subfolder of the shared artifact dir
    artifact_dir: Path | None = None
    model_cache: Path | None = None
    model_cache_replay: bool = False
    secrets: frozenset[str] = frozenset()


@dataclass(frozen=True)
class RemoteFailure:
    """An exception the episode raised on the device's host, as `classify` saw it there."""

    error: ErrorInfo
    infrastructure: bool
    device_healthy: bool  # the device answered a health check after it


@dataclass(frozen=True)
class EpisodeOutcome:
    log: EpisodeLog
    files: dict[str, bytes] = field(default_factory=dict)  # relative to the episode folder
    folder: Path | None = None  # instead of files: where they are under the shared artifact dir
    failure: RemoteFailure | None = None


class DeviceHost:
    """The object inside a device actor (wrapped with `ray.remote` by the executor)."""

    def __init__(self, spec: DeviceSpec) -> None:
        self.spec = spec
        self.pool: DevicePool
        if spec.serial is None:
            self.pool = start_virtual_pool(1, size=spec.phone_size, clock=spec.phone_clock)
        else:
            ports = {spec.serial: spec.console_port} if spec.console_port is not None else None
            self.pool = connect_devices([spec.serial], ports)
        self.device: Device = self.pool.devices[0]
        self._stop = threading.Event()

    def probe(self, label: str) -> DeviceReport:
        """The device answers; its description and installed packages for the driver's records."""
        self.device.health_check()
        info: DeviceInfo = self.device.info().model_copy(update={"host": self.spec.host})
        return DeviceReport(label, info, frozenset(self.device.packages(refresh=True)))

    def interrupt(self) -> None:
        self._stop.set()

    def run_episode(self, request: EpisodeRequest) -> EpisodeOutcome:
        self._stop.clear()
        register_secrets(set(request.secrets))  # scrubbed from what the episode writes here too
        job = request.job
        if request.artifact_dir is not None:
            scratch = (session_dir(request.artifact_dir, request.run_id, request.session)
                       / f"{job.episode_id}.attempt{request.attempt}")
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            scratch = Path(tempfile.mkdtemp(prefix="spa-bench-episode-"))
        layout = RunLayout(scratch)
        runner = EpisodeRunner(job, self.device, layout, request.limits, self._stop, request.attempt,
                               list(request.earlier_errors), request.run_id)
        runner.log.device = runner.log.device.model_copy(update={"host": self.spec.host})
        cache = (ModelCache(request.model_cache, replay_only=request.model_cache_replay)
                 if request.model_cache is not None else None)
        failure = None
        try:
            with use_cache(cache):
                log = runner.run()
        except Exception as exc:  # the runner recorded it in its log; classify says what it means
            outcome = classify(exc)
            log = runner.log
            failure = RemoteFailure(error_info(outcome.kind, exc), outcome.infrastructure, self._healthy())
        folder = layout.episode_dir(job.episode_id)
        if request.artifact_dir is not None:
            return EpisodeOutcome(log, folder=folder, failure=failure)
        try:
            files = {path.relative_to(folder).as_posix(): path.read_bytes()
                     for path in sorted(folder.rglob("*"))
                     if path.is_file() and path.relative_to(folder).as_posix() != layout.episode_file}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return EpisodeOutcome(log, files=files, failure=failure)

    def _healthy(self) -> bool:
        try:
            self.device.health_check()
        except DeviceError:
            return False
        return True

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.pool.close()
