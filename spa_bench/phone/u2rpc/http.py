"""A minimal HTTP/1.1 server loop over one ADB stream (uiautomator2 speaks HTTP through `tcp:9008`).

One stream carries one or more requests (keep-alive); bodies are sized by Content-Length only, which
is what uiautomator2's http.client and curl through `adb forward` send. Header blocks over 64 KiB, bodies
over 16 MiB and a Content-Length that is not a non-negative integer get a 400 and end the stream: nothing
legitimate is like that. A request head must arrive within HEADER_TIMEOUT_S of the stream opening (or of
the previous answer) and its body within BODY_TIMEOUT_S of the head, else the stream ends (408 when part
of a request had come): a half-open stream never holds its thread for long.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from spa_bench.phone.adb.stream import Stream

MAX_HEADER = 64 * 1024
MAX_BODY = 16 * 1024 * 1024
HEADER_TIMEOUT_S = 30.0
BODY_TIMEOUT_S = 30.0
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 408: "Request Timeout",
           500: "Internal Server Error"}


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    version: str
    headers: dict[str, str]
    body: bytes = b""

    @property
    def keep_alive(self) -> bool:
        connection = self.headers.get("connection", "").lower()
        if self.version == "HTTP/1.0":
            return connection == "keep-alive"
        return connection != "close"


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes
    content_type: str = "application/json; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)

    def encode(self, keep_alive: bool) -> bytes:
        lines = [f"HTTP/1.1 {self.status} {REASONS.get(self.status, 'Unknown')}",
                 f"Content-Type: {self.content_type}", f"Content-Length: {len(self.body)}",
                 f"Connection: {'keep-alive' if keep_alive else 'close'}"]
        lines += [f"{k}: {v}" for k, v in self.headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + self.body


class BadRequestError(Exception):
    """The bytes on the stream are not an HTTP request we can serve."""

    status = 400


class RequestTimeoutError(BadRequestError):
    """Part of a request came, and the rest did not in time."""

    status = 408


class _Reader:
    def __init__(self, stream: Stream, header_timeout_s: float = HEADER_TIMEOUT_S,
                 body_timeout_s: float = BODY_TIMEOUT_S) -> None:
        self.stream = stream
        self.buf = bytearray()
        self.header_timeout_s, self.body_timeout_s = header_timeout_s, body_timeout_s

    def _more(self, deadline: float, what: str) -> bool:
        """Read what has come into the buffer; False at the end of the stream (RequestTimeoutError when
        the deadline passes first)."""
        chunk = self.stream.read(timeout=max(0.0, deadline - time.monotonic()))
        if chunk:
            self.buf += chunk
            return True
        if time.monotonic() >= deadline:
            raise RequestTimeoutError(f"{what} did not arrive in time")
        return False

    def until(self, delim: bytes, limit: int) -> bytes | None:
        """Bytes up to and including delim; None at a clean end of stream, or when nothing came before
        the header timeout."""
        deadline = time.monotonic() + self.header_timeout_s
        while True:
            at = self.buf.find(delim)
            if at >= 0:
                out = bytes(self.buf[:at + len(delim)])
                del self.buf[:at + len(delim)]
                return out
            if len(self.buf) > limit:
                raise BadRequestError("header block too large")
            try:
                more = self._more(deadline, "the request's head")
            except RequestTimeoutError:
                if self.buf.strip():
                    raise
                return None  # an idle stream: closed quietly
            if not more:
                if self.buf.strip():
                    raise BadRequestError("connection closed inside the headers")
                return None

    def exact(self, n: int) -> bytes:
        deadline = time.monotonic() + self.body_timeout_s
        while len(self.buf) < n:
            if not self._more(deadline, "the request's body"):
                raise BadRequestError("connection closed inside the body")
        out = bytes(self.buf[:n])
        del self.buf[:n]
        return out


def read_request(reader: _Reader) -> Request | None:
    head = reader.until(b"\r\n\r\n", MAX_HEADER)
    if head is None:
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise BadRequestError(f"bad request line {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            key, value = line.split(":", 1)
            headers[key.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        raise BadRequestError("chunked request bodies are not supported")
    raw_length = headers.get("content-length", "0")
    if not raw_length.isascii() or not raw_length.isdigit():  # int() would take "-1", " 1", "+1", "1_0"
        raise BadRequestError(f"bad Content-Length {raw_length[:20]!r}: not a non-negative integer")
    length = int(raw_length)
    if not 0 <= length <= MAX_BODY:
        raise BadRequestError("body too large")
    if length > len(reader.buf) and parts[2] == "HTTP/1.1":
        # An interim 100 (allowed unasked in HTTP/1.1; http.client skips it) makes the host side
        # answer at once, so a client that sent the body in a second small segment is not held back
        # by Nagle + delayed ACK (~40 ms per uiautomator2 call otherwise).
        reader.stream.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    return Request(parts[0].upper(), parts[1], parts[2], headers, reader.exact(length))


def serve_http(stream: Stream, handle: Callable[[Request], Response],
               header_timeout_s: float = HEADER_TIMEOUT_S, body_timeout_s: float = BODY_TIMEOUT_S) -> None:
    """Answer requests on the stream until the client closes it, asks to close, or is too slow."""
    reader = _Reader(stream, header_timeout_s, body_timeout_s)
    while True:
        try:
            request = read_request(reader)
        except BadRequestError as exc:
            stream.write(Response(exc.status, str(exc).encode(), "text/plain").encode(keep_alive=False))
            return
        if request is None:
            return
        response = handle(request)
        stream.write(response.encode(request.keep_alive))
        if not request.keep_alive:
            return
