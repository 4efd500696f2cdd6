"""The task's declarative success checks: read device state, compare, give evidence.

Each check reads device state through a `DeviceReader` (shell, sqlite3, content query; see capture.py)
or looks at the agent's final answer, and yields Evidence (the command, what it printed, what was
expected). At the end of an episode the checks run against a recording reader on the device, which only
captures their reads; the "state" evaluator (evaluators/state.py) scores them from that capture with
`score_captured`, and passes when every check passes. A validator that crashes makes the verdict
undecided (success None) with the error recorded; so does a check that changed since its capture.

The answer check reads the agent's final answer as the value of its declared kind and passes only when the
answer states exactly that one value, without negation, hedge or other candidates (evaluation/answers.py;
the contract is AnswerCheck's docstring). Why an answer failed is in the evidence.
"""

from __future__ import annotations

import re
import shlex
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from spa_bench.device.content import content_query_command, parse_content_rows
from spa_bench.device.packages import PackageMap
from spa_bench.errors import DeviceError
from spa_bench.evaluation.answers import answer_evidence
from spa_bench.evaluation.capture import DeviceReader, NotCaptured, ReplayReader, check_sha256, mapped
from spa_bench.results.schema import CheckCapture, ErrorInfo, Evidence, Verdict
from spa_bench.tasks.checks import (
    AnswerCheck,
    AskUserCheck,
    Check,
    ContentQueryCheck,
    FinishCheck,
    Scalar,
    ShellCheck,
    SqliteCheck,
    ValidatorCheck,
)
from spa_bench.tasks.dialogue import UserExchange
from spa_bench.tasks.validators import VALIDATORS

STATE_EVALUATOR = "state"
FIELD_SEP, ROW_SEP, NULL = "\x1f", "\x1e", "NULL"


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    evidence: Evidence


def _text(value: Scalar) -> str:
    if value is None:
        return NULL
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _check_shell(check: ShellCheck, device: DeviceReader) -> CheckResult:
    result = device.run(check.command)
    output = result.output.strip()
    reasons = []
    if check.expect is not None and output != check.expect.strip():
        reasons.append(f"output {output[:200]!r} is not {check.expect!r}")
    if check.regex is not None and not re.search(check.regex, output):
        reasons.append(f"output {output[:200]!r} does not match /{check.regex}/")
    if check.exit_code is not None and result.exit_code != check.exit_code:
        reasons.append(f"exit code {result.exit_code}, expected {check.exit_code}")
    summary = "; ".join(reasons) or f"{check.command!r} gave {output[:120]!r}"
    return CheckResult(not reasons, Evidence(summary=summary, details={
        "check": "shell", "command": check.command, "output": output[:4000], "exit_code": result.exit_code}))


def sqlite_command(db: str, query: str) -> str:
    return (f"sqlite3 -separator {shlex.quote(FIELD_SEP)} -newline {shlex.quote(ROW_SEP)} "
            f"-nullvalue {NULL} {shlex.quote(db)} {shlex.quote(query)}")


def _check_sqlite(check: SqliteCheck, device: DeviceReader) -> CheckResult:
    command = sqlite_command(check.db, check.query)
    result = device.run(command)
    if result.exit_code != 0:
        return CheckResult(False, Evidence(summary=f"sqlite3 failed: {result.output.strip()[:300]}",
                                           details={"check": "sqlite", "db": check.db, "query": check.query,
                                                    "output": result.output[:4000]}))
    rows = [r.strip("\r\n").split(FIELD_SEP) for r in result.output.split(ROW_SEP) if r.strip("\r\n")]
    reasons = []
    if check.expect_count is not None and len(rows) != check.expect_count:
        reasons.append(f"{len(rows)} rows, expected {check.expect_count}")
    if check.expect_rows is not None:
        expected = [[_text(v) for v in row] for row in check.expect_rows]
        if check.ordered:
            same = rows == expected
        else:
            same = Counter(map(tuple, rows)) == Counter(map(tuple, expected))
        if not same:
            reasons.append(f"rows {rows[:10]} are not {expected[:10]}")
    summary = "; ".join(reasons) or f"{len(rows)} row(s) as expected"
    return CheckResult(not reasons, Evidence(summary=summary, details={
        "check": "sqlite", "db": check.db, "query": check.query, "rows": rows[:100]}))


