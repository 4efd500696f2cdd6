"""The per-(base_url, model) concurrency limit holds across threads and across clients."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import pytest

from spa_bench.models import ModelClient, ModelReply
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

HELLO = [{"role": "user", "content": "hello"}]


def _call_in_threads(clients: list[ModelClient], n: int) -> list[ModelReply]:
    replies: list[ModelReply] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def work(client: ModelClient) -> None:
        try:
            reply = client.chat(HELLO)
            with lock:
                replies.append(reply)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(clients[i % len(clients)],)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return replies


def test_limit_is_shared_by_clients_of_the_same_model(server: ScriptedOpenAIServer,
                                                      make_client: Callable[..., ModelClient]) -> None:
    server.when_empty = TextReply("ok", delay_s=0.2)
    # Two clients (e.g. two agents on two devices) of one model share its limit of 2.
    clients = [make_client(model="shared-limit", concurrency=2) for _ in range(2)]
    replies = _call_in_threads(clients, 8)
    assert len(replies) == 8 and server.max_in_flight == 2
    # Time queued for a slot is not model time: each reply took about one server delay (0.2 s), whereas
    # the last calls queued for three delays (0.6 s) first.
    assert all(0.2 <= r.model_s < 0.55 for r in replies)


def test_without_limit_calls_overlap(server: ScriptedOpenAIServer,
                                     make_client: Callable[..., ModelClient]) -> None:
    # The control for the test above: the server does see parallel calls when nothing limits them.
    server.when_empty = TextReply("ok", delay_s=0.3)
    replies = _call_in_threads([make_client(model="unlimited")], 4)
    assert len(replies) == 4 and server.max_in_flight >= 3


def test_other_models_have_their_own_limit(server: ScriptedOpenAIServer,
                                           make_client: Callable[..., ModelClient]) -> None:
    server.when_empty = TextReply("ok", delay_s=0.3)
    clients = [make_client(model="model-a", concurrency=1), make_client(model="model-b", concurrency=1)]
    _call_in_threads(clients, 4)
    assert server.max_in_flight == 2


def test_a_second_limit_for_the_same_model_is_ignored_loudly(server: ScriptedOpenAIServer,
                                                             make_client: Callable[..., ModelClient],
                                                             caplog: pytest.LogCaptureFixture) -> None:
    server.when_empty = TextReply("ok", delay_s=0.2)
    first = make_client(model="limit-clash", concurrency=1)
    with caplog.at_level(logging.WARNING, logger="spa_bench.models"):
        second = make_client(model="limit-clash", concurrency=3)
    assert "concurrency limit 3 for limit-clash" in caplog.text and "1 was set first" in caplog.text
    _call_in_threads([first, second], 4)
    assert server.max_in_flight == 1
