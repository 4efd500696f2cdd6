"""Which verdicts decide whether an episode succeeded: one function, `decide_success`.

An episode can carry several verdicts (state checks, key components, an MLLM judge, a plug-in, and
repeats of them after re-evaluation). Metrics need one answer per episode, and the answer must be the
same in the run summary, `spa-bench evaluate`, the metrics and the report, so the policy lives here and
nowhere else. It reads each verdict's role (spa_bench.evaluation.base.role_of), never an evaluator's
name: a registered third-party evaluator counts exactly as a built-in of the same role does.
"""

from __future__ import annotations

from dataclasses import dataclass

from spa_bench.evaluation.base import family, role_of
from spa_bench.evaluation.untouched import untouched
from spa_bench.results.schema import EpisodeLog, Role, Termination, Verdict

INFRASTRUCTURE: frozenset[Termination] = frozenset({"device_error", "harness_error", "interrupted"})
"""Terminations that say nothing about the agent: such episodes get no success value."""
TAMPER, INFEASIBLE, UNTOUCHED = "tamper", "infeasible", "untouched"
"""The sources of the decision on a tampered episode, on a feasible task declared infeasible, and on an
infeasible task whose state changed."""


@dataclass(frozen=True)
class SuccessDecision:
    """success None = undecided (infrastructure failure, evaluator error, or a verdict still missing)."""

    success: bool | None
    source: str  # the evaluator families that decided, joined by "+" ("state", "key_components+judge")
    reason: str


def latest(log: EpisodeLog, name: str) -> Verdict | None:
    """The last verdict of an evaluator family ('judge' matches 'judge:gpt-4o'): re-evaluation appends,
    so the last one is the current one."""
    found = [v for v in log.verdicts if family(v.evaluator) == name]
    return found[-1] if found else None


def current_verdicts(log: EpisodeLog, role: Role) -> list[Verdict]:
    """The latest verdict of each evaluator family of this role, in order of first appearance."""
    by_family: dict[str, Verdict] = {}
    for verdict in log.verdicts:
        if role_of(verdict) == role:
            by_family.pop(family(verdict.evaluator), None)  # keep the order of the latest ones
            by_family[family(verdict.evaluator)] = verdict
    return list(by_family.values())


def _names(verdicts: list[Verdict]) -> str:
    return "+".join(family(v.evaluator) for v in verdicts)


def decide_success(log: EpisodeLog, *, key_components_alone: bool = False) -> SuccessDecision:
    """The verdict policy, by roles.

    1. An episode that ended by an infrastructure failure (device, harness, Ctrl-C) is undecided.
       A tampered episode (its agent changed device state behind the GUI, over adb: log.shell_audit)
       failed, whatever its checks say; so did one whose agent declared a feasible task infeasible
       (only an infeasible task - a finish check with status infeasible - passes that way).
       An infeasible task whose apps' state changed during the episode failed (its state digests differ,
       spa_bench.evaluation.untouched); one without both digests is undecided where its checks pass.
    2. A task with success checks is decided by its ground-truth verdicts (every family's latest must
       pass), and by nothing else: device state is ground truth, and what the screen shows cannot
       overrule it. No ground-truth verdict yet: undecided.
    3. Otherwise `decide_from_screen`, SPA-Bench's coarse-to-fine order.
    Informational verdicts never count.
    """
    if log.termination in INFRASTRUCTURE:
        return SuccessDecision(None, "", f"infrastructure failure ({log.termination})")
    if log.shell_audit is not None and log.shell_audit.tampered:
        first = log.shell_audit.offending[0]
        return SuccessDecision(False, TAMPER, f"tampered: changed state behind the GUI "
                                              f"({len(log.shell_audit.offending)} command(s), first "
                                              f"{first.command[:120]!r}: {first.reason})")
    if log.termination == "infeasible" and not log.full_task.infeasible:
        return SuccessDecision(False, INFEASIBLE, "the agent declared a feasible task infeasible")
    state = untouched(log.digest_start, log.digest_end) if log.full_task.infeasible else None
    if state is not None and state.untouched is False:
        return SuccessDecision(False, UNTOUCHED, f"infeasible task, but the agent {state.reason}")
    truth = current_verdicts(log, "ground_truth")
    if log.full_task.checks or truth:
        if not truth:
            return SuccessDecision(None, "", "no ground-truth (state) verdict")
        source = _names(truth)
        if any(v.success is False for v in truth):
            return SuccessDecision(False, source, f"{source}: checks failed")
        if any(v.success is None for v in truth):
            return SuccessDecision(None, "", f"{source} could not decide")
        if state is not None and state.untouched is None:
            return SuccessDecision(None, "", f"{source}: checks passed, but {state.reason}")
        if state is not None:
            return SuccessDecision(True, f"{source}+{UNTOUCHED}", f"{source}: checks passed; {state.reason}")
        return SuccessDecision(True, source, f"{source}: checks passed")
    return decide_from_screen(log, key_components_alone=key_components_alone)


def decide_from_screen(log: EpisodeLog, *, key_components_alone: bool = False) -> SuccessDecision:
    """Gates, then judges (what the policy uses without ground truth; calibration compares it with the
    ground truth where both exist).

    A gate that failed fails the episode (SPA-Bench: key components not visible, the judge is not
    needed). A task with key components needs a gate verdict. Then every judge family's latest verdict
    must pass. Without a judge verdict the episode is undecided, unless `key_components_alone` is set,
    which accepts passing gates as success (an optimistic reading, for runs evaluated without a judge;
    SPA-Bench never does this). An evaluator that could not decide (success None) leaves the episode
    undecided unless another verdict already failed it.
    """
    gates, judges = current_verdicts(log, "gate"), current_verdicts(log, "judge")
    failed_gate = [v for v in gates if v.success is False]
    if failed_gate:
        return SuccessDecision(False, _names(failed_gate), f"{_names(failed_gate)}: failed (key components "
                                                           "not visible)")
    failed_judge = [v for v in judges if v.success is False]
    if failed_judge:
        return SuccessDecision(False, _names(failed_judge), f"{_names(failed_judge)}: the task is not done")
    if log.full_task.components and not gates:
        return SuccessDecision(None, "", "no gate (key-component) verdict")
    if any(v.success is None for v in gates):
        return SuccessDecision(None, "", f"{_names(gates)} could not decide")
    if not judges:
        if key_components_alone and gates and log.full_task.components:
            return SuccessDecision(True, _names(gates), f"{_names(gates)}: passed (no judge verdict)")
        return SuccessDecision(None, "", "no judge verdict")
    if any(v.success is None for v in judges):
        return SuccessDecision(None, "", f"{_names(judges)} could not decide")
    source = _names(gates + judges) if log.full_task.components else _names(judges)
    return SuccessDecision(True, source, f"{source}: the task is done")
