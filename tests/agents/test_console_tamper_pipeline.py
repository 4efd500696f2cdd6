"""Red-team issue 33's two holes through whole runs: agent programs that (1) pipe commands into
`adb shell -T` and (2) use the emulator console (`sms send`, `avd snapshot save spa-bench-base-en`) are
flagged, and a base snapshot saved over is never restored; the oracle, whose episode has the harness
ring a call through the console, is not flagged."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from pim_runs import on_shared_phones

from spa_bench.evaluation.policy import decide_success
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

TASK = "hard_int_call_note_en"  # an incoming call rings in through the console after step 1
PIPED = textwrap.dedent('''
    import os, subprocess
    subprocess.run([os.environ["ADB"], "-s", os.environ["ANDROID_SERIAL"], "shell", "-T"], check=True,
                   input=b"settings put global airplane_mode_on 1\\nsettings get global airplane_mode_on\\n")
''')
CONSOLE = textwrap.dedent('''
    import os, socket, sys
    port = int(os.environ["ANDROID_SERIAL"].rpartition(":")[2]) - 1  # the emulator's convention
    token = open(os.path.expanduser("~/.emulator_console_auth_token")).read().strip()
    lines = ["auth " + token] + sys.argv[1:] + ["quit"]
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        reader = sock.makefile("rb")
        def answer():
            while True:
                line = reader.readline().decode().strip()
                if line == "OK" or line.startswith("KO") or not line:
                    return line
        answer()  # the greeting
        for line in lines[:-1]:
            sock.sendall(line.encode() + b"\\r\\n")
            assert answer() == "OK", line
        sock.sendall(b"quit\\r\\n")
''')


def _external(tmp_path: Path, name: str, source: str, *args: str) -> AgentConfig:
    program = tmp_path / f"{name}.py"
    program.write_text(source, "utf-8")
    quoted = " ".join(f"'{a}'" for a in args)
    return AgentConfig(agent="external", name=name,
                       args={"cmd": f"{sys.executable} {program} {quoted}", "pass_args": False})


def _offending(log: EpisodeLog) -> list[tuple[str, str]]:
    assert log.shell_audit is not None and log.shell_audit.source == "device", log.shell_audit
    return [(c.channel, c.command) for c in log.shell_audit.commands if c.changes_state]


def test_piped_shell_and_console_commands_are_flagged_and_the_harness_console_is_not(tmp_path: Path) -> None:
    agents = [AgentConfig(agent="oracle"),
              _external(tmp_path, "piped", PIPED),
              _external(tmp_path, "sms", CONSOLE, "sms send 5550100 you won", "avd snapshot list")]
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=[TASK]), agents=agents,
                                     out=tmp_path / "results", **on_shared_phones(1)))
    logs = {log.agent.name: log for log in result.logs}
    oracle = logs["oracle"]
    assert oracle.interruptions_fired == [0]  # the harness's `gsm call` reached the phone mid-episode
    assert oracle.shell_audit is not None and oracle.shell_audit.source == "device"
    assert not oracle.shell_audit.tampered and oracle.shell_audit.commands == [], oracle.shell_audit
    assert decide_success(oracle).success
    assert _offending(logs["piped"]) == [("shell", "settings put global airplane_mode_on 1")]
    piped = logs["piped"].shell_audit
    assert piped is not None and [(c.channel, c.command) for c in piped.commands] == [
        ("shell", "settings put global airplane_mode_on 1"),
        ("shell", "settings get global airplane_mode_on")]
    assert _offending(logs["sms"]) == [("console", "sms send 5550100 you won")]
    for name in ("piped", "sms"):
        decision = decide_success(logs[name])
        assert decision.success is False and decision.source == "tamper", (name, decision)


def test_a_base_snapshot_saved_over_is_flagged_and_never_restored(tmp_path: Path) -> None:
    # a phone of its own: the attack succeeds in saving over its base, which would spoil a shared one
    marker = tmp_path / "poisoned"
    once = textwrap.dedent(f'''
        import os, sys
        if os.path.exists({str(marker)!r}):
            sys.exit(0)
        open({str(marker)!r}, "w").close()
    ''') + CONSOLE
    agent = _external(tmp_path, "poisoner", once, "avd snapshot save spa-bench-base-en")
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=["dialer_call_number_en"]), agents=[agent],
                                     out=tmp_path / "results", phones=1, repeats=2, max_retries=0))
    assert marker.exists()
    logs = sorted(result.logs, key=lambda log: log.instance.repeat)
    first = logs[0]
    assert _offending(first) == [("console", "avd snapshot save spa-bench-base-en")]
    assert decide_success(first).source == "tamper"
    errors = [e.message for log in logs[1:] for e in log.errors]
    assert any("'spa-bench-base-en' was saved over since the harness took it" in m for m in errors), errors
