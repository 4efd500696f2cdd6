"""`spa-bench bundle verify FILE`: is this published run what it says it is?

(a) hashes: every provenance part against the installed harness (spa_bench.bundle.provenance), the
    bundle's members against its index, and each episode's task instance against the installed task
    drawn again with the run's seed (for a secret-seed run, once the seed is given);
(b) re-scoring: every episode scored again offline from the device state it captured, by the
    evaluators its verdicts record (spa_bench.evaluation.pipeline), and the outcome compared with the
    recorded one;
(c) replay (spa_bench.bundle.replay): every episode run again on fresh virtual phones.

A verification differs when any part does; the caller exits non-zero then.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from spa_bench.bundle.archive import OpenedBundle
from spa_bench.bundle.provenance import Provenance, installed_provenance
from spa_bench.bundle.replay import stand_in_keys
from spa_bench.evaluation.base import RunContext, family
from spa_bench.evaluation.pipeline import (
    build_evaluator,
    close_evaluators,
    evaluable,
    evaluate_episode,
    logged_specs,
    open_evaluators,
)
from spa_bench.evaluation.policy import decide_success
from spa_bench.models.cache import ModelCache, use_cache
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, EvaluatorSpec, task_ref
from spa_bench.tasks.repository import TaskRepository

# evaluator families that need a model: re-scored only from the bundle's reply cache
MODEL_FAMILIES = ("judge",)


@dataclass(frozen=True)
class PartCheck:
    """One provenance part compared with the installed harness."""

    part: str
    same: bool
    detail: str = ""


def compare_provenance(bundled: Provenance, installed: Provenance) -> list[PartCheck]:
    checks = []
    harness_same = (bundled.harness.version == installed.harness.version
                    and bundled.harness.source_sha256 == installed.harness.source_sha256)
    checks.append(PartCheck("harness", harness_same, "" if harness_same else
                            f"bundled {bundled.harness.version} {bundled.harness.source_sha256[:12]}, "
                            f"installed {installed.harness.version} {installed.harness.source_sha256[:12]}"))
    changed = sorted(rel for rel, sha in bundled.tasks.files.items() if installed.tasks.files.get(rel) != sha)
    checks.append(PartCheck("tasks", not changed, "" if not changed else
                            f"{len(changed)} task file(s) differ: {', '.join(changed[:5])}"
                            + (" ..." if len(changed) > 5 else "")))
    image_same = bundled.phone.image_sha256 == installed.phone.image_sha256
    checks.append(PartCheck("phone image", image_same, "" if image_same else
                            f"bundled {str(bundled.phone.image_sha256)[:12]}, "
                            f"installed {str(installed.phone.image_sha256)[:12]}"))
    for ours, theirs in zip(bundled.agents, installed.agents, strict=True):
        diffs = [what for what, a, b in (("version", ours.version, theirs.version),
                                         ("module", ours.module_sha256, theirs.module_sha256),
                                         ("prompts", sorted(ours.prompt_sha256.values()),
                                          sorted(theirs.prompt_sha256.values()))) if a != b]
        checks.append(PartCheck(f"agent {ours.name}", not diffs, "" if not diffs else
                                f"{', '.join(diffs)} differ{'s' if len(diffs) == 1 else ''} "
                                f"from the installed {ours.adapter}"))
    return checks


def installed_parts(opened: OpenedBundle, tasks_root: Path,
                    adapter_dir: Path | None = None) -> list[PartCheck]:
    """(a): the provenance parts and the bundle's own members."""
    bundled = opened.index.provenance
    checks = compare_provenance(bundled, installed_provenance(bundled, tasks_root, adapter_dir))
    altered = opened.altered
    checks.append(PartCheck("bundle members", not altered, "" if not altered else
                            f"{len(altered)} member(s) differ from the bundle's index: "
                            f"{', '.join(altered[:3])}"))
    return checks


