"""Running evaluators on finished episodes: after each episode of a run, or over a whole run folder again.

Verdicts are appended to the episode log with the evaluator's identity ("state", "key_components:rapidocr",
"judge:gpt-4o@api.openai.com") and role; nothing already there is changed, so a re-evaluation with
another judge sits beside the old verdicts and the policy reads the latest of each family (inspect_ai's
score action "append"). Every evaluator is handled alike, by its role: ground truth first, then gates,
informational ones, judges. Where ground truth decides (a task with success checks) the screen-based
evaluators (gates and judges) are not run - their verdicts could not change the outcome, and OCR and
judge calls cost - unless `calibrate` asks for them, to compare them with the ground truth;
informational evaluators run wherever they apply. On other tasks SPA-Bench's
coarse-to-fine gating holds: a judge is not called once a gate failed the episode.

An evaluator that raises is recorded as a verdict with success None and the error (kind "evaluator").
Every verdict records its evaluator's spec (registry name and the arguments that change verdicts, secrets
removed: `spec_args()` where the evaluator has it), so `evaluators_from_logs` can build them again. The
new verdicts reach the log on disk through the episode recorder (`add_verdicts`), the log's one writer.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spa_bench.errors import ConfigError, ResultsError
from spa_bench.evaluation.base import EVALUATORS, Evaluator, RunContext, family, now, role_of
from spa_bench.evaluation.policy import INFRASTRUCTURE, current_verdicts
from spa_bench.results.layout import RunLayout
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import EpisodeLog, ErrorInfo, EvaluatorSpec, Role, Verdict
from spa_bench.secrets import REDACTED, redact_mapping

ROLE_ORDER: dict[Role, int] = {"ground_truth": 0, "gate": 1, "informational": 2, "judge": 3}
SPEC_NAME = "spec_name"  # the attribute make_evaluators sets: the registry name an evaluator was built under


def run_evaluator(evaluator: Evaluator, log: EpisodeLog, episode_dir: Path) -> Verdict:
    """One verdict, with the evaluator's role; an exception becomes an evaluator-error verdict instead
    of stopping the run."""
    try:
        verdict = evaluator.evaluate(log, episode_dir)
    except Exception as exc:
        verdict = Verdict(evaluator=evaluator.name, success=None, created_at=now(),
                          error=ErrorInfo(kind="evaluator", type=type(exc).__name__, message=str(exc),
                                          traceback=traceback.format_exc()))
    if verdict.role is None:
        verdict.role = evaluator.role
    if verdict.spec is None:
        verdict.spec = evaluator_spec(evaluator)
    return verdict


def evaluator_spec(evaluator: Evaluator) -> EvaluatorSpec:
    """How to build `evaluator` again: the name it was made under (make_evaluators) or its family, and
    what its optional `spec_args()` returns (JSON values), secret-named arguments redacted."""
    name = getattr(evaluator, SPEC_NAME, None) or family(evaluator.name)
    describe = getattr(evaluator, "spec_args", None)
    args = describe() if callable(describe) else {}
    return EvaluatorSpec(name=str(name), args=redact_mapping(dict(args)))


def build_evaluator(spec: EvaluatorSpec) -> Evaluator:
    """An evaluator from its spec: the factory's `from_spec(args)` when it has one, else factory(**args)."""
    if any(REDACTED in json.dumps(value, default=str) for value in spec.args.values()):
        raise ConfigError(f"evaluator {spec.name}: its logged spec has redacted arguments; name it with "
                          f"its options instead")
    factory = EVALUATORS.get(spec.name)
    from_spec = getattr(factory, "from_spec", None)
    evaluator: Evaluator = from_spec(dict(spec.args)) if callable(from_spec) else factory(**spec.args)
    _name(evaluator, spec.name)
    return evaluator


def logged_specs(logs: Iterable[EpisodeLog]) -> list[EvaluatorSpec]:
    """The spec of the latest verdict of each evaluator family over the logs (ground truth first)."""
    latest: dict[str, Verdict] = {}
    for log in logs:
        for verdict in log.verdicts:
            if verdict.spec is None:
                continue
            kept = latest.get(family(verdict.evaluator))
            if kept is None or verdict.created_at >= kept.created_at:
                latest[family(verdict.evaluator)] = verdict
    ordered = sorted(latest.values(), key=lambda v: ROLE_ORDER.get(role_of(v), len(ROLE_ORDER)))
    return [v.spec for v in ordered if v.spec is not None]


def _name(evaluator: Evaluator, name: str) -> None:
    """Remember the registry name an evaluator was built under, for its spec (best effort: a plug-in
    object that takes no attributes gets its family name instead)."""
    with contextlib.suppress(AttributeError, TypeError):
        setattr(evaluator, SPEC_NAME, name)


def evaluable(log: EpisodeLog) -> bool:
    """Finished episodes that did not end in an infrastructure failure (those are never scored)."""
    return log.status == "finished" and log.termination not in INFRASTRUCTURE


def ground_truth_decides(log: EpisodeLog) -> bool:
    """The policy decides this episode by ground truth alone (see policy.decide_success)."""
    return bool(log.full_task.checks) or bool(current_verdicts(log, "ground_truth"))


@dataclass
class EpisodeEvaluation:
    episode_id: str
    added: list[Verdict] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # evaluator names not run, with the reason


