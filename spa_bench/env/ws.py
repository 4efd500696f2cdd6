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
find within 1.5 x the server's heartbeat (a ping every `heartbeat_s`, its pong due within half of it: 15 s
by default). The client's websockets library answers pings by itself, whatever its training loop is doing,
so a slow client keeps its session: that is why the idle reaper leaves these sessions alone.

The connection is aiohttp's WebSocketResponse on `GET /ws` of the HTTP server (spa_bench/env/server.py):
the handshake is an HTTP request under that server's header timeout and connection limit, and a message
over MAX_BODY closes the connection with 1009 (message too big). Replies are not compressed: a screenshot
is a PNG already, and on loopback the bytes cost less than the CPU. This module knows nothing of the
server: it is handed the request, the service and the executor its blocking calls run in.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import Executor
from http import HTTPStatus
from typing import Annotated, Any, Literal

from aiohttp import WSCloseCode, WSMsgType, web
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from spa_bench.env.service import (
    MAX_BODY,
    EnvService,
    HttpError,
    ResetParams,
    ResetRequest,
    StepRequest,
    first_error,
)

WS_PATH = "/ws"
HEARTBEAT_S = 10.0  # a ping every 10 s, its pong due within 5 s: a silent peer is dropped within 15 s
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


async def serve_websocket(request: web.Request, service: EnvService, executor: Executor,
                          heartbeat_s: float = HEARTBEAT_S,
                          on_open: Callable[[web.WebSocketResponse], None] = lambda ws: None,
                          on_close: Callable[[web.WebSocketResponse], None] = lambda ws: None,
                          ) -> web.StreamResponse:
    """Run one connection to its end: handshake, the session loop (each message's work in `executor`, one
    at a time), then close the session. `on_open`/`on_close` let the server track the connection."""
    ws = web.WebSocketResponse(heartbeat=heartbeat_s, max_msg_size=MAX_BODY, compress=False)
    if not ws.can_prepare(request).ok:
        return web.json_response({"error": "GET /ws is a WebSocket: send an Upgrade: websocket request"},
                                 status=HTTPStatus.UPGRADE_REQUIRED, headers={"Upgrade": "websocket"})
    await ws.prepare(request)
    on_open(ws)
    session = WebSocketSession(service)
    loop = asyncio.get_running_loop()
    try:
        async for message in ws:
            if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break  # an error or a close: aiohttp has answered it
            reply = await loop.run_in_executor(executor, session.answer, message.data)
            if reply is None:
                break
            await ws.send_str(reply)
    except ConnectionError:
        pass  # the client went away mid-reply: its session closes here all the same
    finally:
        on_close(ws)
        await loop.run_in_executor(executor, session.close)  # stops its phone: blocking
        await ws.close(code=WSCloseCode.OK)
    return ws


class WebSocketSession:
    """One connection's messages, and its session (None until the first reset); blocking calls."""

    def __init__(self, service: EnvService) -> None:
        self.service = service
        self.session_id: str | None = None

    def answer(self, raw: str | bytes) -> str | None:
        """The reply to one message as JSON text; None for a close message."""
        reply = self.handle(raw)
        return None if reply is None else json.dumps(reply, ensure_ascii=False)

    def close(self) -> None:
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
