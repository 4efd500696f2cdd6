"""Every line an `adb shell` session without a command runs is in the phone's audit, as its own entry.

Red-team issue 33: `echo '...' | adb shell -T` (and an interactive shell) was recorded as one empty
command, so what it ran was never judged. Through the real adb CLI (shell v2: raw and pty) and adbutils
(shell v1, what a program holding a raw `shell:` stream gets), the lines come back one by one and the
classifier marks the session tampered.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from console_client import ConsoleClient

from spa_bench.device.audit import DeviceAudit, SentCommand
from spa_bench.evaluation.shell_audit import shell_audit

if TYPE_CHECKING:
    from conftest import PhoneHandle


def _since(handle: PhoneHandle, mark: int) -> list[tuple[str, str]]:
    client = ConsoleClient(handle.phone.config.console_port)
    assert client.cmd(f"auth {handle.phone.console_token}").endswith("OK\r\n")
    reply = client.cmd(f"spa audit since {mark}")
    client.close()
    rows = [json.loads(line) for line in reply.split("\r\n")[:-2]]
    assert rows[-1] == {"dropped": False}
    return [(r["channel"], r["command"]) for r in rows[:-1]]


def _mark(handle: PhoneHandle) -> int:
    return int(handle.phone.audit.mark())


def _tampered(entries: list[tuple[str, str]]) -> bool:
    commands = [SentCommand("shell", c) for channel, c in entries if channel == "shell"]
    return shell_audit(DeviceAudit("device", True, commands)).tampered


def test_lines_piped_into_adb_shell_dash_t_are_each_recorded(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    mark = _mark(running_phone)
    script = b"settings put global airplane_mode_on 1\nsettings get global airplane_mode_on\n"
    proc = running_phone.adb.run("shell", "-T", input=script, serial=running_phone.serial)
    assert proc.stdout.decode().strip() == "1"  # the session ran, as on a phone
    entries = _since(running_phone, mark)
    assert [e for e in entries if e[0] == "shell"] == [("shell", "settings put global airplane_mode_on 1"),
                                                      ("shell", "settings get global airplane_mode_on")]
    assert ("shell", "") not in entries
    assert _tampered(entries)


def test_lines_typed_into_a_pty_shell_are_recorded_after_line_editing(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    mark = _mark(running_phone)
    # -tt: a pty even though stdin is not a terminal; DEL (0x7f) erases the typo before the line runs
    typed = b"setprop persist.sys.locale zh-CX\x7fN\rdumpsys battery | head -1\rexit\r"
    running_phone.adb.run("shell", "-tt", input=typed, serial=running_phone.serial)
    shell_entries = [e for e in _since(running_phone, mark) if e[0] == "shell"]
    assert shell_entries == [("shell", "setprop persist.sys.locale zh-CN"),
                             ("shell", "dumpsys battery | head -1")]
    assert _tampered(shell_entries)


def test_a_v1_shell_stream_with_no_command_is_recorded_line_by_line(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    mark = _mark(running_phone)
    conn = running_phone.device().shell("", stream=True)  # adbutils: `shell:` with no command (v1, a tty)
    insert = b"content insert --uri content://settings/system --bind name:s:x --bind value:s:1"
    try:
        conn.conn.sendall(insert + b"\r")
        conn.conn.sendall(b"exit\r")
        deadline = time.monotonic() + 10
        while conn.conn.recv(4096) and time.monotonic() < deadline:  # until the phone closes the session
            pass
    finally:
        conn.close()
    shell_entries = [e for e in _since(running_phone, mark) if e[0] == "shell"]
    assert shell_entries == [("shell", insert.decode())]
    assert _tampered(shell_entries)


def test_a_session_that_only_reads_is_not_tampered(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    mark = _mark(running_phone)
    running_phone.adb.run("shell", "-T", input=b"getprop ro.product.model\necho done\n",
                          serial=running_phone.serial)
    shell_entries = [e for e in _since(running_phone, mark) if e[0] == "shell"]
    assert shell_entries == [("shell", "getprop ro.product.model"), ("shell", "echo done")]
    assert not _tampered(shell_entries)
