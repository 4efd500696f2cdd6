"""When was the task first complete? The evidence behind overdue termination on tasks without checks.

Overdue termination means the agent finished the task but did not stop. On tasks with state checks we
only know the state at the end, so an episode is overdue when it succeeded and ran into its step limit.
Without checks, the screenshots tell more: the first screenshot (from the first step on) that shows
every key component is where the task became complete. The rule, used by the metrics:

    overdue = success and (termination == "max_steps"
                           or (no state checks, termination == "done" and k < the finish step))

where k is the step of that first screenshot: the agent acted again after the screen already showed
the task done, instead of finishing at step k. A match only on final.png (after the last action) is
never overdue. Key components are necessary, not sufficient signs of completion (a setting's name is on
screen before it is switched), so on such tasks this rule flags too much; the first-complete step is
recorded as evidence so that a reader can check it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Literal

from spa_bench.evaluation.annotate import trajectory
from spa_bench.results.schema import EpisodeLog, Evidence, Verdict

FIRST_COMPLETE = "first_complete_step"

TextOf = Callable[[Path], str]
"""The OCR text of a screenshot file (the key-component evaluator's, through the run's OCR cache)."""


def _normalise(text: str) -> str:
    """As key-component matching does: no whitespace at all, case-folded."""
    return "".join(text.split()).casefold()


def first_complete(log: EpisodeLog, episode_dir: Path, text_of: TextOf) -> int | Literal["final"] | None:
    """The first screenshot, in the order they were taken, that shows every key component (a step
    index, or "final"); None when none does or the task has no components. `text_of` reads through
    the evaluator's OCR cache, so after its own search this costs at most the screenshots it did not
    read."""
    wanted = [_normalise(c) for c in log.full_task.components]
    if not wanted:
        return None
    for frame in trajectory(log, episode_dir):
        flat = _normalise(text_of(frame.path))
        if all(c in flat for c in wanted):
            return frame.step
    return None


def add_first_complete(verdict: Verdict, log: EpisodeLog, episode_dir: Path, text_of: TextOf) -> None:
    """Attach the first-complete step to a passing key-component verdict (in place)."""
    if not verdict.success or not log.full_task.components:
        return
    label = first_complete(log, episode_dir, text_of)
    if label is None:
        return
    where = "the final screenshot" if label == "final" else f"the screenshot before step {label}"
    verdict.evidence.append(Evidence(summary=f"key components first visible in {where}",
                                     screenshot_index=label if isinstance(label, int) else None,
                                     details={FIRST_COMPLETE: label}))


def first_complete_step(verdicts: Iterable[Verdict | None]) -> int | str | None:
    """The first-complete step recorded in any of these verdicts' evidence, if any."""
    for verdict in verdicts:
        for evidence in verdict.evidence if verdict is not None else ():
            if FIRST_COMPLETE in evidence.details:
                value = evidence.details[FIRST_COMPLETE]
                return value if isinstance(value, int | str) else None
    return None


def is_overdue(log: EpisodeLog, success: bool | None, verdicts: Iterable[Verdict | None]) -> bool | None:
    """The overdue rule of the module docstring; None when success is undecided."""
    if success is None:
        return None
    if not success:
        return False
    if log.termination == "max_steps":
        return True
    if log.full_task.checks or log.termination != "done" or not log.steps:
        return False
    k = first_complete_step(verdicts)
    return isinstance(k, int) and k < log.steps[-1].index
