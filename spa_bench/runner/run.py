"""A whole run: plan the episodes, get devices, run them in parallel, write manifest and summary.

`run_benchmark(config)` starts a new run folder; `resume_run(run_dir)` continues one, keeping every
episode that already has a final log and running the rest (each exactly once more).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import platform
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from spa_bench import __version__
from spa_bench.agent import AGENTS, AgentFactory, is_reference
from spa_bench.bundle.provenance import harness_source_sha256, phone_image_sha256
from spa_bench.errors import ConfigError, RegistryError, ResultsError
from spa_bench.evaluation.pipeline import RunEvaluators
from spa_bench.models.cache import ModelCache, use_cache
from spa_bench.results.layout import RunLayout, episode_id
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import (
    AgentSpec,
    EpisodeLog,
    InstanceInfo,
    RunManifest,
    RunSummary,
)
from spa_bench.runner.agent_check import build_agents
from spa_bench.runner.config import RunConfig
from spa_bench.runner.episode import EpisodeJob, EpisodeLimits
from spa_bench.runner.events import Broadcast, Events
from spa_bench.runner.pool import DevicePool, connect_devices, start_virtual_pool
from spa_bench.runner.preflight import check_apps, check_resets, substitutions
from spa_bench.runner.scheduler import Attempt, EpisodeWork, Executor, LocalThreadExecutor
from spa_bench.runner.vary import draw, parse_vary
from spa_bench.secrets import (
    REDACTED,
    header_secrets,
    redact_argv,
    redact_mapping,
    register_secrets,
    secrets_in_args,
    url_secrets,
)
from spa_bench.tasks.repository import TaskRepository, default_tasks_root

log = logging.getLogger("spa_bench.runner")
KEY_PACKAGES = ("adbutils", "uiautomator2", "openai", "pillow", "pandas", "pydantic", "typer", "rapidocr",
                "onnxruntime")
UNFINISHED = ("device_error", "interrupted")


@dataclass
class RunResult:
    run_dir: Path
    manifest: RunManifest
    summary: RunSummary
    logs: list[EpisodeLog] = field(default_factory=list)  # every final log of the run folder


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + uuid.uuid4().hex[:6]


def _git_revision() -> str | None:
    source = Path(__file__).resolve().parents[2]
    if not (source / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(source), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    out = {}
    for name in KEY_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def resolve_agents(config: RunConfig) -> dict[str, AgentFactory]:
    factories = {}
    for agent in config.agents:
        redacted = [k for k, v in agent.args.items() if isinstance(v, str) and REDACTED in v]
        if redacted:
            raise ConfigError(f"agent {agent.label!r}: argument(s) {', '.join(redacted)} were redacted in "
                              f"the manifest; pass them again with --agent-arg")
        try:
            factories[agent.label] = AGENTS.get(agent.agent)
        except RegistryError as exc:
            raise ConfigError(str(exc)) from None
    return factories


def plan_jobs(config: RunConfig, repo: TaskRepository) -> tuple[list[EpisodeJob], dict[str, str]]:
    """agents x tasks x repeats, in a stable order (task-major, so agents share device warm-up)."""
    records = repo.select(config.filter)
    if not records:
        raise ConfigError("no task matches the filters")
    tasks = repo.load(records)
    factories = resolve_agents(config)
    vary = parse_vary(config.vary) if config.vary else None
    file_hashes: dict[str, str] = {}
    jobs = []
    for record, task in zip(records, tasks, strict=True):
        rel = str(record.file.relative_to(repo.root))
        file_hashes.setdefault(rel, _sha256(record.file))
        for repeat in range(config.repeats):
            filled, seed, values = task.instantiate(config.instance_run_seed, repeat)
            variation = draw(vary, task.id, repeat, default_screen=config.phone_size,
                             language=task.language) if vary else None
            for agent in config.agents:
                jobs.append(EpisodeJob(
                    episode_id=episode_id(agent.label, task.id, repeat), task=filled,
                    instance=InstanceInfo(repeat=repeat, seed=seed, parameters=values),
                    agent=AgentSpec(name=agent.label, agent=agent.agent, args=redact_mapping(agent.args),
                                    reference=is_reference(factories[agent.label])),
                    agent_factory=factories[agent.label], agent_args=dict(agent.args),
                    task_file=rel, task_sha256=file_hashes[rel], variation=variation))
    return jobs, file_hashes


def _open_pool(config: RunConfig) -> DevicePool:
    if config.executor == "ray":  # the devices are on the cluster's hosts, each in its own actor
        return DevicePool([])
    if config.devices:
        return connect_devices(config.devices, config.console_ports)
    if config.phones < 1:
        raise ConfigError("no devices: give --device SERIAL or --phones N (N >= 1)")
    return start_virtual_pool(config.phones, size=config.phone_size, clock=config.phone_clock)


def _executor(config: RunConfig) -> Executor:
    if config.executor == "ray":
        from spa_bench.cluster.connect import check_reachable, import_ray
        from spa_bench.cluster.executor import RayExecutor

        assert config.ray_address is not None  # RunConfig checks it
        import_ray()  # only here: a local run never imports Ray
        check_reachable(config.ray_address)
        return RayExecutor(config.ray_address, phones_per_node=config.phones_per_node,
                           artifact_dir=config.artifact_dir, phone_size=config.phone_size,
                           phone_clock=config.phone_clock)
    return LocalThreadExecutor()


def _is_final(layout: RunLayout, episode: str) -> bool:
    try:
        log = layout.read_episode(episode)
    except ResultsError:
        return False
    return log.status == "finished" and log.termination not in UNFINISHED


def _score_unscored(layout: RunLayout, episodes: list[str], scorers: RunEvaluators) -> list[EpisodeLog]:
    """The logs of episodes an earlier session finished; one with no verdict yet is scored now. A driver
    killed after an episode's log was written and before its verdicts were would otherwise leave that
    episode unscored for good: a resumed run does not run a finished episode again."""
    logs = []
    for episode in episodes:
        log = layout.read_episode(episode)
        if not log.verdicts and scorers.after_episode(log, layout.episode_dir(episode)):
            log = EpisodeRecorder(layout, episode).add_verdicts(log.verdicts, evaluated=log)
        logs.append(log)
    return logs


def run_benchmark(config: RunConfig, events: Events | None = None, stop: threading.Event | None = None,
                  argv: list[str] | None = None, resume_dir: Path | None = None) -> RunResult:
    """Run (or, with resume_dir, continue) a benchmark. Blocks until done or `stop` is set."""
    events = events or Events()
    stop = stop or threading.Event()
    register_secrets(_run_secrets(config))  # scrubbed from every file and log from now on
    repo = TaskRepository(config.tasks_dir or default_tasks_root())
    jobs, file_hashes = plan_jobs(config, repo)
    build_agents(config.agents, {j.agent.name: j.agent_factory for j in jobs},
                 {j.agent.name: j.agent.args for j in jobs}, construct=config.executor == "local")
    executor = _executor(config)  # Ray missing or its address unreachable: said before anything is written
    if resume_dir is not None:
        layout = RunLayout(resume_dir)
        manifest = layout.read_manifest()
        run_id = manifest.run_id
    else:
        run_id = config.run_id or new_run_id()
        layout = RunLayout(config.out / run_id)
        if layout.manifest_path.exists():
            raise ConfigError(f"{layout.root} already holds a run; use --resume {layout.root}")
        manifest = None
    todo = [job for job in jobs if not _is_final(layout, job.episode_id)]
    started_at = datetime.now(UTC)
    events.planned(len(jobs), len(jobs) - len(todo))
    scorers = RunEvaluators(layout.root, {"model": config.judge} if config.judge is not None else None,
                            screen=config.evaluate)
    model_cache = _model_cache(config)  # a bad folder fails here, before any phone starts
    pool = _open_pool(config) if todo else DevicePool([])
    held = contextlib.ExitStack()
    try:
        check_resets([j.task for j in todo], pool.devices)
        if resume_dir is not None:
            held.enter_context(hold_run_folder(layout.root))
        present = executor.present_devices(pool, events, stop, run_id) if todo else []
        installed = {r.name: r.packages for r in present}
        skipped = check_apps([j.task for j in todo], installed, config.skip_missing_apps)
        if skipped:
            log.warning("skipping %d task(s) whose apps are not installed: %s", len(skipped),
                        ", ".join(sorted(skipped)))
            jobs = [j for j in jobs if j.task.id not in skipped]
            todo = [j for j in todo if j.task.id not in skipped]
            events.planned(len(jobs), len(jobs) - len(todo))
        for name, substituted in substitutions([j.task for j in todo], installed).items():
            log.warning("%s has the tasks' apps under other names, used instead: %s (golden scripts follow "
                        "the virtual phone's screens)", name,
                        ", ".join(f"{a} -> {b}" for a, b in sorted(substituted.items())))
        if manifest is None:
            manifest = RunManifest(
                run_id=run_id, created_at=started_at, spa_bench_version=__version__,
                git_revision=_git_revision(), python=sys.version.split()[0], platform=platform.platform(),
                packages=_versions(), command=redact_argv(list(argv or sys.argv)),
                tasks_root=str(repo.root), task_files=file_hashes,
                task_ids=sorted({j.task.id for j in jobs}),
                agents=[AgentSpec(name=a.label, agent=a.agent, args=redact_mapping(a.args),
                                  reference=any(j.agent.reference for j in jobs if j.agent.name == a.label))
                        for a in config.agents],
                repeats=config.repeats, seed=config.seed, devices=[r.info for r in present],
                settings={"config": _redacted_config(config)}, source_sha256=harness_source_sha256(),
                phone_image_sha256=phone_image_sha256()[0], device_fingerprints=_fingerprints(pool),
                instance_seed_commitment=config.instance_seed_commitment)
            layout.write_manifest(manifest)
            held.enter_context(hold_run_folder(layout.root))
        limits = EpisodeLimits(max_steps=config.max_steps, step_timeout_s=config.step_timeout_s,
                               episode_timeout_s=config.episode_timeout_s, settle_s=config.settle_s)

        work = EpisodeWork(layout, limits, run_id, stop, scorers.after_episode, model_cache,
                           frozenset(_run_secrets(config)))
        for report in present:  # a resumed run's devices may be others than the first session's
            work.record_device(report.info)

        failed: dict[str, str] = {}
        done_before = {j.episode_id for j in jobs} - {j.episode_id for j in todo}
        budget = Budget(config.budget_usd, stop, _score_unscored(layout, sorted(done_before), scorers))

        class Recording(Events):
            def gave_up(self, attempt: Attempt, error: BaseException) -> None:
                failed[attempt.job.episode_id] = f"{type(error).__name__}: {error}"

            def finished(self, log: EpisodeLog) -> None:
                budget.add(log)

        if todo:  # attempts left undone show up below as episodes without a final log
            with use_cache(model_cache):  # every model client of the run's agents and judge
                executor.run([Attempt(j) for j in todo], pool, work, Broadcast(Recording(), events), budget,
                             config.max_retries)
    except BaseException:
        held.close()
        raise
    finally:
        executor.close()
        pool.close()
        scorers.close()
    try:  # the run is this driver's until its summary is written
        logs = []
        for episode in layout.episode_ids():
            try:
                read = layout.read_episode(episode)
            except ResultsError:
                continue
            if read.task is not None:  # one still running (its driver died) holds no task: undone
                logs.append(read)
        final_ids = {log.episode_id for log in logs if log.status == "finished"
                     and log.termination not in UNFINISHED}
        costs = [log.usage.cost_usd for log in logs if log.episode_id in final_ids]
        undone = sorted({j.episode_id for j in jobs} - final_ids - set(failed))
        summary = RunSummary(
            run_id=run_id, started_at=started_at, finished_at=datetime.now(UTC), interrupted=stop.is_set(),
            planned=len(jobs), finished=len(final_ids & {j.episode_id for j in jobs}),
            undone=undone, failed=failed, removed_devices=dict(pool.removed), budget_usd=config.budget_usd,
            spent_usd=sum(c for c in costs if c is not None), cost_unknown=sum(1 for c in costs if c is None),
            stopped_by_budget=budget.exceeded and bool(undone) and not stop.is_set())
        layout.write_summary(summary)
    finally:
        held.close()
    return RunResult(layout.root, manifest, summary, logs)


def _fingerprints(pool: DevicePool) -> dict[str, str]:
    """Each device's build fingerprint: what identifies an emulator image or a phone's system in a
    bundle's provenance (a device that does not answer is left out)."""
    from spa_bench.errors import DeviceError

    found = {}
    for device in pool.devices:
        try:
            found[device.serial] = device.shell("getprop ro.build.fingerprint").strip()
        except DeviceError:
            continue
    return found


