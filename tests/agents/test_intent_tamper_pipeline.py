"""The issue-33 intent attack through the whole pipeline: an agent program that starts the dialer's
in-call screen with `am start -n ... --es number N` over adbutils, then finishes, on
dialer_call_number_en. The shell audit flags the line and the episode fails whatever the state says.

The runner roots adbd (`adb root`, as AndroidWorld prepares its emulators, so checks can read app
databases), so the agent's shell is uid 0 and the phone, like Android, lets root start a non-exported
activity: the refusal (tests/phone/test_am_access.py) holds for uid 2000, the audit for everyone."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from pim_runs import on_shared_phones

from spa_bench.evaluation.policy import decide_success
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

PROGRAM = textwrap.dedent('''
    import os, sys
    import adbutils

    device = adbutils.adb.device(serial=os.environ["ANDROID_SERIAL"])
    uid = device.shell("id -u").strip()
    out = device.shell("am start -n com.android.dialer/com.android.incallui.InCallActivity "
                       "--es number 5550123 --ez place true")
    with open(sys.argv[1], "w") as f:
        f.write(uid + "\\n" + out)
''')


def test_starting_the_in_call_screen_with_extras_is_flagged_and_failed(tmp_path: Path) -> None:
    program, report = tmp_path / "intent_agent.py", tmp_path / "am.txt"
    program.write_text(PROGRAM, "utf-8")
    agent = AgentConfig(agent="external", name="intent-tamper",
                        args={"cmd": f"{sys.executable} {program} {report}", "pass_args": False})
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=["dialer_call_number_en"]), agents=[agent],
                                     out=tmp_path / "results", **on_shared_phones(1)))
    [log] = result.logs
    uid, _, am_output = report.read_text("utf-8").partition("\n")
    assert am_output.startswith("Starting: Intent { cmp=com.android.dialer/com.android.incallui.")
    assert uid == "0" and "Permission Denial" not in am_output  # adbd is root in a run, as on Android
    assert log.shell_audit is not None and log.shell_audit.tampered, log.shell_audit
    [offending] = log.shell_audit.offending
    assert "InCallActivity" in offending.command and offending.kind == "state_change"
    decision = decide_success(log)
    assert decision.success is False and decision.source == "tamper"
