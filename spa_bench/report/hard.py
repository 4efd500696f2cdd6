"""The report's "hard" view: success per kind of hard task, asking behaviour and interruptions.

A hard task says what it is by its tags (`tags: [hard, <category>]`, tasks/README.md); a task can carry
several, and then counts once under each, as a cross-app episode counts under each of its apps in the
metrics' app breakdown; a task with none is "other". Success is the report's own per-episode verdict
(metrics.episode_row with the verdict policy) over decided episodes, with the same Wilson interval as the
leaderboard, so these figures add up with it. The view exists only when some episode is a hard one: a
report of ordinary runs shows nothing new.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from spa_bench.evaluation.metrics import wilson_interval
from spa_bench.results.schema import EpisodeLog
from spa_bench.tasks.model import HARD_CATEGORIES

CATEGORIES = HARD_CATEGORIES
OTHER = "other"
ASK_CATEGORIES = frozenset({"ask_user", "infeasible_ask"})
ALL_KINDS = "any"


@dataclass(frozen=True)
class EpisodeFacts:
    """What the hard and robust views need from a log beyond its metrics row (built in the worker that
    reads the log, so the views need not read it again)."""

    categories: tuple[str, ...]
    ask_task: bool  # a task where asking is expected: tagged ask_user / infeasible_ask, or with a `user`
    questions: int
    fired: tuple[str, ...]  # kinds of the task's interruptions that fired, in order
    variation: dict[str, Any] | None  # DeviceVariation as JSON; None: the default device


def episode_facts(log: EpisodeLog) -> EpisodeFacts:
    task = log.full_task
    tags = set(task.tags)
    categories = tuple(c for c in CATEGORIES if c in tags) or (OTHER,)
    listed = task.interruptions
    kinds = tuple(listed[i].kind for i in log.interruptions_fired if 0 <= i < len(listed))
    return EpisodeFacts(categories=categories,
                        ask_task=bool(ASK_CATEGORIES & tags) or task.user is not None,
                        questions=len(log.dialogue), fired=kinds,
                        variation=None if log.variation is None else log.variation.model_dump(mode="json"))


@dataclass(frozen=True)
class Outcome:
    """One episode as the views count it: its agent, the policy's verdict and its facts."""

    agent: str
    success: bool | None  # None: undecided (infrastructure failure, no verdict)
    infrastructure: bool
    facts: EpisodeFacts


@dataclass(frozen=True)
class Rate:
    """A success rate over decided episodes, with its 95% Wilson interval (NaN when nothing decided)."""

    episodes: int
    decided: int
    successes: int
    rate: float
    low: float
    high: float

    @classmethod
    def of(cls, outcomes: Iterable[Outcome]) -> Rate:
        items = list(outcomes)
        decided = [o.success for o in items if o.success is not None]
        k, n = sum(1 for s in decided if s), len(decided)
        low, high = wilson_interval(k, n)
        return cls(episodes=len(items), decided=n, successes=k, rate=k / n if n else math.nan,
                   low=low, high=high)

    def as_json(self) -> dict[str, Any]:
        """Rates rounded to 6 places (4 decimals of a percentage: plenty for a page, and short)."""
        return {k: (None if math.isnan(v) else round(v, 6)) if isinstance(v, float) else v
                for k, v in asdict(self).items()}


@dataclass(frozen=True)
class AskRow:
    """How often an agent asked: where asking is expected, and where it was not needed."""

    agent: str
    ask_episodes: int
    asked: int  # ask-task episodes with at least one question
    questions: int  # all questions on ask tasks
    other_episodes: int
    needless: int  # other episodes with at least one question

    @property
    def asked_share(self) -> float:
        return self.asked / self.ask_episodes if self.ask_episodes else math.nan

    @property
    def mean_questions(self) -> float:
        return self.questions / self.ask_episodes if self.ask_episodes else math.nan

    @property
    def needless_share(self) -> float:
        return self.needless / self.other_episodes if self.other_episodes else math.nan


@dataclass(frozen=True)
class HardView:
    categories: list[tuple[str, str, Rate]]  # (agent, category, rate)
    ask: list[AskRow]  # empty when no episode was an ask task or asked
    interruptions: list[tuple[str, str, Rate]]  # (agent, kind or ALL_KINDS, rate); empty when none fired

    def as_json(self) -> dict[str, Any]:
        def nan_free(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {
            "categories": [{"agent": a, "category": c, **r.as_json()} for a, c, r in self.categories],
            "ask": [{**asdict(row), "asked_share": nan_free(row.asked_share),
                     "mean_questions": nan_free(row.mean_questions),
                     "needless_share": nan_free(row.needless_share)} for row in self.ask],
            "interruptions": [{"agent": a, "kind": k, **r.as_json()} for a, k, r in self.interruptions],
        }


def _by_agent(outcomes: Sequence[Outcome]) -> dict[str, list[Outcome]]:
    groups: dict[str, list[Outcome]] = {}
    for o in sorted(outcomes, key=lambda o: o.agent):
        groups.setdefault(o.agent, []).append(o)
    return groups


def _ask_row(agent: str, outcomes: list[Outcome]) -> AskRow:
    """Episodes ended by an infrastructure failure are left out: the agent may never have had the chance."""
    played = [o for o in outcomes if not o.infrastructure]
    ask = [o for o in played if o.facts.ask_task]
    other = [o for o in played if not o.facts.ask_task]
    return AskRow(agent=agent, ask_episodes=len(ask), asked=sum(1 for o in ask if o.facts.questions),
                  questions=sum(o.facts.questions for o in ask), other_episodes=len(other),
                  needless=sum(1 for o in other if o.facts.questions))


def hard_view(outcomes: Sequence[Outcome]) -> HardView | None:
    """The view, or None when no episode is a hard task, asked or was interrupted."""
    hard = any(o.facts.categories != (OTHER,) or o.facts.questions or o.facts.fired or o.facts.ask_task
               for o in outcomes)
    if not hard:
        return None
    categories, ask, interruptions = [], [], []
    asking = any(o.facts.ask_task or o.facts.questions for o in outcomes)
    for agent, group in _by_agent(outcomes).items():
        for category in (*CATEGORIES, OTHER):
            members = [o for o in group if category in o.facts.categories]
            if members:
                categories.append((agent, category, Rate.of(members)))
        if asking:
            ask.append(_ask_row(agent, group))
        fired = [o for o in group if o.facts.fired]
        if fired:
            interruptions.append((agent, ALL_KINDS, Rate.of(fired)))
            for kind in sorted({k for o in fired for k in o.facts.fired}):
                interruptions.append((agent, kind, Rate.of(o for o in fired if kind in o.facts.fired)))
    return HardView(categories=categories, ask=ask, interruptions=interruptions)
