"""Retries: which failures are retried, how long the client waits, and what it raises at the end."""

from __future__ import annotations

import socket
import traceback
from collections.abc import Callable

import pytest
from model_helpers import KEY, KEY_ENV, RecordedSleep, assert_no_key

from spa_bench.errors import ModelAuthError, ModelError, ModelRateLimited, ModelUnavailable
from spa_bench.models import ModelClient, ModelConfig
from spa_bench.models.failures import parse_retry_after
from spa_bench.testing.openai_server import ErrorReply, ScriptedOpenAIServer, TextReply

HELLO = [{"role": "user", "content": "hello"}]


def test_429_with_retry_after_then_500_then_success(server: ScriptedOpenAIServer, sleep: RecordedSleep,
                                                    make_client: Callable[..., ModelClient]) -> None:
    server.add(ErrorReply(429, "slow down", "rate_limit_exceeded", retry_after=2),
               ErrorReply(500, "boom"), ErrorReply(503, "overloaded"), TextReply("ok"))
    client = make_client(backoff={"base_s": 0.5, "max_s": 10, "jitter": 0.5})
    reply = client.chat(HELLO)
    assert reply.text == "ok"
    assert reply.attempts == 4
    assert len(server.chat_requests()) == 4
    # Retry-After wins over the backoff; then 0.5 * 2**1 and 0.5 * 2**2, each with 50% jitter.
    assert sleep.waits[0] == 2.0
    assert 0.5 <= sleep.waits[1] <= 1.0
    assert 1.0 <= sleep.waits[2] <= 2.0


def test_backoff_is_capped_and_retry_after_too(server: ScriptedOpenAIServer, sleep: RecordedSleep,
                                               make_client: Callable[..., ModelClient]) -> None:
    server.add(*[ErrorReply(502)] * 5, ErrorReply(429, retry_after=9999), TextReply("ok"))
    client = make_client(max_retries=6,
                         backoff={"base_s": 1, "max_s": 3, "jitter": 0, "retry_after_max_s": 7})
    assert client.chat(HELLO).text == "ok"
    assert sleep.waits == [1, 2, 3, 3, 3, 7]


def test_rate_limit_outlasting_the_retries(server: ScriptedOpenAIServer, sleep: RecordedSleep,
                                           make_client: Callable[..., ModelClient]) -> None:
    server.when_empty = ErrorReply(429, "Rate limit reached for requests")
    client = make_client(max_retries=2)
    with pytest.raises(ModelRateLimited) as info:
        client.chat(HELLO)
    assert info.value.status == 429
    assert "Rate limit reached" in str(info.value) and "after 3 attempts" in str(info.value)
    assert len(server.chat_requests()) == 3 and len(sleep.waits) == 2


@pytest.mark.parametrize(("status", "error"), [(401, ModelAuthError), (403, ModelAuthError),
                                               (400, ModelError), (404, ModelError), (422, ModelError)])
def test_client_errors_raise_at_once(server: ScriptedOpenAIServer, sleep: RecordedSleep,
                                     make_client: Callable[..., ModelClient], status: int,
                                     error: type[ModelError]) -> None:
    server.add(ErrorReply(status, f"nope {status}", "invalid_request_error"), TextReply("never"))
    with pytest.raises(error) as info:
        make_client().chat(HELLO)
    assert type(info.value) is error
    assert info.value.status == status and f"HTTP {status}: nope {status}" in str(info.value)
    assert len(server.chat_requests()) == 1 and sleep.waits == []


def test_401_message_names_the_variable_never_the_key(server: ScriptedOpenAIServer,
                                                     make_client: Callable[..., ModelClient]) -> None:
    # The worst case: a server that quotes the whole key back in its error message.
    server.add(ErrorReply(401, f"Incorrect API key provided: {KEY}. Find your key at ...", "invalid_api_key"))
    with pytest.raises(ModelAuthError) as info:
        make_client().chat(HELLO)
    text = str(info.value)
    assert "Incorrect API key provided" in text and f"${KEY_ENV}" in text
    assert_no_key(text)
    assert_no_key(repr(info.value))
    assert_no_key("".join(traceback.format_exception(info.value)))
    assert info.value.__cause__ is None and info.value.__suppress_context__ is False
    assert info.value.__context__ is None  # the openai exception (which quotes the body) is not chained


def test_timeouts_are_retried(server: ScriptedOpenAIServer, sleep: RecordedSleep,
                              make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("too late", delay_s=3), TextReply("in time"))
    reply = make_client(timeout_s=0.3).chat(HELLO)
    assert reply.text == "in time" and reply.attempts == 2 and len(sleep.waits) == 1
    assert 0.3 <= reply.model_s < 2.5


def test_timeouts_outlasting_the_retries(server: ScriptedOpenAIServer,
                                         make_client: Callable[..., ModelClient]) -> None:
    server.when_empty = TextReply("too late", delay_s=3)
    with pytest.raises(ModelUnavailable, match=r"timed out \(after 2 attempts\)") as info:
        make_client(timeout_s=0.2, max_retries=1).chat(HELLO)
    assert info.value.status is None


def test_connection_errors_are_retried(sleep: RecordedSleep) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = ModelConfig(model="m", base_url=f"http://127.0.0.1:{port}/v1", api_key_env=None, max_retries=3,
                         backoff={"base_s": 0.001})
    with ModelClient(config, sleep=sleep, environ={}) as client, \
            pytest.raises(ModelUnavailable, match=r"connection failed.*after 4 attempts"):
        client.chat(HELLO)
    assert len(sleep.waits) == 3


def test_parse_retry_after() -> None:
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": "0.25"}) == 0.25
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({}) is None
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}) == 0.0  # in the past
    assert parse_retry_after({"retry-after": "-5"}) == 0.0
