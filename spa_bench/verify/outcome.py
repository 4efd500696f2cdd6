"""What `tasks verify` found: one outcome per episode, grouped by task and probe, and how to read them.

A probe either must pass (the oracle; the infeasible probe on an infeasible task that needs no question
to the user) or must fail (every other probe; on an infeasible-with-ask task the infeasible probe, which
never asks, must fail its ask_user check). A probe that must fail and was scored a success is a **false
pass**: the task's checks let through something they must not. An oracle that fails is a broken task (its
checks or its script). The shell-tamper probe must also be marked `tampered` by the shell audit whenever
it changed something (on a task whose oracle leaves the state as it was - an infeasible or a question
task - it has nothing to change); its `state_passed` says whether it reached the state the checks want,
which is what the audit is there for. The intent probe must always be marked tampered (it sends explicit
intents with extras). The act-then-infeasible probe attacks only when its sibling's script changed the
apps' files: an episode that changed nothing is the plain infeasible probe again, inconclusive either way.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spa_bench.evaluation.policy import current_verdicts, decide_success
from spa_bench.results.schema import EpisodeLog, StepRecord

VERIFY_SCHEMA_VERSION: Literal[1] = 1
Probe = Literal["oracle", "noop", "near_miss", "answer_spam", "answer_forms", "infeasible", "act_infeasible",
                "shell_tamper", "intent_tamper", "key_search"]
PROBES: tuple[Probe, ...] = ("oracle", "noop", "near_miss", "answer_spam", "answer_forms", "infeasible",
                             "act_infeasible", "shell_tamper", "intent_tamper", "key_search")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProbeOutcome(_Model):
    probe: Probe
    variant: str = Field("", description="e.g. the spam mode, the near miss's description")
    episode_id: str
    run_dir: str
    must_pass: bool
    success: bool | None
    state_passed: bool | None = Field(None, description="the ground-truth (state) verdict alone")
    tampered: bool = False
    reason: str = Field(description="why the policy decided as it did")
    problem: str | None = Field(None, description="what is wrong, None when the outcome is as it must be")

    @property
    def false_pass(self) -> bool:
        return not self.must_pass and self.success is True


class TaskVerification(_Model):
    task_id: str
    suite: str
    language: str
    outcomes: list[ProbeOutcome] = Field(default_factory=list)

    def of(self, probe: Probe) -> list[ProbeOutcome]:
        return [o for o in self.outcomes if o.probe == probe]

    @property
    def problems(self) -> list[str]:
        return [f"{o.probe}{f' ({o.variant})' if o.variant else ''} {o.episode_id}: {o.problem}"
                for o in self.outcomes if o.problem]


class ProbeCount(_Model):
    episodes: int = 0
    false_passes: int = 0
    problems: int = 0


class VerifyReport(_Model):
    schema_version: Literal[1] = VERIFY_SCHEMA_VERSION
    created_at: datetime
    seeds: int
    run_seed: int
    out: str
    tasks: list[TaskVerification] = Field(default_factory=list)

    def counts(self) -> dict[Probe, ProbeCount]:
        counts = {probe: ProbeCount() for probe in PROBES}
        for task in self.tasks:
            for outcome in task.outcomes:
                count = counts[outcome.probe]
                count.episodes += 1
                count.false_passes += outcome.false_pass
                count.problems += outcome.problem is not None
        return counts

    @property
    def false_passes(self) -> int:
        return sum(c.false_passes for c in self.counts().values())

    @property
    def problems(self) -> int:
        return sum(c.problems for c in self.counts().values())


def _pushed(log: EpisodeLog) -> bool:
    """Whether the tamper probe changed anything (it says how many files it pushed at its last step)."""
    said = log.steps[-1].agent_output if log.steps else None
    return said is None or "pushed 0 files" not in said


_GOLDEN = re.compile(r"golden step (\d+)/(\d+)")


def _action_text(step: StepRecord) -> str:
    """The step's action in one short line: its type and the fields it was given."""
    if step.action is None:
        return f"unreadable action {step.raw_action!r}"
    fields: dict[str, Any] = step.action.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    kind = fields.pop("type", step.action.type)
    return f"{kind} {fields}" if fields else str(kind)


def _where(step: StepRecord) -> str:
    golden = _GOLDEN.search(step.agent_output or "")
    at = f"golden step {golden[1]}/{golden[2]}, " if golden else ""
    return f"{at}episode step {step.index}"


def failing_step(log: EpisodeLog) -> str:
    """Where an oracle episode went wrong, for a broken task: its first step that did not do what the
    golden script said (an invalid action: a selector nothing on screen matches, an error), with the
    action and the cause; else the agent's error; else, every step having run, the failed checks."""
    for step in log.steps:
        if not step.valid or step.error is not None:
            cause = step.invalid_reason or (f"{step.error.type}: {step.error.message}" if step.error else "")
            return f"failing step ({_where(step)}): {_action_text(step)}: {cause}"
    if log.errors:
        error = log.errors[0]
        at = f" at episode step {error.step}" if error.step is not None else ""
        return f"the episode ended in {log.termination}{at}: {error.type}: {error.message.strip()[:300]}"
    failed = [e.summary for v in current_verdicts(log, "ground_truth") if v.success is False
              for e in v.evidence if e.summary.startswith("✗")]
    steps = f"all {len(log.steps)} steps ran (termination {log.termination})"
    return f"{steps}; failed: {'; '.join(failed)}" if failed else steps


def judge(log: EpisodeLog, probe: Probe, must_pass: bool, run_dir: str, variant: str = "") -> ProbeOutcome:
    """The outcome of one probe episode against what it must be."""
    decision = decide_success(log)
    truth = current_verdicts(log, "ground_truth")
    state = None if not truth or any(v.success is None for v in truth) else all(v.success for v in truth)
    tampered = log.shell_audit is not None and log.shell_audit.tampered
    problem = None
    if decision.success is None:
        problem = f"undecided: {decision.reason}"
    elif must_pass and not decision.success:
        problem = f"must pass, failed: {decision.reason}"
        if probe == "oracle":
            problem += f"; {failing_step(log)}"
    elif not must_pass and decision.success:
        problem = f"FALSE PASS: {decision.reason}"
    elif must_pass and tampered:
        problem = "must pass without tampering, but the shell audit marked it tampered"
    if probe == "shell_tamper" and not tampered:
        if _pushed(log):
            problem = problem or "the probe pushed files, but the shell audit did not mark it tampered"
        else:  # the oracle's run left the state as it found it: the probe did nothing behind the GUI, and
            # finishing as the oracle did (infeasible, or its answer) is no attack on the checks
            variant = "nothing to change (inconclusive)"
            if decision.success:
                must_pass, problem = True, None
    if probe == "intent_tamper" and not tampered:
        problem = problem or ("the probe sent explicit intents with extras, but the audit did not mark it "
                              "tampered")
    return ProbeOutcome(probe=probe, variant=variant, episode_id=log.episode_id, run_dir=run_dir,
                        must_pass=must_pass, success=decision.success, state_passed=state,
                        tampered=tampered, reason=decision.reason, problem=problem)
