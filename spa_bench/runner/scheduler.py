"""Scheduling episodes on devices: a queue of jobs, one worker per device, retries after device failures.

The `Executor` seam is how jobs meet devices. `LocalThreadExecutor` runs one thread per device in this
process; `spa_bench.cluster.executor.RayExecutor` runs them on device actors of a Ray cluster, from the
same `EpisodeWork`: it ships the job and limits to the device's host and hands what comes back to
`EpisodeWork.adopt`, so this process stays the only writer of the run folder.

Retry policy: an episode whose exception `spa_bench.errors.classify` calls an infrastructure failure
(a device that went offline or timed out) is put back in the queue with attempt + 1 (at most
`max_retries` times); its device gets a health check and is taken out of the pool when it fails it.
Any other exception is recorded (`gave_up`) and the run goes on; any returned log is final.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from spa_bench.device.device import Device
from spa_bench.device.info import DeviceInfo
from spa_bench.errors import DeviceError, classify
from spa_bench.models.cache import ModelCache
from spa_bench.results.layout import RunLayout
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import EpisodeLog, ErrorInfo
from spa_bench.runner.episode import EpisodeJob, EpisodeLimits, EpisodeRunner, error_info
from spa_bench.runner.events import Broadcast, Events
from spa_bench.runner.pool import DevicePool

__all__ = ["Attempt", "Broadcast", "DeviceReport", "EpisodeWork", "Events", "Executor", "LocalThreadExecutor",
           "same_device"]


@dataclass(frozen=True)
class DeviceReport:
    """A device of the run as the run's bookkeeping sees it: how events name it, its description for
    the manifest, and its installed packages (for the app check before the run)."""

    name: str
    info: DeviceInfo
    packages: frozenset[str]


def same_device(a: DeviceInfo, b: DeviceInfo) -> bool:
    """One device: the same serial on the same host (virtual phones of two hosts may share a serial)."""
    return (a.host, a.serial) == (b.host, b.serial)


@dataclass
class Attempt:
    job: EpisodeJob
    number: int = 1
    errors: list[ErrorInfo] = field(default_factory=list)


@dataclass
class EpisodeWork:
    """How the run's episodes are run and recorded. Called with (attempt, device) it runs the episode on a
    device of this process and returns the finished log (raising DeviceError for infrastructure
    failures); an executor whose devices live elsewhere sends `limits`, `run_id`, `model_cache` and
    `secrets` with the job and gives what came back to `adopt`."""

    layout: RunLayout
    limits: EpisodeLimits
    run_id: str
    stop: threading.Event  # the user's stop: running episodes end as interrupted
    after_episode: Callable[[EpisodeLog, Path], bool]  # the run's evaluators; True when they added verdicts
    model_cache: ModelCache | None = None
    secrets: frozenset[str] = frozenset()

    def __call__(self, attempt: Attempt, device: Device) -> EpisodeLog:
        runner = EpisodeRunner(attempt.job, device, self.layout, self.limits, self.stop, attempt.number,
                               attempt.errors, self.run_id)
        log = runner.run()
        if self.after_episode(log, self.layout.episode_dir(log.episode_id)):
            runner.save()  # the verdicts (evaluation/pipeline.py)
        return log

    def adopt(self, log: EpisodeLog, files: Mapping[str, bytes] | Path, final: bool = True) -> EpisodeLog:
        """Record an episode run elsewhere: its files (relative path -> bytes, or a folder to copy) and
        its log, through the episode recorder; `final` logs are scored like local ones."""
        recorder = EpisodeRecorder(self.layout, log.episode_id)
        recorder.adopt(log, files)
        if final and self.after_episode(log, recorder.folder):
            recorder.save(log)
        return log

    def record_device(self, info: DeviceInfo) -> None:
        """A device that joined the run (a cluster host's): added to the manifest's devices, once."""
        manifest = self.layout.read_manifest()
        if any(same_device(info, known) for known in manifest.devices):
            return
        self.layout.write_manifest(manifest.model_copy(update={"devices": [*manifest.devices, info]}))


class Executor(Protocol):
    def present_devices(self, pool: DevicePool, events: Events, stop: threading.Event,
                        run_id: str) -> list[DeviceReport]:
        """The devices there are before the first episode (a cluster's: those whose hosts have joined,
        once they answer), for the app check and the manifest."""
        ...

    def run(self, attempts: list[Attempt], pool: DevicePool, work: EpisodeWork, events: Events,
            stop: threading.Event, max_retries: int) -> list[Attempt]:
        """Run every attempt; return those left undone (stopped, or no healthy device left)."""
        ...

    def close(self) -> None:
        """Let go of what `present_devices` or `run` acquired."""
        ...


class LocalThreadExecutor:
    """One worker thread per device, all pulling from one queue."""

    def present_devices(self, pool: DevicePool, events: Events, stop: threading.Event,
                        run_id: str) -> list[DeviceReport]:
        return [DeviceReport(d.serial, d.info(), frozenset(d.packages())) for d in pool.devices]

    def close(self) -> None:
        return None

    def run(self, attempts: list[Attempt], pool: DevicePool, work: EpisodeWork, events: Events,
            stop: threading.Event, max_retries: int) -> list[Attempt]:
        jobs: queue.Queue[Attempt] = queue.Queue()
        for attempt in attempts:
            jobs.put(attempt)
        outstanding = [len(attempts)]
        lock = threading.Lock()
        undone: list[Attempt] = []

        def done_one() -> None:
            with lock:
                outstanding[0] -= 1

        def worker(device: Device) -> None:
            while not stop.is_set() and pool.is_healthy(device):
                try:
                    attempt = jobs.get(timeout=0.2)
                except queue.Empty:
                    with lock:
                        if outstanding[0] <= 0:
                            return
                    continue
                events.started(attempt, device)
                try:
                    log = work(attempt, device)
                except Exception as exc:
                    outcome = classify(exc)
                    attempt.errors.append(error_info(outcome.kind, exc))
                    if not outcome.infrastructure:  # recorded; another device would not help
                        events.gave_up(attempt, exc)
                        done_one()
                        continue
                    reason = _health(device)
                    if reason is not None:
                        pool.take_out(device, reason)
                        events.device_removed(device, reason)
                    if attempt.number <= max_retries:
                        events.retrying(attempt, device, exc)
                        jobs.put(Attempt(attempt.job, attempt.number + 1, attempt.errors))
                    else:
                        events.gave_up(attempt, exc)
                        done_one()
                    continue
                events.finished(log)
                done_one()

        threads = [threading.Thread(target=worker, args=(d,), name=f"device-{d.serial}", daemon=True)
                   for d in pool.healthy()]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(timeout=0.2)
        while not jobs.empty():
            undone.append(jobs.get_nowait())
        return undone


def _health(device: Device) -> str | None:
    """None when the device answers; otherwise why it is taken out."""
    try:
        device.health_check()
    except DeviceError as exc:
        return str(exc)
    return None
