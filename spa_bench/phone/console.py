"""An emulator-style telnet console on 127.0.0.1:(adb port - 1), for snapshots and `adb emu`.

It follows the Android emulator's own console (android/console.c of the emulator sources) where a
client can tell: the greeting, token authentication against ~/.emulator_console_auth_token (created with
a random token when missing; an empty file turns authentication off), the command tables and their
wording, and `OK` / `KO: reason` replies. Before a successful `auth` a client gets the emulator's
pre-auth table only: `help`, `help-verbose`, `ping`, `avd name`, `auth`, `quit|exit`, none of which changes
anything; every other command is refused ("KO: unknown command, try 'help'", or "KO:  bad sub-command"
after the `avd` help for other `avd` sub-commands) and has no effect.
After `auth`: `avd status|name|snapshot list|save|load|del`, `kill`, and the modem commands of
`console_modem` (`sms send`, `gsm call|accept|cancel|busy|hold|list`, `geo fix`). Emulator commands the
phone has nothing behind (network, power, event, redir, sensor, finger, rotate, `gsm signal`, `geo nmea`,
`avd stop`, ...) are not in the tables, so they are refused as unknown rather than answered OK.
So `adb -s emulator-5554 emu avd snapshot load x` works for a phone whose ADB port is 5555.
Every line a client sends goes to `on_line` before it runs: the phone's audit (console_audit) records it.
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
import socket
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from spa_bench.phone.adb.listener import TcpListener
from spa_bench.phone.snapshot import SnapshotError, SnapshotStore

if TYPE_CHECKING:
    from spa_bench.phone.console_modem import Modem

TOKEN_FILE = ".emulator_console_auth_token"
LINE_MAX = 4096  # the emulator's line buffer; a longer line wraps around, as there
AUTH_TIMEOUT_S = 60.0  # a client that has not authenticated by then is dropped (its thread freed)
HELP_PROMPT = "Android Console: type 'help' for a list of commands\n"
# android_http_is_request_line(): a browser or a DNS-rebinding page talking to the console port.
_HTTP_REQUEST = re.compile(rb"^[A-Z]+ \S+ HTTP/\d\.\d$")


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
class Session:
    """One client: the command table it may use (pre-auth until `auth` succeeds) and its output."""

    commands: tuple[CommandDef, ...]
    out: list[str] = field(default_factory=list)
    finished: bool = False
    killed: bool = False

    def write(self, text: str) -> None:
        self.out.append(text)


# A handler writes its output and returns True for success (the dispatcher then adds "OK"), or writes a
# "KO: ..." line and returns False, like the emulator's `return 0` / `return -1`.
Handler = Callable[[Session, str | None], bool]


@dataclass(frozen=True)
class CommandDef:
    """One row of a console command table (`CommandDefRec`): names like "help|h|?", a one-line
    abstract, an optional longer description, and either a handler or sub-commands."""

    names: str
    abstract: str
    description: str | None = None
    handler: Handler | None = None
    subcommands: tuple[CommandDef, ...] = ()

    def matches(self, line: str) -> bool:
        """Whether `line` starts with one of the names, followed by a space or the end (case matters)."""
        return any(line.startswith(name) and line[len(name):len(name) + 1] in ("", " ")
                   for name in self.names.split("|"))


def find_command(line: str, table: tuple[CommandDef, ...]) -> tuple[CommandDef, str | None] | None:
    """The row `line` names and its arguments (leading spaces dropped; None when there are none)."""
    space = line.find(" ")
    args = (line[space:].lstrip(" ") or None) if space >= 0 else None
    for cmd in table:
        if cmd.matches(line):
            return cmd, args
    return None


def dump_help(session: Session, cmd: CommandDef, prefix: str) -> None:
    session.write(cmd.description if cmd.description is not None else f"{cmd.abstract}\n")
    if cmd.subcommands:
        session.write("\navailable sub-commands:\n")
        for sub in cmd.subcommands:
            session.write(f"   {prefix} {sub.names:<15}  {sub.abstract}\n")
        session.write("\n")


def execute(session: Session, line: str) -> None:
    """Run one command line against the session's table (control_client_do_command)."""
    found = find_command(line, session.commands)
    if found is None:
        session.write("KO: unknown command, try 'help'\n")
        return
    cmd, args = found
    while True:
        if cmd.handler is not None:
            if cmd.handler(session, args):
                session.write("OK\n")
            return
        if args is None:
            dump_help(session, cmd, "")
            session.write("KO: missing sub-command\n")
            return
        found = find_command(args, cmd.subcommands)
        if found is None:
            dump_help(session, cmd, "")
            session.write("KO:  bad sub-command\n")
            return
        cmd, args = found


