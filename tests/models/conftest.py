"""Fixtures for the model client's tests: a scripted OpenAI-compatible server, a fake key, and a
sleep that records the waits instead of waiting (retry timing is asserted, not endured)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from model_helpers import KEY, KEY_ENV, RecordedSleep

from spa_bench.models import ModelClient, ModelConfig
from spa_bench.testing.openai_server import ScriptedOpenAIServer


@pytest.fixture
def sleep() -> RecordedSleep:
    return RecordedSleep()


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as srv:
        yield srv


@pytest.fixture
def make_client(server: ScriptedOpenAIServer, sleep: RecordedSleep) -> Iterator[Callable[..., ModelClient]]:
    """A client of `server` with the test key in its environment and tiny backoff; kwargs go to
    ModelConfig (model defaults to "test-model"), except `cache`, which goes to the client."""
    clients: list[ModelClient] = []

    def make(**fields: Any) -> ModelClient:
        fields.setdefault("model", "test-model")
        fields.setdefault("base_url", server.base_url)
        fields.setdefault("api_key_env", KEY_ENV)
        fields.setdefault("backoff", {"base_s": 0.001, "max_s": 0.01})
        cache = fields.pop("cache", None)
        client = ModelClient(ModelConfig(**fields), sleep=sleep, environ={KEY_ENV: KEY}, cache=cache)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
