"""Finding secret values (by argument name, inside command lines, by the variables *_env arguments name)
and scrubbing them from text, JSON, bytes and the files a run writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spa_bench.results.layout import write_json_atomic
from spa_bench.secrets import (
    REDACTED,
    ByteScrubber,
    argv_secrets,
    is_secret_key,
    redact_argv,
    redact_mapping,
    register_secrets,
    scrub_text,
    scrub_values,
    secrets_in_args,
)


@pytest.mark.parametrize("name", ["api_key", "--api-key", "--openai_api_key", "OPENAI_API_KEY", "token",
                                  "access_token", "password", "--passwd", "client_secret", "openai_key",
                                  "--key", "Authorization", "auth"])
def test_secret_names(name: str) -> None:
    assert is_secret_key(name)


@pytest.mark.parametrize("name", ["model", "max_tokens", "api_key_env", "token_file", "keyboard",
                                  "monkey", "key_components", "cmd", "--max-rounds"])
def test_names_that_are_not_secrets(name: str) -> None:
    assert not is_secret_key(name)


def test_secret_values_in_agent_arguments() -> None:
    env = {"MY_KEY_VAR": "value-of-my-key-var", "OTHER": "not-a-secret-at-all"}
    args = {"model": "gpt-4o", "api_key": "direct-key-0001",
            "cmd": "python run.py --openai_api_key cmd-key-00002 --api-key=cmd-key-00003 --lang en",
            "api_key_env": "MY_KEY_VAR", "nested": {"password": "nested-pass-04"},
            "temperature": 0.0, "short_token": "abc"}
    assert secrets_in_args(args, env) == {"direct-key-0001", "cmd-key-00002", "cmd-key-00003",
                                          "value-of-my-key-var", "nested-pass-04"}  # "abc" is too short
    assert argv_secrets(["--token", "t0k3n-value", "plain", "secret=s3cr3t-value", "--seed", "1"]) == {
        "t0k3n-value", "s3cr3t-value"}
    assert argv_secrets(['--api-key="unbalanced']) == {'"unbalanced'}
    assert secrets_in_args({"base_url": "https://me:url-pass-123@gw.example/v1?api-key=query-key-456&x=1"},
                           env) == {"url-pass-123", "query-key-456"}


def test_redact_argv_hides_options_inside_a_cmd_value() -> None:
    argv = ["spa-bench", "run", "--agent-arg", "cmd=python run.py --openai_api_key abcdefgh12345 --lang en",
            "--agent-arg", "api_key=zyxwvut98765", "--api-key", "k-12345678",
            "--judge-base-url", "https://me:urlpass-5678@gw.example/v1"]
    out = redact_argv(argv)
    text = " ".join(out)
    assert "abcdefgh12345" not in text and "zyxwvut98765" not in text and "k-12345678" not in text
    assert out[3] == f"cmd=python run.py --openai_api_key {REDACTED} --lang en"
    assert out[5] == f"api_key={REDACTED}" and out[7] == REDACTED
    assert out[9] == f"https://me:{REDACTED}@gw.example/v1"


def test_registered_and_environment_values_are_scrubbed_everywhere(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    monkeypatch.setenv("SOME_SERVICE_TOKEN", "env-token-8f7e6d5c")
    register_secrets(["registered-2b3c4d5e", "short"])
    weird = 'quote"and\\backslash-9z8y'  # appears escaped inside JSON strings
    register_secrets([weird])
    text = "a env-token-8f7e6d5c b registered-2b3c4d5e c short"
    assert scrub_text(text) == f"a {REDACTED} b {REDACTED} c short"
    assert redact_mapping({"cmd": "x --flag registered-2b3c4d5e"}) == {"cmd": f"x --flag {REDACTED}"}
    path = tmp_path / "log.json"
    write_json_atomic(path, json.dumps({"thought": f"my key is {weird} and env-token-8f7e6d5c"}))
    assert json.loads(path.read_text(encoding="utf-8")) == {"thought": f"my key is {REDACTED} and {REDACTED}"}
    scrub = ByteScrubber(["extra-secret-1a2b"])
    assert scrub(b"\xff\xfe extra-secret-1a2b env-token-8f7e6d5c \x00") == (
        b"\xff\xfe " + REDACTED.encode() + b" " + REDACTED.encode() + b" \x00")


def test_scrub_values_leaves_key_shapes_in_data_alone() -> None:
    # a report page carries base64: only known values are replaced there, never "key-looking" runs
    blob = "data:image/png;base64,AAAA/AIza" + "B" * 40
    assert scrub_values(blob) == blob
    assert scrub_text(blob) != blob
