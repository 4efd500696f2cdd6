"""The audit stays open until the final capture has read the device (a second red team's race: an agent
left a background `adb shell settings put ...` loop running and finished at once; the command reached the
phone after the audit was read and before the checks read the device, and 5 of 8 episodes passed with an
empty audit). Here the late command is sent deterministically at the start of the final capture: it is in
the audit and the episode is tampered, though the state checks pass."""

from __future__ import annotations

import os
from pathlib import Path

import adbutils
import pytest
from pim_runs import on_shared_phones

from spa_bench.evaluation.policy import decide_success
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.episode import EpisodeRunner
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

TASK = "settings_wifi_off_en"


def test_a_command_that_lands_during_the_final_capture_is_audited(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    capture = EpisodeRunner._capture_final

    def late_command_then_capture(self: EpisodeRunner, capture_state: bool) -> None:
        # what a background loop the agent left behind sends once it has said finish
        client = adbutils.AdbClient(port=int(os.environ["ANDROID_ADB_SERVER_PORT"]))  # the tests' adb server
        client.device(self.device.serial).shell("settings put global wifi_on 0")
        capture(self, capture_state)

    monkeypatch.setattr(EpisodeRunner, "_capture_final", late_command_then_capture)
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=[TASK]), agents=[AgentConfig(agent="noop")],
                                     out=tmp_path / "results", evaluate=True, **on_shared_phones(1)))
    (log,) = result.logs
    state = [v for v in log.verdicts if v.evaluator == "state"][-1]
    assert state.success  # the late command reached the goal state the checks read
    assert log.shell_audit is not None and log.shell_audit.tampered, log.shell_audit
    assert [c.command for c in log.shell_audit.offending] == ["settings put global wifi_on 0"]
    assert decide_success(log).success is False
