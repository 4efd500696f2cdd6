"""One chat-completion client for agents and the judge, for any OpenAI-compatible endpoint.

The openai package's own retries are turned off (max_retries=0): we retry here, with exponential
backoff, jitter and Retry-After, so that every retry is logged and tests can drive it. The API key is
read from the environment when the client is made and lives only inside the openai client; it is
scrubbed from every message we log or raise, and errors are raised without the openai exception
chained (its text may quote the request).

With a model cache (spa_bench.models.cache: given, or the run's active one), a request already answered
is not sent: the recorded reply comes back with `cached=True`.
"""

from __future__ import annotations

import logging
import os
import random
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any

from spa_bench.errors import ConfigError, ModelError
from spa_bench.models.cache import ModelCache, active_cache, new_entry
from spa_bench.models.config import NO_KEY, ModelConfig, safe_url
from spa_bench.models.failures import Failure, classify
from spa_bench.models.messages import ImageInput, Message, Part, user_message
from spa_bench.models.prices import PriceTable
from spa_bench.results.schema import TokenUsage
from spa_bench.secrets import header_secrets, scrub_text

if TYPE_CHECKING:
    import openai
    from openai.types.chat import ChatCompletion

log = logging.getLogger("spa_bench.models")


@dataclass(frozen=True)
class ModelReply:
    """The text of one successful call and what it cost. usage_known False: the server sent no usage
    (tokens then count as 0 and cost as unknown)."""

    text: str
    usage: TokenUsage
    model_s: float
    model: str
    finish_reason: str | None
    usage_known: bool = True
    attempts: int = 1
    cached: bool = False  # answered from the model cache: no request was sent


