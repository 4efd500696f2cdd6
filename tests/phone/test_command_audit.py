"""The phone's record of what reached it over ADB (the console's `spa audit`), through the real adb CLI.

Shell commands (v1 and v2), exec-out and pushes are recorded in order with their channel, as the
command lines arrived; the contents pushed are not. Only an authenticated console client may read it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from console_client import ConsoleClient

if TYPE_CHECKING:
    from conftest import PhoneHandle


def _authed(handle: PhoneHandle) -> ConsoleClient:
    client = ConsoleClient(handle.phone.config.console_port)
    assert client.cmd(f"auth {handle.phone.console_token}").endswith("OK\r\n")
    return client


def test_commands_pushes_and_execs_are_recorded_in_order(running_phone: PhoneHandle, tmp_path) -> None:
    client = _authed(running_phone)
    mark = int(client.cmd("spa audit mark").split("\r\n")[0])
    adb, serial = running_phone.adb, running_phone.serial
    adb.run("shell", "settings put global wifi_on 0", serial=serial)
    local = tmp_path / "notes.db"
    local.write_bytes(b"SECRET-CONTENT")
    adb.run("push", str(local), "/sdcard/Download/notes.db", serial=serial)
    adb.run("exec-out", "screencap -p", serial=serial)
    adb.run("shell", "input", "tap", "10", "20", serial=serial)
    reply = client.cmd(f"spa audit since {mark}")
    assert reply.endswith("\r\nOK\r\n")
    lines = [json.loads(line) for line in reply.split("\r\n")[:-2]]
    assert lines[-1] == {"dropped": False}
    entries = [(e["channel"], e["command"]) for e in lines[:-1]]
    # the adb CLI opens its services in this order; between them it may ask other things (features)
    wanted = [("shell", "settings put global wifi_on 0"), ("push", "/sdcard/Download/notes.db"),
              ("exec", "screencap -p"), ("shell", "input tap 10 20")]
    assert [e for e in entries if e in wanted] == wanted
    assert [e["seq"] for e in lines[:-1]] == sorted(e["seq"] for e in lines[:-1])
    assert all(e["seq"] >= mark for e in lines[:-1])
    assert "SECRET-CONTENT" not in reply
    client.close()


def test_since_needs_a_number(running_phone: PhoneHandle) -> None:
    client = _authed(running_phone)
    assert client.cmd("spa audit since").startswith("KO: usage: spa audit since <N>")
    assert client.cmd("spa audit since x").startswith("KO: usage")
    client.close()
