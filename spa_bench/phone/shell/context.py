"""What a shell command sees: its context (stdin, output buffers, cwd, the phone) and the command table.

A command is a small function `(args, ctx) -> exit code` that writes into `ctx.stdout` / `ctx.stderr`;
modules group them by domain and register them in a `CommandTable`. Commands never touch the host:
every path goes through `ctx.fs` (the jailed VirtualFS).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from spa_bench.phone.system.processes import Process

log = logging.getLogger(__name__)

SHELL_NAME = "/system/bin/sh"
# mksh on current Android says "inaccessible or not found"; the project's contract (and the substring
# uiautomator2 looks for) is "not found", so keep the wording in one place.
NOT_FOUND = "not found"

# A command's standard input: bytes, or a function that collects them. The adb services pass a function,
# called only when a command reads stdin, as a real process reads its fd only when it wants input: a
# command that never reads it never waits for the host to send or close it.
StdinSource = bytes | Callable[[], bytes]


class ClientLink(Protocol):
    """The client at the other end of a command line's output (an `adb shell` stream). Commands that
    keep running until the client hangs up (logcat without -d, a server started with app_process,
    screenrecord) send to it as they go (`CommandContext.go_live`) and wait on `wait_gone`."""

    @property
    def interleaved(self) -> bool:
        """True when stdout and stderr share one byte stream (shell v1), False when kept apart (v2)."""
        ...

    def send(self, fd: int, data: bytes) -> None:
        """Deliver bytes of fd 1 or 2 now (StreamClosedError-like exceptions end the command)."""
        ...

    def wait_gone(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds; True once the client has closed its end."""
        ...

    def read_line(self) -> bytes | None:
        """The next line the client sends (with its newline), waiting for it; what is left without a
        newline when the client closes; None once it has closed with nothing more (the `read` builtin
        over a v1 stream, whose input no command took as stdin)."""
        ...


class Output:
    """A byte sink for a command's stdout or stderr; `discard` sinks are /dev/null. The shell's own
    stdout and stderr also append to one shared `terminal` list, which keeps the order in which the
    two were written (what `adb shell` v1 shows on its single stream). The shell's own outputs know
    the line's `client` (when it has one); once `live`, their writes go to it at once, unbuffered."""

    def __init__(self, discard: bool = False, terminal: list[bytes] | None = None,
                 client: ClientLink | None = None, fd: int = 1) -> None:
        self.discard = discard
        self.terminal = terminal
        self.client = client
        self.fd = fd
        self.live = False
        self._chunks: list[bytes] = []

    def write(self, data: bytes | str) -> None:
        if self.discard:
            return
        chunk = data.encode("utf-8") if isinstance(data, str) else data
        if self.live and self.client is not None:
            self.client.send(self.fd, chunk)
            return
        self._chunks.append(chunk)
        if self.terminal is not None:
            self.terminal.append(chunk)

    def getvalue(self) -> bytes:
        return b"".join(self._chunks)

    def take(self) -> bytes:
        """What was buffered so far, removed from the buffer."""
        data = self.getvalue()
        self._chunks.clear()
        return data


@dataclass
class ShellState:
    """Per-line shell state: cwd and variables live until the end of the command line."""

    cwd: str = "/"
    variables: dict[str, str] = field(default_factory=dict)
    exported: set[str] = field(default_factory=set)
    status: int = 0
    depth: int = 0  # nesting of `sh -c` / command substitution, bounded by the executor
    su: bool = False  # running under `su` (root without `adb root`), inherited by nested shells
    positional: list[str] = field(default_factory=list)  # $1... of `sh FILE ARGS` / `sh -c CMD $0 ARGS`
    script_name: str = SHELL_NAME  # $0
    jobs: list[threading.Thread] = field(default_factory=list)  # `CMD &` of this shell, for `wait`
    last_job: int | None = None  # $!: the pid of the last `CMD &`
    job: Process | None = None  # the process of the background job this state runs (see processes)

    def environment(self) -> dict[str, str]:
        return {k: v for k, v in self.variables.items() if k in self.exported}


class ShellRunner(Protocol):
    """The part of the Shell that commands call back into (`sh -c`, `toybox X`, `which`)."""

    def has_command(self, name: str) -> bool:
        ...

    def run_nested(self, source: str, ctx: CommandContext, positional: list[str] | None = None,
                   script_name: str | None = None) -> int:
        ...

    def run_argv(self, argv: list[str], ctx: CommandContext) -> int:
        ...


