"""What an evaluator is, and the registry that names them.

An evaluator reads a finished episode - its log and the files beside it (screenshots) - and returns one
`Verdict`. It raises when the episode cannot be evaluated (e.g. a screenshot the log names is missing);
the pipeline that calls it records that as a verdict with `success=None` and the error.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from spa_bench.registry import Registry
from spa_bench.results.schema import EpisodeLog, Verdict


class Evaluator(Protocol):
    """Turns one episode into a verdict. `name` is the verdict's `evaluator` field (name:variant)."""

    name: str

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        ...


EvaluatorFactory = Callable[..., Evaluator]
"""Called with no arguments for the defaults; evaluators that need settings (the judge's model) take
them as keyword arguments."""

EVALUATORS: Registry[EvaluatorFactory] = Registry("evaluator", entry_point_group="spa_bench.evaluators")
EVALUATORS.add_lazy("key_components", "spa_bench.evaluators.key_components:KeyComponentsEvaluator")
EVALUATORS.add_lazy("judge", "spa_bench.evaluators.judge:JudgeEvaluator")


def now() -> datetime:
    """Verdict timestamps are timezone-aware UTC."""
    return datetime.now(UTC)


def family(evaluator: str) -> str:
    """The evaluator's name without its variant: 'judge:gpt-4o' -> 'judge'."""
    return evaluator.split(":", 1)[0]
