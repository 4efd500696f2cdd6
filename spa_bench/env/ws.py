"""WebSocket sessions for `serve-env`, in OpenEnv's message format: the connection is the session.

    -> {"type": "reset", "data": {"task"?: TASK_ID, "repeat"?: K, "seed"?: S}}
    -> {"type": "step", "data": {"type": "tap", "x": 540, "y": 1200}}        (data: the action)
    -> {"type": "state"}                     -> {"type": "close"}
    <- {"type": "observation", "data": the reply of POST /reset or /step}
    <- {"type": "state", "data": the reply of GET /state}
    <- {"type": "error", "data": {"message": ..., "code": ...}}    INVALID_JSON, UNKNOWN_TYPE,
                   VALIDATION_ERROR, EXECUTION_ERROR, CAPACITY_REACHED (the reset found --max-sessions open)
                   or SESSION_ERROR (no reset yet, the episode is over, the session's phone died)

The session opens at the first reset (its phone starts then; CAPACITY_REACHED when --max-sessions are open,
WebSocket and HTTP ones alike, and the connection stays open to try again). It closes, its phone stopped,
as soon as the connection ends for any reason: a close message, the client closing or being killed (the
kernel closes a dead process's sockets), or a network failure or a frozen client, which keepalive pings
find within PING_INTERVAL_S + PING_TIMEOUT_S + CLOSE_TIMEOUT_S (20 s). The client's websockets library
answers pings by itself, whatever its training loop is doing, so a slow client keeps its session: that is
why the idle reaper leaves these sessions alone.

The connection arrives through the HTTP server (spa_bench/env/server.py): its request line is peeked at,
and `GET /ws` hands the socket to websockets' ServerConnection, as websockets' own sync server does with
the sockets it accepts. Replies are not compressed: a screenshot is a PNG already, and on loopback the
bytes cost less than the CPU.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http import HTTPStatus
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from spa_bench.env.server import MAX_BODY, HttpError, ResetParams, ResetRequest, StepRequest, first_error

if TYPE_CHECKING:
    from websockets.sync.server import ServerConnection

    from spa_bench.env.server import EnvService

WS_PATH = "/ws"
PEEK_TIMEOUT_S = 10.0  # for the request line to arrive; then the HTTP handler has the connection
HANDSHAKE_TIMEOUT_S = 10.0
# A silent peer (its host gone, its process stopped) is dropped within the three together: 20 s
PING_INTERVAL_S, PING_TIMEOUT_S, CLOSE_TIMEOUT_S = 5.0, 10.0, 5.0
ErrorCode = Literal["INVALID_JSON", "UNKNOWN_TYPE", "VALIDATION_ERROR", "EXECUTION_ERROR", "CAPACITY_REACHED",
                    "SESSION_ERROR"]
# The HTTP statuses of EnvService's errors, as OpenEnv's codes
CODES: dict[HTTPStatus, ErrorCode] = {
    HTTPStatus.BAD_REQUEST: "VALIDATION_ERROR", HTTPStatus.SERVICE_UNAVAILABLE: "CAPACITY_REACHED",
    HTTPStatus.NOT_FOUND: "SESSION_ERROR", HTTPStatus.CONFLICT: "SESSION_ERROR",
    HTTPStatus.GONE: "SESSION_ERROR"}


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResetMessage(_Message):
    type: Literal["reset"]
    data: ResetParams = Field(default_factory=ResetParams)


class StepMessage(_Message):
    type: Literal["step"]
    data: dict[str, Any] = Field(description="an action of spa_bench.actions, as a JSON object")


class StateMessage(_Message):
    type: Literal["state"]


class CloseMessage(_Message):
    type: Literal["close"]


Message = Annotated[ResetMessage | StepMessage | StateMessage | CloseMessage, Field(discriminator="type")]
MESSAGE_TYPES = ("reset", "step", "state", "close")
_MESSAGE: TypeAdapter[Message] = TypeAdapter(Message)


def is_websocket_request(sock: socket.socket, timeout_s: float = PEEK_TIMEOUT_S) -> bool:
    """Whether the request on `sock` starts `GET /ws`; read with MSG_PEEK, so that the HTTP handler still
    reads any other request from its first byte."""
    prefix = f"GET {WS_PATH}".encode()
    deadline = time.monotonic() + timeout_s
    previous = sock.gettimeout()
    head = b""
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            sock.settimeout(remaining)
            head = sock.recv(len(prefix) + 1, socket.MSG_PEEK)
            if not head or len(head) > len(prefix) or b"\n" in head:
                break
            time.sleep(0.01)  # a request line split across packets: wait for the rest of it to arrive
    except OSError:  # a timeout included: the HTTP handler deals with whatever this is
        return False
    finally:
        sock.settimeout(previous)
    return head.startswith(prefix) and head[len(prefix):len(prefix) + 1] in (b" ", b"?")


class WebSocketHub:
    """The open WebSocket connections of one server, so that stopping the server closes them. It is also
    the `server` websockets' ServerConnection asks one thing of: `socket_closed`, set once the server
    stops, for a handshake that races the shutdown to be refused."""

    def __init__(self, service: EnvService) -> None:
        self.service = service
        self.socket_closed = threading.Event()
        self._lock = threading.Lock()
        self._open: set[ServerConnection] = set()

    def serve(self, sock: socket.socket) -> None:
        """Run one connection to its end, in the server's thread for this client (as websockets'
        sync server does: handshake, keepalive, the session loop, close)."""
        from websockets.protocol import OPEN
        from websockets.server import ServerProtocol
        from websockets.sync.server import Server, ServerConnection

        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, True)
        connection = ServerConnection(sock, ServerProtocol(max_size=MAX_BODY), cast(Server, self),
                                      ping_interval=PING_INTERVAL_S, ping_timeout=PING_TIMEOUT_S,
                                      close_timeout=CLOSE_TIMEOUT_S)
        try:
            connection.handshake(timeout=HANDSHAKE_TIMEOUT_S)
        except Exception:  # a timeout or a broken request: websockets has answered what it could
            connection.close_socket()
            return
        if connection.protocol.state is not OPEN:  # refused (not an upgrade request, or shutting down)
            connection.close_socket()
            return
        with self._lock:
            self._open.add(connection)
        connection.start_keepalive()
        try:
            with connection:
                WebSocketSession(self.service, connection).run()
        finally:
            with self._lock:
                self._open.discard(connection)

    def close_all(self) -> None:
        """Close every connection with 1001 (going away), at once: each waits for its client's answer."""
        from websockets.frames import CloseCode

        self.socket_closed.set()
        with self._lock:
            connections = list(self._open)
        closers = [threading.Thread(target=c.close, args=(CloseCode.GOING_AWAY, "server stopping"),
                                    daemon=True) for c in connections]
        for closer in closers:
            closer.start()
        for closer in closers:
            closer.join()


