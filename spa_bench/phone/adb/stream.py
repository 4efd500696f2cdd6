"""One ADB stream (an OPENed service) seen as a blocking, socket-like byte pipe.

Services run in their own thread and call `read`/`write` like on a socket. The connection's reader
thread feeds host WRTE payloads in and delivers the host's OKAYs. Flow control follows the protocol:
a device WRTE is only sent after the host acknowledged the previous one, and host WRTEs are acked at
once unless a slow service lets more than `HIGH_WATER` bytes pile up, in which case the ack is held
back until the service has read the backlog (so a 5 MB push never fills memory faster than it drains).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from spa_bench.phone.adb.packet import A_CLSE, A_OKAY, A_WRTE, Packet

HIGH_WATER = 1024 * 1024
LOW_WATER = 256 * 1024


class StreamClosedError(Exception):
    """The stream (or its whole connection) is gone: writes cannot be delivered any more."""


SendFn = Callable[[Packet], None]


class HostLink(Protocol):
    """The host connection a stream came in on, as services that reach back to the host see it
    (spa_bench.phone.adb.connection.AdbConnection): adbd's serial for it, device-initiated streams."""

    @property
    def serial(self) -> str: ...

    def open_to_host(self, service: str) -> Stream: ...

    def on_close(self, callback: Callable[[], None]) -> None: ...


class Stream:
    """A service's end of one ADB stream. `local_id` is ours, `remote_id` is the host's (0 while a
    stream the device OPENed waits for the host's OKAY). `link` is the connection it belongs to."""

    def __init__(self, send: SendFn, local_id: int, remote_id: int, max_payload: int,
                 on_closed: Callable[[Stream], None] | None = None, link: HostLink | None = None) -> None:
        self.local_id = local_id
        self.remote_id = remote_id
        self.max_payload = max_payload
        self.link = link
        self._send = send
        self._on_closed = on_closed
        self._cond = threading.Condition()
        self._buffer = bytearray()
        self._eof = False  # the host closed its side; no more input
        self._closed = False  # we closed (or the host did): no more output
        self._can_write = True  # the host acked our last WRTE (none sent yet)
        self._ack_held = False

    # -- state ----------------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def at_eof(self) -> bool:
        """True when the host closed and everything it sent has been read."""
        with self._cond:
            return self._eof and not self._buffer

    # -- called by the connection's reader thread ------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Host WRTE payload arrived: buffer it, then ack now or hold the ack (backpressure)."""
        with self._cond:
            if self._eof:
                return
            self._buffer += data
            hold = len(self._buffer) > HIGH_WATER
            self._ack_held = hold
            self._cond.notify_all()
        if not hold:
            self._send_okay()

    def on_okay(self, remote_id: int = 0) -> None:
        """The host's OKAY: it acked our last WRTE, or (the first one of a stream we OPENed) accepted it."""
        with self._cond:
            if self.remote_id == 0:
                self.remote_id = remote_id
            self._can_write = True
            self._cond.notify_all()

    def wait_accepted(self, timeout: float) -> bool:
        """For a stream we OPENed: True once the host accepted it, False if it refused or timed out."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.remote_id == 0 and not self._closed:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return self.remote_id != 0 and not self._closed

    def on_remote_close(self) -> None:
        """Host sent CLSE (or the connection died): end input and fail further writes."""
        with self._cond:
            self._eof = True
            self._closed = True
            self._cond.notify_all()

    # -- input ----------------------------------------------------------------------------------------
    def read(self, n: int = 65536, timeout: float | None = None) -> bytes:
        """Up to n buffered bytes, blocking until some arrive; b"" at end of input (or timeout)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._buffer and not self._eof:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return b""
                self._cond.wait(remaining)
            data = bytes(self._buffer[:n])
            del self._buffer[:n]
            release = self._ack_held and len(self._buffer) < LOW_WATER
            if release:
                self._ack_held = False
        if release:
            self._send_okay()
        return data

    def read_exact(self, n: int) -> bytes:
        """Exactly n bytes; EOFError if the host closes first."""
        out = bytearray()
        while len(out) < n:
            chunk = self.read(n - len(out))
            if not chunk:
                raise EOFError(f"stream closed after {len(out)} of {n} bytes")
            out += chunk
        return bytes(out)

    def read_all(self) -> bytes:
        """Everything until the host closes its side."""
        out = bytearray()
        while chunk := self.read():
            out += chunk
        return bytes(out)

    def wait_readable(self, timeout: float) -> bool:
        """True when input (or end of input) is available within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not self._buffer and not self._eof:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    # -- output ---------------------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Send all of data as WRTE packets of at most max_payload bytes, each after the host's OKAY."""
        view = memoryview(data)
        for start in range(0, len(view), self.max_payload):
            with self._cond:
                while not self._can_write and not self._closed:
                    self._cond.wait()
                if self._closed:
                    raise StreamClosedError("stream closed by the host")
                self._can_write = False
            chunk = bytes(view[start:start + self.max_payload])
            self._send(Packet(A_WRTE, self.local_id, self.remote_id, chunk))

    def close(self) -> None:
        """Send CLSE once (if the host has not closed already) and forget the stream."""
        with self._cond:
            already = self._closed
            self._closed = True
            self._eof = True
            self._cond.notify_all()
        if not already:
            try:
                self._send(Packet(A_CLSE, self.local_id, self.remote_id))
            except StreamClosedError:
                pass
        if self._on_closed is not None:
            self._on_closed(self)

    def _send_okay(self) -> None:
        try:
            self._send(Packet(A_OKAY, self.local_id, self.remote_id))
        except StreamClosedError:
            pass
