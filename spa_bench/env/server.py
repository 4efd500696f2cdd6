"""`spa-bench serve-env`: phones as environments over HTTP, for training stacks that do not import spa-bench.

The calls follow OpenEnv's convention - reset, step and state, JSON in and out - with a session per client
and one virtual phone per session (a SpaBenchEnv, the Gymnasium env's core):

    POST /reset   {"session_id"?: ID, "task"?: TASK_ID, "repeat"?: K, "seed"?: S}
                  -> {"session_id", "observation", "reward": 0.0, "done": false, "info"}
    POST /step    {"session_id": ID, "action": {"type": "tap", "x": 540, "y": 1200}}
                  -> {"session_id", "observation", "reward", "done", "terminated", "truncated", "info"}
    GET  /state?session_id=ID -> {"session_id", "task", "step_count", "step_limit", "done", "idle_s"}
    POST /close   {"session_id": ID}          GET /health -> {"status": "ok", "sessions": N}

A reset without a session id opens a session (its phone starts then); with one, it starts a new episode on
that session's phone. An observation is the screenshot (PNG, base64), the actionable UI elements (their
`index` is what `element` in an action refers to), the foreground package and the instruction. Sessions
idle longer than `idle_timeout_s` are closed and their phones stopped by a reaper thread; at most
`max_sessions` are open at once (503 past that). Errors are JSON `{"error": ...}` with 400 (a bad request:
the field is named), 404 (an unknown session) or 409 (step before reset). The server binds loopback.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    from spa_bench.env.core import SpaBenchEnv

MAX_BODY = 1 << 20


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResetRequest(_Request):
    session_id: str | None = None
    task: str | None = Field(None, description="a task id; default: drawn from the server's tasks")
    repeat: int = Field(0, ge=0, description="which instance of a parameterised task")
    seed: int | None = None


class StepRequest(_Request):
    session_id: str
    action: dict[str, Any] | str = Field(description="an action of spa_bench.actions, or its JSON text")


class CloseRequest(_Request):
    session_id: str


class HttpError(Exception):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Session:
    env: SpaBenchEnv
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    steps: int = 0
    done: bool = True


EnvFactory = Callable[[], "SpaBenchEnv"]


class Sessions:
    """The open sessions, each with its env; idle ones are reaped."""

    def __init__(self, factory: EnvFactory, max_sessions: int = 64, idle_timeout_s: float = 300.0) -> None:
        self.factory, self.max_sessions, self.idle_timeout_s = factory, max_sessions, idle_timeout_s
        self._sessions: dict[str, Session] = {}
        self._opening = 0  # sessions whose phone is starting: they count against max_sessions
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reaper = threading.Thread(target=self._reap_loop, name="serve-env-reaper", daemon=True)
        self._reaper.start()

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def open(self) -> tuple[str, Session]:
        """A new session with its own phone (started here, outside the lock: it takes a while)."""
        with self._lock:
            if len(self._sessions) + self._opening >= self.max_sessions:
                raise HttpError(HTTPStatus.SERVICE_UNAVAILABLE,
                                f"{self.max_sessions} sessions are open (--max-sessions); close one first")
            self._opening += 1
        try:
            env = self.factory()
        finally:
            with self._lock:
                self._opening -= 1
        session_id, session = uuid.uuid4().hex, Session(env)
        with self._lock:
            self._sessions[session_id] = session
        return session_id, session

    def get(self, session_id: str) -> Session:
        with self._lock:
            session = self._sessions.get(session_id)
        if session is None:
            raise HttpError(HTTPStatus.NOT_FOUND,
                            f"no session {session_id!r} (closed, reaped or never opened)")
        return session

    def close(self, session_id: str) -> bool:
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        with session.lock:
            session.env.close()
        return True

    def close_all(self) -> None:
        self._stop.set()
        with self._lock:
            ids = list(self._sessions)
        for session_id in ids:
            self.close(session_id)

    def reap(self) -> list[str]:
        """Close the sessions idle for longer than the timeout; their ids."""
        now = time.monotonic()
        with self._lock:
            idle = [sid for sid, s in self._sessions.items()
                    if not s.lock.locked() and now - s.last_used > self.idle_timeout_s]
        return [sid for sid in idle if self.close(sid)]

    def _reap_loop(self) -> None:
        while not self._stop.wait(min(5.0, max(0.1, self.idle_timeout_s / 4))):
            self.reap()


def observation_json(env: SpaBenchEnv) -> dict[str, Any]:
    obs = env.observation
    assert obs is not None and env.task is not None
    from spa_bench.agent import opened_app_prefix
    from spa_bench.env.spaces import element_dict

    return {"screenshot_png": base64.b64encode(obs.screenshot_png).decode("ascii"),
            "elements": [element_dict(e) for e in obs.elements], "package": obs.package or "",
            "activity": obs.activity or "", "instruction": opened_app_prefix(env.task) + env.task.instruction}


class EnvService:
    """What the HTTP handler calls; usable without HTTP (the tests call it too)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    def reset(self, request: ResetRequest) -> dict[str, Any]:
        if request.session_id is None:
            session_id, session = self.sessions.open()
        else:
            session_id, session = request.session_id, self.sessions.get(request.session_id)
        with session.lock:
            options: dict[str, Any] = {"repeat": request.repeat}
            if request.task is not None:
                options["task"] = request.task
            try:
                _obs, info = session.env.reset(seed=request.seed, options=options)
            except ConfigError as exc:
                raise HttpError(HTTPStatus.BAD_REQUEST, str(exc)) from None
            session.steps, session.done, session.last_used = 0, False, time.monotonic()
            return {"session_id": session_id, "observation": observation_json(session.env), "reward": 0.0,
                    "done": False, "info": _plain(info)}

    def step(self, request: StepRequest) -> dict[str, Any]:
        session = self.sessions.get(request.session_id)
        with session.lock:
            if session.done:
                raise HttpError(HTTPStatus.CONFLICT, "the episode is over or has not started: POST /reset")
            _obs, reward, terminated, truncated, info = session.env.step(request.action)
            session.steps += 1
            session.done = terminated or truncated
            session.last_used = time.monotonic()
            return {"session_id": request.session_id, "observation": observation_json(session.env),
                    "reward": reward, "done": session.done, "terminated": terminated, "truncated": truncated,
                    "info": _plain(info)}

    def state(self, session_id: str) -> dict[str, Any]:
        session = self.sessions.get(session_id)
        env = session.env
        return {"session_id": session_id, "task": env.task.id if env.task else None,
                "step_count": session.steps, "step_limit": env.step_limit if env.task else None,
                "done": session.done, "idle_s": round(time.monotonic() - session.last_used, 3)}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def make_handler(service: EnvService) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "spa-bench-serve-env"

        def log_message(self, format: str, *args: Any) -> None:
            return  # one line per request would drown a training run's logs

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/health":
                self._reply(HTTPStatus.OK, {"status": "ok", "sessions": len(service.sessions)})
            elif url.path == "/state":
                ids = parse_qs(url.query).get("session_id")
                self._call(lambda: service.state(ids[0]) if ids else _missing("session_id"))
            else:
                self._reply(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: GET {url.path}"})

        def do_POST(self) -> None:
            path = urlsplit(self.path).path
            if path == "/reset":
                self._call(lambda: service.reset(self._body(ResetRequest)))
            elif path == "/step":
                self._call(lambda: service.step(self._body(StepRequest)))
            elif path == "/close":
                self._call(lambda: {"closed": service.sessions.close(self._body(CloseRequest).session_id)})
            else:
                self._reply(HTTPStatus.NOT_FOUND, {"error": f"no such endpoint: POST {path}"})

        def _body(self, model: type[_Request]) -> Any:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"body over {MAX_BODY} bytes")
            raw = self.rfile.read(length) if length else b"{}"
            try:
                return model.model_validate_json(raw)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "body"
                raise HttpError(HTTPStatus.BAD_REQUEST, f"{where}: {first['msg']}") from None

        def _call(self, work: Callable[[], dict[str, Any]]) -> None:
            try:
                self._reply(HTTPStatus.OK, work())
            except HttpError as exc:
                self._reply(exc.status, {"error": str(exc)})
            except Exception as exc:  # the env's own failure: the session may still be usable
                self._reply(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"{type(exc).__name__}: {exc}"})

        def _reply(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _missing(name: str) -> dict[str, Any]:
    raise HttpError(HTTPStatus.BAD_REQUEST, f"{name}: missing (?{name}=...)")


def make_server(service: EnvService, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1:`port` (0: a free one; `server.server_address[1]` says which)."""
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(service))
    server.daemon_threads = True
    return server