class WebSocketSession:
    """One connection's messages, and its session (None until the first reset)."""

    def __init__(self, service: EnvService, connection: ServerConnection) -> None:
        self.service, self.connection = service, connection
        self.session_id: str | None = None

    def run(self) -> None:
        """Answer messages until the connection ends or a close message; then close the session."""
        from websockets.exceptions import ConnectionClosed

        try:
            for raw in self.connection:
                reply = self.handle(raw)
                if reply is None:
                    break
                self.connection.send(json.dumps(reply, ensure_ascii=False))
        except ConnectionClosed:
            pass  # the client went away, however: its session closes here all the same
        finally:
            if self.session_id is not None:
                self.service.sessions.close(self.session_id)
                self.session_id = None

    def handle(self, raw: str | bytes) -> dict[str, Any] | None:
        """The reply to one message; None for a close message."""
        try:
            payload = json.loads(raw)
        except ValueError as exc:  # UnicodeDecodeError included
            return error("INVALID_JSON", f"not JSON: {exc}")
        kind = payload.get("type") if isinstance(payload, dict) else None
        if kind not in MESSAGE_TYPES:
            return error("UNKNOWN_TYPE", f"type {kind!r}: expected one of {', '.join(MESSAGE_TYPES)}")
        try:
            message = _MESSAGE.validate_python(payload)
        except ValidationError as exc:
            # the location's first part is the message type's tag
            return error("VALIDATION_ERROR", first_error(exc, skip=1, whole="message"))
        try:
            return self._dispatch(message)
        except HttpError as exc:
            if exc.status in (HTTPStatus.NOT_FOUND, HTTPStatus.GONE):
                self.session_id = None  # closed behind our back (POST /close, a dead phone): reset opens anew
            return error(CODES.get(exc.status, "EXECUTION_ERROR"), str(exc))
        except Exception as exc:  # the env's own failure: the session may still be usable
            return error("EXECUTION_ERROR", f"{type(exc).__name__}: {exc}")

    def _dispatch(self, message: Message) -> dict[str, Any] | None:
        if isinstance(message, CloseMessage):
            return None
        if isinstance(message, ResetMessage):
            request = ResetRequest(session_id=self.session_id, **message.data.model_dump())
            reply = self.service.reset(request, kind="ws")
            self.session_id = reply["session_id"]
            return {"type": "observation", "data": reply}
        if self.session_id is None:
            raise HttpError(HTTPStatus.CONFLICT, f"no session yet: send a reset before a {message.type}")
        if isinstance(message, StepMessage):
            return {"type": "observation",
                    "data": self.service.step(StepRequest(session_id=self.session_id, action=message.data))}
        return {"type": "state", "data": self.service.state(self.session_id)}


def error(code: ErrorCode, message: str) -> dict[str, Any]:
    return {"type": "error", "data": {"message": message, "code": code}}
