"""`spa-bench serve-env`: phones as environments over HTTP, for training stacks that do not import spa-bench.

The calls follow OpenEnv's convention - reset, step and state, JSON in and out - with a session per client
and one virtual phone per session (a SpaBenchEnv, the Gymnasium env's core; spa_bench/env/service.py):

    POST /reset   {"session_id"?: ID, "task"?: TASK_ID, "repeat"?: K, "seed"?: S}
                  -> {"session_id", "observation", "reward": 0.0, "done": false, "info"}  (info.task_view:
                     the task as the agent may see it, never its checks: spa_bench.agent.view)
    POST /step    {"session_id": ID, "action": {"type": "tap", "x": 540, "y": 1200}}
                  -> {"session_id", "observation", "reward", "done", "terminated", "truncated", "info"}
    GET  /state?session_id=ID -> {"session_id", "task", "step_count", "step_limit", "done", "idle_s"}
    POST /close   {"session_id": ID}          GET /health -> {"status": "ok", "sessions": N}
    GET  /ws      a WebSocket whose connection is the session (spa_bench/env/ws.py)

A reset without a session id opens a session (its phone starts then); with one, it starts a new episode on
that session's phone. An observation is the screenshot (PNG, base64), the actionable UI elements (their
`index` is what `element` in an action refers to), the foreground package and the instruction. Errors are
JSON `{"error": ...}` with the statuses of spa_bench/env/service.py, and 404 (no such endpoint), 408 (the
body did not arrive in time), 413 (a body over 1 MiB). A request that is not HTTP at all (a negative or
non-integer Content-Length, a header line over 8 KiB) gets aiohttp's plain-text 400 at once. The server
binds loopback.

The HTTP stack is aiohttp's server (parser, keep-alive, WebSocket), not our own: it rejects malformed
lengths, bounds header lines and bodies, and times out a connection that has not sent a complete request
head within `Limits.header_timeout_s` of opening it or of its previous answer (slowloris, an unfinished
WebSocket handshake, an idle keep-alive connection). On top of it: a body must arrive within
`body_timeout_s`, an answer must be taken by the client within `send_timeout_s` (else the connection is
aborted and its buffer freed), and at most `max_connections` are open - past that the oldest one with no
request in progress (half-open or idle) is dropped for the new one, and when all are busy the new one gets
503, so that a flood of half-open connections never locks out a well-behaved client. The env's blocking
calls run in a thread pool (one thread per session at most: requests for a busy session wait on the event
loop, not in a thread).
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from weakref import WeakValueDictionary

from aiohttp import WSCloseCode, web
from aiohttp.web_protocol import RequestHandler

from spa_bench.env.service import (
    MAX_BODY,
    CloseRequest,
    EnvService,
    HttpError,
    ResetRequest,
    Sessions,
    StepRequest,
    _Request,
    parse_body,
)
from spa_bench.env.ws import HEARTBEAT_S, WS_PATH, serve_websocket

__all__ = ["EnvServer", "EnvService", "Limits", "Sessions", "make_server"]

# aiohttp logs every malformed request with a traceback: a hostile client would fill the log with them
_http_log = logging.getLogger("spa_bench.env.http")
_http_log.setLevel(logging.CRITICAL)


@dataclass(frozen=True)
class Limits:
    """What one connection may hold and for how long."""

    header_timeout_s: float = 10.0  # a complete request head, from the connection or the previous answer
    body_timeout_s: float = 10.0  # the body, once its head is in
    send_timeout_s: float = 60.0  # for the client to take an answer (a screenshot is a few MB)
    max_connections: int = 1024  # open at once; past it the oldest idle one makes room
    backlog: int = 1024  # connections the kernel queues before the server accepts them
    max_body: int = MAX_BODY
    heartbeat_s: float = HEARTBEAT_S  # WebSocket pings (spa_bench/env/ws.py)

    def __post_init__(self) -> None:
        for name in ("header_timeout_s", "body_timeout_s", "send_timeout_s", "heartbeat_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Limits.{name}: must be > 0, got {getattr(self, name)!r}")
        for name in ("max_connections", "backlog", "max_body"):
            if getattr(self, name) < 1:
                raise ValueError(f"Limits.{name}: must be >= 1, got {getattr(self, name)!r}")


_REFUSED = json.dumps({"error": "too many connections are busy; try again"}).encode()


class _Refused(asyncio.Protocol):
    """A connection past `max_connections` when every open one is busy: 503, closed."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_REFUSED), _REFUSED))
        transport.close()