def _help_list(session: Session) -> None:
    session.write("Android console commands:\n")
    for cmd in session.commands:
        session.write(f"    {cmd.names}\n")
    session.write("\nTry 'help-verbose' for more description"
                  "\nTry 'help <command>' for command-specific help\n")


def do_help(session: Session, args: str | None) -> bool:
    if args is None:
        _help_list(session)
        return True
    start, table = args, session.commands
    rest: str | None = args
    while rest is not None:
        found = find_command(rest, table)
        if found is None:
            _help_list(session)
            session.write("\nKO: unknown command\n")
            return False
        sub, rest = found
        if rest is None or not sub.subcommands:
            dump_help(session, sub, start)
            return True
        table = sub.subcommands
    return True


def do_help_verbose(session: Session, _args: str | None) -> bool:
    session.write("Android console command help:\n\n")
    for cmd in session.commands:
        session.write(f"    {cmd.names:<15}  {cmd.abstract}\n")
    session.write("\ntry 'help <command>' for command-specific help\n")
    return True


def do_ping(session: Session, _args: str | None) -> bool:
    session.write("I am alive!\n")
    return True


def do_quit(session: Session, _args: str | None) -> bool:
    session.finished = True
    return False


HELP = CommandDef("help|h|?", "print a list of commands", handler=do_help)
HELP_VERBOSE = CommandDef("help-verbose", "print a list of commands with descriptions",
                          handler=do_help_verbose)
PING = CommandDef("ping", "check if the emulator is alive", handler=do_ping)
QUIT = CommandDef("quit|exit", "quit control session", handler=do_quit)


def avd_command(subcommands: tuple[CommandDef, ...]) -> CommandDef:
    return CommandDef("avd", "control virtual device execution",
                      "allows you to control (e.g. start/stop) the execution of the virtual device\n",
                      subcommands=subcommands)


