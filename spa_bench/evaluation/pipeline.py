"""Running evaluators on finished episodes: after each episode of a run, or over a whole run folder again.

Verdicts are appended to the episode log with the evaluator's identity ("key_components:rapidocr",
"judge:gpt-4o@api.openai.com"); nothing already there is changed, so a re-evaluation with another judge
sits beside the old verdicts and the policy reads the latest of each family. Order and gating follow
SPA-Bench's coarse-to-fine method: key components run first, and on a task without state checks whose
key components are not visible the judge is not called (the policy fails the episode anyway). On tasks
with checks every requested evaluator runs: their verdicts decide nothing there, but they are what
`--calibrate` compares with the state-check ground truth.

An evaluator that raises is recorded as a verdict with success None and the error (kind "evaluator").
"""

from __future__ import annotations

import os
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spa_bench.errors import ConfigError, ResultsError
from spa_bench.evaluation.base import EVALUATORS, Evaluator, family, now
from spa_bench.evaluation.policy import INFRASTRUCTURE, JUDGE, KEY_COMPONENTS, latest
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, ErrorInfo, Verdict


def run_evaluator(evaluator: Evaluator, log: EpisodeLog, episode_dir: Path) -> Verdict:
    """One verdict; an exception becomes an evaluator-error verdict instead of stopping the run."""
    try:
        return evaluator.evaluate(log, episode_dir)
    except Exception as exc:
        return Verdict(evaluator=evaluator.name, success=None, created_at=now(),
                       error=ErrorInfo(kind="evaluator", type=type(exc).__name__, message=str(exc),
                                       traceback=traceback.format_exc()))


def evaluable(log: EpisodeLog) -> bool:
    """Finished episodes that did not end in an infrastructure failure (those are never scored)."""
    return log.status == "finished" and log.termination not in INFRASTRUCTURE


def _reads_ocr(evaluator: Evaluator) -> bool:
    """The key-component evaluator (or one like it): it has an OCR engine and a per-run OCR cache."""
    return family(evaluator.name) == KEY_COMPONENTS and hasattr(evaluator, "engine") \
        and hasattr(evaluator, "_cache_for")


@dataclass
class EpisodeEvaluation:
    episode_id: str
    added: list[Verdict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # evaluator names not run, with the reason


def evaluate_episode(log: EpisodeLog, episode_dir: Path, evaluators: Sequence[Evaluator], *,
                     gate: bool = True) -> EpisodeEvaluation:
    """Run the evaluators on one episode (key components first) and append their verdicts to the log."""
    from spa_bench.evaluation.completion import add_first_complete

    outcome = EpisodeEvaluation(log.episode_id)
    ordered = sorted(evaluators, key=lambda e: 0 if family(e.name) == KEY_COMPONENTS else 1)
    for evaluator in ordered:
        if family(evaluator.name) == JUDGE and gate and not log.task.checks and log.task.components:
            kc = latest(log, KEY_COMPONENTS)
            if kc is not None and kc.success is False:
                outcome.skipped.append(f"{evaluator.name}: key components not visible")
                continue
        verdict = run_evaluator(evaluator, log, episode_dir)
        if _reads_ocr(evaluator) and verdict.success and not log.task.checks:
            try:
                add_first_complete(verdict, log, episode_dir, evaluator)  # type: ignore[arg-type]
            except Exception:  # the verdict stands; overdue then falls back to the step-limit rule
                pass
        log.verdicts.append(verdict)
        outcome.added.append(verdict)
    return outcome


def make_evaluators(names: Iterable[str],
                    options: dict[str, dict[str, Any]] | None = None) -> list[Evaluator]:
    """Evaluators by registry name, each built with its keyword options (e.g. {"judge": {"model": cfg}})."""
    options = options or {}
    return [EVALUATORS.get(name)(**options.get(name, {})) for name in names]


def close_evaluators(evaluators: Iterable[Evaluator]) -> None:
    for evaluator in evaluators:
        close = getattr(evaluator, "close", None)
        if callable(close):
            close()


@dataclass
class Reevaluation:
    """What a re-evaluation did: every log of the run (updated), and counts."""

    logs: list[EpisodeLog]
    evaluated: int = 0
    verdicts: int = 0
    errors: int = 0
    skipped: dict[str, str] = field(default_factory=dict)  # episode id -> why it was not evaluated


def reevaluate_run(run_dir: Path, evaluators: Sequence[Evaluator], *, workers: int = 4, gate: bool = True,
                   select: Callable[[EpisodeLog], bool] | None = None,
                   progress: Callable[[EpisodeEvaluation], None] | None = None) -> Reevaluation:
    """Evaluate every finished episode of a run folder again, without running any agent, and rewrite
    each log with the new verdicts appended. Episodes are evaluated `workers` at a time (judge calls
    wait on the network; OCR takes its own lock)."""
    layout = RunLayout(run_dir)
    layout.read_manifest()  # a clear error when this is not a run folder
    logs = list(layout.episodes())
    if not logs:
        raise ResultsError(f"{run_dir}: the run has no episode logs")
    result = Reevaluation(logs=logs)
    todo = []
    for log in logs:
        if not evaluable(log):
            result.skipped[log.episode_id] = f"not scored ({log.status}, {log.termination})"
        elif select is not None and not select(log):
            result.skipped[log.episode_id] = "not selected"
        else:
            todo.append(log)
    _open_caches(evaluators, layout, todo)
    lock = threading.Lock()

    def one(log: EpisodeLog) -> None:
        outcome = evaluate_episode(log, layout.episode_dir(log.episode_id), evaluators, gate=gate)
        layout.write_episode(log)
        with lock:
            result.evaluated += 1
            result.verdicts += len(outcome.added)
            result.errors += sum(1 for v in outcome.added if v.error is not None)
        if progress is not None:
            progress(outcome)

    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="evaluate") as pool:
        for future in [pool.submit(one, log) for log in todo]:
            future.result()
    return result


