"""The shell's executor: runs a parsed line against the command table, with pipes and redirections.

`Shell.run` is what the ADB `shell:` / `shell,v2` / `exec:` services call. Each call starts from a fresh
state (cwd "/", the default environment), so concurrent ADB streams never share shell state; the
phone's own state lives in the PhoneSystem, which serialises changes with its lock. Pipelines run
their commands one after the other, feeding each one's stdout to the next as stdin. Nothing here
runs a host program: an unknown command answers like mksh, `not found`, exit 127.
"""

from __future__ import annotations

import posixpath
import threading
from dataclasses import dataclass

from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.shell.commands import builtin_commands
from spa_bench.phone.shell.context import (
    NOT_FOUND,
    SHELL_NAME,
    ClientLink,
    CommandContext,
    CommandFn,
    Output,
    ShellExit,
    ShellState,
    StdinSource,
    run_guarded,
)
from spa_bench.phone.shell.expand import SHELL_PID, ExpansionError, expand_word
from spa_bench.phone.shell.parser import (
    AndOr,
    Pipeline,
    Redirect,
    Script,
    ShellSyntaxError,
    SimpleCommand,
    Word,
    parse,
    word_text,
)
from spa_bench.phone.shell.permissions import fs_for
from spa_bench.phone.system.processes import ProcessTable
from spa_bench.phone.vfs import VfsError, VirtualFS

MAX_DEPTH = 8  # nested `sh -c` / `$(...)` levels before the shell refuses
BIN_DIRS = ("/system/bin", "/system/xbin", "/bin", "/vendor/bin", "/product/bin", "/system_ext/bin",
            "/apex/com.android.runtime/bin")
DEFAULT_ENV = {
    "PATH": "/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:"
            "/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin",
    "HOME": "/",
    "USER": "shell",
    "LOGNAME": "shell",
    "SHELL": "/bin/sh",
    "HOSTNAME": "localhost",
    "TMPDIR": "/data/local/tmp",
    "ANDROID_DATA": "/data",
    "ANDROID_ROOT": "/system",
    "ANDROID_STORAGE": "/storage",
    "EXTERNAL_STORAGE": "/sdcard",
    "ASEC_MOUNTPOINT": "/mnt/asec",
}
DEV_NULL = "/dev/null"


@dataclass(frozen=True)
class ShellResult:
    """What one command line produced. `output` is stdout and stderr interleaved in the order they were
    written, as the single stream of `adb shell` v1 (and a terminal) carries them."""

    stdout: bytes
    stderr: bytes
    exit_code: int
    output: bytes = b""


