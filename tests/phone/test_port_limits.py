"""The phone's ports under hostile clients, in-process: uiautomator2's takeScreenshot never answers larger
than the screen (the real server ignores scale) and refuses a scale or quality out of range; its HTTP loop
drops a half-open request after its header or body timeout and refuses a Content-Length that is not a
non-negative integer; the ADB and console listener refuses clients past its cap while serving the ones it
has; an ADB host that never sends CNXN is dropped. Waits are on events (a thread ending, a socket closing),
bounded by a generous guard against a hang."""

from __future__ import annotations

import base64
import io
import json
import socket
import threading
from typing import Any

import pytest
from PIL import Image

from spa_bench.phone.adb import connection as adb_connection
from spa_bench.phone.adb.listener import TcpListener
from spa_bench.phone.adb.packet import A_OKAY, A_WRTE, Packet
from spa_bench.phone.adb.stream import Stream
from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.u2rpc import U2Server
from spa_bench.phone.u2rpc.http import Request, Response, serve_http

GUARD_S = 60.0


class Screen:
    """The one thing takeScreenshot asks of the phone's OS."""

    config = PhoneConfig(width=1080, height=2400)

    def screenshot(self) -> Image.Image:
        return Image.new("RGB", (1080, 2400), (10, 200, 30))


def screenshot(scale: Any, quality: Any = 80) -> dict[str, Any]:
    server = U2Server(Screen())  # type: ignore[arg-type]
    call = {"jsonrpc": "2.0", "id": 1, "method": "takeScreenshot", "params": [scale, quality]}
    reply: dict[str, Any] = server.rpc(json.dumps(call).encode())
    return reply


def size_of(reply: dict[str, Any]) -> tuple[int, int]:
    return Image.open(io.BytesIO(base64.b64decode(reply["result"]))).size


def test_takeScreenshot_never_answers_larger_than_the_screen() -> None:  # noqa: N802
    for scale in (1, 1.5, 6, 20, 40, 1e9):
        assert size_of(screenshot(scale)) == (1080, 2400), scale
    assert size_of(screenshot(0.5)) == (540, 1200)
    assert size_of(screenshot(1e-9)) == (1, 1)


@pytest.mark.parametrize(("scale", "quality", "message"), [
    (-1, 80, "scale must be a number > 0, got -1"), (0, 80, "scale must be a number > 0, got 0"),
    ("abc", 80, "scale must be a number > 0, got 'abc'"), (float("nan"), 80, "got nan"),
    (float("inf"), 80, "got inf"), (True, 80, "got True"), (1, 101, "quality must be 0..100, got 101"),
    (1, -1, "quality must be 0..100, got -1"), (1, 50.5, "quality must be 0..100, got 50.5")])
def test_takeScreenshot_refuses_a_scale_or_quality_out_of_range(scale: Any, quality: Any,  # noqa: N802
                                                                 message: str) -> None:
    error = screenshot(scale, quality)["error"]
    assert error["code"] == -32602 and "IllegalArgumentException" in error["message"]
    assert message in error["message"]


class Host:
    """The host's side of one ADB stream: feeds the service, acks its writes, keeps what it wrote."""

    def __init__(self) -> None:
        self.written = bytearray()
        self.stream = Stream(self._send, 1, 1, 4096)

    def _send(self, packet: Packet) -> None:
        if packet.command == A_WRTE:
            self.written += packet.payload
            self.stream.on_okay()
        assert packet.command in (A_WRTE, A_OKAY) or packet.payload == b""

    def serve(self, **timeouts: float) -> threading.Thread:
        thread = threading.Thread(target=serve_http, args=(self.stream, lambda r: ok(r)), kwargs=timeouts,
                                  daemon=True)
        thread.start()
        return thread


def ok(request: Request) -> Response:
    return Response(200, b"pong", "text/plain")


def test_u2_http_drops_half_open_requests_after_their_timeouts() -> None:
    head, body, idle = Host(), Host(), Host()
    threads = [host.serve(header_timeout_s=0.2, body_timeout_s=0.2) for host in (head, body, idle)]
    head.stream.feed(b"POST /jsonrpc/0 HTTP/1.1\r\nHost: x\r\n")  # the head never ends
    body.stream.feed(b"POST /jsonrpc/0 HTTP/1.0\r\nContent-Length: 10\r\n\r\n{")  # the body never comes
    for thread in threads:  # idle: nothing at all
        thread.join(GUARD_S)
        assert not thread.is_alive()
    assert head.written.startswith(b"HTTP/1.1 408 ") and b"head did not arrive" in head.written
    assert body.written.startswith(b"HTTP/1.1 408 ") and b"body did not arrive" in body.written
    assert idle.written == b""  # an idle stream just ends


@pytest.mark.parametrize("length", [b"-1", b"abc", b"1.5", b"+5", b"0x5", b"1_0", b"\xd9\xa5"])
def test_u2_http_refuses_a_length_that_is_no_non_negative_integer(length: bytes) -> None:
    host = Host()
    thread = host.serve()
    host.stream.feed(b"POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: " + length + b"\r\n\r\n")
    thread.join(GUARD_S)  # at once: no body was waited for
    assert not thread.is_alive()
    assert host.written.startswith(b"HTTP/1.1 400 ") and b"bad Content-Length" in host.written


def test_listener_refuses_clients_past_its_cap_and_serves_the_ones_it_has() -> None:
    release = threading.Event()
    served: list[socket.socket] = []

    def handler(sock: socket.socket) -> None:
        served.append(sock)
        sock.sendall(b"hello\n")
        release.wait(GUARD_S)

    listener = TcpListener(0, handler, name="test", max_clients=2)
    listener.start()
    try:
        held = [socket.create_connection(("127.0.0.1", listener.port), timeout=GUARD_S) for _ in range(2)]
        for sock in held:
            assert sock.recv(6) == b"hello\n"  # both served
        with socket.create_connection(("127.0.0.1", listener.port), timeout=GUARD_S) as extra:
            assert extra.recv(6) == b""  # closed at once: the cap
        assert listener.client_count == 2
        release.set()
        for sock in held:
            sock.close()
    finally:
        release.set()
        listener.stop()


def test_adb_host_that_never_sends_cnxn_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adb_connection, "HANDSHAKE_TIMEOUT_S", 0.2)
    ours, host = socket.socketpair()
    with host:
        connection = adb_connection.AdbConnection(ours, b"device::", lambda service: None)
        thread = threading.Thread(target=connection.serve, daemon=True)
        thread.start()
        host.sendall(b"CNXN")  # a third of a header, then nothing
        host.settimeout(GUARD_S)
        assert host.recv(100) == b""  # closed by the phone
        thread.join(GUARD_S)
        assert not thread.is_alive()
