"""Which verdicts decide whether an episode succeeded: one function, `decide_success`.

An episode can carry several verdicts (state checks, key components, an MLLM judge, and repeats of
them after re-evaluation). Metrics need one answer per episode, and the answer must be the same in
every table and report, so the policy lives here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass

from spa_bench.evaluation.base import family
from spa_bench.results.schema import EpisodeLog, Termination, Verdict

STATE, KEY_COMPONENTS, JUDGE = "state", "key_components", "judge"

INFRASTRUCTURE: frozenset[Termination] = frozenset({"device_error", "harness_error", "interrupted"})
"""Terminations that say nothing about the agent: such episodes get no success value."""


@dataclass(frozen=True)
class SuccessDecision:
    """success None = undecided (infrastructure failure, evaluator error, or a verdict still missing)."""

    success: bool | None
    source: str  # which verdicts decided: "state", "key_components", "judge", "key_components+judge", ""
    reason: str


def latest(log: EpisodeLog, name: str) -> Verdict | None:
    """The last verdict of an evaluator family ('judge' matches 'judge:gpt-4o'): re-evaluation appends,
    so the last one is the current one."""
    found = [v for v in log.verdicts if family(v.evaluator) == name]
    return found[-1] if found else None


def decide_success(log: EpisodeLog, *, key_components_alone: bool = False) -> SuccessDecision:
    """The verdict policy.

    1. An episode that ended by an infrastructure failure (device, harness, Ctrl-C) is undecided.
    2. A task with success checks is decided by the last "state" verdict, and by nothing else: device
       state is ground truth, and what the screen shows cannot overrule it.
    3. Otherwise SPA-Bench's coarse-to-fine order: key components that are not visible fail the episode
       (the judge is not needed); else the judge decides. A task without key components has nothing to
       match, so only the judge counts. Without a judge verdict the episode is undecided, unless
       `key_components_alone` is set, which accepts a key-component match as success (an optimistic
       reading, for runs evaluated without a judge; SPA-Bench never does this).
    An evaluator that could not decide (success None) leaves the episode undecided unless another
    verdict in the chain already failed it.
    """
    if log.termination in INFRASTRUCTURE:
        return SuccessDecision(None, "", f"infrastructure failure ({log.termination})")
    if log.task.checks:
        state = latest(log, STATE)
        if state is None:
            return SuccessDecision(None, "", "no state verdict")
        why = "state checks passed" if state.success else \
            "state checks failed" if state.success is False else "state evaluator could not decide"
        return SuccessDecision(state.success, STATE, why)

    kc_ok: bool | None = True
    if log.task.components:
        kc = latest(log, KEY_COMPONENTS)
        kc_ok = kc.success if kc is not None else None
        if kc_ok is False:
            return SuccessDecision(False, KEY_COMPONENTS, "key components not visible")
    judge = latest(log, JUDGE)
    judge_ok = judge.success if judge is not None else None
    if judge_ok is False:
        return SuccessDecision(False, JUDGE, "the judge found the task not done")
    if judge_ok is True and kc_ok is True:
        source = f"{KEY_COMPONENTS}+{JUDGE}" if log.task.components else JUDGE
        return SuccessDecision(True, source, "the judge found the task done")
    if judge is None and kc_ok is True and log.task.components and key_components_alone:
        return SuccessDecision(True, KEY_COMPONENTS, "key components visible (no judge verdict)")
    if kc_ok is None:
        return SuccessDecision(None, "", "no key-component verdict" if latest(log, KEY_COMPONENTS) is None
                               else "key-component evaluator could not decide")
    return SuccessDecision(None, "", "no judge verdict" if judge is None else "the judge could not decide")
