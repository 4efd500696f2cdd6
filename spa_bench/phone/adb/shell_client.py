"""The client end of a `shell:` / `shell,v2,...:` / `exec:` stream as a long-running command sees it.

A command such as `logcat` (without -d) or a server started with `app_process` runs until the host
closes the stream, writing as it goes; `StreamClient` is that stream behind the shell's `ClientLink`:
`send` writes now (raw for v1 and exec, as v2 frames of id 1/2 otherwise; exec carries no stderr),
`wait_gone` tells when the host has hung up and `read_line` gives the `read` builtin the next line the
host sends (adbutils' screen recording script waits for a newline that way). What the host sends is
kept (up to MAX_PENDING bytes) until `read_line` takes it, so a command waiting for the hang-up in one
thread never eats the line another one reads.
"""

from __future__ import annotations

import threading
import time
from typing import Literal

from spa_bench.phone.adb.stream import Stream, StreamClosedError

ID_STDOUT, ID_STDERR = 1, 2
MAX_PENDING = 64 * 1024
ClientMode = Literal["v1", "v2", "exec"]


class StreamClient:
    """`ClientLink` over one ADB stream."""

    def __init__(self, stream: Stream, mode: ClientMode) -> None:
        self.stream = stream
        self.mode = mode
        self._pending = bytearray()
        self._lock = threading.Lock()

    @property
    def interleaved(self) -> bool:
        return self.mode == "v1"

    def send(self, fd: int, data: bytes) -> None:
        """Write now; once the host has hung up the bytes are dropped (the command learns it from
        `wait_gone`, as a process on a phone learns it from its next poll)."""
        if not data:
            return
        try:
            if self.mode == "v2":
                kind = ID_STDERR if fd == 2 else ID_STDOUT
                self.stream.write(bytes([kind]) + len(data).to_bytes(4, "little") + data)
            elif self.mode == "v1" or fd == 1:
                self.stream.write(data)
        except StreamClosedError:
            pass

    def _take_input(self) -> None:
        """Move what the host sent into the pending buffer (v2 input is framed: the payload is kept)."""
        data = self.stream.read(timeout=0)
        if not data:
            return
        with self._lock:
            if len(self._pending) + len(data) <= MAX_PENDING:
                self._pending += data

    def wait_gone(self, timeout: float) -> bool:
        deadline = time.monotonic() + max(0.0, timeout)
        while not self.stream.closed:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if self.stream.wait_readable(remaining):
                if self.stream.at_eof:
                    return True
                self._take_input()
        return True

    def read_line(self) -> bytes | None:
        while True:
            with self._lock:
                end = self._pending.find(b"\n")
                if end >= 0:
                    line = bytes(self._pending[:end + 1])
                    del self._pending[:end + 1]
                    return line
                if self.stream.at_eof:
                    rest = bytes(self._pending)
                    self._pending.clear()
                    return rest or None
            if self.stream.wait_readable(0.2) and not self.stream.at_eof:
                self._take_input()