def _check_content(check: ContentQueryCheck, device: DeviceReader) -> CheckResult:
    command = content_query_command(check.uri, check.projection, check.where)
    output = device.shell(command)
    rows = parse_content_rows(output)
    reasons = []
    if check.expect_count is not None and len(rows) != check.expect_count:
        reasons.append(f"{len(rows)} rows, expected {check.expect_count}")
    if check.expect_rows is not None:
        unmatched = list(range(len(rows)))
        for expected in check.expect_rows:
            want = {k: _text(v) for k, v in expected.items()}
            hit = next((i for i in unmatched if all(rows[i].get(k) == v for k, v in want.items())), None)
            if hit is None:
                reasons.append(f"no row with {want}")
            else:
                unmatched.remove(hit)
        if check.exact and unmatched:
            reasons.append(f"{len(unmatched)} unexpected row(s), e.g. {rows[unmatched[0]]}")
    summary = "; ".join(reasons) or f"{len(rows)} row(s) as expected"
    return CheckResult(not reasons, Evidence(summary=summary, details={
        "check": "content_query", "command": command, "rows": rows[:100],
        "output": output[:4000] if not rows else ""}))


# -- the final answer: graded as its declared kind (evaluation/answers.py) ---------------------------------

def _check_answer(check: AnswerCheck, answer: str | None, question: str | None) -> CheckResult:
    evidence = answer_evidence(check, answer, question)
    return CheckResult(evidence.details["problem"] is None, evidence)


def _check_finish(check: FinishCheck, status: str | None) -> CheckResult:
    """`status` is how the episode ended (its termination: done, infeasible, max_steps, ...)."""
    ok = status == check.status
    ended = f"the agent ended with finish(status={status})" if status in ("done", "infeasible") else \
        f"the episode ended by {status or 'an unknown reason'}, not by finish"
    return CheckResult(ok, Evidence(summary=f"{ended}; expected finish(status={check.status})",
                                    details={"check": "finish", "status": status, "expect": check.status}))


def _check_ask_user(check: AskUserCheck, dialogue: Sequence[UserExchange]) -> CheckResult:
    """The questions the agent asked the simulated user, and whether the wanted reply rule answered one."""
    asked = len(dialogue)
    answered = [e for e in dialogue if e.rule is not None and (check.reply is None or e.rule == check.reply)]
    problems = []
    if asked < check.min_questions:
        problems.append(f"asked {asked} question(s), at least {check.min_questions} needed")
    if asked > check.max_questions:
        problems.append(f"asked {asked} questions, at most {check.max_questions} allowed")
    if check.min_questions > 0 and not answered:
        wanted = f"reply {check.reply}" if check.reply is not None else "any reply rule"
        problems.append(f"no question was answered by {wanted}" if asked else "never asked the user")
    summary = "; ".join(problems) or f"asked {asked} question(s); answered: " + \
        "; ".join(f"step {e.step}: {e.question[:80]!r}" for e in answered)
    return CheckResult(not problems, Evidence(summary=summary, details={
        "check": "ask_user", "questions": [e.model_dump() for e in dialogue], "reply": check.reply}))


def _check_validator(check: ValidatorCheck, device: DeviceReader) -> CheckResult:
    validator = VALIDATORS.get(check.name)
    outcome = validator(device, check.args)
    return CheckResult(outcome.passed, Evidence(summary=outcome.evidence, details={
        "check": "validator", "name": check.name, "args": check.args}))


