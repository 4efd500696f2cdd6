"""The model cache: a request already answered is not sent again; the key is the request's content
(images included) and never its credentials; entries hold no secret and survive parallel writers."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from model_helpers import KEY, KEY_PART, assert_no_key
from PIL import Image

from spa_bench.errors import ConfigError, ModelError
from spa_bench.models import ModelClient
from spa_bench.models.cache import ModelCache, active_cache, use_cache
from spa_bench.results.schema import TokenUsage
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

HELLO = [{"role": "user", "content": "hello"}]


def png(colour: tuple[int, int, int]) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (32, 64), colour).save(buf, format="PNG")
    return buf.getvalue()


def test_a_repeated_request_is_answered_from_the_cache(
        tmp_path: Path, server: ScriptedOpenAIServer, make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("tap(3)", prompt_tokens=1200, completion_tokens=40))
    cache = ModelCache(tmp_path / "cache")
    first = make_client(model="gpt-4o", cache=cache).chat(HELLO)
    again = make_client(model="gpt-4o", cache=cache).chat(HELLO)  # a new client, as in a rerun
    assert len(server.chat_requests()) == 1
    assert not first.cached and again.cached and again.attempts == 0
    assert again.text == first.text == "tap(3)"
    assert again.model == first.model and again.finish_reason == first.finish_reason == "stop"
    # tokens as recorded, priced like the original call, and marked as cached
    assert again.usage == TokenUsage(prompt_tokens=1200, completion_tokens=40, calls=1,
                                     cost_usd=first.usage.cost_usd, cached_calls=1)
    assert first.usage.cached_calls == 0 and first.usage.cost_usd == pytest.approx((1200 * 2.5 + 400) / 1e6)
    assert cache.stats().hits == 1 and cache.stats().misses == 1 and cache.stats().writes == 1


def test_the_key_is_the_content_that_decides_the_answer(
        tmp_path: Path, server: ScriptedOpenAIServer, make_client: Callable[..., ModelClient]) -> None:
    cache = ModelCache(tmp_path / "cache")
    red, blue = png((200, 0, 0)), png((0, 0, 200))
    client = make_client(model="vision", cache=cache)
    asks: list[tuple[ModelClient, list[dict[str, object]], dict[str, object]]] = [
        (client, [client.user_message("what colour?", red)], {}),
        (client, [client.user_message("what colour?", blue)], {}),  # other image bytes
        (client, [client.user_message("what colour?", red)], {"temperature": 0.7}),  # other parameter
        (client, [client.user_message("what colour?", red)], {"stop": ["\n"]}),
        (make_client(model="vision-2", cache=cache), [client.user_message("what colour?", red)], {}),
        (make_client(model="vision", max_tokens=99, cache=cache), [client.user_message("what colour?", red)],
         {}),
    ]
    for i in range(len(asks)):
        server.add(TextReply(f"answer {i}"))
    texts = [c.chat(messages, **overrides).text for c, messages, overrides in asks]
    assert texts == [f"answer {i}" for i in range(len(asks))]  # every variation was a new request
    assert len(list(cache.root.rglob("*.json"))) == len(asks)
    # ...and each one is found again, unchanged, with no request
    again = [c.chat(messages, **overrides).text for c, messages, overrides in asks]
    assert again == texts and len(server.chat_requests()) == len(asks)


def test_credentials_are_not_in_the_key_nor_in_the_entry(
        tmp_path: Path, server: ScriptedOpenAIServer, make_client: Callable[..., ModelClient]) -> None:
    cache = ModelCache(tmp_path / "cache")
    server.add(TextReply(f"the key you sent is {KEY}"))
    first = make_client(cache=cache, extra_headers={"X-Api-Key": KEY}, max_retries=0).chat(HELLO)
    assert KEY not in first.text  # the client scrubs the key it holds from what it hands back
    # another key, other headers, other timeouts and retries: the same request, answered from the cache
    server_url = server.base_url.replace("127.0.0.1", "user:pw@127.0.0.1")
    other = make_client(cache=cache, base_url=server_url, timeout_s=7, max_retries=3,
                        extra_headers={"Authorization": "Bearer other-secret-value"}).chat(HELLO)
    assert other.cached and len(server.chat_requests()) == 1
    for path in cache.root.rglob("*"):
        if path.is_file():
            assert_no_key(path.read_text(encoding="utf-8"))
            assert "other-secret-value" not in path.read_text(encoding="utf-8")
    (entry,) = [p for p in cache.root.rglob("*.json")]
    stored = json.loads(entry.read_text(encoding="utf-8"))
    assert set(stored) == {"format", "key", "requested_model", "served_model", "text", "finish_reason",
                           "prompt_tokens", "completion_tokens", "usage_known", "model_s", "created_at"}
    assert KEY_PART not in json.dumps(stored)


def test_another_endpoint_is_another_key(tmp_path: Path, make_client: Callable[..., ModelClient]) -> None:
    cache = ModelCache(tmp_path / "cache")
    with ScriptedOpenAIServer([TextReply("from a")]) as a, ScriptedOpenAIServer([TextReply("from b")]) as b:
        assert make_client(base_url=a.base_url, cache=cache).chat(HELLO).text == "from a"
        assert make_client(base_url=b.base_url, cache=cache).chat(HELLO).text == "from b"


def test_replay_only_refuses_to_send(tmp_path: Path, server: ScriptedOpenAIServer,
                                     make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("recorded"))
    make_client(cache=ModelCache(tmp_path / "cache")).chat(HELLO)
    replay = make_client(cache=ModelCache(tmp_path / "cache", replay_only=True))
    assert replay.chat(HELLO).text == "recorded"
    with pytest.raises(ModelError, match=r"no reply in the model cache .* replay_only"):
        replay.chat([{"role": "user", "content": "something never asked"}])
    assert len(server.chat_requests()) == 1


def test_parallel_writers_leave_whole_entries(tmp_path: Path, server: ScriptedOpenAIServer,
                                              make_client: Callable[..., ModelClient]) -> None:
    server.when_empty = TextReply("same answer " + "x" * 20_000)
    cache = ModelCache(tmp_path / "cache")
    clients = [make_client(cache=cache) for _ in range(8)]
    errors: list[BaseException] = []

    def ask(client: ModelClient) -> None:
        try:
            for i in range(5):
                client.chat([{"role": "user", "content": f"question {i}"}])
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=ask, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    entries = list(cache.root.rglob("*.json"))
    assert len(entries) == 5 and not list(cache.root.rglob("*.tmp"))
    for entry in entries:
        assert json.loads(entry.read_text(encoding="utf-8"))["text"].startswith("same answer")
    assert len(server.chat_requests()) >= 5  # simultaneous misses may each ask; none is lost


def test_a_damaged_entry_is_a_miss_and_is_replaced(tmp_path: Path, server: ScriptedOpenAIServer,
                                                   make_client: Callable[..., ModelClient],
                                                   caplog: pytest.LogCaptureFixture) -> None:
    server.add(TextReply("one"), TextReply("two"))
    cache = ModelCache(tmp_path / "cache")
    make_client(cache=cache).chat(HELLO)
    (entry,) = list(cache.root.rglob("*.json"))
    entry.write_text("{not json", encoding="utf-8")
    with caplog.at_level("WARNING", logger="spa_bench.models.cache"):
        assert make_client(cache=cache).chat(HELLO).text == "two"
    assert str(entry) in caplog.text
    assert json.loads(entry.read_text(encoding="utf-8"))["text"] == "two"


def test_the_active_cache_is_used_by_clients_made_while_it_is(
        tmp_path: Path, server: ScriptedOpenAIServer, make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("once"))
    cache = ModelCache(tmp_path / "cache")
    with use_cache(cache):
        assert active_cache() is cache
        made: list[ModelClient] = []
        thread = threading.Thread(target=lambda: made.append(make_client()))  # agents are made in threads
        thread.start()
        thread.join()
        assert made[0].cache is cache
        made[0].chat(HELLO)
        assert make_client().chat(HELLO).cached
    assert active_cache() is None and make_client().cache is None


def test_a_cache_folder_that_cannot_be_made_is_a_config_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError, match=r"model cache .*file"):
        ModelCache(blocker / "cache")