@dataclass
class CommandContext:
    """Everything one command invocation may use."""

    name: str
    system: PhoneSystem
    shell: ShellRunner
    state: ShellState
    stdin_source: StdinSource = b""
    stdout: Output = field(default_factory=Output)
    stderr: Output = field(default_factory=Output)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def stdin(self) -> bytes:
        """All of stdin, collected now if it comes from the host."""
        if callable(self.stdin_source):
            self.stdin_source = self.stdin_source()
        return self.stdin_source

    @stdin.setter
    def stdin(self, data: bytes) -> None:
        self.stdin_source = data

    @property
    def fs(self) -> VirtualFS:
        """The phone's files with this shell's permissions (the shell user's until `adb root`)."""
        from spa_bench.phone.shell.permissions import fs_for

        return fs_for(self.system.fs, self.root)

    @property
    def root(self) -> bool:
        """uid 0: adbd runs as root, or this command runs under `su`."""
        return self.system.adb_root or self.state.su

    @property
    def cwd(self) -> str:
        return self.state.cwd

    def path(self, path: str) -> str:
        """Absolute virtual path of an argument."""
        return VirtualFS.normalize(path, self.state.cwd)

    @property
    def client(self) -> ClientLink | None:
        """The client this command's stdout goes to unbuffered once it goes live; None when its output
        is captured (a pipe, a file, `$(...)`) or the line has no client (then a command that would
        run until the client hangs up prints what it has and returns)."""
        return self.stdout.client

    def go_live(self) -> ClientLink | None:
        """Send what the line has written so far to the client, and every later write of the line's
        stdout and stderr at once (a command that keeps running: logcat, a server). None: no client."""
        client = self.stdout.client
        if client is None or self.stdout.live:
            return client
        outputs = [o for o in (self.stdout, self.stderr) if o.client is client]
        terminal = self.stdout.terminal
        if client.interleaved and terminal is not None:
            data = b"".join(terminal)
            for o in outputs:
                o.take()
            if data:
                client.send(1, data)
        else:
            for o in outputs:
                if data := o.take():
                    client.send(o.fd, data)
        if terminal is not None:
            terminal.clear()
        for o in outputs:
            o.live = True
        return client

    def out(self, data: bytes | str) -> None:
        self.stdout.write(data)

    def err(self, data: bytes | str) -> None:
        self.stderr.write(data)

    def fail(self, message: str, code: int = 1) -> int:
        """Print `name: message` on stderr (toybox style) and return `code`."""
        self.stderr.write(f"{self.name}: {message}\n")
        return code


CommandFn = Callable[[list[str], CommandContext], int]


class CommandTable:
    """Named commands of one domain module; the shell merges the tables of all modules."""

    def __init__(self) -> None:
        self.commands: dict[str, CommandFn] = {}

    def command(self, *names: str) -> Callable[[CommandFn], CommandFn]:
        def decorate(fn: CommandFn) -> CommandFn:
            for name in names:
                self.commands[name] = fn
            return fn

        return decorate


class ShellExit(Exception):
    """`exit N`: stops the rest of the line with status N."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class UsageError(Exception):
    """Bad options; the message is printed after the command name."""


@dataclass(frozen=True)
class Options:
    flags: frozenset[str]
    values: dict[str, str]
    args: list[str]

    def __contains__(self, flag: object) -> bool:
        return flag in self.flags


def parse_options(args: Iterable[str], flags: str = "", valued: str = "",
                  stop_at_first_arg: bool = False) -> Options:
    """Toybox-style short options: `-rf` bundles, `-n 5` / `-n5` values, `--` ends options, options
    may follow operands unless `stop_at_first_arg`. A lone `-` is an operand (stdin)."""
    found: set[str] = set()
    values: dict[str, str] = {}
    rest: list[str] = []
    items = list(args)
    i = 0
    while i < len(items):
        a = items[i]
        i += 1
        if a == "--":
            rest.extend(items[i:])
            break
        if not a.startswith("-") or a == "-":
            if stop_at_first_arg:
                rest.extend(items[i - 1:])
                break
            rest.append(a)
            continue
        j = 1
        while j < len(a):
            c = a[j]
            if c in valued:
                if j + 1 < len(a):
                    values[c] = a[j + 1:]
                elif i < len(items):
                    values[c] = items[i]
                    i += 1
                else:
                    raise UsageError(f"Needs 1 argument (see \"-{c}\")")
                found.add(c)
                break
            if c not in flags:
                raise UsageError(f"Unknown option '{c}'")
            found.add(c)
            j += 1
    return Options(frozenset(found), values, rest)


def run_guarded(fn: CommandFn, args: list[str], ctx: CommandContext) -> int:
    """Run a command, turning its expected failures into messages instead of exceptions."""
    from spa_bench.phone.vfs import VfsError

    try:
        return fn(args, ctx)
    except ShellExit:
        raise
    except UsageError as exc:
        return ctx.fail(f"{exc} (see \"{ctx.name} --help\")")
    except VfsError as exc:
        return ctx.fail(str(exc))
    except Exception as exc:  # a bug in a command must not kill the ADB stream that ran it
        log.exception("shell command %r failed", [ctx.name, *args])
        return ctx.fail(f"internal error: {exc!r}", 255)
