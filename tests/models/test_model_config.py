"""Configuration: where the key comes from (and that it goes nowhere else), Azure, local servers,
request fields."""

from __future__ import annotations

import logging
import subprocess
import sys
from collections.abc import Callable

import pytest
from model_helpers import KEY, KEY_ENV, RecordedSleep, assert_no_key
from pydantic import ValidationError

from spa_bench.errors import ConfigError, ModelAuthError
from spa_bench.models import ModelClient, ModelConfig
from spa_bench.testing.openai_server import ErrorReply, ScriptedOpenAIServer, TextReply

HELLO = [{"role": "user", "content": "hello"}]


def test_key_is_sent_but_appears_in_no_log_repr_or_error(server: ScriptedOpenAIServer,
                                                         make_client: Callable[..., ModelClient],
                                                         caplog: pytest.LogCaptureFixture) -> None:
    server.add(ErrorReply(429, f"too many for key {KEY}"), ErrorReply(500, f"oops {KEY}"), TextReply("ok"),
               ErrorReply(401, f"bad key {KEY}"))
    with caplog.at_level(logging.DEBUG):  # every logger, openai's and httpx's included
        client = make_client(extra_headers={"X-Trace": "t1"})
        assert client.chat(HELLO).text == "ok"
        with pytest.raises(ModelAuthError) as info:
            client.chat(HELLO)
    assert server.chat_requests()[0].headers["authorization"] == f"Bearer {KEY}"
    assert server.chat_requests()[0].headers["x-trace"] == "t1"
    assert "retry 1/5" in caplog.text and "HTTP 500: oops" in caplog.text  # the retries were logged...
    for text in (caplog.text, str(info.value), repr(info.value), repr(client), repr(client.config),
                 client.config.model_dump_json(), repr(server.requests)):
        assert_no_key(text)  # ...without the key


def test_config_repr_and_manifest_hide_secret_extra_fields() -> None:
    config = ModelConfig(model="m", extra_headers={"Authorization": f"Bearer {KEY}", "X-Org": "lab"},
                         extra_body={"vendor_token": KEY, "top_k": 3})
    for text in (repr(config), str(config.redacted())):
        assert_no_key(text)
    assert "lab" in repr(config)
    data = config.redacted()
    assert data["extra_body"]["top_k"] == 3 and data["api_key_env"] == "OPENAI_API_KEY"
    assert ModelConfig.model_validate({**data, "extra_headers": {}, "extra_body": {}}).model == "m"
    assert config.extra_headers["Authorization"] == f"Bearer {KEY}"  # still usable


def test_no_key_for_local_servers(server: ScriptedOpenAIServer, sleep: RecordedSleep) -> None:
    server.add("one", "two")
    no_key = ModelConfig(model="llava", base_url=server.base_url, api_key_env=None)
    with ModelClient(no_key, sleep=sleep, environ={}) as client:
        client.chat(HELLO)
    unset = ModelConfig(model="llava", base_url=server.base_url, api_key_env="LOCAL_KEY")
    with ModelClient(unset, sleep=sleep, environ={}) as client:
        client.chat(HELLO)
    assert [r.headers["authorization"] for r in server.chat_requests()] == ["Bearer not-needed"] * 2


def test_auth_error_says_the_variable_is_unset(server: ScriptedOpenAIServer, sleep: RecordedSleep) -> None:
    server.add(ErrorReply(401, "Incorrect API key provided"))
    config = ModelConfig(model="llava", base_url=server.base_url, api_key_env="MY_VLLM_KEY")
    with ModelClient(config, sleep=sleep, environ={}) as client, \
            pytest.raises(ModelAuthError, match="environment variable MY_VLLM_KEY is not set"):
        client.chat(HELLO)


@pytest.mark.parametrize("fields", [
    {"model": "gpt-4o"},
    {"model": "gpt-4o", "base_url": "https://api.openai.com/v1"},
    {"model": "gpt-4o", "base_url": "https://x.openai.azure.com",
     "azure": {"api_version": "2024-06-01", "deployment": "d"}},
])
def test_hosted_endpoints_need_the_key_up_front(fields: dict[str, object]) -> None:
    with pytest.raises(ConfigError, match=f"set the environment variable {KEY_ENV}"):
        ModelClient(ModelConfig.model_validate({"api_key_env": KEY_ENV, **fields}), environ={})


def test_azure_deployment_route(server: ScriptedOpenAIServer, sleep: RecordedSleep) -> None:
    server.add(TextReply("azure ok", model="gpt-4o-2024-08-06"))
    config = ModelConfig(model="gpt-4o", base_url=server.endpoint, api_key_env=KEY_ENV,
                         azure={"api_version": "2024-06-01", "deployment": "vision-prod"})
    with ModelClient(config, sleep=sleep, environ={KEY_ENV: KEY}) as client:
        reply = client.chat(HELLO)
    assert reply.text == "azure ok" and reply.usage.cost_usd is not None
    request = server.chat_requests()[0]
    assert request.path == "/openai/deployments/vision-prod/chat/completions"
    assert request.deployment == "vision-prod"
    assert request.query["api-version"] == ["2024-06-01"]
    assert request.headers["api-key"] == KEY and "authorization" not in request.headers


def test_request_fields_and_overrides(server: ScriptedOpenAIServer,
                                      make_client: Callable[..., ModelClient]) -> None:
    server.add("a", "b", "c")
    client = make_client(temperature=0.2, max_tokens=300, extra_body={"top_k": 5})
    client.chat(HELLO)
    client.chat(HELLO, max_tokens=50, response_format={"type": "json_object"}, temperature=0.7)
    newer = make_client(model="o4-mini", temperature=None, max_tokens=800,
                        max_tokens_param="max_completion_tokens")
    newer.chat(HELLO, max_tokens=900)
    first, second, third = (r.body for r in server.chat_requests())
    assert first == {"model": "test-model", "messages": HELLO, "temperature": 0.2, "max_tokens": 300,
                     "top_k": 5}
    assert second["max_tokens"] == 50 and second["temperature"] == 0.7
    assert second["response_format"] == {"type": "json_object"}
    assert third["max_completion_tokens"] == 900
    assert "max_tokens" not in third and "temperature" not in third
    with pytest.raises(ConfigError, match="'model' cannot be overridden"):
        client.chat(HELLO, model="other")


@pytest.mark.parametrize(("fields", "message"), [
    ({"model": "m", "price_in": 1.0}, "both price_in and price_out"),
    ({"model": "m", "azure": {"api_version": "v", "deployment": "d"}}, "azure needs base_url"),
    ({"model": ""}, "at least 1 character"),
    ({"model": "m", "api_key": "sk-no"}, "Extra inputs are not permitted"),
    ({"model": "m", "image": {"detail": "ultra"}}, "'low', 'high' or 'auto'"),
    ({"model": "m", "concurrency": 0}, "greater than or equal to 1"),
])
def test_config_validation(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ModelConfig.model_validate(fields)


def test_label_drops_credentials_in_the_url() -> None:
    config = ModelConfig(model="m", base_url="http://user:pw@10.0.0.5:8000/v1?key=abc")
    assert config.label == "m at http://10.0.0.5:8000/v1"


def test_importing_the_package_is_light() -> None:
    code = ("import sys, spa_bench.models, spa_bench.testing.openai_server; "
            "print([m for m in ('openai', 'PIL', 'httpx', 'httpx2') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
