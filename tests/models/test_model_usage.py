"""Token usage and cost: from the reply's usage block and the price table; unknown stays unknown."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from spa_bench.errors import ConfigError
from spa_bench.models import ModelClient, Price, PriceTable
from spa_bench.results.schema import TokenUsage
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

HELLO = [{"role": "user", "content": "hello"}]


def test_usage_and_cost_from_the_builtin_table(server: ScriptedOpenAIServer,
                                               make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("done", prompt_tokens=1200, completion_tokens=300, model="gpt-4o-mini-2024-07-18"))
    reply = make_client(model="gpt-4o-mini").chat(HELLO)
    # gpt-4o-mini: $0.15 in, $0.60 out per million -> 1200*0.15e-6 + 300*0.60e-6 = 0.00018 + 0.00018
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens, reply.usage.calls) == (1200, 300, 1)
    assert reply.usage.cost_usd == pytest.approx(0.00036)
    assert reply.usage_known and reply.model == "gpt-4o-mini-2024-07-18" and reply.finish_reason == "stop"


def test_unknown_model_has_unknown_cost_not_zero(server: ScriptedOpenAIServer,
                                                 make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("done", prompt_tokens=50, completion_tokens=7))
    reply = make_client(model="my-finetuned-qwen-vl").chat(HELLO)
    assert reply.usage.prompt_tokens == 50 and reply.usage.completion_tokens == 7
    assert reply.usage.cost_usd is None
    assert (reply.usage + TokenUsage(cost_usd=1.0)).cost_usd is None  # and it stays unknown when summed


def test_missing_usage_is_flagged(server: ScriptedOpenAIServer,
                                  make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("done", prompt_tokens=None, completion_tokens=None))
    reply = make_client(model="gpt-4o").chat(HELLO)
    assert reply.text == "done"
    assert not reply.usage_known
    assert reply.usage == TokenUsage(prompt_tokens=0, completion_tokens=0, calls=1, cost_usd=None)


def test_config_prices_override_the_table(server: ScriptedOpenAIServer,
                                          make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("a", prompt_tokens=1_000_000, completion_tokens=2_000_000), TextReply("b"))
    assert make_client(model="gpt-4o", price_in=1.0, price_out=3.0).chat(HELLO).usage.cost_usd == 7.0
    local = make_client(model="llama-local", price_in=0, price_out=0).chat(HELLO)
    assert local.usage.cost_usd == 0.0  # free because the user said so


def test_azure_deployment_is_priced_by_the_served_model(server: ScriptedOpenAIServer,
                                                        make_client: Callable[..., ModelClient]) -> None:
    server.add(TextReply("a", prompt_tokens=1000, completion_tokens=1000, model="gpt-4o-2024-08-06"))
    reply = make_client(model="team-vision-prod").chat(HELLO)
    assert reply.usage.cost_usd == pytest.approx((1000 * 2.5 + 1000 * 10.0) / 1e6)


@pytest.mark.parametrize(("name", "expected"), [
    ("gpt-4o", (2.5, 10.0)),
    ("GPT-4o", (2.5, 10.0)),
    ("gpt-4o-2024-08-06", (2.5, 10.0)),
    ("gpt-4o-2024-05-13", (5.0, 15.0)),  # the older snapshot has its own price
    ("openai/gpt-4o-mini", (0.15, 0.6)),
    ("gpt-4-turbo-2024-04-09", (10.0, 30.0)),
    ("gpt-4-1106-preview", (10.0, 30.0)),
    ("claude-3-5-sonnet-20241022", (3.0, 15.0)),
    ("gemini-1.5-pro-002", (1.25, 5.0)),
    ("gpt-4o-mini-realtime", None),
    ("qwen2.5-vl-72b-instruct", None),
    ("gpt-4ox", None),
])
def test_price_lookup(name: str, expected: tuple[float, float] | None) -> None:
    price = PriceTable.builtin().lookup(name)
    assert (None if price is None else (price.input, price.output)) == expected


def test_price_file_yaml_and_json(tmp_path: Path) -> None:
    yaml_file = tmp_path / "prices.yaml"
    yaml_file.write_text("gpt-4o: {input: 2.0, output: 8.0}\nqwen-vl-max:\n  input: 0.4\n  output: 1.2\n",
                         encoding="utf-8")
    table = PriceTable.from_file(yaml_file)
    assert table.lookup("gpt-4o") == Price(input=2.0, output=8.0)  # corrected
    assert table.cost("qwen-vl-max", 1_000_000, 1_000_000) == pytest.approx(1.6)  # added
    assert table.lookup("gpt-4o-mini") == Price(input=0.15, output=0.6)  # built-ins kept
    json_file = tmp_path / "prices.json"
    json_file.write_text(json.dumps({"only-model": {"input": 1, "output": 2}}), encoding="utf-8")
    alone = PriceTable.from_file(json_file, base=PriceTable({}))
    assert len(alone) == 1 and "only-model" in alone and "gpt-4o" not in alone


@pytest.mark.parametrize(("text", "suffix", "message"), [
    ("gpt-4o: {input: -1, output: 2}", ".yaml", "model 'gpt-4o': input"),
    ("gpt-4o: {input: 1}", ".yaml", "model 'gpt-4o': output: Field required"),
    ("gpt-4o: {input: 1, output: 2, cached: 0.5}", ".yaml", "cached"),
    ("- gpt-4o", ".yaml", "expected a mapping"),
    ("gpt-4o: [1, 2", ".yaml", "not valid YAML"),
    ('{"gpt-4o": ', ".json", "not valid JSON"),
])
def test_bad_price_files_name_file_and_model(tmp_path: Path, text: str, suffix: str, message: str) -> None:
    path = tmp_path / f"prices{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match="price file") as info:
        PriceTable.from_file(path)
    assert message in str(info.value) and str(path) in str(info.value)


def test_missing_price_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read price file"):
        PriceTable.from_file(tmp_path / "nope.yaml")
