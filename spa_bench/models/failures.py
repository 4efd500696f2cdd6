"""Which failed model calls are worth retrying, and how long the server asked us to wait.

Retried: 429 (rate limit), 408 and 5xx (the server's trouble), timeouts and connection errors.
Not retried: other 4xx (our request or key is wrong: retrying cannot help).
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass
from typing import Any, Literal

from spa_bench.errors import ModelAuthError, ModelError, ModelRateLimited, ModelUnavailable

FailureKind = Literal["rate_limited", "server", "timeout", "connection", "auth", "request"]
_RETRYABLE: set[FailureKind] = {"rate_limited", "server", "timeout", "connection"}
_ERROR_CLASS: dict[FailureKind, type[ModelError]] = {
    "rate_limited": ModelRateLimited, "server": ModelUnavailable, "timeout": ModelUnavailable,
    "connection": ModelUnavailable, "auth": ModelAuthError, "request": ModelError,
}


@dataclass(frozen=True)
class Failure:
    """One failed attempt. `reason` is shown to users: it quotes the server's error message, which the
    client scrubs of the key before use."""

    kind: FailureKind
    reason: str
    status: int | None = None
    retry_after: float | None = None

    @property
    def retryable(self) -> bool:
        return self.kind in _RETRYABLE

    @property
    def error_class(self) -> type[ModelError]:
        return _ERROR_CLASS[self.kind]


def classify(exc: Exception) -> Failure:
    """Turn an openai exception into a Failure (imports openai: call only after a request)."""
    import openai

    if isinstance(exc, openai.APITimeoutError):
        return Failure("timeout", "request timed out")
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc.__context__
        detail = f": {type(cause).__name__}" if cause is not None else ""
        return Failure("connection", f"connection failed{detail}")
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        reason = f"HTTP {status}: {_server_message(exc.body, exc.message)}"
        retry_after = parse_retry_after(exc.response.headers)
        if status == 429:
            return Failure("rate_limited", reason, status, retry_after)
        if status >= 500 or status == 408:
            return Failure("server", reason, status, retry_after)
        if status in (401, 403):
            return Failure("auth", reason, status)
        return Failure("request", reason, status)
    return Failure("request", f"{type(exc).__name__}: {exc}")


def parse_retry_after(headers: Any) -> float | None:
    """Seconds to wait from `retry-after-ms` (OpenAI) or `Retry-After` (seconds or an HTTP date)."""
    value = headers.get("retry-after-ms")
    if value:
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _server_message(body: object, fallback: str) -> str:
    """The `message` of an OpenAI-style error body, else the body text, shortened."""
    text: str = fallback
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            text = inner["message"]
        elif isinstance(inner, str):
            text = inner
    elif isinstance(body, str) and body:
        text = body
    text = " ".join(text.split())
    return text if len(text) <= 300 else text[:297] + "..."
