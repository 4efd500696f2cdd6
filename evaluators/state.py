"""The state evaluator (`state`): the task's success checks, scored from the device state the episode
captured (spa_bench.evaluation.capture). Its role is ground truth: where a task has checks, its verdict
alone decides success (spa_bench.evaluation.policy).

It needs no device: right after an episode, and in `spa-bench evaluate` long after, it replays the
captured reads. The checks it scores are the task's current definitions when the run context names a
tasks folder (the run's own, by default) and the task is still there - instantiated with the run's
seed, as the run did - else the checks recorded in the log. A check whose definition differs from the
one captured is not scored from the old reads: the verdict is undecided and says to rerun the episode.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from spa_bench.device.packages import PackageMap
from spa_bench.errors import SpaBenchError
from spa_bench.evaluation.base import RunContext, now
from spa_bench.evaluation.state_checks import STATE_EVALUATOR, score_captured
from spa_bench.results.schema import EpisodeLog, ErrorInfo, Evidence, Role, Verdict
from spa_bench.tasks.checks import Check
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import TaskRecord, TaskRepository


@dataclass
class StateEvaluator:
    """Scores `task.checks` from `log.captured_state`."""

    name: str = STATE_EVALUATOR
    role: Role = "ground_truth"
    _context: RunContext | None = field(default=None, init=False, repr=False)
    _index: dict[str, TaskRecord] | None = field(default=None, init=False, repr=False)
    _tasks: dict[str, Task | str] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def applies(self, log: EpisodeLog) -> bool:
        """A task with checks whose episode captured the state (a log written before captures keeps the
        state verdict it has: there is nothing to score it again from)."""
        return bool(log.full_task.checks) and bool(log.captured_state)

    def open(self, context: RunContext) -> None:
        with self._lock:
            self._context, self._index, self._tasks = context, None, {}

    def close(self) -> None:
        with self._lock:
            self._index, self._tasks = None, {}

    def _current(self, task_id: str) -> Task | str | None:
        """The task as its folder defines it now, or why the log's own copy is used instead (None: no
        folder was given, the log's copy is what was asked for)."""
        root = self._context.tasks_root if self._context else None
        if root is None:
            return None
        with self._lock:
            if task_id in self._tasks:
                return self._tasks[task_id]
            found: Task | str
            try:
                if self._index is None:
                    self._index = {r.id: r for r in TaskRepository(Path(root)).index()}
                record = self._index.get(task_id)
                found = TaskRepository(Path(root)).load([record])[0] if record else \
                    f"task {task_id!r} is no longer in {root}"
            except SpaBenchError as exc:  # a missing folder, an invalid task file
                found = f"the tasks under {root} cannot be read: {exc}"
            self._tasks[task_id] = found
            return found

    def checks_for(self, log: EpisodeLog) -> tuple[list[Check], str | None]:
        """The checks to score and, when they are the log's own copy, why."""
        current = self._current(log.full_task.id)
        if current is None or isinstance(current, str):
            return list(log.full_task.checks), current
        seed = self._context.seed if self._context else 0
        filled, _, _ = current.instantiate(seed, log.instance.repeat)
        return list(filled.checks), None

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        checks, fallback = self.checks_for(log)
        if not checks:
            return Verdict(evaluator=self.name, role=self.role, success=None, created_at=now(),
                           error=ErrorInfo(kind="evaluator", type="NoChecks",
                                           message=f"task {log.full_task.id!r} has no success checks"))
        if not log.captured_state:
            return Verdict(evaluator=self.name, role=self.role, success=None, created_at=now(),
                           error=ErrorInfo(kind="evaluator", type="NeedsRerun",
                                           message="the episode captured no device state for its checks "
                                                   "(a log from before captures, or an episode that "
                                                   "ended early): rerun the episode"))
        verdict = score_captured(checks, log.captured_state, log.answer, self.name, status=log.termination,
                                 packages=PackageMap(log.package_map), dialogue=log.dialogue,
                                 question=log.full_task.instruction)
        if fallback is not None:
            note = f"scored with the checks recorded in the log: {fallback}"
            verdict.evidence.append(Evidence(summary=note, details={"definitions": "log"}))
        return verdict
