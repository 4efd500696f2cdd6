"""What an evaluator is, and the registry that names them.

Every evaluator is the same kind of thing (as inspect_ai's scorers are): it reads a finished episode -
its log, the device state captured in it, the files beside it (screenshots) - and returns one `Verdict`.
None is special-cased by name anywhere: what its verdicts count for is its declared `role` (the success
policy reads roles, spa_bench.evaluation.policy), and whether it has anything to say about a task is its
own `applies(log)`. Around a run's evaluations it is opened with a `RunContext` (e.g. the OCR cache of
the run folder, the current task definitions) and closed after.

`evaluate` raises when the episode cannot be evaluated (e.g. a screenshot the log names is missing);
the pipeline records that as a verdict with `success=None` and the error.

Evaluators come from the registry `EVALUATORS`: the built-ins below, `@EVALUATORS.register("name")`,
the entry-point group `spa_bench.evaluators` of installed packages, or `path/to/file.py:Class`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol, get_args

from spa_bench.registry import Registry
from spa_bench.results.schema import EpisodeLog, Role, Verdict

ROLES: tuple[Role, ...] = get_args(Role)


@dataclass(frozen=True)
class RunContext:
    """Where the episodes to evaluate live. `tasks_root` holds the task definitions the state checks
    are scored with (None: the definitions recorded in each log)."""

    run_dir: Path
    tasks_root: Path | None = None
    seed: int = 0


class Evaluator(Protocol):
    """Turns one episode into a verdict. `name` is the verdict's `evaluator` field (name:variant)."""

    name: str
    role: Role

    def applies(self, log: EpisodeLog) -> bool:
        """Whether this evaluator has anything to say about this episode (e.g. state checks: a task with
        checks whose state was captured)."""
        ...

    def open(self, context: RunContext) -> None:
        """Before the first episode of a run (caches, connections); may be called again for another run."""
        ...

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        ...

    def close(self) -> None:
        ...


class BaseEvaluator:
    """Defaults for the optional parts of the protocol: applies to every task, nothing to open or close."""

    name: str = "evaluator"
    role: Role = "informational"

    def applies(self, log: EpisodeLog) -> bool:
        return True

    def open(self, context: RunContext) -> None:
        return None

    def close(self) -> None:
        return None


EvaluatorFactory = Callable[..., Evaluator]
"""Called with no arguments for the defaults; evaluators that need settings (the judge's model) take
them as keyword arguments."""

EVALUATORS: Registry[EvaluatorFactory] = Registry("evaluator", entry_point_group="spa_bench.evaluators")
EVALUATORS.add_lazy("state", "spa_bench.evaluators.state:StateEvaluator")
EVALUATORS.add_lazy("key_components", "spa_bench.evaluators.key_components:KeyComponentsEvaluator")
EVALUATORS.add_lazy("judge", "spa_bench.evaluators.judge:JudgeEvaluator")


def now() -> datetime:
    """Verdict timestamps are timezone-aware UTC."""
    return datetime.now(UTC)


def family(evaluator: str) -> str:
    """The evaluator's name without its variant: 'judge:gpt-4o' -> 'judge'."""
    return evaluator.split(":", 1)[0]


_declared: dict[str, Role] = {}


def role_of(verdict: Verdict) -> Role:
    """A verdict's role: as recorded, else (logs written before roles were recorded) the role that the
    registered evaluator of its family declares; an unknown evaluator counts for nothing."""
    if verdict.role is not None:
        return verdict.role
    name = family(verdict.evaluator)
    if name in _declared:
        return _declared[name]
    if name not in EVALUATORS:  # not cached: a plug-in installed later is found then
        return "informational"
    declared = getattr(EVALUATORS.get(name), "role", None)
    role: Role = declared if declared in ROLES else "informational"
    _declared[name] = role
    return role
