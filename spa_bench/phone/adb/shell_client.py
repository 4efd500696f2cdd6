"""The client end of a `shell:` / `shell,v2,...:` / `exec:` stream as a long-running command sees it.

A command such as `logcat` (without -d) or a server started with `app_process` runs until the host
closes the stream, writing as it goes; `StreamClient` is that stream behind the shell's `ClientLink`:
`send` writes now (raw for v1 and exec, as v2 frames of id 1/2 otherwise; exec carries no stderr) and
`wait_gone` tells when the host has hung up. Input the host sends meanwhile is no command's stdin any
more (the command never reads it): it is read and dropped so that flow control never stalls.
"""

from __future__ import annotations

import time
from typing import Literal

from spa_bench.phone.adb.stream import Stream, StreamClosedError

ID_STDOUT, ID_STDERR = 1, 2
ClientMode = Literal["v1", "v2", "exec"]


class StreamClient:
    """`ClientLink` over one ADB stream."""

    def __init__(self, stream: Stream, mode: ClientMode) -> None:
        self.stream = stream
        self.mode = mode

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

    def wait_gone(self, timeout: float) -> bool:
        deadline = time.monotonic() + max(0.0, timeout)
        while not self.stream.closed:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if self.stream.wait_readable(remaining) and not self.stream.at_eof:
                self.stream.read()
            elif self.stream.at_eof:
                return True
        return True
