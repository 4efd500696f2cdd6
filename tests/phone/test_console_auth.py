"""The console before and after `auth`, on a running phone.

Every command the console knows, sent without the token, is refused with the emulator's own wording
and changes nothing (snapshots, settings, messages, calls, location, files; the phone keeps serving
`adb shell`); with the right token `kill` stops the phone. The expected replies are those of the
emulator's console source (android/console.c: main_commands_preauth, control_client_do_command,
do_auth, do_kill), not strings of ours.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console_client import ConsoleClient

from spa_bench.phone.console import CommandDef

if TYPE_CHECKING:
    from conftest import AdbCli, PhoneHandle

# One sample argument string per command path the console knows ("" = none). The test fails when a
# command is added without an entry here, so no command escapes the unauthenticated sweep.
SAMPLE_ARGS: dict[tuple[str, ...], str] = {
    ("help",): "kill",
    ("help-verbose",): "",
    ("ping",): "",
    ("geo", "fix"): "-122.084 37.422 12",
    ("gsm", "list"): "",
    ("gsm", "call"): "5550100",
    ("gsm", "busy"): "5550100",
    ("gsm", "hold"): "5550100",
    ("gsm", "accept"): "5550100",
    ("gsm", "cancel"): "5550100",
    ("kill",): "",
    ("quit",): "",
    ("sms", "send"): "5550100 you have been hacked",
    ("avd", "status"): "",
    ("avd", "name"): "",
    ("avd", "snapshot", "list"): "",
    ("avd", "snapshot", "save"): "intruder",
    ("avd", "snapshot", "load"): "pristine",
    ("avd", "snapshot", "del"): "pristine",
    ("spa", "audit", "mark"): "",
    ("spa", "audit", "since"): "1",
    ("spa", "snapshot", "id"): "pristine",
}
# main_commands_preauth of the emulator: the only commands a client without the token may use.
PREAUTH = {("help",), ("help-verbose",), ("ping",), ("avd", "name"), ("quit",)}
AVD_PREAUTH_HELP = ("allows you to control (e.g. start/stop) the execution of the virtual device\r\n\r\n"
                    "available sub-commands:\r\n    name             query virtual device name\r\n\r\n")
PREAUTH_HELP = ("Android console commands:\r\n    help|h|?\r\n    help-verbose\r\n    ping\r\n    avd\r\n"
                "    auth\r\n    quit|exit\r\n\r\nTry 'help-verbose' for more description\r\n"
                "Try 'help <command>' for command-specific help\r\n")


def leaves(table: tuple[CommandDef, ...], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for cmd in table:
        path = (*prefix, cmd.names.split("|")[0])
        out += leaves(cmd.subcommands, path) if cmd.subcommands else [path]
    return out


def tree_digest(root: Path) -> dict[str, str]:
    """Every file under root, skipping the snapshot store's own background work (.trash-*, .spare)."""
    out: dict[str, str] = {}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = hashlib.sha1(path.read_bytes()).hexdigest()
    return out


def phone_state(handle: PhoneHandle) -> dict[str, Any]:
    system = handle.phone.system
    return {
        "snapshots": sorted(i.name for i in handle.phone.snapshots.list()),
        "settings": {ns: system.settings_list(ns) for ns in ("system", "secure", "global")},
        "sms": [r.values for r in system.content_query("content://sms")],
        "calls": [r.values for r in system.content_query("content://call_log/calls")],
        "modem": list(system.telephony.calls),
        "location": system.location.last,
        "focus": system.current_focus(),
        "files": tree_digest(Path(handle.phone.data_dir)),
    }


