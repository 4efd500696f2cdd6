"""An honest agent program that drives the phone with uiautomator2 (which stages its own u2.jar in
/data/local/tmp and starts it with app_process) is not taken for a tamperer: it turns Wi-Fi off through
the GUI, the shell audit records uiautomator2's own commands as reads and tooling, and the episode
succeeds. The same program with one `settings put` is tampered and fails, although the state is right."""

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
    import os, subprocess, sys
    import uiautomator2 as u2

    d = u2.connect(os.environ["ANDROID_SERIAL"])
    d(text="Network & internet").click()
    d(resourceIdMatches=".*switch_widget").click()
    if "--cheat" in sys.argv:  # the same state, reached behind the GUI as well
        subprocess.run(["adb", "shell", "settings", "put", "global", "wifi_on", "0"], check=True)
''')


def test_a_uiautomator2_agent_is_not_tampering_and_a_settings_put_is(tmp_path: Path) -> None:
    program = tmp_path / "u2_agent.py"
    program.write_text(PROGRAM, "utf-8")
    agents = [AgentConfig(agent="external", name="u2", args={"cmd": f"{sys.executable} {program}",
                                                            "pass_args": False}),
              AgentConfig(agent="external", name="u2-cheat",
                          args={"cmd": f"{sys.executable} {program} --cheat", "pass_args": False})]
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), agents=agents,
                                     out=tmp_path / "results", **on_shared_phones(1)))
    logs = {log.agent.name: log for log in result.logs}
    honest, cheat = logs["u2"], logs["u2-cheat"]
    assert honest.shell_audit is not None and not honest.shell_audit.tampered, honest.shell_audit
    kinds = {c.kind for c in honest.shell_audit.commands}
    assert honest.shell_audit.commands and kinds <= {"read", "tooling", "gui_input", "navigation", "capture"}
    assert decide_success(honest).success is True, [e.summary for v in honest.verdicts for e in v.evidence]
    assert cheat.shell_audit is not None and cheat.shell_audit.tampered
    assert [c.command for c in cheat.shell_audit.offending] == ["settings put global wifi_on 0"]
    assert decide_success(cheat).success is False
    assert [v.success for v in cheat.verdicts if v.evaluator == "state"] == [True]  # the state alone passes


TYPING_PROGRAM = textwrap.dedent('''
    import os, re
    import uiautomator2 as u2

    name = re.search(r'named "([^"]+)"', os.environ["SPA_BENCH_INSTRUCTION"]).group(1)
    d = u2.connect(os.environ["ANDROID_SERIAL"])
    d.app_start("com.android.documentsui")
    d(text="Download").click()
    d(resourceIdMatches=".*action_menu_create_dir").click()
    d(resourceId="android:id/text1").click()
    d.send_keys(name)  # uiautomator2 3.7: the clipboard set and pasted over its RPC
    d(resourceId="android:id/button1").click()
''')


def test_a_uiautomator2_agent_that_types_is_not_tampering(tmp_path: Path) -> None:
    """`d.send_keys` of uiautomator2 3.7 reads `ime list -s -a`, then sets the clipboard and pastes it over
    its RPC: typing through the GUI. The folder gets its name and the episode succeeds, untampered."""
    program = tmp_path / "u2_typist.py"
    program.write_text(TYPING_PROGRAM, "utf-8")
    agent = AgentConfig(agent="external", name="u2-typist", args={"cmd": f"{sys.executable} {program}",
                                                                "pass_args": False})
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=["files_new_folder_en"]), agents=[agent],
                                     out=tmp_path / "results", seed=3, **on_shared_phones(1)))
    [log] = result.logs
    assert log.shell_audit is not None
    assert not log.shell_audit.tampered, log.shell_audit.offending
    commands = [c.command for c in log.shell_audit.commands]
    assert any(c.startswith("ime list -s -a") for c in commands), commands
    assert not any(c.startswith(("pm ", "settings put")) for c in commands), commands
    assert decide_success(log).success is True, [e.summary for v in log.verdicts for e in v.evidence]
