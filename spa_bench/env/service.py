"""What serve-env serves, without HTTP: the sessions (one phone each), the calls on them and their typed
requests and errors. spa_bench/env/server.py puts them on HTTP and spa_bench/env/ws.py on WebSocket; the
tests call them directly too.

Errors are HttpError with the HTTP status that says what went wrong: 400 (a bad request: the field is
named), 404 (an unknown session), 409 (step before reset), 410 (the session's phone process died: the
session is closed, a reset without session id opens a new one) and 503 (`max_sessions` are open, of both
kinds). HTTP sessions idle longer than `idle_timeout_s` are closed and their phones stopped by a reaper
thread: HTTP cannot tell a slow client from a dead one. A WebSocket session is never reaped for idleness:
it lives as long as its connection.
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
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    from spa_bench.env.core import SpaBenchEnv

MAX_BODY = 1 << 20


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResetParams(_Request):
    """What a reset may choose (a WebSocket reset's `data`)."""

    task: str | None = Field(None, description="a task id; default: drawn from the server's tasks")
    repeat: int = Field(0, ge=0, description="which instance of a parameterised task")
    seed: int | None = None


class ResetRequest(ResetParams):
    session_id: str | None = None


class StepRequest(_Request):
    session_id: str
    action: dict[str, Any] | str = Field(description="an action of spa_bench.actions, or its JSON text")


class CloseRequest(_Request):
    session_id: str


class HttpError(Exception):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status


SessionKind = Literal["http", "ws"]
T = TypeVar("T")
R = TypeVar("R", bound=_Request)


@dataclass
class Session:
    env: SpaBenchEnv
    kind: SessionKind = "http"  # a "ws" session lives as long as its connection: never reaped for idleness
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    steps: int = 0
    done: bool = True


EnvFactory = Callable[[], "SpaBenchEnv"]


class Sessions:
    """The open sessions, each with its env; idle HTTP ones are reaped."""

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

    def check_room(self) -> None:
        """HttpError 503 when no session may open now (a hint for callers that queue work: `open`
        decides, under its lock)."""
        with self._lock:
            if len(self._sessions) + self._opening >= self.max_sessions:
                raise self._full()

    def _full(self) -> HttpError:
        return HttpError(HTTPStatus.SERVICE_UNAVAILABLE,
                         f"{self.max_sessions} sessions are open (--max-sessions); close one first")

    def open(self, kind: SessionKind = "http") -> tuple[str, Session]:
        """A new session with its own phone (started here, outside the lock: it takes a while)."""
        with self._lock:
            if len(self._sessions) + self._opening >= self.max_sessions:
                raise self._full()
            self._opening += 1
        try:
            env = self.factory()
        finally:
            with self._lock:
                self._opening -= 1
        session_id, session = uuid.uuid4().hex, Session(env, kind)
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
        """Close the HTTP sessions idle for longer than the timeout; their ids."""
        now = time.monotonic()
        with self._lock:
            idle = [sid for sid, s in self._sessions.items() if s.kind == "http"
                    and not s.lock.locked() and now - s.last_used > self.idle_timeout_s]
        return [sid for sid in idle if self.close(sid)]

    def _reap_loop(self) -> None:
        while not self._stop.wait(min(5.0, max(0.1, self.idle_timeout_s / 4))):
            self.reap()


def observation_json(env: SpaBenchEnv) -> dict[str, Any]:
    obs, view = env.observation, env.task_view
    assert obs is not None and view is not None
    from spa_bench.env.spaces import element_dict

    return {"screenshot_png": base64.b64encode(obs.screenshot_png).decode("ascii"),
            "elements": [element_dict(e) for e in obs.elements], "package": obs.package or "",
            "activity": obs.activity or "", "instruction": view.instruction}


def phone_died(env: SpaBenchEnv) -> bool:
    """Whether the phone process the env started has exited (a device given by serial is never known
    dead here: it is not ours to watch)."""
    from spa_bench.phone.process import ProcessPhonePool

    phones = env.pool.phones
    return isinstance(phones, ProcessPhonePool) and any(not phone.alive for phone in phones.phones)


class EnvService:
    """What the HTTP and WebSocket handlers call; usable without either (the tests call it too)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    def reset(self, request: ResetRequest, kind: SessionKind = "http") -> dict[str, Any]:
        """A new episode; without a session id, on a new session of `kind` (closed again if this first
        reset fails: its id is never handed out, so nothing else could close it)."""
        if request.session_id is None:
            session_id, session = self.sessions.open(kind)
            try:
                return self._reset(session_id, session, request)
            except BaseException:
                self.sessions.close(session_id)
                raise
        return self._reset(request.session_id, self.sessions.get(request.session_id), request)

    def _reset(self, session_id: str, session: Session, request: ResetParams) -> dict[str, Any]:
        def work() -> dict[str, Any]:
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

        return self._locked(session_id, session, work)

    def step(self, request: StepRequest) -> dict[str, Any]:
        session = self.sessions.get(request.session_id)

        def work() -> dict[str, Any]:
            if session.done:
                raise HttpError(HTTPStatus.CONFLICT, "the episode is over or has not started: reset first")
            _obs, reward, terminated, truncated, info = session.env.step(request.action)
            session.steps += 1
            session.done = terminated or truncated
            session.last_used = time.monotonic()
            return {"session_id": request.session_id, "observation": observation_json(session.env),
                    "reward": reward, "done": session.done, "terminated": terminated, "truncated": truncated,
                    "info": _plain(info)}

        return self._locked(request.session_id, session, work)

    def _locked(self, session_id: str, session: Session, work: Callable[[], T]) -> T:
        """`work` under the session's lock; a failure because the session's phone died closes the
        session (outside the lock: closing takes it), so that its slot and memory come back at once."""
        try:
            with session.lock:
                return work()
        except HttpError:
            raise
        except Exception as exc:
            if not phone_died(session.env):
                raise  # the env's own failure: the session may still be usable
            self.sessions.close(session_id)
            raise HttpError(HTTPStatus.GONE, f"the session's phone died ({type(exc).__name__}: {exc}); the "
                                             "session is closed: reset without session_id to open a new "
                                             "one") from None

    def state(self, session_id: str) -> dict[str, Any]:
        session = self.sessions.get(session_id)
        env = session.env
        view = env.task_view
        return {"session_id": session_id, "task": view.id if view else None,
                "step_count": session.steps, "step_limit": view.max_steps if view else None,
                "done": session.done, "idle_s": round(time.monotonic() - session.last_used, 3)}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def first_error(exc: ValidationError, skip: int = 0, whole: str = "body") -> str:
    """A request's first validation error as "field.path: message" (its location past the first `skip`
    parts; `whole` when the error is about the whole request)."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"][skip:]) or whole
    return f"{where}: {first['msg']}"


def parse_body(model: type[R], raw: bytes) -> R:
    """A request body as `model` (an empty body is `{}`); HttpError 400 naming the field otherwise."""
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        raise HttpError(HTTPStatus.BAD_REQUEST, first_error(exc)) from None