class Console:
    """The console server of one phone. `modem` gives the phone's radio (SMS, calls, GPS) to the
    `sms`, `gsm` and `geo` commands; without one they answer as an emulator with no modem would.
    `extra`: commands of the virtual phone's own after authentication (spa_bench.phone.console_audit).
    `on_line`: told every command line a client sends, before it runs (the phone's audit)."""

    def __init__(self, port: int, avd_name: str, snapshots: SnapshotStore, on_kill: Callable[[], None],
                 token_path: Path | None = None, modem: Modem | None = None,
                 extra: tuple[CommandDef, ...] = (), on_line: Callable[[str], None] | None = None) -> None:
        from spa_bench.phone.console_modem import modem_commands

        self.avd_name = avd_name
        self.snapshots = snapshots
        self.on_kill = on_kill
        self.on_line = on_line
        self.token_path = token_path or default_token_path()
        self.token = ""
        self.listener = TcpListener(port, self._serve, name="console")
        name = CommandDef("name", "query virtual device name",
                          "'avd name' will return the name of this virtual device\n", self._avd_name)
        self.preauth: tuple[CommandDef, ...] = (
            HELP, HELP_VERBOSE, PING, avd_command((name,)),
            CommandDef("auth", "user authentication for the emulator console",
                       "use 'auth <auth_token>' to get extended console functionality\n", self._auth),
            QUIT)
        snapshot = CommandDef(
            "snapshot", "state snapshot commands",
            "allows you to save and restore the virtual device state in snapshots\n",
            subcommands=self._snapshot_commands())
        status = CommandDef("status", "query virtual device status",
                            "'avd status' will indicate whether the virtual device is running or not\n",
                            self._avd_status)
        geo, gsm, sms = modem_commands(modem)
        self.main: tuple[CommandDef, ...] = (
            HELP, HELP_VERBOSE, PING, geo, gsm,
            CommandDef("kill", "kill the emulator instance", handler=self._kill),
            QUIT, sms, avd_command((status, name, snapshot)), *extra)

    @property
    def port(self) -> int:
        return self.listener.port

    def start(self) -> None:
        self.token = read_or_create_token(self.token_path)
        self.listener.start()

    def stop(self) -> None:
        self.listener.stop()

    def new_session(self) -> Session:
        return Session(self.preauth if self.token else self.main)

    def greeting(self) -> str:
        if not self.token:
            return HELP_PROMPT + "OK\n"
        return ("Android Console: Authentication required\n"
                "Android Console: type 'auth <auth_token>' to authenticate\n"
                "Android Console: you can find your <auth_token> in \n"
                f"'{self.token_path}'\nOK\n")

    # -- one client -----------------------------------------------------------------------------------
    def _serve(self, sock: socket.socket) -> None:
        session = self.new_session()
        if not _send(sock, self.greeting()):
            return
        line = bytearray()
        while not session.finished:
            sock.settimeout(AUTH_TIMEOUT_S if session.commands is self.preauth and self.token else None)
            try:
                chunk = sock.recv(4096)
            except OSError:  # a timeout included
                return
            if not chunk:
                return
            for byte in chunk:
                if byte == 0x0D:  # '\r' is filtered out, as by the emulator
                    continue
                if byte != 0x0A:
                    if len(line) >= LINE_MAX - 1:
                        line.clear()
                    line.append(byte)
                    continue
                reply = self.handle_line(session, bytes(line))
                line.clear()
                sent = not reply or _send(sock, reply)
                if session.killed:  # only the authenticated table has `kill`
                    self.on_kill()
                if session.finished or not sent:
                    return

    def handle_line(self, session: Session, raw: bytes) -> str:
        """The reply to one received line (without its newline), ending in "OK" or a "KO: ..." line."""
        session.out.clear()
        if _HTTP_REQUEST.match(raw):
            session.finished = True
            return "KO: Forbidden HTTP request. Aborting\n"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            session.finished = True
            return "KO: Forbidden binary request. Aborting\n"
        if self.on_line is not None:
            self.on_line(line)
        execute(session, line)
        return "".join(session.out)

    # -- handlers ---------------------------------------------------------------------------------------
    def _auth(self, session: Session, args: str | None) -> bool:
        if args is None:
            session.write("KO: missing authentication token\n")
            return False
        if not hmac.compare_digest(args.encode("utf-8"), self.token.encode("utf-8")):
            session.write("KO: authentication token does not match ~/.emulator_console_auth_token\n")
            return False
        session.write(HELP_PROMPT)
        session.commands = self.main
        return True

    def _avd_name(self, session: Session, _args: str | None) -> bool:
        session.write(f"{self.avd_name}\n")
        return True

    def _avd_status(self, session: Session, _args: str | None) -> bool:
        session.write("virtual device is running\n")
        return True

    def _kill(self, session: Session, _args: str | None) -> bool:
        session.write("OK: killing emulator, bye bye\n")
        session.killed = session.finished = True
        return True

    def _snapshot_commands(self) -> tuple[CommandDef, ...]:
        def run(action: str, fn: Callable[[str], object]) -> Handler:
            def handler(session: Session, args: str | None) -> bool:
                if args is None:
                    session.write(f"KO: Argument missing, try 'avd snapshot {action} <name>'\n")
                    return False
                try:
                    fn(args)
                except SnapshotError as exc:
                    session.write(f"KO: {exc}\n")
                    return False
                return True
            return handler

        return (
            CommandDef("list", "list available state snapshots",
                       "'avd snapshot list' will show a list of all state snapshots that can be loaded\n",
                       self._snapshot_list),
            CommandDef("save", "save state snapshot",
                       "'avd snapshot save <name>' will save the current (run-time) state to a snapshot "
                       "with the given name\n", run("save", self.snapshots.save)),
            CommandDef("load", "load state snapshot",
                       "'avd snapshot load <name>' will load the state snapshot of the given name\n",
                       run("load", self.snapshots.load)),
            CommandDef("del|delete", "delete state snapshot",
                       "'avd snapshot del <name>' will delete the state snapshot with the given name\n",
                       run("del", self.snapshots.delete)),
        )

    def _snapshot_list(self, session: Session, _args: str | None) -> bool:
        rows = ["List of snapshots present on all disks:",
                "ID        TAG                 VM SIZE                DATE       VM CLOCK"]
        for info in self.snapshots.list():
            size = f"{max(1, info.size_bytes // (1024 * 1024))}M"
            date = info.created[:19].replace("T", " ")
            rows.append(f"--        {info.name:<20}{size:>8} {date:>19}   00:00:00.000")
        session.write("\n".join(rows) + "\n")
        return True


def _send(sock: socket.socket, text: str) -> bool:
    """Send with every newline as CRLF (control_control_write); False when the client is gone."""
    try:
        sock.sendall(text.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8"))
    except OSError:
        return False
    return True