class EnvServer:
    """The HTTP API and WebSocket sessions on one loopback port, run by `serve_forever` (an asyncio loop
    in the calling thread) until `shutdown` from another thread, or Ctrl-C."""

    def __init__(self, service: EnvService, port: int = 0, limits: Limits | None = None) -> None:
        self.service, self.limits = service, limits or Limits()
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind(("127.0.0.1", port))
            self.socket.listen(self.limits.backlog)  # connections queue from now, as socketserver's do
        except OSError:
            self.socket.close()
            raise
        self.server_address: tuple[str, int] = self.socket.getsockname()
        # one thread per session at most (the gates below), and a few for opening sessions and closing
        self.executor = ThreadPoolExecutor(service.sessions.max_sessions + 4, thread_name_prefix="serve-env")
        self._gates: WeakValueDictionary[str, asyncio.Lock] = WeakValueDictionary()
        self._busy: set[RequestHandler] = set()  # connections with a request in progress (never dropped)
        self._websockets: set[web.WebSocketResponse] = set()
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self.ready = threading.Event()  # set once `serve_forever` accepts connections
        self._stop_asked = threading.Event()
        self._stopped = threading.Event()
        self._stopped.set()

    # -- running ------------------------------------------------------------------------------------
    def serve_forever(self) -> None:
        self._stopped.clear()
        try:
            asyncio.run(self._serve())
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop `serve_forever` (from another thread) and wait for it to return."""
        self._stop_asked.set()
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:  # the loop has closed already
                pass
        self._stopped.wait()

    def server_close(self) -> None:
        """Close the listening socket and the thread pool (WebSocket sessions closed as serving ended)."""
        self.socket.close()
        self.executor.shutdown(wait=False, cancel_futures=True)

    async def _serve(self) -> None:
        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        limits = self.limits
        runner = web.AppRunner(self._app(), handle_signals=False, access_log=None, logger=_http_log,
                               keepalive_timeout=limits.header_timeout_s, shutdown_timeout=5.0,
                               # after an answer that left a body unread, how long its rest is drained
                               lingering_time=limits.body_timeout_s)
        await runner.setup()
        self._runner = runner
        server = await self._loop.create_server(self._protocol, sock=self.socket, backlog=limits.backlog)
        self.ready.set()
        try:
            if not self._stop_asked.is_set():
                await self._stop.wait()
        finally:
            self.ready.clear()
            server.close()
            await self._close_websockets()
            await runner.cleanup()
            self._runner = None

    async def _close_websockets(self) -> None:
        """Close every WebSocket with 1001 (going away), at once; their sessions close as they end."""
        closing = [ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
                   for ws in list(self._websockets)]
        await asyncio.gather(*closing, return_exceptions=True)

    def _protocol(self) -> asyncio.Protocol:
        """A new connection's protocol; past `max_connections`, the oldest idle connection makes room."""
        assert self._runner is not None and self._runner.server is not None
        handlers = self._runner.server.connections  # oldest first
        if len(handlers) >= self.limits.max_connections:
            idle = next((h for h in handlers if h not in self._busy and h.transport is not None), None)
            if idle is None:
                return _Refused()
            idle.force_close()
        return self._runner.server()

    # -- the application ------------------------------------------------------------------------------
    def _app(self) -> web.Application:
        app = web.Application(client_max_size=self.limits.max_body, middlewares=[self._errors])
        app.router.add_get("/health", self._health)
        app.router.add_get("/state", self._state)
        app.router.add_post("/reset", self._reset)
        app.router.add_post("/step", self._step)
        app.router.add_post("/close", self._close)
        app.router.add_get(WS_PATH, self._websocket)
        return app

    @web.middleware
    async def _errors(self, request: web.Request,
                      handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Every error as JSON: ours (HttpError), aiohttp's routing (404, 405) and the env's own (500)."""
        try:
            return await handler(request)
        except HttpError as exc:
            return await self._send(request, exc.status, {"error": str(exc)})
        except web.HTTPException as exc:
            if exc.status in (HTTPStatus.NOT_FOUND, HTTPStatus.METHOD_NOT_ALLOWED):
                message = f"no such endpoint: {request.method} {request.path}"
            else:
                message = exc.reason
            return await self._send(request, HTTPStatus(exc.status), {"error": message})
        except Exception as exc:  # the env's own failure: the session may still be usable
            return await self._send(request, HTTPStatus.INTERNAL_SERVER_ERROR,
                                    {"error": f"{type(exc).__name__}: {exc}"})

    async def _health(self, request: web.Request) -> web.StreamResponse:
        sessions = len(self.service.sessions)
        return await self._send(request, HTTPStatus.OK, {"status": "ok", "sessions": sessions})

    async def _state(self, request: web.Request) -> web.StreamResponse:
        session_id = request.query.get("session_id")
        if session_id is None:
            raise HttpError(HTTPStatus.BAD_REQUEST, "session_id: missing (?session_id=...)")
        return await self._send(request, HTTPStatus.OK, self.service.state(session_id))

    async def _reset(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request, ResetRequest)
        if body.session_id is None:
            self.service.sessions.check_room()  # a 503 at once, not after the threads opening phones
            return await self._work(request, None, lambda: self.service.reset(body))
        self.service.sessions.get(body.session_id)  # a 404 at once
        return await self._work(request, body.session_id, lambda: self.service.reset(body))

    async def _step(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request, StepRequest)
        self.service.sessions.get(body.session_id)
        return await self._work(request, body.session_id, lambda: self.service.step(body))

    async def _close(self, request: web.Request) -> web.StreamResponse:
        body = await self._body(request, CloseRequest)
        sessions = self.service.sessions
        return await self._work(request, None, lambda: {"closed": sessions.close(body.session_id)})

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        def opened(ws: web.WebSocketResponse) -> None:
            self._websockets.add(ws)
            self._busy.add(request.protocol)

        def closed(ws: web.WebSocketResponse) -> None:
            self._websockets.discard(ws)
            self._busy.discard(request.protocol)

        return await serve_websocket(request, self.service, self.executor, self.limits.heartbeat_s,
                                     on_open=opened, on_close=closed)

    # -- helpers ----------------------------------------------------------------------------------------
    async def _body(self, request: web.Request, model: type[_Request]) -> Any:
        """The body as `model`, read within the body timeout; the connection is busy from then on."""
        length = request.content_length
        if length is not None and length > self.limits.max_body:
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body over {self.limits.max_body} bytes "
                                                                 f"(Content-Length: {length})")
        try:
            async with asyncio.timeout(self.limits.body_timeout_s):
                raw = await request.read()
        except TimeoutError:
            raise HttpError(HTTPStatus.REQUEST_TIMEOUT, f"the body did not arrive within "
                                                        f"{self.limits.body_timeout_s:g} s") from None
        except web.HTTPRequestEntityTooLarge:
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                            f"body over {self.limits.max_body} bytes") from None
        self._busy.add(request.protocol)
        return parse_body(model, raw)

    async def _work(self, request: web.Request, session_id: str | None,
                    work: Callable[[], dict[str, Any]]) -> web.StreamResponse:
        """`work` in the thread pool, after the session's earlier requests (they wait here, on the loop)."""
        loop = asyncio.get_running_loop()

        def encoded() -> bytes:  # a screenshot's base64 is MBs: encoded in the thread, not on the loop
            return _encode(work())

        if session_id is None:
            result = await loop.run_in_executor(self.executor, encoded)
        else:
            gate = self._gates.get(session_id)
            if gate is None:
                gate = self._gates[session_id] = asyncio.Lock()
            async with gate:
                result = await loop.run_in_executor(self.executor, encoded)
        return await self._send(request, HTTPStatus.OK, result)

    async def _send(self, request: web.Request, status: HTTPStatus,
                    payload: dict[str, Any] | bytes) -> web.StreamResponse:
        """The JSON answer, which the client must take within the send timeout (else the connection is
        aborted, its buffered answer freed)."""
        data = payload if isinstance(payload, bytes) else _encode(payload)
        response = web.StreamResponse(status=status,
                                      headers={"Content-Type": "application/json; charset=utf-8"})
        response.content_length = len(data)
        if status in (HTTPStatus.REQUEST_TIMEOUT, HTTPStatus.REQUEST_ENTITY_TOO_LARGE):
            response.force_close()  # the rest of its body may still come: this connection is done
        try:
            async with asyncio.timeout(self.limits.send_timeout_s):
                await response.prepare(request)
                await response.write(data)
                await response.write_eof()
        except TimeoutError:
            if request.transport is not None:
                request.transport.abort()
        except ConnectionError:
            pass  # the client went away: nobody to tell
        finally:
            self._busy.discard(request.protocol)
        return response


def _encode(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode("utf-8")


def make_server(service: EnvService, port: int = 0, limits: Limits | None = None) -> EnvServer:
    """A server on 127.0.0.1:`port` (0: a free one; `server.server_address[1]` says which)."""
    return EnvServer(service, port, limits)
