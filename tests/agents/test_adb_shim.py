"""The adb an external agent program gets first on its PATH notes each command line (what the shell
audit sees of the program on a device that keeps no record) and runs the harness's adb unchanged."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from spa_bench.agents.external import AdbShim

from spa_bench.device.audit import DeviceAudit, SentCommand
from spa_bench.evaluation.shell_audit import shell_audit


def test_the_shim_notes_every_call_and_runs_the_real_adb(tmp_path: Path) -> None:
    real = tmp_path / "adb"
    real.write_text('#!/bin/sh\necho "real adb: $*"\nexit 3\n', "utf-8")
    real.chmod(0o755)
    env = {"ADB": str(real), "PATH": os.environ["PATH"]}
    shim = AdbShim.make(env)
    assert shim is not None and env["ADB"] != str(real)
    assert env["PATH"].split(os.pathsep)[0] == str(shim.folder)
    calls = [["-s", "emulator-5554", "shell", "input", "tap", "10", "20"],
             ["-s", "emulator-5554", "shell", "settings put global wifi_on 0"],
             ["push", "local file.db", "/data/data/com.example/databases/x.db"]]
    for argv in calls:  # as a program would: plain `adb` from PATH
        done = subprocess.run(["adb", *argv], env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 3 and done.stdout == f"real adb: {' '.join(argv)}\n"
    lines = shim.calls()
    assert lines == ["adb -s emulator-5554 shell input tap 10 20",
                     "adb -s emulator-5554 shell 'settings put global wifi_on 0'",
                     "adb push 'local file.db' /data/data/com.example/databases/x.db"]
    audit = shell_audit(DeviceAudit("harness", False, [SentCommand("shell", line) for line in lines]))
    assert [c.changes_state for c in audit.commands] == [False, True, True] and audit.tampered
    shim.remove()
    assert not shim.folder.exists()
