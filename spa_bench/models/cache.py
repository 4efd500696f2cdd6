"""Replies of model calls kept on disk, keyed by the exact content of the request (`--model-cache DIR`).

A rerun with the same cache sends no request for a prompt already answered: a published run can be
replayed offline, and an adapter debugged, for free. The key is the sha256 of a canonical JSON of what
decides the answer: the endpoint (base_url without user:password@ and query, or "openai"; the Azure
deployment), the model name, the messages exactly as sent (images are inline data URLs, so their bytes
count) and the request fields (temperature, max_tokens, extra_body, per-call overrides such as stop or
response_format). Not in the key: the API key, headers, timeouts and retry settings, and secret-looking
fields of the body (credentials do not change the answer).

An entry holds the reply text, finish reason, served model name and the tokens the server reported -
never the request, headers or key. A cache hit is reported with the tokens as recorded, priced like a
fresh call and counted in `TokenUsage.cached_calls`: a replayed run shows the agent's cost as the
original run measured it (cost is a property of the agent on the task, and the replay must reproduce
the leaderboard), while cached_calls says how much of it was not spent this time. Model time is this
run's (near 0): timings are measured, not replayed.

Entries are written through a temporary file and renamed, so episodes running in parallel (threads or
processes) never read half an entry; two episodes asking the same thing at once both ask the model
and the last answer written stays. `replay_only=True` turns a miss into an error instead of a request.

The cache of a run is made active by the runner (`use_cache`) and picked up by every ModelClient made
while it is, so agents and the judge need no argument for it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from spa_bench.errors import ConfigError
from spa_bench.secrets import is_secret_key

log = logging.getLogger("spa_bench.models.cache")

CACHE_FORMAT: Literal[1] = 1


class CacheEntry(BaseModel):
    """One reply on disk (`<dir>/<key[:2]>/<key>.json`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal[1] = CACHE_FORMAT
    key: str
    requested_model: str
    served_model: str
    text: str
    finish_reason: str | None = None
    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    usage_known: bool = True
    model_s: float = Field(0.0, ge=0, description="how long the original call took")
    created_at: datetime


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int
    writes: int


class ModelCache:
    """A folder of replies. Thread-safe; several processes may share one folder."""

    def __init__(self, root: Path, *, replay_only: bool = False) -> None:
        self.root = Path(root)
        self.replay_only = replay_only
        self._lock = threading.Lock()
        self._hits = self._misses = self._writes = 0
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"model cache {self.root}: cannot create the folder: "
                              f"{exc.strerror or exc}") from None
        if not self.root.is_dir():
            raise ConfigError(f"model cache {self.root}: not a folder")

    def __repr__(self) -> str:
        return f"ModelCache({str(self.root)!r}, replay_only={self.replay_only})"

    @staticmethod
    def key(endpoint: str, model: str, messages: Sequence[Mapping[str, Any]],
            body: Mapping[str, Any]) -> str:
        """sha256 of the request's answer-deciding content (see the module docstring)."""
        material = {"format": CACHE_FORMAT, "endpoint": endpoint, "model": model,
                    "messages": list(messages),
                    "body": {k: v for k, v in body.items() if not is_secret_key(str(k))}}
        text = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                          default=_unserialisable)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> CacheEntry | None:
        """The entry for `key`, or None (a damaged entry is reported and counts as a miss)."""
        path = self.path(key)
        entry: CacheEntry | None = None
        try:
            entry = CacheEntry.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            pass
        except (OSError, ValidationError, ValueError) as exc:
            log.warning("model cache entry %s is unreadable and will be replaced: %s", path,
                        str(exc).splitlines()[0])
        if entry is not None and entry.key != key:
            log.warning("model cache entry %s holds key %s; ignored", path, entry.key)
            entry = None
        with self._lock:
            if entry is None:
                self._misses += 1
            else:
                self._hits += 1
        return entry

    def put(self, entry: CacheEntry) -> None:
        path = self.path(entry.key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{entry.key[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(entry.model_dump_json(indent=1))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        with self._lock:
            self._writes += 1

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._hits, self._misses, self._writes)


def new_entry(key: str, *, requested_model: str, served_model: str, text: str, finish_reason: str | None,
              prompt_tokens: int, completion_tokens: int, usage_known: bool, model_s: float) -> CacheEntry:
    return CacheEntry(key=key, requested_model=requested_model, served_model=served_model, text=text,
                      finish_reason=finish_reason, prompt_tokens=prompt_tokens,
                      completion_tokens=completion_tokens, usage_known=usage_known,
                      model_s=max(0.0, model_s), created_at=datetime.now(UTC))


# The run's cache: set by the runner for the length of a run, read by ModelClient when it is made.
# A module global rather than a context variable, because agents are made in the runner's worker threads,
# which do not inherit context variables.
_active: list[ModelCache] = []
_active_lock = threading.Lock()


def active_cache() -> ModelCache | None:
    with _active_lock:
        return _active[-1] if _active else None


@contextmanager
def use_cache(cache: ModelCache | None) -> Iterator[ModelCache | None]:
    """Make `cache` the one ModelClients use while the block runs (None: leave things as they are)."""
    if cache is None:
        yield None
        return
    with _active_lock:
        _active.append(cache)
    try:
        yield cache
    finally:
        with _active_lock:
            _active.remove(cache)


def _unserialisable(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):
        return {"bytes_sha256": hashlib.sha256(bytes(value)).hexdigest()}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"a model request field of type {type(value).__name__} cannot be cached")
