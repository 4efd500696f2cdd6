"""A local OpenAI-compatible chat server that answers from a script, for offline tests of agents.

    with ScriptedOpenAIServer([TextReply("tap(3)"), ErrorReply(429, retry_after=1), "done"]) as server:
        client = ModelClient(ModelConfig(model="test", base_url=server.base_url, api_key_env=None))
        ...
        server.requests[0].body["messages"]   # what the agent sent

Serves POST /v1/chat/completions, /chat/completions and the Azure form
/openai/deployments/{deployment}/chat/completions, and GET /v1/models. Binds 127.0.0.1 only.
Requests are kept in memory; their Authorization/api-key headers are never written anywhere
(`save_requests` and the reprs redact them), and the server prints no access log.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from spa_bench.secrets import REDACTED

_CHAT_PATH = re.compile(
    r"^(?:/v1)?/chat/completions$|^/openai/deployments/(?P<deployment>[^/]+)/chat/completions$")
_MODELS_PATH = re.compile(r"^(?:/v1)?/models$|^/openai/models$")
_SECRET_HEADERS = {"authorization", "api-key", "x-api-key", "proxy-authorization"}


@dataclass(frozen=True)
class TextReply:
    """A completion. prompt_tokens/completion_tokens None = no usage block in the reply."""

    text: str
    prompt_tokens: int | None = 10
    completion_tokens: int | None = 5
    finish_reason: str = "stop"
    model: str | None = None  # None = echo the requested model
    delay_s: float = 0.0  # wait before answering (timeouts, concurrency)


@dataclass(frozen=True)
class ErrorReply:
    """An HTTP error with an OpenAI-style JSON body and an optional Retry-After header."""

    status: int
    message: str = "scripted error"
    type: str = "server_error"
    retry_after: float | str | None = None
    delay_s: float = 0.0


@dataclass(frozen=True)
class RecordedRequest:
    """One request as received. `headers` has lower-case names and is complete (for assertions on
    the auth header); its repr hides credentials."""

    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str] = field(repr=False)
    body: Any
    deployment: str | None = None

    def redacted_headers(self) -> dict[str, str]:
        return {k: (REDACTED if k in _SECRET_HEADERS else v) for k, v in self.headers.items()}

    def __repr__(self) -> str:
        return (f"RecordedRequest({self.method} {self.path}, headers={self.redacted_headers()!r}, "
                f"body={_shorten(self.body)!r})")

    @property
    def messages(self) -> list[dict[str, Any]]:
        body = self.body if isinstance(self.body, dict) else {}
        messages = body.get("messages", [])
        return messages if isinstance(messages, list) else []

    def content_parts(self) -> list[dict[str, Any]]:
        """Every content part of every message; plain-string contents become text parts."""
        parts: list[dict[str, Any]] = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, str):
                parts.append({"type": "text", "text": content})
            elif isinstance(content, list):
                parts.extend(p for p in content if isinstance(p, dict))
        return parts

    def texts(self) -> list[str]:
        return [str(p.get("text", "")) for p in self.content_parts() if p.get("type") == "text"]

    def image_urls(self) -> list[dict[str, Any]]:
        """The `image_url` objects ({"url": ..., "detail": ...}) in order."""
        return [p["image_url"] for p in self.content_parts()
                if p.get("type") == "image_url" and isinstance(p.get("image_url"), dict)]


Responder = Callable[[RecordedRequest], "TextReply | ErrorReply | str"]
ScriptItem = TextReply | ErrorReply | str | Responder
WhenEmpty = Literal["error", "repeat_last"] | TextReply | ErrorReply | Responder


class ScriptedOpenAIServer:
    """Answers chat completions from `script`, one item per request, in order.

    Items: a TextReply, a plain string (a TextReply with default usage), an ErrorReply, or a callable
    taking the RecordedRequest and returning one of those (dynamic answers). When the script is used
    up, `when_empty` decides: "error" (HTTP 500 "script exhausted", the default: a test that runs
    out of script has a bug), "repeat_last", or a fixed item.
    """

    def __init__(self, script: Iterable[ScriptItem] = (), *, when_empty: WhenEmpty = "error",
                 models: Iterable[str] = ("test-model",), host: str = "127.0.0.1", port: int = 0) -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the scripted server binds loopback only")
        self._script: deque[ScriptItem] = deque(script)
        self.when_empty = when_empty
        self.models = list(models)
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._last: ScriptItem | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._host, self._port = host, port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._counter = 0
        self._responses = 0

    # lifecycle -------------------------------------------------------------------------------
    def start(self) -> ScriptedOpenAIServer:
        handler = type("_BoundHandler", (_Handler,), {"server_state": self})
        self._httpd = ThreadingHTTPServer((self._host, self._port), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="scripted-openai-server", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()  # wakes delayed replies
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return int(self._httpd.server_address[1])

    @property
    def endpoint(self) -> str:
        """Scheme, host and port: the Azure-style `azure_endpoint`."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (ends in /v1)."""
        return f"{self.endpoint}/v1"

    # script ------------------------------------------------------------------------------------
    def add(self, *items: ScriptItem) -> None:
        with self._lock:
            self._script.extend(items)

    @property
    def remaining(self) -> int:
        with self._lock:
            return len(self._script)

    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def save_requests(self, path: Path) -> None:
        """Write the recorded requests as JSON lines, credentials redacted."""
        with self._lock:
            rows = [{"method": r.method, "path": r.path, "headers": r.redacted_headers(), "body": r.body}
                    for r in self.requests]
        path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")

    # used by the handler -------------------------------------------------------------------------
    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _next_item(self) -> ScriptItem:
        with self._lock:
            if self._script:
                self._last = self._script.popleft()
                return self._last
            if self.when_empty == "repeat_last" and self._last is not None:
                return self._last
            if isinstance(self.when_empty, str):
                return ErrorReply(500, "script exhausted: the scripted server has no more replies")
            return self.when_empty

    def _enter(self) -> int:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self._counter += 1
            return self._counter

    def _request_number(self) -> int:
        with self._lock:
            self._responses += 1
            return self._responses

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _wait(self, seconds: float) -> None:
        if seconds > 0:
            self._stop.wait(seconds)


