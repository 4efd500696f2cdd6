"""`spa-bench agents list` and `agents show`: what each native adapter is and the exact request it sends."""

from __future__ import annotations

import json
import re

import pytest
from cli_helpers import run_cli


def test_list_shows_family_frame_calls_and_format_source(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "agents", "list")
    assert result.code == 0, result.err
    row = next(line for line in result.out.splitlines() if "ui-tars" in line)
    assert "UI-TARS-1.5" in row and "absolute pixels on the resized image" in row
    assert "MOBILE_USE_DOUBAO" in result.out and "mllm" in result.out


def test_show_prints_arguments_and_the_request_with_images_elided(capsys: pytest.CaptureFixture[str]) -> None:
    from ui_tars.prompt import MOBILE_USE_DOUBAO

    result = run_cli(capsys, "agents", "show", "ui-tars", "--agent-arg",
                     "model=ByteDance-Seed/UI-TARS-1.5-7B", "--language", "zh")
    assert result.code == 0, result.err
    assert "1092x2408 for the 1080x2400 screen" in re.sub(r"\s+", " ", result.out)
    body = json.loads(result.out[result.out.index("\n{\n \"model\"") + 1:])
    assert body["model"] == "ByteDance-Seed/UI-TARS-1.5-7B" and body["max_tokens"] == 1024
    system, prompt, image = body["messages"]
    assert system == {"role": "system", "content": "You are a helpful assistant."}
    text = prompt["content"][0]["text"]
    head = MOBILE_USE_DOUBAO.split("{language}")[0]  # the authors' text, plus their call_user line
    finished = head.index("\n", head.index("finished(content=")) + 1
    assert text.startswith(head[:finished] + "call_user() # Submit the task and call the user")
    assert head[finished:] in text and "Use Chinese in `Thought`" in text
    assert "这是已打开的“设置”应用程序" in text  # SPA-Bench's prefix, then the task's own instruction
    url = image["content"][0]["image_url"]["url"]
    assert re.fullmatch(r"data:image/png;base64,<\d+ characters elided>", url)


def test_show_refuses_what_is_not_a_native_adapter(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "agents", "show", "mllm")
    assert result.code != 0 and "not a native adapter" in result.err
    result = run_cli(capsys, "agents", "show", "ui-tars", "--agent-arg", "version=2")
    assert result.code != 0 and "version must be 1.5 or 1.0" in result.err
