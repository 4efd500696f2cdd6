"""An emulator-style telnet console on 127.0.0.1:(adb port - 1), for snapshots and `adb emu`.

It behaves like the Android emulator's console where clients depend on it: the greeting, token
authentication against ~/.emulator_console_auth_token (created with a random token when missing, an
empty file meaning no authentication), replies ending in `OK` or a `KO: reason` line, and the commands
`auth`, `help`, `ping`, `avd name|status|snapshot save|load|list|delete NAME`, `kill`, `quit`/`exit`.
So `adb -s emulator-5554 emu avd snapshot load x` works for a phone whose ADB port is 5555.
"""

from __future__ import annotations

import os
import secrets
import socket
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spa_bench.phone.adb.listener import TcpListener
from spa_bench.phone.snapshot import SnapshotError, SnapshotStore

TOKEN_FILE = ".emulator_console_auth_token"
HELP = """Android console commands:

    help|h|?         print a list of commands
    ping             check if the emulator is alive
    avd              control virtual device execution (name, status, snapshot)
    kill             kill the emulator instance
    auth             user authentication for the emulator console
    quit|exit        quit control session

try 'help <command>' for command-specific help"""
AVD_HELP = """allows you to control (e.g. start/stop) the execution of the virtual device

available sub-commands:
    avd name             query virtual device name
    avd status           query virtual device status
    avd snapshot         state snapshot commands"""
SNAPSHOT_HELP = """allows you to save and restore the virtual device state in snapshots

available sub-commands:
    avd snapshot list             list available state snapshots
    avd snapshot save             save state snapshot
    avd snapshot load             load state snapshot
    avd snapshot delete           delete state snapshot"""


def default_token_path() -> Path:
    return Path.home() / TOKEN_FILE


def read_or_create_token(path: Path) -> str:
    """The console token ("" = no authentication), creating a random one like the emulator does.

    Phones started together must agree on one token: the new file is written aside and linked into
    place, which fails if another phone got there first, so nobody ever reads a half-written file."""
    if path.exists():
        return path.read_text(encoding="utf-8", errors="replace").strip()
    alphabet = string.ascii_letters + string.digits + "+/"
    token = "".join(secrets.choice(alphabet) for _ in range(16))
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f"{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token)
    try:
        os.link(staging, path)
    except FileExistsError:
        token = path.read_text(encoding="utf-8", errors="replace").strip()
    finally:
        staging.unlink()
    return token


@dataclass
class _Session:
    authenticated: bool
    open: bool = True


class Console:
    """The console server of one phone."""

    def __init__(self, port: int, avd_name: str, snapshots: SnapshotStore, on_kill: Callable[[], None],
                 token_path: Path | None = None) -> None:
        self.avd_name = avd_name
        self.snapshots = snapshots
        self.on_kill = on_kill
        self.token_path = token_path or default_token_path()
        self.token = ""
        self.listener = TcpListener(port, self._serve, name="console")

    @property
    def port(self) -> int:
        return self.listener.port

    def start(self) -> None:
        self.token = read_or_create_token(self.token_path)
        self.listener.start()

    def stop(self) -> None:
        self.listener.stop()

    # -- one client -----------------------------------------------------------------------------------
    def _serve(self, sock: socket.socket) -> None:
        session = _Session(authenticated=not self.token)
        if session.authenticated:
            greeting = "Android Console: type 'help' for a list of commands"
        else:
            greeting = ("Android Console: Authentication required\r\n"
                        "Android Console: type 'auth <auth_token>' to authenticate\r\n"
                        "Android Console: you can find your <auth_token> in \r\n"
                        f"'{self.token_path}'")
        sock.sendall(f"{greeting}\r\nOK\r\n".encode())
        buf = b""
        while session.open:
            try:
                chunk = sock.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            if len(buf) > 64 * 1024:
                return
            while b"\n" in buf and session.open:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode("utf-8", errors="replace").strip()
                if not line:
                    continue
                reply = self.execute(line, session)
                if reply:
                    try:
                        sock.sendall(reply.replace("\r\n", "\n").replace("\n", "\r\n").encode())
                    except OSError:
                        return
                if line == "kill":
                    self.on_kill()

    def execute(self, line: str, session: _Session) -> str:
        """The reply to one command line, ending in "OK\\n" or a "KO: ...\\n" line ("" for quit)."""
        words = line.split()
        cmd, args = words[0].lower(), words[1:]
        if cmd in ("quit", "exit"):
            session.open = False
            return ""
        if cmd in ("help", "h", "?"):
            topic = " ".join(args)
            text = {"": HELP, "avd": AVD_HELP, "avd snapshot": SNAPSHOT_HELP}.get(topic)
            return f"{text}\nOK\n" if text else f"KO: unknown command '{topic}'\n"
        if cmd == "auth":
            if not args or args[0] != self.token:
                return f"KO: authentication token does not match {self.token_path}\n"
            session.authenticated = True
            return "Android Console: type 'help' for a list of commands\nOK\n"
        if not session.authenticated:
            return "KO: unknown command, try 'help'\n"
        if cmd == "ping":
            return "I am alive!\nOK\n"
        if cmd == "kill":
            session.open = False
            return "OK: killing emulator, bye bye\n"
        if cmd == "avd":
            return self._avd(args)
        return "KO: unknown command, try 'help'\n"

    def _avd(self, args: list[str]) -> str:
        if not args:
            return f"{AVD_HELP}\nOK\n"
        sub = args[0].lower()
        if sub == "name":
            return f"{self.avd_name}\nOK\n"
        if sub == "status":
            return "virtual device is running\nOK\n"
        if sub in ("stop", "start", "heartbeat", "rewindaudio", "bugreport", "windowtype", "id"):
            return f"KO: 'avd {sub}' is not supported by the spa-bench virtual phone\n"
        if sub != "snapshot":
            return f"KO: bad sub-command '{sub}', try 'help avd'\n"
        if len(args) < 2:
            return f"{SNAPSHOT_HELP}\nOK\n"
        action = args[1].lower()
        try:
            if action == "list":
                return self._list()
            if len(args) < 3:
                return f"KO: missing snapshot name, try 'help avd snapshot {action}'\n"
            name = args[2]
            if action == "save":
                self.snapshots.save(name)
            elif action == "load":
                self.snapshots.load(name)
            elif action in ("delete", "del"):
                self.snapshots.delete(name)
            else:
                return f"KO: bad sub-command 'snapshot {action}', try 'help avd snapshot'\n"
        except SnapshotError as exc:
            return f"KO: {exc}\n"
        return "OK\n"

    def _list(self) -> str:
        rows = ["List of snapshots present on all disks:",
                "ID        TAG                 VM SIZE                DATE       VM CLOCK"]
        for info in self.snapshots.list():
            size = f"{max(1, info.size_bytes // (1024 * 1024))}M"
            date = info.created[:19].replace("T", " ")
            rows.append(f"--        {info.name:<20}{size:>8} {date:>19}   00:00:00.000")
        return "\n".join(rows) + "\nOK\n"