class _Handler(BaseHTTPRequestHandler):
    server_state: ScriptedOpenAIServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out in two writes: no 40 ms delayed-ACK stall

    def log_message(self, format: str, *args: Any) -> None:  # no access log, anywhere
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        self.server_state._record(self._recorded(url.path, parse_qs(url.query), None, None))
        if _MODELS_PATH.match(url.path):
            data = [{"id": m, "object": "model", "created": 0, "owned_by": "spa-bench"}
                    for m in self.server_state.models]
            self._send(200, {"object": "list", "data": data})
        else:
            self._send_error(ErrorReply(404, f"no route GET {url.path}", "not_found"))

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        match = _CHAT_PATH.match(url.path)
        request = self._recorded(url.path, parse_qs(url.query), body, match["deployment"] if match else None)
        state = self.server_state
        state._record(request)
        if match is None:
            self._send_error(ErrorReply(404, f"no route POST {url.path}", "not_found"))
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            self._send_error(ErrorReply(400, "the body must be JSON with a messages list",
                                        "invalid_request_error"))
            return
        if body.get("stream"):
            self._send_error(ErrorReply(400, "streaming is not supported by the scripted server",
                                        "invalid_request_error"))
            return
        number = state._enter()
        try:
            item = state._next_item()
            reply = item(request) if callable(item) else item
            if isinstance(reply, str):
                reply = TextReply(reply)
            state._wait(reply.delay_s)
        finally:
            # Before the answer goes out, not after: a client that has it may send its next call at once
            # (a concurrency slot freed), and that call must not find this one still counted in flight.
            state._leave()
        if isinstance(reply, ErrorReply):
            self._send_error(reply)
        else:
            self._send(200, _completion(reply, str(body.get("model") or "unknown"), number))

    def _recorded(self, path: str, query: dict[str, list[str]], body: Any,
                  deployment: str | None) -> RecordedRequest:
        headers = {k.lower(): v for k, v in self.headers.items()}
        return RecordedRequest(self.command, path, query, headers, body, deployment)

    def _send_error(self, reply: ErrorReply) -> None:
        headers = {} if reply.retry_after is None else {"Retry-After": str(reply.retry_after)}
        body = {"error": {"message": reply.message, "type": reply.type, "param": None, "code": None}}
        self._send(reply.status, body, headers)

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("x-request-id", f"req_scripted_{self.server_state._request_number()}")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to report

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def _completion(reply: TextReply, requested_model: str, number: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": f"chatcmpl-scripted-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or requested_model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": reply.text},
                     "finish_reason": reply.finish_reason, "logprobs": None}],
    }
    if reply.prompt_tokens is not None and reply.completion_tokens is not None:
        out["usage"] = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                        "total_tokens": reply.prompt_tokens + reply.completion_tokens}
    return out


def _shorten(value: Any, limit: int = 200) -> Any:
    """Long strings (base64 images) cut for reprs."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + f"...({len(value)} chars)"
    if isinstance(value, dict):
        return {k: _shorten(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v, limit) for v in value]
    return value