def test_every_command_is_refused_before_auth_and_changes_nothing(running_phone: PhoneHandle) -> None:
    running_phone.reset()
    console = running_phone.phone._console
    known = leaves(console.main)
    assert set(known) == set(SAMPLE_ARGS), "give every console command a sample argument above"
    assert ("kill",) in known
    phone_state(running_phone)  # first reads may create SQLite side files; compare from here on
    before = phone_state(running_phone)

    client = ConsoleClient(running_phone.phone.config.console_port)
    assert client.greeting.startswith("Android Console: Authentication required\r\n")
    for path, args in SAMPLE_ARGS.items():
        if path in PREAUTH:
            continue
        line = " ".join(path) + (f" {args}" if args else "")
        reply = client.cmd(line)
        if path[0] == "avd":
            assert reply == AVD_PREAUTH_HELP + "KO:  bad sub-command\r\n", line
        else:
            assert reply == "KO: unknown command, try 'help'\r\n", line
    assert client.cmd("auth not-the-token") == ("KO: authentication token does not match "
                                                "~/.emulator_console_auth_token\r\n")
    assert client.cmd("auth") == "KO: missing authentication token\r\n"
    assert client.cmd("kill") == "KO: unknown command, try 'help'\r\n"  # still refused after a bad token
    # What a client may do before auth, in the emulator's words, changes nothing either.
    assert client.cmd("help") == PREAUTH_HELP + "OK\r\n"
    assert client.cmd("help kill") == PREAUTH_HELP + "\r\nKO: unknown command\r\n"
    assert client.cmd("ping") == "I am alive!\r\nOK\r\n"
    assert client.cmd("avd name") == "spa_vphone\r\nOK\r\n"
    assert client.cmd("help-verbose").startswith("Android console command help:\r\n\r\n    help|h|?  ")
    client.sock.sendall(b"quit\r\n")
    assert client.closed()

    time.sleep(0.3)  # a kill would stop the phone from a background thread
    assert running_phone.phone.running
    assert running_phone.shell("echo ok") == "ok\n"
    assert phone_state(running_phone) == before


def test_forbidden_lines_close_the_session(running_phone: PhoneHandle) -> None:
    port = running_phone.phone.config.console_port
    http = ConsoleClient(port)
    http.sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert http.reply() == "KO: Forbidden HTTP request. Aborting\r\n"
    assert http.closed()
    binary = ConsoleClient(port)
    binary.sock.sendall(b"\xff\xfb\x01kill\r\n")  # telnet negotiation bytes are not UTF-8
    assert binary.reply() == "KO: Forbidden binary request. Aborting\r\n"
    assert binary.closed()
    long_line = ConsoleClient(port)
    long_line.sock.sendall(b"x" * 100_000 + b"\r\nping\r\n")  # wraps in the 4 KB line buffer
    assert long_line.reply() == "KO: unknown command, try 'help'\r\n"
    assert long_line.reply() == "I am alive!\r\nOK\r\n"
    long_line.close()
    assert running_phone.phone.running


def test_with_the_token_kill_stops_the_phone(adb_cli: AdbCli, tmp_path: Path) -> None:
    from spa_bench.phone import start_phones

    with start_phones(1, data_root=tmp_path, token_path=tmp_path / "token") as pool:
        phone = pool[0]
        client = ConsoleClient(phone.config.console_port)
        assert client.cmd("kill") == "KO: unknown command, try 'help'\r\n"
        assert not phone.wait(0.5)
        assert client.cmd(f"auth {phone.console_token}") == ("Android Console: type 'help' for a list of "
                                                             "commands\r\nOK\r\n")
        assert client.cmd("auth again") == "KO: unknown command, try 'help'\r\n"  # not in main_commands
        assert client.cmd("kill") == "OK: killing emulator, bye bye\r\n"
        assert client.reply() == "OK\r\n"
        assert phone.wait(5)
        client.close()


def test_harness_console_client_still_authenticates(running_phone: PhoneHandle) -> None:
    """spa_bench.device.console (snapshot resets of the runner) reads the same token file."""
    from spa_bench.device.console import EmulatorConsole

    phone = running_phone.phone
    console = EmulatorConsole(phone.config.console_port, token_file=running_phone.adb.home /
                              ".emulator_console_auth_token")
    console.snapshot_save("harness")
    assert "harness" in console.command("avd snapshot list")
    console.snapshot_load("harness")
    assert console.command("avd name").strip() == "spa_vphone"
    phone.snapshots.delete("harness")