@contextlib.contextmanager
def hold_run_folder(root: Path) -> Iterator[None]:
    """One driver at a time per run folder (a lock on the folder itself, freed when the process ends,
    however it ends): a resumed Ray run removes what earlier sessions of the run left on the cluster,
    which is only right when none of them is still running."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ConfigError(f"{root}: another spa-bench process is running this run; wait for it to end "
                              f"(or stop it) before resuming") from None
        yield
    finally:
        os.close(fd)


class Budget(threading.Event):
    """The executor's stop signal: set by the user's stop, or once the agent cost of finished episodes
    exceeds the budget - so no new episode starts, while running ones finish normally (they watch the
    user's stop only). Unknown costs count as 0 here; the summary reports how many there were."""

    def __init__(self, limit_usd: float | None, user_stop: threading.Event,
                 earlier: list[EpisodeLog]) -> None:
        super().__init__()
        self.limit_usd, self.user_stop = limit_usd, user_stop
        self.spent_usd = 0.0
        self._lock = threading.Lock()
        for log in earlier:
            self.add(log)

    def add(self, log: EpisodeLog) -> None:
        if log.termination in UNFINISHED:
            return
        with self._lock:
            self.spent_usd += log.usage.cost_usd or 0.0
            if self.limit_usd is not None and self.spent_usd > self.limit_usd:
                self.set()

    @property
    def exceeded(self) -> bool:
        return super().is_set()

    def is_set(self) -> bool:
        return self.user_stop.is_set() or super().is_set()


def _run_secrets(config: RunConfig) -> set[str]:
    """Secret values the run was given: variables listed in secret_env, agent arguments (named, inside
    `cmd` or URLs, or by `*_env`), and the judge's key, headers and URL password."""
    found = {os.environ[name] for name in config.secret_env if os.environ.get(name)}
    if config.instance_seed is not None:
        found.add(config.instance_seed.get_secret_value())
    for agent in config.agents:
        found |= secrets_in_args(agent.args)
    judge = config.judge
    if judge is not None:
        found.update(header_secrets(judge.extra_headers))
        found |= url_secrets(judge.base_url or "")
        if judge.api_key_env and os.environ.get(judge.api_key_env):
            found.add(os.environ[judge.api_key_env])
    return found


def _model_cache(config: RunConfig) -> ModelCache | None:
    if config.model_cache is None:
        return None
    from spa_bench.phone.system.clock import clock_from_environment

    cache = ModelCache(config.model_cache, replay_only=config.model_cache_replay)
    # a replay from an empty cache (a bundle of agents that call no model) has nothing to miss
    empty = config.model_cache_replay and not any(cache.root.glob("*/*.json"))
    if not config.devices and config.phone_clock is None and clock_from_environment() is None and not empty:
        log.warning("--model-cache without --phone-clock: the virtual phones show the time of day, so a "
                    "rerun sees other screens and %s; freeze it in this run and in reruns, e.g. "
                    "--phone-clock 2026-01-15T09:30",
                    "its requests miss the cache (errors, with --model-cache-replay)"
                    if config.model_cache_replay else "asks the model again")
    return cache


def _redacted_config(config: RunConfig) -> dict[str, Any]:
    data = config.model_dump(mode="json")
    data["agents"] = [dict(a, args=redact_mapping(a["args"])) for a in data["agents"]]
    return data


def _give_back_redacted(config: RunConfig, given: dict[str, Any]) -> None:
    """Agent arguments given again on resume: a value redacted in the manifest (a secret) is taken, one
    equal to the recorded value is fine; any other would change an agent mid-run, and is refused."""
    changed = []
    for key, value in given.items():
        taken = False
        for agent in config.agents:
            recorded = agent.args.get(key)
            if isinstance(recorded, str) and REDACTED in recorded:
                agent.args[key] = value
                taken = True
            elif key in agent.args and recorded == value:
                taken = True
        if not taken:
            was = [f"{a.label} {key}={a.args[key]!r}" for a in config.agents if key in a.args]
            changed.append(f"{key}={value!r} (recorded: {', '.join(was) or 'not an argument of any agent'})")
    if changed:
        raise ConfigError(f"--agent-arg {'; '.join(changed)} would change the run's agents; on resume "
                          f"--agent-arg only gives back arguments redacted in the manifest (secrets)")


def recorded_config(run_dir: Path, doing: str) -> tuple[RunLayout, RunManifest, RunConfig]:
    """The run folder's layout, manifest and the configuration its manifest recorded (what a resume or a
    replay runs again); ResultsError when the manifest holds none."""
    layout = RunLayout(run_dir)
    manifest = layout.read_manifest()
    stored = manifest.settings.get("config")
    if not isinstance(stored, dict):
        raise ResultsError(f"{layout.manifest_path}: no run configuration recorded; cannot {doing}")
    return layout, manifest, RunConfig.model_validate(stored)


def resume_run(run_dir: Path, events: Events | None = None, stop: threading.Event | None = None,
               agent_args: dict[str, Any] | None = None, phones: int | None = None,
               devices: list[str] | None = None, argv: list[str] | None = None,
               ray_address: str | None = None, instance_seed: str | None = None) -> RunResult:
    """Continue the run in `run_dir` with the configuration recorded in its manifest (a Ray run may
    continue on a cluster at another `ray_address`). A secret-seed run needs its seed again
    (`instance_seed`), which must match the manifest's commitment."""
    _, manifest, config = recorded_config(run_dir, "resume")
    if agent_args:
        _give_back_redacted(config, agent_args)
    if phones is not None:
        config.phones = phones
    if devices:
        config.devices = devices
    if ray_address is not None:
        config.ray_address = ray_address
    config.instance_seed = given_instance_seed(manifest.instance_seed_commitment, instance_seed,
                                               "the run to resume")
    return run_benchmark(config, events, stop, argv, resume_dir=run_dir)


def given_instance_seed(commitment: str | None, secret: str | None, what: str) -> SecretStr | None:
    """The secret seed for a run that recorded `commitment`: required then, and it must match; refused
    for a run drawn from its public seed."""
    from spa_bench.tasks.params import check_instance_seed, seed_commitment

    if commitment is None:
        if secret is not None:
            raise ConfigError(f"--instance-seed: {what} was drawn from its public --seed, not a secret one")
        return None
    if secret is None:
        raise ConfigError(f"{what} drew its task instances from a secret seed: give it with "
                          f"--instance-seed (or --instance-seed-file)")
    try:
        secret = check_instance_seed(secret)
    except ValueError as exc:
        raise ConfigError(f"--instance-seed: {exc}") from None
    if seed_commitment(secret) != commitment:
        raise ConfigError(f"--instance-seed: not the seed of {what} (its commitment is {commitment[:16]}..., "
                          f"this seed's is {seed_commitment(secret)[:16]}...)")
    return SecretStr(secret)