def _open_caches(evaluators: Sequence[Evaluator], layout: RunLayout, logs: list[EpisodeLog]) -> None:
    """Open the key-component evaluators' OCR caches before the threads start (they open lazily)."""
    if logs:
        for evaluator in evaluators:
            if _reads_ocr(evaluator):
                evaluator._cache_for(layout.episode_dir(logs[0].episode_id))  # type: ignore[attr-defined]


class RunEvaluators:
    """The evaluators a run applies after each episode of a task without state checks: key components,
    and the judge when a judge model is configured. Built on first need (the OCR engine and the model
    client are not made for runs whose tasks all have checks), shared by every episode thread."""

    def __init__(self, judge: dict[str, Any] | None = None) -> None:
        self.judge = judge
        model = (judge or {}).get("model")
        if model is not None and not isinstance(model, str) and model.needs_key() \
                and not (model.api_key_env and os.environ.get(model.api_key_env)):
            # fail before any phone starts, not in the first episode without checks
            raise ConfigError(f"the judge ({model.label}) needs an API key: set the environment variable "
                              f"{model.api_key_env or 'named by api_key_env'}")
        self._lock = threading.Lock()
        self._evaluators: list[Evaluator] | None = None

    def get(self) -> list[Evaluator]:
        with self._lock:
            if self._evaluators is None:
                names = ["key_components"] + (["judge"] if self.judge is not None else [])
                self._evaluators = make_evaluators(names, {"judge": self.judge or {}})
            return self._evaluators

    def after_episode(self, log: EpisodeLog, episode_dir: Path) -> bool:
        """Evaluate one finished episode if its task has no checks; True when verdicts were added."""
        if log.task.checks or not evaluable(log):
            return False
        try:
            return bool(evaluate_episode(log, episode_dir, self.get()).added)
        except Exception as exc:  # e.g. the OCR engine cannot load: the episode stands, unscored
            log.verdicts.append(Verdict(evaluator="key_components", success=None, created_at=now(),
                                        error=ErrorInfo(kind="evaluator", type=type(exc).__name__,
                                                        message=str(exc))))
            return True

    def close(self) -> None:
        with self._lock:
            if self._evaluators is not None:
                close_evaluators(self._evaluators)
                self._evaluators = None