class _Limit:
    """A semaphore shared by every client of one (base_url, model) in this process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.semaphore = threading.BoundedSemaphore(limit)


_limits: dict[tuple[str, str], _Limit] = {}
_limits_lock = threading.Lock()


def _shared_limit(key: tuple[str, str], limit: int) -> _Limit:
    with _limits_lock:
        existing = _limits.get(key)
        if existing is None:
            existing = _limits[key] = _Limit(limit)
        elif existing.limit != limit:
            log.warning("concurrency limit %d for %s at %s ignored: %d was set first and is shared",
                        limit, key[1], key[0], existing.limit)
        return existing


class ModelClient:
    """Calls one model. Thread-safe: agents on several devices may share one client."""

    def __init__(self, config: ModelConfig, *, prices: PriceTable | None = None,
                 sleep: Callable[[float], None] = time.sleep, environ: Mapping[str, str] | None = None,
                 rng: random.Random | None = None, cache: ModelCache | None = None) -> None:
        self.config = config
        self.cache = cache if cache is not None else active_cache()
        self.prices = prices if prices is not None else PriceTable.builtin()
        self._sleep = sleep
        self._rng = rng or random.Random()
        env = os.environ if environ is None else environ
        key = env.get(config.api_key_env) if config.api_key_env else None
        if not key and config.needs_key():
            var = config.api_key_env or "api_key_env"
            raise ConfigError(f"{config.label} needs an API key: set the environment variable {var}")
        self._key_note = ("no key configured (api_key_env is None)" if not config.api_key_env
                          else f"key from ${config.api_key_env}" if key
                          else f"environment variable {config.api_key_env} is not set")
        self._secrets = ((key,) if key else ()) + header_secrets(config.extra_headers)
        self._client = self._make_client(key or NO_KEY)
        self._limit = (_shared_limit(config.limit_key, config.concurrency)
                       if config.concurrency is not None else None)

    def _make_client(self, key: str) -> openai.OpenAI:
        import openai

        cfg = self.config
        headers = dict(cfg.extra_headers) or None
        if cfg.azure is not None:
            assert cfg.base_url is not None
            return openai.AzureOpenAI(azure_endpoint=cfg.base_url, azure_deployment=cfg.azure.deployment,
                                      api_version=cfg.azure.api_version, api_key=key,
                                      timeout=cfg.timeout_s, max_retries=0, default_headers=headers)
        return openai.OpenAI(base_url=cfg.base_url, api_key=key, timeout=cfg.timeout_s, max_retries=0,
                             default_headers=headers)

    def __repr__(self) -> str:
        return f"ModelClient({self.config!r})"

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ModelClient:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def user_message(self, *parts: Part | Sequence[Part]) -> Message:
        """A user message with images encoded by this model's image settings."""
        return user_message(*parts, settings=self.config.image)

    def image_url(self, image: ImageInput) -> str:
        from spa_bench.models.messages import encode_image

        return encode_image(image, self.config.image)

    def chat(self, messages: Sequence[Message], **overrides: Any) -> ModelReply:
        """One chat completion, retried on 429, 5xx, timeouts and connection errors.

        `overrides` are request fields for this call only (max_tokens, temperature, response_format,
        stop, ...). model_s is the wall time of the attempts and the waits between them, not the time
        spent queueing for the concurrency limit. Raises ModelError (or a subclass) when it gives up.
        """
        body = self._body(overrides)
        started = time.perf_counter()
        key = self._cache_key(messages, body) if self.cache is not None else None
        if key is not None:
            cached = self._from_cache(key, started)
            if cached is not None:
                return cached
        queued = 0.0
        attempt = 0
        while True:
            with self._slot() as waited:
                queued += waited
                outcome = self._attempt(messages, body)
            if not isinstance(outcome, Failure):
                reply = self._reply(outcome, time.perf_counter() - started - queued, attempt + 1)
                log.debug("%s: %d+%d tokens in %.2fs (%d attempts)", self.config.label,
                          reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.model_s,
                          reply.attempts)
                if key is not None:
                    self._to_cache(key, reply)
                return reply
            if not outcome.retryable or attempt >= self.config.max_retries:
                raise self._error(outcome, attempt + 1)
            delay = self._delay(attempt, outcome.retry_after)
            log.warning("%s: %s; retry %d/%d in %.2fs", self.config.label, self._scrub(outcome.reason),
                        attempt + 1, self.config.max_retries, delay)
            self._sleep(delay)
            attempt += 1

    def _cache_key(self, messages: Sequence[Message], body: Mapping[str, Any]) -> str:
        cfg = self.config
        endpoint = safe_url(cfg.base_url) if cfg.base_url else "openai"
        if cfg.azure is not None:
            endpoint += f" deployment={cfg.azure.deployment}"
        return ModelCache.key(endpoint, cfg.model, messages, body)

    def _from_cache(self, key: str, started: float) -> ModelReply | None:
        assert self.cache is not None
        entry = self.cache.get(key)
        if entry is None:
            if self.cache.replay_only:
                raise ModelError(f"{self.config.label}: no reply in the model cache {self.cache.root} for "
                                 f"this request (key {key}) and replay_only is set: the prompt differs "
                                 "from the recorded run's")
            return None
        prompt, completion = entry.prompt_tokens, entry.completion_tokens
        cost = self.cost(prompt, completion, entry.served_model) if entry.usage_known else None
        usage = TokenUsage(prompt_tokens=prompt, completion_tokens=completion, calls=1, cached_calls=1,
                           cost_usd=cost)
        log.debug("%s: reply %s from the model cache", self.config.label, key[:12])
        return ModelReply(text=entry.text, usage=usage, model_s=time.perf_counter() - started,
                          model=entry.served_model, finish_reason=entry.finish_reason,
                          usage_known=entry.usage_known, attempts=0, cached=True)

    def _to_cache(self, key: str, reply: ModelReply) -> None:
        assert self.cache is not None
        entry = new_entry(key, requested_model=self.config.model, served_model=reply.model,
                          text=reply.text, finish_reason=reply.finish_reason,
                          prompt_tokens=reply.usage.prompt_tokens,
                          completion_tokens=reply.usage.completion_tokens, usage_known=reply.usage_known,
                          model_s=reply.model_s)
        try:
            self.cache.put(entry)
        except OSError as exc:  # the answer is good; a cache that cannot be written must not lose it
            log.warning("model cache %s: cannot write %s: %s", self.cache.root, key, exc.strerror or exc)

    def _body(self, overrides: Mapping[str, Any]) -> dict[str, Any]:
        cfg = self.config
        body: dict[str, Any] = {}
        if cfg.temperature is not None:
            body["temperature"] = cfg.temperature
        if cfg.max_tokens is not None:
            body[cfg.max_tokens_param] = cfg.max_tokens
        body.update(cfg.extra_body)
        for name, value in overrides.items():
            if name in ("max_tokens", "max_completion_tokens"):
                body.pop("max_tokens", None)
                body.pop("max_completion_tokens", None)
                name = cfg.max_tokens_param
            body[name] = value
        for reserved in ("model", "messages", "stream"):
            if reserved in body:
                raise ConfigError(f"{reserved!r} cannot be overridden in a model call")
        return body

    @contextmanager
    def _slot(self) -> Iterator[float]:
        """Hold one of the shared concurrency slots; yields how long we queued for it."""
        if self._limit is None:
            yield 0.0
            return
        t0 = time.perf_counter()
        self._limit.semaphore.acquire()
        try:
            yield time.perf_counter() - t0
        finally:
            self._limit.semaphore.release()

    def _attempt(self, messages: Sequence[Message], body: dict[str, Any]) -> ChatCompletion | Failure:
        import openai

        try:
            return self._client.chat.completions.create(
                model=self.config.model, messages=list(messages),  # type: ignore[arg-type]
                extra_body=body or None)
        except openai.OpenAIError as exc:
            return classify(exc)

    def _reply(self, completion: ChatCompletion, seconds: float, attempts: int) -> ModelReply:
        if not completion.choices:
            raise ModelError(f"{self.config.label}: the reply has no choices")
        choice = completion.choices[0]
        text = self._scrub(choice.message.content or "")  # a gateway may echo what it was sent
        model = completion.model or self.config.model
        usage = completion.usage
        if usage is None:
            tokens = TokenUsage(prompt_tokens=0, completion_tokens=0, calls=1, cost_usd=None)
        else:
            prompt, completion_tokens = usage.prompt_tokens or 0, usage.completion_tokens or 0
            tokens = TokenUsage(prompt_tokens=prompt, completion_tokens=completion_tokens, calls=1,
                                cost_usd=self.cost(prompt, completion_tokens, model))
        return ModelReply(text=text, usage=tokens, model_s=seconds, model=model,
                          finish_reason=choice.finish_reason, usage_known=usage is not None,
                          attempts=attempts)

    def cost(self, prompt_tokens: int, completion_tokens: int,
             served_model: str | None = None) -> float | None:
        """USD for these tokens: the config's own prices, else the table by configured name, else by the
        name the server answered with (an Azure deployment name rarely is a model name). None = unknown."""
        cfg = self.config
        if cfg.price_in is not None and cfg.price_out is not None:
            return (prompt_tokens * cfg.price_in + completion_tokens * cfg.price_out) / 1_000_000
        for name in (cfg.model, served_model):
            if name:
                cost = self.prices.cost(name, prompt_tokens, completion_tokens)
                if cost is not None:
                    return cost
        return None

    def _delay(self, attempt: int, retry_after: float | None) -> float:
        backoff = self.config.backoff
        if retry_after is not None:
            return min(max(retry_after, 0.0), backoff.retry_after_max_s)
        wait: float = min(backoff.max_s, backoff.base_s * 2.0**attempt)
        return wait * (1 - backoff.jitter) + wait * backoff.jitter * self._rng.random()

    def _error(self, failure: Failure, attempts: int) -> ModelError:
        tried = f" (after {attempts} attempts)" if attempts > 1 else ""
        message = f"{self.config.label}: {failure.reason}{tried}"
        if failure.kind == "auth":
            message += f"; {self._key_note}"
        return failure.error_class(self._scrub(message), status=failure.status)

    def _scrub(self, text: str) -> str:
        return scrub_text(text, self._secrets)
