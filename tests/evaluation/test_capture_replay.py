"""Capture then score: the runner records every command the checks read (validators included) through
one recording reader; the state evaluator scores the checks from that record with no device and gets
the verdict the live device would give; a check changed since the capture says it needs a rerun."""

from __future__ import annotations

from pathlib import Path

import pytest
from eval_builders import episode, task
from spa_bench.evaluators.state import StateEvaluator
from test_ground_truth import CannedDevice

from spa_bench.errors import DeviceOffline
from spa_bench.evaluation.base import RunContext
from spa_bench.evaluation.capture import ReplayReader, capture_checks, check_sha256
from spa_bench.evaluation.pipeline import evaluate_episode
from spa_bench.evaluation.state_checks import read_check, run_check, score_captured
from spa_bench.results.schema import CapturedCommand
from spa_bench.tasks.checks import AnswerCheck, ShellCheck, ValidatorCheck

WIFI = ShellCheck(command="settings get global wifi_on", expect="0", description="Wi-Fi is off")
REPORT = ValidatorCheck(name="file_contains", args={"path": "/sdcard/report.txt", "text": "total"})
ANSWER = AnswerCheck(kind="number", expect=["3"])
EXISTS = "ls -d /sdcard/report.txt >/dev/null 2>&1 && echo yes || echo no"
DEVICE = {"settings get global wifi_on": "0\n", EXISTS: "yes\n",
          "cat /sdcard/report.txt 2>/dev/null": "total: 3\n"}


def test_capture_records_every_read_in_order_and_replays_to_the_same_verdict() -> None:
    checks = [WIFI, REPORT, ANSWER]
    device = CannedDevice(dict(DEVICE))
    captures = capture_checks(checks, device, read_check)
    assert [c.type for c in captures] == ["shell", "validator", "answer"]
    assert [c.command for c in captures[1].commands] == [EXISTS, "cat /sdcard/report.txt 2>/dev/null"]
    assert captures[0].commands == [CapturedCommand(command="settings get global wifi_on", output="0\n",
                                                    exit_code=0)]
    assert captures[2].commands == [] and captures[1].check_sha256 == check_sha256(REPORT)
    question = "How many reports are there (three or more)?"  # its words may frame the answer
    live = [run_check(c, CannedDevice(dict(DEVICE)), "3 (three)", question=question).passed for c in checks]
    verdict = score_captured(checks, captures, "3 (three)", question=question)
    assert live == [True, True, True] and verdict.success is True and verdict.role == "ground_truth"
    assert verdict.evidence[0].summary.startswith("✓ Wi-Fi is off")
    assert score_captured(checks, captures, "4").success is False  # the answer is scored, not captured


def test_a_changed_check_needs_a_rerun() -> None:
    captures = capture_checks([WIFI], CannedDevice(dict(DEVICE)), read_check)
    changed = WIFI.model_copy(update={"expect": "1"})
    verdict = score_captured([changed], captures, None)
    assert verdict.success is None and verdict.error is not None
    assert verdict.error.type == "NeedsRerun"
    assert "changed since the episode captured the device state" in verdict.error.message
    assert "rerun the episode" in verdict.error.message
    more = score_captured([WIFI, ANSWER], captures, "3")  # a check added after the capture
    assert more.success is None and "was not captured" in (more.error.message if more.error else "")


def test_replay_serves_repeated_reads_in_order() -> None:
    reader = ReplayReader([CapturedCommand(command="c", output="1", exit_code=0),
                           CapturedCommand(command="c", output="2", exit_code=3)])
    assert [reader.run("c").output for _ in range(3)] == ["1", "2", "2"]
    with pytest.raises(LookupError, match="did not capture"):
        reader.run("other")


def test_device_failure_during_capture_propagates_and_validator_errors_are_scored() -> None:
    class Dead:
        def run(self, command: str) -> object:
            raise DeviceOffline("gone", "emulator-5554")

        def shell(self, command: str) -> str:
            raise DeviceOffline("gone", "emulator-5554")

    with pytest.raises(DeviceOffline):
        capture_checks([WIFI], Dead(), read_check)  # type: ignore[arg-type]
    broken = ValidatorCheck(name="file_contains", args={"path": ""})
    captures = capture_checks([broken], CannedDevice({}), read_check)
    verdict = score_captured([broken], captures, None)
    assert verdict.success is None and verdict.error is not None and "path" in verdict.error.message


def test_state_evaluator_reads_current_definitions_and_skips_logs_without_capture(tmp_path: Path) -> None:
    the_task = task("wifi_off", checks=[WIFI.model_dump(exclude_none=True)])
    log = episode(the_task)
    evaluator = StateEvaluator()
    evaluator.open(RunContext(tmp_path))
    assert not evaluator.applies(log), "nothing captured: the recorded verdict stands"
    log.captured_state = capture_checks(the_task.checks, CannedDevice(dict(DEVICE)), read_check)
    outcome = evaluate_episode(log, tmp_path, [evaluator])
    assert [v.success for v in outcome.added] == [True]
    # the tasks folder now defines the check differently: the verdict says to rerun
    folder = tmp_path / "tasks" / "net"
    folder.mkdir(parents=True)
    data = the_task.model_dump(mode="json", exclude_none=True)
    data["checks"] = [dict(data["checks"][0], expect="1")]
    import yaml

    (folder / "en.yaml").write_text(yaml.safe_dump([data], allow_unicode=True))
    evaluator.open(RunContext(tmp_path, tasks_root=tmp_path / "tasks"))
    again = evaluator.evaluate(log, tmp_path)
    assert again.success is None and again.error is not None and again.error.type == "NeedsRerun"
