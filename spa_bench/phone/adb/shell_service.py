"""The `shell:`, `shell,v2,...:` and `exec:` services on top of the phone's shell.

v1 (`shell:CMD`, which adbutils always uses) and `exec:` send the command's output as raw bytes, with
no newline translation, so a PNG from `screencap -p` arrives byte-exact. v2 frames every message as
`[u8 id][u32 len][data]`: 0 stdin, 1 stdout, 2 stderr, 3 exit code, 4 close stdin, 5 window size.

A command reads stdin only when it asks for it (the shell gets a function, called on the first read), as
a process on a phone reads its fd: `content query` never waits for input, whatever the host sends. A
command that does read waits for the end of stdin once input has started to arrive, and gives up after
`STDIN_GRACE` seconds of silence before any: the host closes stdin at once when its own stdin is a file or
/dev/null (v2 sends id 4), but never when it is a terminal, and the harness sends no stdin frame at all.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Protocol

from spa_bench.phone.adb.shell_client import StreamClient
from spa_bench.phone.adb.stream import Stream

ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = 0, 1, 2, 3, 4, 5
_FRAME = struct.Struct("<BI")
FRAME_CHUNK = 64 * 1024
STDIN_GRACE = 0.05
PROMPT = b"vphone:/ $ "
LineHook = Callable[[str], None]

class ShellOutput(Protocol):
    """What the phone's shell returns (spa_bench.phone.shell.ShellResult)."""

    @property
    def stdout(self) -> bytes: ...

    @property
    def stderr(self) -> bytes: ...

    @property
    def exit_code(self) -> int: ...


class ShellRunner(Protocol):
    """The phone's shell (spa_bench.phone.shell.Shell)."""

    def run(self, command: str, stdin: bytes | Callable[[], bytes] = b"",
            client: StreamClient | None = None) -> ShellOutput: ...


def frame(kind: int, data: bytes) -> bytes:
    return _FRAME.pack(kind, len(data)) + data


class FrameReader:
    """Reads v2 frames from a stream; (None, b"") at end of stream."""

    def __init__(self, stream: Stream) -> None:
        self.stream = stream

    def next(self, timeout: float | None = None) -> tuple[int | None, bytes]:
        if timeout is not None and not self.stream.wait_readable(timeout):
            raise TimeoutError
        try:
            kind, length = _FRAME.unpack(self.stream.read_exact(_FRAME.size))
            return kind, self.stream.read_exact(length)
        except EOFError:
            return None, b""


def collect_stdin_v2(stream: Stream) -> bytes:
    """stdin of a v2 command: frames until close-stdin, waiting only while input keeps coming."""
    reader = FrameReader(stream)
    data = bytearray()
    while True:
        try:
            kind, payload = reader.next(timeout=STDIN_GRACE if not data else 30.0)
        except TimeoutError:
            return bytes(data)
        if kind is None or kind == ID_CLOSE_STDIN:
            return bytes(data)
        if kind == ID_STDIN:
            data += payload


def collect_stdin_raw(stream: Stream) -> bytes:
    """stdin of an `exec:` command (`adb exec-in`): raw bytes until the host closes its side."""
    if not stream.wait_readable(STDIN_GRACE):
        return b""
    return stream.read_all()


def run_v1(stream: Stream, shell: ShellRunner, command: str, on_line: LineHook | None = None) -> None:
    """`shell:CMD`: stdout then stderr as raw bytes; the exit code is lost, as on a real phone.
    `on_line`: told each line an interactive session (no CMD) runs, before it runs."""
    if not command.strip():
        interactive(stream, shell, framed=False, tty=True, on_line=on_line)
        return
    result = shell.run(command, client=StreamClient(stream, "v1"))  # what a command sent live is not here
    # one stream carries both, interleaved in write order (adbutils' shell2 needs its trailing marker last)
    combined = getattr(result, "output", b"")
    stream.write(combined if combined else result.stdout + result.stderr)


def run_exec(stream: Stream, shell: ShellRunner, command: str) -> None:
    """`exec:CMD` (exec-out/exec-in): like v1 but stdout only, and it may consume stdin."""
    result = shell.run(command, lambda: collect_stdin_raw(stream), client=StreamClient(stream, "exec"))
    if not stream.closed:
        stream.write(result.stdout)


def run_v2(stream: Stream, shell: ShellRunner, args: str, command: str,
           on_line: LineHook | None = None) -> None:
    """`shell,v2,<args>:CMD`: framed stdout/stderr and the exit code; `pty` without a command is a REPL.
    `on_line` as for run_v1."""
    if not command.strip():
        interactive(stream, shell, framed=True, tty="pty" in args.split(","), on_line=on_line)
        return
    result = shell.run(command, lambda: collect_stdin_v2(stream), client=StreamClient(stream, "v2"))
    out = bytearray()
    for kind, data in ((ID_STDOUT, result.stdout), (ID_STDERR, result.stderr)):
        for start in range(0, len(data), FRAME_CHUNK):
            out += frame(kind, data[start:start + FRAME_CHUNK])
    out += frame(ID_EXIT, bytes([result.exit_code & 0xFF]))
    stream.write(bytes(out))


def interactive(stream: Stream, shell: ShellRunner, framed: bool, tty: bool,
                on_line: LineHook | None = None) -> None:
    """`adb shell` without a command: on a terminal (tty) a line-editing prompt with echo, backspace,
    ^C, ^D and exit; otherwise (`... | adb shell`) a silent `sh` that runs each line it reads. The v2
    exit code is the last command's, as with `sh`. `on_line` gets each line as it will run (after line
    editing), before it runs: the audit sees a session's commands one by one, not one empty command."""
    reader = FrameReader(stream)
    prompt = PROMPT if tty else b""
    line = bytearray()
    status = 0

    def out(data: bytes) -> None:
        if data:
            stream.write(frame(ID_STDOUT, data) if framed else data)

    def finish() -> None:
        if framed:
            stream.write(frame(ID_EXIT, bytes([status & 0xFF])))

    def run_line() -> bool:
        """Run the collected line; False when it asks to leave."""
        nonlocal status
        text = line.decode("utf-8", errors="replace").strip()
        line.clear()
        if text in ("exit", "logout"):
            return False
        if text:
            if on_line is not None:
                on_line(text)
            result = shell.run(text)
            status = result.exit_code
            output = result.stdout + result.stderr
            out(output.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") if tty else output)
        out(prompt)
        return True

    out(prompt)
    while True:
        if framed:
            kind, data = reader.next()
            if kind is None or kind == ID_CLOSE_STDIN:
                data = b""
            elif kind != ID_STDIN:
                continue
        else:
            data = stream.read()
        if not data:  # end of input: run a last unterminated line, like sh
            if line.strip() and not tty:
                run_line()
            finish()
            return
        for byte in data:
            if byte in (0x0D, 0x0A):
                if tty:
                    out(b"\r\n")
                if not run_line():
                    finish()
                    return
            elif tty and byte in (0x7F, 0x08):
                if line:
                    line.pop()
                    out(b"\b \b")
            elif tty and byte == 0x03:
                line.clear()
                out(b"^C\r\n" + prompt)
            elif byte == 0x04 and not line:
                finish()
                return
            else:
                line.append(byte)
                if tty:
                    out(bytes([byte]))
