"""A minimal HTTP/1.1 server loop over one ADB stream (uiautomator2 speaks HTTP through `tcp:9008`).

One stream carries one or more requests (keep-alive); bodies are sized by Content-Length only, which
is what uiautomator2's http.client and curl through `adb forward` send. Header blocks over 64 KiB or
bodies over 16 MiB end the stream: nothing legitimate is that large.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from spa_bench.phone.adb.stream import Stream

MAX_HEADER = 64 * 1024
MAX_BODY = 16 * 1024 * 1024
REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed",
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


class _Reader:
    def __init__(self, stream: Stream) -> None:
        self.stream = stream
        self.buf = bytearray()

    def until(self, delim: bytes, limit: int) -> bytes | None:
        """Bytes up to and including delim; None at a clean end of stream."""
        while True:
            at = self.buf.find(delim)
            if at >= 0:
                out = bytes(self.buf[:at + len(delim)])
                del self.buf[:at + len(delim)]
                return out
            if len(self.buf) > limit:
                raise BadRequestError("header block too large")
            chunk = self.stream.read()
            if not chunk:
                if self.buf.strip():
                    raise BadRequestError("connection closed inside the headers")
                return None
            self.buf += chunk

    def exact(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.stream.read()
            if not chunk:
                raise BadRequestError("connection closed inside the body")
            self.buf += chunk
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
    try:
        length = int(headers.get("content-length", "0"))
    except ValueError:
        raise BadRequestError("bad Content-Length") from None
    if not 0 <= length <= MAX_BODY:
        raise BadRequestError("body too large")
    if length > len(reader.buf) and parts[2] == "HTTP/1.1":
        # An interim 100 (allowed unasked in HTTP/1.1; http.client skips it) makes the host side
        # answer at once, so a client that sent the body in a second small segment is not held back
        # by Nagle + delayed ACK (~40 ms per uiautomator2 call otherwise).
        reader.stream.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    return Request(parts[0].upper(), parts[1], parts[2], headers, reader.exact(length))


def serve_http(stream: Stream, handle: Callable[[Request], Response]) -> None:
    """Answer requests on the stream until the client closes it or asks to close."""
    reader = _Reader(stream)
    while True:
        try:
            request = read_request(reader)
        except BadRequestError as exc:
            stream.write(Response(400, str(exc).encode(), "text/plain").encode(keep_alive=False))
            return
        if request is None:
            return
        response = handle(request)
        stream.write(response.encode(request.keep_alive))
        if not request.keep_alive:
            return
