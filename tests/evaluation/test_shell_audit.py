"""The shell audit in the episode log: the agent's commands classified, secrets redacted, and a tampered
episode failed by the one verdict policy whatever its checks say (and counted in the metrics)."""

from __future__ import annotations

from pathlib import Path

from eval_builders import episode, task, verdict

from spa_bench.device.audit import DeviceAudit, SentCommand, agent_entries, parse_since
from spa_bench.device.state_digest import StateDigest, volatile_sha256
from spa_bench.evaluation.metrics import compute_metrics
from spa_bench.evaluation.policy import decide_success
from spa_bench.evaluation.shell_audit import shell_audit
from spa_bench.secrets import register_secrets

CHECKED = [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}]


def test_harness_commands_are_taken_out_one_for_one() -> None:
    reply = "\n".join([
        '{"seq": 4, "channel": "shell", "command": "screencap -p"}',
        '{"seq": 5, "channel": "shell", "command": "settings put global wifi_on 0"}',
        '{"seq": 6, "channel": "shell", "command": "screencap -p"}',
        '{"seq": 7, "channel": "push", "command": "/data/data/com.spa.notes/databases/notes.db"}',
        '{"dropped": false}'])
    recorded, dropped = parse_since(reply)
    assert not dropped and len(recorded) == 4
    own = [SentCommand("shell", "screencap -p")]  # the harness took one screenshot; the agent another
    assert agent_entries(recorded, own) == [
        SentCommand("shell", "settings put global wifi_on 0"), SentCommand("shell", "screencap -p"),
        SentCommand("push", "/data/data/com.spa.notes/databases/notes.db")]


def test_a_tampered_episode_fails_even_when_its_checks_pass() -> None:
    audit = shell_audit(DeviceAudit("device", True, [SentCommand("shell", "input tap 5 5"),
                                                     SentCommand("shell", "settings put global wifi_on 0")]))
    assert audit.tampered and [c.command for c in audit.offending] == ["settings put global wifi_on 0"]
    log = episode(task(checks=CHECKED), verdicts=[verdict("state", True)])
    assert decide_success(log).success is True
    log.shell_audit = audit
    decision = decide_success(log)
    assert decision.success is False and decision.source == "tamper"
    assert "settings put global wifi_on 0" in decision.reason
    row = compute_metrics([log]).agents.iloc[0]
    assert row["tampered"] == 1 and row["successes"] == 0


def test_reads_and_gui_input_are_not_tampering_and_pushes_are() -> None:
    clean = shell_audit(DeviceAudit("device", True, [SentCommand("shell", "input tap 5 5"),
                                                     SentCommand("exec", "screencap -p"),
                                                     SentCommand("shell", "settings get global wifi_on"),
                                                     SentCommand("service", "root:")]))
    assert not clean.tampered and clean.complete
    pushed = shell_audit(DeviceAudit("device", True, [SentCommand("push", "/sdcard/x.db")]))
    assert pushed.tampered and pushed.commands[0].kind == "state_change"


def test_secrets_in_commands_are_redacted() -> None:
    secret = "sk-test-0123456789abcdefABCDEF"
    register_secrets([secret])
    audit = shell_audit(DeviceAudit("device", True, [
        SentCommand("shell", f"am broadcast -a com.example.LOGIN --es token {secret}")]))
    assert secret not in audit.model_dump_json()
    assert audit.tampered  # a broadcast to an app is a change behind the GUI


def test_a_device_without_a_record_says_so() -> None:
    audit = shell_audit(DeviceAudit("harness", False, []))
    assert not audit.tampered and not audit.complete and audit.source == "harness"


def test_declaring_a_feasible_task_infeasible_fails_even_when_its_state_checks_pass() -> None:
    feasible = episode(task(checks=CHECKED), termination="infeasible", verdicts=[verdict("state", True)])
    decision = decide_success(feasible)
    assert decision.success is False and decision.source == "infeasible"
    infeasible_task = task(checks=[*CHECKED, {"type": "finish", "status": "infeasible"}])
    honest = episode(infeasible_task, termination="infeasible", verdicts=[verdict("state", True)])
    honest.digest_start = honest.digest_end = StateDigest(packages=[], volatile_sha256=volatile_sha256())
    assert decide_success(honest).success is True
    honest.digest_end = None  # an infeasible task's state unread at the end: undecided (rerun)
    assert decide_success(honest).success is None


def test_the_report_episode_view_gets_the_audit(tmp_path: Path) -> None:
    from spa_bench.drawing import StepGestures
    from spa_bench.report.details import episode_details

    log = episode(task(checks=CHECKED), verdicts=[verdict("state", True)])
    log.shell_audit = shell_audit(DeviceAudit("device", True, [
        SentCommand("shell", "input tap 5 5"), SentCommand("push", "/data/data/com.example/x.db")]))
    details = episode_details(log, StepGestures(tmp_path), lambda path: path)
    audit = details["audit"]
    assert audit["source"] == "device" and audit["tampered"] and audit["complete"]
    assert [c[:4] for c in audit["commands"]] == [
        ["shell", "input tap 5 5", "gui_input", False],
        ["push", "/data/data/com.example/x.db", "state_change", True]]
    log.shell_audit = None
    assert episode_details(log, StepGestures(tmp_path), lambda path: path)["audit"] is None


def test_a_phone_record_that_overflowed_is_tampered() -> None:
    """A second red team ran `settings put` and then 20,010 `true` lines through one `adb shell -T`: the
    phone keeps 20,000 entries, so the change fell out of the record. What is not seen cannot be shown
    untouched: the episode is tampered, and says why."""
    reads = [SentCommand("shell", "true")] * 5
    audit = shell_audit(DeviceAudit("device", False, reads))
    assert audit.tampered and not audit.complete
    assert "overflowed" in audit.offending[-1].reason
    assert not shell_audit(DeviceAudit("device", True, reads)).tampered
