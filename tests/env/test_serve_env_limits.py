"""serve-env under hostile clients, with no phone: lengths that are not a non-negative integer are a 400
before any body is read, an oversized one a 413 at once, chunked and length-less bodies are read as HTTP
says; a request head or a WebSocket handshake that never ends, and a body that never comes, are dropped
after short configured timeouts; past `max_connections` the oldest idle connection makes room, and when
every connection is busy a new one gets 503. Every wait here is on an event (the server closing the
socket, a reply arriving), bounded only by a generous guard against a hang."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from spa_bench.env.server import EnvServer, EnvService, Limits, Sessions, make_server

GUARD_S = 60.0  # only against a hang: every wait below ends on an event long before
HEAD = b"POST /step HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"


def no_phone() -> Any:
    raise AssertionError("no request here may open a session")


@contextmanager
def serving(limits: Limits, sessions: Sessions | None = None) -> Iterator[EnvServer]:
    if sessions is None:  # (not `or`: no sessions open is a falsy Sessions)
        sessions = Sessions(no_phone, max_sessions=2, idle_timeout_s=3600)
    server = make_server(EnvService(sessions), limits=limits)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    assert server.ready.wait(GUARD_S)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        sessions.close_all()
        thread.join(GUARD_S)


def connect(server: EnvServer) -> socket.socket:
    sock = socket.create_connection(server.server_address, timeout=GUARD_S)
    return sock


def answer(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the one answer on `sock`, read until the server closes it."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def first_answer(sock: socket.socket) -> tuple[int, bytes]:
    """The status and body of the first answer on `sock`, which may stay open."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split(b" ", 2)[1]), body


def closed_by_server(sock: socket.socket) -> bytes:
    """Everything the server sends before it closes `sock` (a TimeoutError if it never does)."""
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


@pytest.fixture
def server() -> Iterator[EnvServer]:
    with serving(Limits()) as running:
        yield running


@pytest.mark.parametrize("length", [b"-1", b"abc", b"1.5", b"+5", b"0x10", b"5, 5"])
def test_a_length_that_is_no_non_negative_integer_is_a_400_before_any_body(server: EnvServer,
                                                                            length: bytes) -> None:
    with connect(server) as sock:
        # no body follows and the socket stays open: an answer proves the server did not wait for one
        sock.sendall(HEAD + b"Content-Length: " + length + b"\r\n\r\n")
        status, body = answer(sock)
    assert status == 400, body
    assert b"Content-Length" in body


def test_an_oversized_length_is_refused_at_once(server: EnvServer) -> None:
    with connect(server) as sock:
        sock.sendall(HEAD + b"Content-Length: 1000000000000\r\n\r\n")
        status, body = first_answer(sock)  # before any of the trillion bytes is sent
    assert status == 413 and json.loads(body)["error"].startswith("body over 1048576 bytes")


def test_chunked_and_lengthless_bodies_are_read_as_http_says(server: EnvServer) -> None:
    body = b'{"action": {"type": "finish"}}'
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    with connect(server) as sock:
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
        status, reply = answer(sock)
    assert status == 400 and json.loads(reply)["error"].startswith("session_id:")  # the body was read
    big = b"%x\r\n%s\r\n" % (1 << 20, b" " * (1 << 20))
    with connect(server) as sock:
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\n\r\n" + big * 2 + b"0\r\n\r\n")
        status, reply = answer(sock)
    assert status == 413, reply
    with connect(server) as sock:  # no length, no chunks: no body (RFC 9112 6.3), whatever follows
        sock.sendall(HEAD + b"Connection: close\r\n\r\n")
        status, reply = answer(sock)
    assert status == 400 and json.loads(reply)["error"].startswith("session_id:")
    with connect(server) as sock:
        sock.sendall(b"GET /nowhere HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        status, reply = answer(sock)
    assert status == 404 and json.loads(reply) == {"error": "no such endpoint: GET /nowhere"}


def test_half_open_head_body_and_websocket_handshake_are_dropped() -> None:
    with serving(Limits(header_timeout_s=0.3, body_timeout_s=0.3)) as server:
        head, body, handshake, idle = (connect(server) for _ in range(4))
        with head, body, handshake, idle:
            head.sendall(HEAD)  # the head never ends
            body.sendall(HEAD + b"Content-Length: 100\r\n\r\n{")  # the body never comes
            handshake.sendall(b"GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
            idle.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")  # then keeps the connection, silent
            assert closed_by_server(head) == b""
            assert closed_by_server(body).startswith(b"HTTP/1.1 408")
            assert closed_by_server(handshake) == b""
            assert b'"status": "ok"' in closed_by_server(idle)
        with connect(server) as sock:  # and the server answers the next one
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            assert answer(sock)[0] == 200


def test_past_max_connections_the_oldest_idle_one_makes_room() -> None:
    with serving(Limits(max_connections=3, header_timeout_s=600)) as server:  # no timeout would help
        held = [connect(server) for _ in range(3)]
        for sock in held:  # one answer each first: the server has them all before the fourth comes
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert first_answer(sock)[0] == 200
            sock.sendall(HEAD)  # then half-open, all three
        with connect(server) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            assert answer(sock)[0] == 200
        assert closed_by_server(held[0]) == b""  # the oldest went
        for sock in held:
            sock.close()


def test_when_every_connection_is_busy_a_new_one_gets_503() -> None:
    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_phone() -> Any:
        started.release()
        release.wait(GUARD_S)
        raise RuntimeError("this phone never starts")

    sessions = Sessions(slow_phone, max_sessions=2, idle_timeout_s=3600)
    with serving(Limits(max_connections=2), sessions) as server:
        busy = [connect(server) for _ in range(2)]
        try:
            for sock in busy:
                sock.sendall(HEAD.replace(b"/step", b"/reset") + b"Content-Length: 2\r\n\r\n{}")
            for _ in busy:
                assert started.acquire(timeout=GUARD_S)  # both in a reset, their phones starting
            with connect(server) as sock:
                status, body = answer(sock)
            assert status == 503 and b"too many connections" in body
        finally:
            release.set()
            for sock in busy:
                sock.close()


def test_limits_name_a_bad_value() -> None:
    with pytest.raises(ValueError, match=r"Limits.header_timeout_s: must be > 0, got -1"):
        Limits(header_timeout_s=-1)
    with pytest.raises(ValueError, match=r"Limits.max_connections: must be >= 1, got 0"):
        Limits(max_connections=0)
