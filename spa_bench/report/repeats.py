"""Repeats, honestly reported (`spa-bench run --repeats k`): per agent pass@k (some of a task's k
instances succeeded) and pass^k (all k did), each with its 95% Wilson interval over tasks; the spread
of per-task success counts; and the tasks whose outcome flips between repeats.

Only tasks every one of whose k instances was decided count (an undecided instance - an infrastructure
failure, an evaluator error - would make pass@k and pass^k guesses); how many were left out is said.
pass@1 is the plain success rate over those tasks' instances. Intervals are over tasks, the unit that
varies: k repeats of the same tasks narrow pass@1's interval much less than k times as many tasks would
(`repeats_for_width` says how many repeats an interval width needs at best).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from spa_bench.evaluation.metrics import wilson_interval
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.schema import EpisodeLog

Z95 = 1.959964


@dataclass(frozen=True)
class RepeatRate:
    tasks: int  # tasks counted (all k instances decided)
    passed: int  # tasks that meet the rate's condition

    @property
    def rate(self) -> float:
        return self.passed / self.tasks if self.tasks else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.passed, self.tasks)

    def text(self) -> str:
        if not self.tasks:
            return "n/a"
        low, high = self.interval
        return f"{100 * self.rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


@dataclass(frozen=True)
class AgentRepeats:
    agent: str
    k: int
    pass_at_k: RepeatRate
    pass_hat_k: RepeatRate
    pass_at_1: RepeatRate  # over the counted tasks' instances (episodes), not over tasks
    spread: dict[int, int]  # successes out of k -> how many tasks
    flips: list[str]  # tasks with some but not all instances successful
    left_out: int  # tasks with an undecided instance
    reference: bool = False


@dataclass
class RepeatsView:
    k: int
    agents: list[AgentRepeats] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """One episode as the repeats view needs it."""

    agent: str
    task: str
    repeat: int
    success: bool | None
    reference: bool = False


def outcomes_of(logs: Iterable[EpisodeLog]) -> list[Outcome]:
    return [Outcome(log.agent.name, log.task.id, log.instance.repeat, decide_success(log).success,
                    log.agent.reference) for log in logs if log.task is not None]


def repeats_view(outcomes: Iterable[Outcome]) -> RepeatsView | None:
    """The view of episodes with repeats (some task has instances r0..r{k-1}, k > 1), None without."""
    table: dict[str, dict[str, dict[int, bool | None]]] = {}
    reference: set[str] = set()
    for outcome in outcomes:
        table.setdefault(outcome.agent, {}).setdefault(outcome.task, {})[outcome.repeat] = outcome.success
        if outcome.reference:
            reference.add(outcome.agent)
    k = max((len(r) for tasks in table.values() for r in tasks.values()), default=0)
    if k < 2:
        return None
    view = RepeatsView(k)
    for agent, tasks in sorted(table.items()):
        if all(len(r) < 2 for r in tasks.values()):
            continue  # an agent of a run without repeats, reported beside one with them
        counted = {task: r for task, r in tasks.items()
                   if len(r) == k and all(v is not None for v in r.values())}
        wins = {task: sum(1 for v in r.values() if v) for task, r in counted.items()}
        view.agents.append(AgentRepeats(
            agent=agent, k=k,
            pass_at_k=RepeatRate(len(wins), sum(1 for c in wins.values() if c > 0)),
            pass_hat_k=RepeatRate(len(wins), sum(1 for c in wins.values() if c == k)),
            pass_at_1=RepeatRate(k * len(wins), sum(wins.values())),
            spread=dict(sorted(Counter(wins.values()).items())),
            flips=sorted(task for task, c in wins.items() if 0 < c < k),
            left_out=len(tasks) - len(counted), reference=agent in reference))
    return view


def _rate_json(rate: RepeatRate) -> dict[str, Any]:
    low, high = rate.interval
    return {"passed": rate.passed, "of": rate.tasks, "rate": None if not rate.tasks else rate.rate,
            "low": None if not rate.tasks else low, "high": None if not rate.tasks else high}


def view_json(view: RepeatsView) -> dict[str, Any]:
    """What the page draws (spa_bench/report/assets/views.js)."""
    return {"k": view.k, "agents": [
        {"agent": a.agent, "reference": a.reference, "pass_at_1": _rate_json(a.pass_at_1),
         "pass_at_k": _rate_json(a.pass_at_k), "pass_hat_k": _rate_json(a.pass_hat_k),
         "spread": {str(c): n for c, n in a.spread.items()}, "flips": a.flips, "left_out": a.left_out}
        for a in view.agents]}


def interval_width(p: float, episodes: int) -> float:
    """Width of the normal-approximation 95% interval of a rate p over independent episodes."""
    return 2 * Z95 * math.sqrt(p * (1 - p) / episodes) if episodes else math.inf


def repeats_for_width(tasks: int, width: float, p: float = 0.5) -> int:
    """The fewest repeats of `tasks` tasks whose pass@1 interval is at most `width` wide, were every
    episode independent (p = 0.5 is the widest case). A lower bound: repeats of one task are
    correlated, and past the point where tasks, not instances, vary, more repeats buy little."""
    needed = (2 * Z95) ** 2 * p * (1 - p) / (width * width)
    return max(1, math.ceil(needed / tasks))