def run_check(check: Check, device: DeviceReader, answer: str | None,
              status: str | None = None, dialogue: Sequence[UserExchange] = (),
              question: str | None = None) -> CheckResult:
    """One check; `answer` and `status` are how the agent ended (its finish answer; the termination),
    `dialogue` what it asked the user, `question` the task's instruction (its words may frame an answer)."""
    if isinstance(check, ShellCheck):
        return _check_shell(check, device)
    if isinstance(check, SqliteCheck):
        return _check_sqlite(check, device)
    if isinstance(check, ContentQueryCheck):
        return _check_content(check, device)
    if isinstance(check, AnswerCheck):
        return _check_answer(check, answer, question)
    if isinstance(check, FinishCheck):
        return _check_finish(check, status)
    if isinstance(check, AskUserCheck):
        return _check_ask_user(check, dialogue)
    return _check_validator(check, device)


def read_check(check: Check, reader: DeviceReader) -> CheckResult:
    """Run one check's reads (the answer plays no part in what is read): what capture calls."""
    return run_check(check, reader, None)


class NeedsRerun(Exception):
    """The capture cannot score this check: it changed since, or it was never captured."""


def _replay(check: Check, index: int, captures: dict[int, CheckCapture], answer: str | None,
            status: str | None, packages: PackageMap | None, dialogue: Sequence[UserExchange],
            question: str | None) -> CheckResult:
    capture = captures.get(index)
    if capture is None:
        raise NeedsRerun(f"check {index} ({check.type}) was not captured by the episode: rerun the episode")
    if capture.check_sha256 != check_sha256(check):
        raise NeedsRerun(f"check {index} ({check.type}) changed since the episode captured the device state "
                         f"(definition {capture.check_sha256[:12]} -> {check_sha256(check)[:12]}): "
                         f"rerun the episode to score it")
    try:
        return run_check(check, mapped(ReplayReader(capture.commands), packages), answer, status, dialogue,
                         question)
    except NotCaptured as exc:
        raise NeedsRerun(f"check {index} ({check.type}): {exc}: rerun the episode") from None


def score_captured(checks: Sequence[Check], captures: Sequence[CheckCapture], answer: str | None,
                   evaluator: str = STATE_EVALUATOR, status: str | None = None,
                   packages: PackageMap | None = None, dialogue: Sequence[UserExchange] = (),
                   question: str | None = None) -> Verdict:
    """Score every check from the episode's capture (all of them, for complete evidence); passes when
    all pass. Checks that changed since the capture are listed, and leave the verdict undecided.
    `packages`: the substitutions the capture ran the commands with (the episode log's package_map);
    `dialogue`: the agent's questions to the simulated user (the log's `dialogue`); `question`: the task's
    instruction, whose words may frame an answer."""
    by_index = {c.index: c for c in captures}
    evidence: list[Evidence] = []
    passed = True
    stale: list[str] = []
    for i, check in enumerate(checks):
        label = check.description or check.type
        try:
            result = _replay(check, i, by_index, answer, status, packages, dialogue, question)
        except NeedsRerun as exc:
            stale.append(str(exc))
            evidence.append(Evidence(summary=f"? {label}: {exc}", details={"check": check.type}))
            continue
        except DeviceError:
            raise
        except Exception as exc:
            return Verdict(evaluator=evaluator, role="ground_truth", success=None, evidence=evidence,
                           created_at=datetime.now(UTC),
                           error=ErrorInfo(kind="evaluator", type=type(exc).__name__,
                                           message=f"check {i} ({check.type}): {exc}",
                                           traceback=traceback.format_exc()))
        evidence.append(result.evidence.model_copy(update={
            "summary": f"{'✓' if result.passed else '✗'} {label}: {result.evidence.summary}"}))
        passed = passed and result.passed
    if stale:
        return Verdict(evaluator=evaluator, role="ground_truth", success=None, evidence=evidence,
                       created_at=datetime.now(UTC),
                       error=ErrorInfo(kind="evaluator", type="NeedsRerun", message="; ".join(stale)))
    return Verdict(evaluator=evaluator, role="ground_truth", success=passed, evidence=evidence,
                   created_at=datetime.now(UTC))