def evaluate_episode(log: EpisodeLog, episode_dir: Path, evaluators: Sequence[Evaluator], *,
                     gate: bool = True, calibrate: bool = False) -> EpisodeEvaluation:
    """Run the evaluators that have something to decide on one episode (ground truth first) and append
    their verdicts to the log. `calibrate` runs the screen-based ones where ground truth decides too."""
    outcome = EpisodeEvaluation(log.episode_id)
    for evaluator in sorted(evaluators, key=lambda e: ROLE_ORDER.get(e.role, len(ROLE_ORDER))):
        if not evaluator.applies(log):
            outcome.skipped.append(f"{evaluator.name}: does not apply to this episode")
            continue
        if evaluator.role in ("gate", "judge") and ground_truth_decides(log) and not calibrate:
            outcome.skipped.append(f"{evaluator.name}: decided by the ground truth")
            continue
        failed = [family(v.evaluator) for v in current_verdicts(log, "gate") if v.success is False]
        if evaluator.role == "judge" and gate and failed and not ground_truth_decides(log):
            outcome.skipped.append(f"{evaluator.name}: {'+'.join(failed)} failed the episode")
            continue
        verdict = run_evaluator(evaluator, log, episode_dir)
        log.verdicts.append(verdict)
        outcome.added.append(verdict)
    return outcome


def make_evaluators(names: Iterable[str],
                    options: dict[str, dict[str, Any]] | None = None) -> list[Evaluator]:
    """Evaluators by registry name, each built with its keyword options (e.g. {"judge": {"model": cfg}})."""
    options = options or {}
    evaluators = []
    for name in names:
        evaluator = EVALUATORS.get(name)(**options.get(name, {}))
        _name(evaluator, name)
        evaluators.append(evaluator)
    return evaluators


def open_evaluators(evaluators: Iterable[Evaluator], context: RunContext) -> None:
    for evaluator in evaluators:
        evaluator.open(context)


def close_evaluators(evaluators: Iterable[Evaluator]) -> None:
    for evaluator in evaluators:
        evaluator.close()


@dataclass
class Reevaluation:
    """What a re-evaluation did: every log of the run (updated), and counts."""

    logs: list[EpisodeLog]
    evaluated: int = 0
    verdicts: int = 0
    errors: int = 0
    skipped: dict[str, str] = field(default_factory=dict)  # episode id -> why it was not evaluated


def reevaluate_run(run_dir: Path, evaluators: Sequence[Evaluator], *, workers: int = 4, gate: bool = True,
                   calibrate: bool = False, tasks_root: Path | None = None,
                   select: Callable[[EpisodeLog], bool] | None = None,
                   progress: Callable[[EpisodeEvaluation], None] | None = None) -> Reevaluation:
    """Evaluate every finished episode of a run folder again, without running any agent or device, and
    rewrite each log that got new verdicts. Episodes are evaluated `workers` at a time (judge calls wait
    on the network; OCR takes its own lock). The evaluators are opened on the run (and left open: the
    caller closes them). `tasks_root`: where the state checks' current definitions are (default: the
    folder the run's manifest names, when it still exists)."""
    layout = RunLayout(run_dir)
    manifest = layout.read_manifest()  # a clear error when this is not a run folder
    if tasks_root is None and Path(manifest.tasks_root).is_dir():
        tasks_root = Path(manifest.tasks_root)
    logs = list(layout.episodes())
    if not logs:
        raise ResultsError(f"{run_dir}: the run has no episode logs")
    result = Reevaluation(logs=[log for log in logs if log.task is not None])  # not those still running
    todo = []
    for log in logs:
        if log.task is None or not evaluable(log):
            result.skipped[log.episode_id] = f"not scored ({log.status}, {log.termination})"
        elif select is not None and not select(log):
            result.skipped[log.episode_id] = "not selected"
        else:
            todo.append(log)
    open_evaluators(evaluators, RunContext(layout.root, tasks_root, manifest.seed))
    lock = threading.Lock()
    position = {log.episode_id: i for i, log in enumerate(result.logs)}

    def one(log: EpisodeLog) -> None:
        outcome = evaluate_episode(log, layout.episode_dir(log.episode_id), evaluators, gate=gate,
                                   calibrate=calibrate)
        if outcome.added:  # through the log's one writer: verdicts another process added stay
            written = EpisodeRecorder(layout, log.episode_id).add_verdicts(outcome.added, evaluated=log)
            with lock:
                result.logs[position[log.episode_id]] = written
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


class RunEvaluators:
    """The evaluators a run applies after each episode: the state checks (ground truth, from the
    captured state) always; with `screen`, key components and - when a judge model is configured - the
    judge, which only run where no ground truth decides. Built and opened on first need (the OCR
    engine and the model client are not made for runs that never need them), shared by every episode
    thread."""

    def __init__(self, run_dir: Path, judge: dict[str, Any] | None = None, screen: bool = True) -> None:
        self.run_dir, self.judge, self.screen = run_dir, judge, screen
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
                names = ["state"]
                if self.screen:
                    names += ["key_components"] + (["judge"] if self.judge is not None else [])
                evaluators = make_evaluators(names, {"judge": self.judge or {}})
                # the log's own checks: they are exactly what the episode captured
                open_evaluators(evaluators, RunContext(self.run_dir))
                self._evaluators = evaluators
            return self._evaluators

    def after_episode(self, log: EpisodeLog, episode_dir: Path) -> bool:
        """Evaluate one finished episode; True when verdicts were added."""
        if not evaluable(log):
            return False
        try:
            return bool(evaluate_episode(log, episode_dir, self.get()).added)
        except Exception as exc:  # e.g. an evaluator cannot be built: the episode stands, unscored
            log.verdicts.append(Verdict(evaluator="evaluation", role="informational", success=None,
                                        created_at=now(), error=ErrorInfo(kind="evaluator",
                                                                          type=type(exc).__name__,
                                                                          message=str(exc))))
            return True

    def close(self) -> None:
        with self._lock:
            if self._evaluators is not None:
                close_evaluators(self._evaluators)
                self._evaluators = None