def instance_check(logs: Iterable[EpisodeLog], tasks_root: Path, run_seed: int | None) -> PartCheck:
    """Each episode's task as run is the installed task drawn again for its instance: a log whose task
    (its checks, its parameters) was edited shows here. Needs the run seed (a secret one revealed)."""
    if run_seed is None:
        return PartCheck("task instances", True, "not checked: the run's secret seed was not given")
    repo = TaskRepository(tasks_root)
    known = {record.id for record in repo.index()}
    differ, missing, count = [], [], 0
    for log in logs:
        task = log.full_task
        count += 1
        if task.id not in known:
            missing.append(task.id)
            continue
        filled, _seed, _values = repo.get(task.id).instantiate(run_seed, log.instance.repeat)
        if task_ref(filled) != task_ref(task):
            differ.append(log.episode_id)
    problems = []
    if differ:
        problems.append(f"{len(differ)} differ from the installed task: {', '.join(differ[:3])}")
    if missing:
        problems.append(f"{len(missing)} task(s) not installed: {', '.join(sorted(set(missing))[:3])}")
    return PartCheck("task instances", not problems, "; ".join(problems) or f"{count} match")


@dataclass(frozen=True)
class Rescored:
    episode_id: str
    recorded: bool | None
    rescored: bool | None
    differing: tuple[str, ...] = ()  # evaluator families whose verdict changed

    @property
    def same(self) -> bool:
        return self.recorded == self.rescored and not self.differing


@dataclass
class Rescoring:
    episodes: list[Rescored] = field(default_factory=list)
    not_rescored: dict[str, str] = field(default_factory=dict)  # episode id -> why

    @property
    def differ(self) -> list[Rescored]:
        return [e for e in self.episodes if not e.same]


def _offline_specs(logs: list[EpisodeLog], with_cache: bool, screenshots: bool) -> list[EvaluatorSpec]:
    """The recorded evaluators that can run here: a judge only with the bundle's cache, key components
    only on the full screenshots they read."""
    return [s for s in logged_specs(logs)
            if (with_cache or s.name not in MODEL_FAMILIES) and (screenshots or s.name != "key_components")]


def _key_variables(specs: list[EvaluatorSpec]) -> set[str]:
    """The variables the evaluators' model clients read their keys from (a judge's `model.api_key_env`)."""
    names = set()
    for spec in specs:
        model = spec.args.get("model")
        if isinstance(model, dict) and isinstance(model.get("api_key_env"), str):
            names.add(model["api_key_env"])
    return names


def _latest_success(log: EpisodeLog) -> dict[str, bool | None]:
    return {family(v.evaluator): v.success for v in log.verdicts}


def rescore(run_dir: Path, *, cache_dir: Path | None, screenshots: bool) -> Rescoring:
    """(b): every scored episode's verdicts made again from its captured state (no device, no agent;
    a judge's replies from the bundle's cache only), compared with the recorded ones: the outcome the
    policy reads, and each re-made family's verdict."""
    layout = RunLayout(run_dir)
    logs = [log for log in layout.episodes() if log.task is not None]
    outcome = Rescoring()
    specs = _offline_specs(logs, cache_dir is not None, screenshots)
    cache = ModelCache(cache_dir, replay_only=True) if cache_dir is not None else None
    with use_cache(cache), stand_in_keys(_key_variables(specs)):
        evaluators = [build_evaluator(spec) for spec in specs]
        made = {family(e.name) for e in evaluators} | {e.name for e in evaluators}
        open_evaluators(evaluators, RunContext(layout.root))
        try:
            for log in logs:
                if not evaluable(log):
                    outcome.not_rescored[log.episode_id] = f"not scored ({log.termination})"
                    continue
                recorded = _latest_success(log)
                needed = {name for name in recorded if name not in made and name != "evaluation"}
                fresh = log.model_copy(deep=True, update={"verdicts": []})
                evaluate_episode(fresh, layout.episode_dir(log.episode_id), evaluators)
                again = _latest_success(fresh)
                if needed and decide_success(fresh).success is None:
                    outcome.not_rescored[log.episode_id] = (f"decided by {', '.join(sorted(needed))}, "
                                                            f"which cannot run offline from this bundle")
                    continue
                differing = tuple(sorted(name for name in again
                                         if name in recorded and again[name] != recorded[name]))
                outcome.episodes.append(Rescored(log.episode_id, decide_success(log).success,
                                                 decide_success(fresh).success, differing))
        finally:
            close_evaluators(evaluators)
    return outcome