class _FileSink(Output):
    """Output redirected into a virtual file; written when the command finishes."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path


class Shell:
    """A toybox-like shell on one phone. Thread-safe: `run` keeps no state between calls."""

    def __init__(self, system: PhoneSystem) -> None:
        self.system = system
        self.commands: dict[str, CommandFn] = builtin_commands()
        self.properties: dict[str, str] = {}  # setprop values the PhoneSystem does not keep itself

    # -- public -----------------------------------------------------------------------------------
    def run(self, command: str, stdin: StdinSource = b"",
            client: ClientLink | None = None) -> ShellResult:
        """Run one command line. With a `client` (the adb stream it came on), a command that keeps
        running may send its output as it goes; what it sent that way is not in the result again."""
        state = ShellState(variables=dict(DEFAULT_ENV), exported=set(DEFAULT_ENV))
        terminal: list[bytes] = []
        stdout = Output(terminal=terminal, client=client, fd=1)
        stderr = Output(terminal=terminal, client=client, fd=2)
        code = self._run_source(command, state, stdin, stdout, stderr)
        return ShellResult(stdout.getvalue(), stderr.getvalue(), code, b"".join(terminal))

    # -- ShellRunner (for commands) ---------------------------------------------------------------
    def has_command(self, name: str) -> bool:
        return name in self.commands

    def run_nested(self, source: str, ctx: CommandContext, positional: list[str] | None = None,
                   script_name: str | None = None) -> int:
        """`sh -c SOURCE [$0 ARGS]` / `sh FILE ARGS`: a child shell with a copy of the caller's state and
        its own positional parameters and jobs."""
        child = ShellState(ctx.state.cwd, dict(ctx.state.variables), set(ctx.state.exported),
                           ctx.state.status, ctx.state.depth + 1, ctx.state.su, list(positional or []),
                           script_name or SHELL_NAME, job=ctx.state.job)
        child.variables.update(ctx.env)
        return self._run_source(source, child, ctx.stdin_source, ctx.stdout, ctx.stderr)

    def run_argv(self, argv: list[str], ctx: CommandContext) -> int:
        """Run an already expanded command (`toybox ls`, `busybox`, `cmd` aliases)."""
        return self._dispatch(argv, ctx.state, ctx.env, ctx.stdin_source, ctx.stdout, ctx.stderr)

    # -- internals --------------------------------------------------------------------------------
    def _run_source(self, source: str, state: ShellState, stdin: StdinSource, stdout: Output,
                    stderr: Output) -> int:
        if state.depth > MAX_DEPTH:
            stderr.write(f"{SHELL_NAME}: too many nested shells\n")
            return 1
        try:
            script = parse(source)
        except ShellSyntaxError as exc:
            stderr.write(f"{SHELL_NAME}: {self._syntax_message(exc)}\n")
            return 1
        try:
            return self._run_script(script, state, stdin, stdout, stderr)
        except ShellExit as exc:
            return exc.code

    @staticmethod
    def _syntax_message(exc: ShellSyntaxError) -> str:
        text = str(exc)
        return text if text.startswith(("no closing quote", "$")) else f"syntax error: {text}"

    def _run_script(self, script: Script, state: ShellState, stdin: StdinSource, stdout: Output,
                    stderr: Output) -> int:
        for item in script:
            if item.background:
                self._start_job(item, state, stdout, stderr)
                state.status = 0
            else:
                state.status = self._run_and_or(item, state, stdin, stdout, stderr)
            stdin = b""  # only the line's first command gets stdin
        return state.status

    def _start_job(self, item: AndOr, state: ShellState, stdout: Output, stderr: Output) -> None:
        """`CMD &`: a job in its own thread and process (`$!` is its pid, `kill` and `wait` reach it);
        a long-running command in it (screenrecord, logcat, a server) is that process. Its output goes
        where the shell's does."""
        table = getattr(self.system, "processes", None)
        if not isinstance(table, ProcessTable):  # a phone without a process table runs it in place
            state.status = self._run_and_or(item, state, b"", stdout, stderr)
            return
        first = item.first.commands[0] if item.first.commands else None
        argv = tuple(word_text(w) for w in first.words) if first is not None else ("sh",)
        root = self.system.adb_root or state.su
        proc = table.spawn(argv or ("sh",), ppid=SHELL_PID, uid=0 if root else 2000,
                           user="root" if root else "shell")
        child = ShellState(state.cwd, dict(state.variables), set(state.exported), state.status, state.depth,
                           state.su, list(state.positional), state.script_name, job=proc)

        def run() -> None:
            try:
                self._run_and_or(item, child, b"", stdout, stderr)
            finally:
                table.end(proc)

        thread = threading.Thread(target=run, name=f"sh-job-{proc.pid}", daemon=True)
        state.jobs.append(thread)
        state.last_job = proc.pid
        thread.start()

    def _run_and_or(self, item: AndOr, state: ShellState, stdin: StdinSource, stdout: Output,
                    stderr: Output) -> int:
        code = self._run_pipeline(item.first, state, stdin, stdout, stderr)
        for op, pipeline in item.rest:
            state.status = code
            if (op == "&&") == (code == 0):
                code = self._run_pipeline(pipeline, state, b"", stdout, stderr)
        return code

    def _run_pipeline(self, pipeline: Pipeline, state: ShellState, stdin: StdinSource, stdout: Output,
                      stderr: Output) -> int:
        data: StdinSource = stdin
        code = 0
        for n, cmd in enumerate(pipeline.commands):
            last = n == len(pipeline.commands) - 1
            sink = stdout if last else Output()
            code = self._run_simple(cmd, state, data, sink, stderr)
            if not last:
                data = sink.getvalue()
        return (0 if code else 1) if pipeline.negate else code

    def _expand(self, word: Word, state: ShellState, stderr: Output, split: bool = True) -> list[str]:
        def substitute(source: str) -> str:
            out = Output()
            child = ShellState(state.cwd, dict(state.variables), set(state.exported), state.status,
                               state.depth + 1, state.su, list(state.positional), state.script_name,
                               job=state.job)
            self._run_source(source, child, b"", out, stderr)
            return out.getvalue().decode("utf-8", errors="replace")

        # globs see what this user may list: /data/data/* matches nothing for the shell user
        return expand_word(word, state, substitute, self._fs(state), split=split)

    def _fs(self, state: ShellState) -> VirtualFS:
        """The files as this line's user sees them (the shell user's permissions until root)."""
        return fs_for(self.system.fs, self.system.adb_root or state.su)

    def _run_simple(self, cmd: SimpleCommand, state: ShellState, stdin: StdinSource, stdout: Output,
                    stderr: Output) -> int:
        try:
            argv: list[str] = []
            for word in cmd.words:
                argv.extend(self._expand(word, state, stderr))
            assigns = {name: "".join(self._expand(value, state, stderr, split=False))
                       for name, value in cmd.assigns}
        except ExpansionError as exc:
            stderr.write(f"{SHELL_NAME}: {exc}\n")
            return 1
        streams: dict[int, Output] = {1: stdout, 2: stderr}
        files: list[_FileSink] = []
        try:
            stdin = self._redirect(cmd.redirects, state, stdin, streams, files)
        except _RedirectError as exc:
            stderr.write(f"{SHELL_NAME}: {exc}\n")
            return 1
        try:
            if not argv:
                state.variables.update(assigns)
                return 0
            env = state.environment() | assigns
            return self._dispatch(argv, state, env, stdin, streams[1], streams[2])
        finally:
            for sink in files:
                try:
                    self._fs(state).write_bytes(sink.path, sink.getvalue(), append=True)
                except VfsError as exc:
                    stderr.write(f"{SHELL_NAME}: can't create {sink.path}: {_reason(exc)}\n")

    def _redirect(self, redirects: tuple[Redirect, ...], state: ShellState, stdin: StdinSource,
                  streams: dict[int, Output], files: list[_FileSink]) -> StdinSource:
        fs = self._fs(state)
        for r in redirects:
            target = "".join(self._expand(r.target, state, streams[2], split=False))
            if r.op in (">&", "<&"):
                if target.isdigit():
                    if int(target) in streams:
                        streams[r.fd] = streams[int(target)]
                    elif r.op == "<&" and target == "0":
                        pass
                    else:
                        raise _RedirectError(f"{target}: bad file descriptor")
                    continue
                if target == "-":
                    streams[r.fd] = Output(discard=True)
                    continue
            path = fs.normalize(target, state.cwd)
            if r.op in ("<", "<>"):
                if path == DEV_NULL:
                    stdin = b""
                    continue
                try:
                    stdin = fs.read_bytes(target, state.cwd)
                except VfsError as exc:
                    raise _RedirectError(f"can't open {target}: {_reason(exc)}") from None
                continue
            if path in (DEV_NULL, "/dev/zero"):
                sink: Output = Output(discard=True)
            elif path in ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"):
                sink = streams[1]
            elif path in ("/dev/stderr", "/dev/fd/2", "/proc/self/fd/2"):
                sink = streams[2]
            else:
                try:
                    fs.write_bytes(target, b"", cwd=state.cwd, append=r.op == ">>")
                except VfsError as exc:
                    raise _RedirectError(f"can't create {target}: {_reason(exc)}") from None
                file_sink = _FileSink(path)
                files.append(file_sink)
                sink = file_sink
            if r.op == "&>" or (r.op == ">&" and not target.isdigit()):
                streams[1] = streams[2] = sink
            else:
                streams[r.fd] = sink
        return stdin

    def _dispatch(self, argv: list[str], state: ShellState, env: dict[str, str], stdin: StdinSource,
                  stdout: Output, stderr: Output) -> int:
        name = argv[0]
        fn = self.commands.get(name)
        if fn is None and "/" in name:
            directory, base = posixpath.split(self.system.fs.normalize(name, state.cwd))
            if directory in BIN_DIRS and base in self.commands:
                fn = self.commands[base]
            elif self.system.fs.exists(name, state.cwd):
                stderr.write(f"{SHELL_NAME}: {name}: can't execute: Permission denied\n")
                return 126
        if fn is None:
            stderr.write(f"{SHELL_NAME}: {name}: {NOT_FOUND}\n")
            return 127
        ctx = CommandContext(name=posixpath.basename(name), system=self.system, shell=self, state=state,
                             stdin_source=stdin, stdout=stdout, stderr=stderr, env=env)
        return run_guarded(fn, argv[1:], ctx)


class _RedirectError(Exception):
    """A redirection target cannot be opened; the command is not run."""


def _reason(exc: VfsError) -> str:
    """`"/x: No such file or directory"` -> `"No such file or directory"`."""
    return str(exc).rsplit(": ", 1)[-1]
