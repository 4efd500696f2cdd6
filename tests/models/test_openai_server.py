"""The scripted OpenAI-compatible server, spoken to with the real openai client and with raw HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import openai
import pytest
from model_helpers import KEY, assert_no_key

from spa_bench.testing.openai_server import (
    ErrorReply,
    RecordedRequest,
    ScriptedOpenAIServer,
    ScriptItem,
    TextReply,
)


def _post(url: str, body: Any, headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any], Any]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), json.loads(err.read())


def test_openai_client_round_trip_and_models() -> None:
    with ScriptedOpenAIServer(["first", TextReply("second", 3, 4, finish_reason="length")],
                              models=["m1", "m2"]) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="x", max_retries=0)
        one = client.chat.completions.create(model="m1", messages=[{"role": "user", "content": "hi"}])
        two = client.chat.completions.create(model="m2", messages=[{"role": "user", "content": "hi"}])
        assert [m.id for m in client.models.list()] == ["m1", "m2"]
        client.close()
    assert one.choices[0].message.content == "first" and one.model == "m1"
    assert one.usage is not None and (one.usage.prompt_tokens, one.usage.completion_tokens) == (10, 5)
    assert two.choices[0].finish_reason == "length" and two.usage is not None
    assert two.usage.total_tokens == 7
    assert [r.method for r in server.requests] == ["POST", "POST", "GET"]


def test_error_items_and_paths() -> None:
    script: list[ScriptItem] = [ErrorReply(429, "slow", "rate_limit_exceeded", retry_after=7), "ok"]
    with ScriptedOpenAIServer(script) as server:
        status, headers, body = _post(f"{server.endpoint}/chat/completions", {"messages": []})
        assert status == 429 and headers["Retry-After"] == "7"
        assert body["error"] == {"message": "slow", "type": "rate_limit_exceeded",
                                 "param": None, "code": None}
        status, _, body = _post(f"{server.endpoint}/openai/deployments/dep/chat/completions?api-version=1",
                                {"messages": []})
        assert status == 200 and body["choices"][0]["message"]["content"] == "ok"
        assert _post(f"{server.endpoint}/v1/completions", {"prompt": "x"})[0] == 404
        assert _post(f"{server.base_url}/chat/completions", {"no": "messages"})[0] == 400
        assert _post(f"{server.base_url}/chat/completions", {"messages": [], "stream": True})[0] == 400
        assert server.remaining == 0


def test_when_empty_policies() -> None:
    with ScriptedOpenAIServer(["only"]) as server:
        assert _post(f"{server.base_url}/chat/completions", {"messages": []})[0] == 200
        status, _, body = _post(f"{server.base_url}/chat/completions", {"messages": []})
        assert status == 500 and "script exhausted" in body["error"]["message"]
    with ScriptedOpenAIServer(["again"], when_empty="repeat_last") as server:
        for _ in range(3):
            assert _post(f"{server.base_url}/chat/completions", {"messages": []})[2]["choices"][0][
                "message"]["content"] == "again"
    with ScriptedOpenAIServer(when_empty=TextReply("fixed")) as server:
        assert _post(f"{server.base_url}/chat/completions", {"messages": []})[2]["choices"][0][
            "message"]["content"] == "fixed"


def test_callable_items_answer_from_the_request() -> None:
    def echo(request: RecordedRequest) -> TextReply | ErrorReply | str:
        last = request.texts()[-1]
        return ErrorReply(400, "empty") if not last else f"you said {last} to {request.body['model']}"

    with ScriptedOpenAIServer([echo, echo]) as server:
        url = f"{server.base_url}/chat/completions"
        body = {"model": "m", "messages": [{"role": "user", "content": [{"type": "text", "text": "ping"}]}]}
        assert _post(url, body)[2]["choices"][0]["message"]["content"] == "you said ping to m"
        assert _post(url, {"model": "m", "messages": [{"role": "user", "content": ""}]})[0] == 400


def test_credentials_are_kept_in_memory_only(tmp_path: Path) -> None:
    with ScriptedOpenAIServer(["a", "b"]) as server:
        _post(f"{server.base_url}/chat/completions", {"messages": []}, {"Authorization": f"Bearer {KEY}"})
        _post(f"{server.base_url}/chat/completions", {"messages": []}, {"api-key": KEY})
        log = tmp_path / "requests.jsonl"
        server.save_requests(log)
    first, second = server.requests
    assert first.headers["authorization"] == f"Bearer {KEY}" and second.headers["api-key"] == KEY
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 2 and rows[0]["headers"]["authorization"] == "***REDACTED***"
    assert_no_key(log.read_text(encoding="utf-8"))
    assert_no_key(repr(server.requests))


def test_binds_loopback_only() -> None:
    with pytest.raises(ValueError, match="loopback"):
        ScriptedOpenAIServer(host="0.0.0.0")
    with ScriptedOpenAIServer() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        assert server._httpd is not None and server._httpd.server_address[0] == "127.0.0.1"
