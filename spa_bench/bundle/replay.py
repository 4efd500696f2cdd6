"""(c) of `bundle verify --replay`: run every episode of a bundled run again on fresh virtual phones.

The run is planned again from its manifest's configuration (tasks, agents and their arguments, seed,
repeats, limits, `--vary` draws, the frozen phone clock) against the installed tasks, with the model
replies taken from the bundle's cache only (`--model-cache-replay`: a request the cache does not hold is
an error, never a call). An agent argument redacted in the manifest (a key) is given a stand-in: no
request leaves the machine, so no key is needed. Each episode's trajectory (its actions, termination
and answer) and its outcome are compared with the recorded ones.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spa_bench.bundle.provenance import resolve_adapter
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.events import Events
from spa_bench.secrets import REDACTED

KEY_STAND_IN = "replayed-from-cache-no-key"


def trajectory_sha256(log: EpisodeLog) -> str:
    """What the agent did, without when or how fast: each step's action (or its invalid raw answer),
    then how the episode ended and the answer."""
    steps = [step.action.model_dump(mode="json") if step.action is not None
             else {"invalid": step.raw_action, "reason": step.invalid_reason} for step in log.steps]
    data = json.dumps({"steps": steps, "termination": log.termination, "answer": log.answer},
                      sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Replayed:
    episode_id: str
    trajectory_same: bool
    verdict_same: bool
    detail: str = ""

    @property
    def same(self) -> bool:
        return self.trajectory_same and self.verdict_same


@dataclass
class Replay:
    episodes: list[Replayed] = field(default_factory=list)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)

    @property
    def differ(self) -> list[Replayed]:
        return [e for e in self.episodes if not e.same]


def _first_step_apart(a: EpisodeLog, b: EpisodeLog) -> str:
    for i, (x, y) in enumerate(zip(a.steps, b.steps, strict=False)):
        if (x.action, x.raw_action) != (y.action, y.raw_action):
            return (f"step {i}: recorded {_short(x.action or x.raw_action)}, "
                    f"replayed {_short(y.action or y.raw_action)}")
    if len(a.steps) != len(b.steps):
        return f"recorded {len(a.steps)} steps, replayed {len(b.steps)}"
    return f"recorded {a.termination} {a.answer!r}, replayed {b.termination} {b.answer!r}"


def _short(value: object) -> str:
    """An action as compact JSON, its type first and unset fields left out, cut at 80 characters."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        fields = dump(mode="json", exclude_none=True)
        text = json.dumps({"type": fields.pop("type", None), **fields}, ensure_ascii=False,
                          separators=(",", ":"))
    else:
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _key_variables(config: Any) -> set[str]:
    """The environment variables the run's agents and judge read their keys from (`api_key_env`, as
    given or as the adapter's default)."""
    import inspect

    from spa_bench.agent import AGENTS
    from spa_bench.errors import RegistryError

    names: set[str] = set()
    for agent in config.agents:
        given = agent.args.get("api_key_env")
        if given is None:
            try:
                parameter = inspect.signature(AGENTS.get(agent.agent)).parameters.get("api_key_env")
            except (RegistryError, TypeError, ValueError):
                parameter = None
            given = parameter.default if parameter is not None else None
        if isinstance(given, str) and given.strip():
            names.add(given.strip())
    if config.judge is not None and config.judge.api_key_env:
        names.add(config.judge.api_key_env)
    return names


@contextmanager
def stand_in_keys(names: set[str]) -> Iterator[None]:
    """A replay or re-score sends no request (a reply missing from the cache is an error), but model
    clients want a key to be made: a stand-in for each key variable that is not set, taken away after."""
    missing = {name for name in names if not os.environ.get(name)}
    for name in missing:
        os.environ[name] = KEY_STAND_IN
    try:
        yield
    finally:
        for name in missing:
            os.environ.pop(name, None)


def replay_run(run_dir: Path, *, tasks_root: Path, cache_dir: Path | None, phones: int,
               instance_seed: str | None = None, work_dir: Path | None = None,
               stop: threading.Event | None = None, events: Events | None = None,
               progress: Callable[[Replayed], None] | None = None,
               where: dict[str, Any] | None = None, adapter_dir: Path | None = None) -> Replay:
    """Run the bundled run again and compare it episode by episode with its logs. `where`: RunConfig
    fields naming the devices to replay on (devices, console_ports: virtual phones already started, as
    the test suite's); default `phones` fresh virtual phones. `adapter_dir`: where file adapters the run
    named by a path of its machine are found here (spa_bench.bundle.provenance.resolve_adapter)."""
    import time

    from spa_bench.runner.run import given_instance_seed, recorded_config, run_benchmark

    layout, manifest, config = recorded_config(run_dir, "replay")
    for agent in config.agents:
        agent.args = {k: (KEY_STAND_IN if isinstance(v, str) and REDACTED in v else v)
                      for k, v in agent.args.items()}
        agent.agent = resolve_adapter(agent.agent, adapter_dir)
    recorded = {log.episode_id: log for log in layout.episodes() if log.task is not None}
    outcome = Replay()
    if config.phone_clock is None and cache_dir is not None:  # the runner logs it too, as any rerun's
        outcome.warnings.append("the run's phones showed the time of day (no --phone-clock): replayed "
                                "screens differ from the recorded ones, and cached model replies may miss")
    if config.devices or config.executor != "local":
        used = "devices " + ", ".join(config.devices) if config.devices else "a Ray cluster"
        outcome.warnings.append(f"the run used {used}; the replay runs on virtual phones here")
    with tempfile.TemporaryDirectory(prefix="spa-bench-replay-", dir=work_dir) as tmp:
        cache = cache_dir if cache_dir is not None else Path(tmp) / "empty-cache"
        config = config.model_copy(update={
            "tasks_dir": tasks_root, "out": Path(tmp) / "runs", "run_id": f"replay-{manifest.run_id}",
            "devices": [], "console_ports": {}, "executor": "local", "ray_address": None,
            "phones_per_node": None, "artifact_dir": None, "phones": max(1, phones),
            "model_cache": cache, "model_cache_replay": True, "budget_usd": None, **(where or {}),
            "instance_seed": given_instance_seed(manifest.instance_seed_commitment, instance_seed,
                                                 "the bundled run")})
        started = time.monotonic()
        with stand_in_keys(_key_variables(config)):
            result = run_benchmark(config, events, stop, ["spa-bench", "bundle", "verify", "--replay"])
        outcome.seconds = time.monotonic() - started
        again = {log.episode_id: log for log in result.logs}
        for episode, log in sorted(recorded.items()):
            fresh = again.get(episode)
            if fresh is None:
                item = Replayed(episode, False, False, "not replayed")
            else:
                same_path = trajectory_sha256(log) == trajectory_sha256(fresh)
                before, after = decide_success(log).success, decide_success(fresh).success
                detail = "" if same_path else _first_step_apart(log, fresh)
                if before != after:
                    outcome_note = f"outcome recorded {before}, replayed {after}"
                    detail = f"{detail}; {outcome_note}" if detail else outcome_note
                item = Replayed(episode, same_path, before == after, detail)
            outcome.episodes.append(item)
            if progress is not None:
                progress(item)
        for episode in sorted(set(again) - set(recorded)):  # the installed tasks select others
            outcome.episodes.append(Replayed(episode, False, False, "replayed, but not in the bundle"))
    return outcome
