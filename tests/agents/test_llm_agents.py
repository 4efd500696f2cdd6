"""mllm, text and reflection through the whole pipeline: virtual phone + local scripted OpenAI server.

The server answers like a model would, reading the element numbers out of the request it got (so the
test does not depend on how many elements the Settings screen has): tap "Network & internet", then the
Wi-Fi switch, then finish. The task's state check (Wi-Fi off) then decides success.
"""

from __future__ import annotations

import base64
import io
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PIL import Image
from pim_runs import on_shared_phones

from spa_bench.drawing import PALETTE
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter
from spa_bench.testing.openai_server import ErrorReply, RecordedRequest, ScriptedOpenAIServer, TextReply

pytestmark = pytest.mark.usefixtures("adb_env")

KEY_ENV = "SPA_TEST_AGENT_KEY"
KEY = "sk-test-DISTINCTIVE-agent-key-4f1c9e27"
_LINE = re.compile(r"^\[(\d+)\] (.*)$", re.M)


def element_lines(request: RecordedRequest) -> dict[int, str]:
    text = "\n".join(request.texts())
    return {int(m.group(1)): m.group(2) for m in _LINE.finditer(text)}


def tap(label: str, fmt: str = 'Reason: tap {label}\nAction: {{"type": "tap", "element": {n}}}',
        prompt_tokens: int = 1200, completion_tokens: int = 40) -> Callable[[RecordedRequest], TextReply]:
    """A reply that taps the first listed element whose line contains `label`."""

    def answer(request: RecordedRequest) -> TextReply:
        lines = element_lines(request)
        n = next(i for i, line in sorted(lines.items()) if label in line)
        return TextReply(fmt.format(label=label, n=n), prompt_tokens, completion_tokens)

    return answer


@pytest.fixture
def api_key() -> Iterator[str]:
    os.environ[KEY_ENV] = KEY
    try:
        yield KEY
    finally:
        os.environ.pop(KEY_ENV, None)


def run_agents(results_dir: Path, agents: list[AgentConfig]) -> dict[str, EpisodeLog]:
    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), agents=agents, **on_shared_phones(1),
                       out=results_dir)
    result = run_benchmark(config)
    files = [p for p in result.run_dir.rglob("*") if p.is_file()]
    assert files
    for path in files:  # the key is in no file of the run folder
        assert KEY.encode() not in path.read_bytes(), path
    return {log.agent.name: log for log in result.logs}


def state_success(log: EpisodeLog) -> bool | None:
    return next(v.success for v in log.verdicts if v.evaluator == "state")


def test_mllm_text_and_reflection_complete_the_task(results_dir: Path, api_key: str) -> None:
    mllm_server = ScriptedOpenAIServer([
        ErrorReply(429, "slow down", retry_after=0),
        tap("'Network & internet'"),
        ErrorReply(500, "oops", retry_after=0),
        tap("id=switch_widget", fmt='```json\n{{"type": "tap", "element": {n},}}\n```'),
        TextReply("Reason: Wi-Fi is off now.\nAction: {'type': 'finish', 'status': 'done'}", 1500, 20),
    ])
    text_server = ScriptedOpenAIServer([
        tap("'Network & internet'", prompt_tokens=300, completion_tokens=30),
        TextReply("I am not sure what to do here, let me think about it.", 310, 12),
        tap("id=switch_widget", prompt_tokens=320, completion_tokens=30),
        TextReply('{"action_type": "status", "goal_status": "complete"}', 330, 10),
    ])
    reflection_server = ScriptedOpenAIServer([
        tap("'Network & internet'"),
        TextReply("Reason: the network page opened.\nOutcome: A", 900, 15),
        tap("id=switch_widget"),
        TextReply('{"outcome": "A", "reason": "the switch moved"}', 900, 15),
        TextReply('Action: {"type": "finish"}', 1000, 10),
    ])
    with mllm_server, text_server, reflection_server:
        common = {"api_key_env": KEY_ENV}
        logs = run_agents(results_dir, [
            AgentConfig(agent="mllm", args={**common, "base_url": mllm_server.base_url, "model": "gpt-4o",
                                            "max_side": None}),
            AgentConfig(agent="text", args={**common, "base_url": text_server.base_url,
                                            "model": "my-local-model"}),
            AgentConfig(agent="reflection", args={**common, "base_url": reflection_server.base_url,
                                                  "model": "gpt-4o-mini", "prompt_language": "zh"}),
        ])
        mllm_requests = mllm_server.chat_requests()
        text_requests = text_server.chat_requests()
        reflection_requests = reflection_server.chat_requests()
    assert mllm_server.remaining == text_server.remaining == reflection_server.remaining == 0

    # mllm: retried 429 and 500, parsed fenced JSON with a trailing comma and single quotes
    mllm = logs["mllm"]
    assert mllm.termination == "done" and state_success(mllm) is True, mllm.verdicts
    assert [s.action.type for s in mllm.steps if s.action] == ["tap", "tap", "finish"]
    assert len(mllm_requests) == 5  # 3 answers + 2 retried errors
    assert all(r.headers.get("authorization") == f"Bearer {KEY}" for r in mllm_requests)
    first = mllm_requests[0]
    assert first.body["model"] == "gpt-4o" and first.messages[0]["role"] == "system"
    assert "Turn off Wi-Fi." in "\n".join(first.texts())
    lines = element_lines(first)
    assert any("'Network & internet'" in line and "bounds=[" in line for line in lines.values())
    (image,) = first.image_urls()
    assert image["detail"] == "high" and image["url"].startswith("data:image/png;base64,")
    marked = Image.open(io.BytesIO(base64.b64decode(image["url"].split(",", 1)[1]))).convert("RGB")
    assert marked.size == (1080, 2400)  # max_side=None: full size, so the marks can be checked exactly
    n = next(i for i, line in lines.items() if "'Network & internet'" in line)
    bounds = re.search(r"bounds=\[(\d+),(\d+)\]\[(\d+),(\d+)\]", lines[n])
    assert bounds is not None
    _left, top, right, bottom = (int(v) for v in bounds.groups())
    assert marked.getpixel((right - 2, (top + bottom) // 2)) == PALETTE[n % len(PALETTE)]
    raw = Image.open(results_dir / mllm.run_id / "episodes" / mllm.episode_id / "screenshots" / "000.png")
    assert raw.convert("RGB").getpixel((right - 2, (top + bottom) // 2)) != PALETTE[n % len(PALETTE)]
    # tokens and cost: gpt-4o is priced (2.50 / 10.00 USD per million)
    step0 = mllm.steps[0]
    assert step0.usage.prompt_tokens == 1200 and step0.usage.completion_tokens == 40
    assert step0.usage.cost_usd == pytest.approx((1200 * 2.5 + 40 * 10) / 1e6)
    assert step0.timings.model_s is not None and step0.timings.model_s > 0
    assert mllm.usage.prompt_tokens == 1200 + 1200 + 1500 and mllm.usage.calls == 3
    assert mllm.usage.cost_usd == pytest.approx((3900 * 2.5 + 100 * 10) / 1e6)

    # text: no image; an unusable answer is an invalid step with the raw text, and the next step recovers
    text = logs["text"]
    assert text.termination == "done" and state_success(text) is True
    assert all(not r.image_urls() for r in text_requests)
    bad = text.steps[1]
    assert not bad.valid and bad.raw_action == "I am not sure what to do here, let me think about it."
    assert bad.agent_output == bad.raw_action
    assert "could not be used" in "\n".join(text_requests[2].texts())
    assert "could not be used" not in "\n".join(text_requests[3].texts())
    assert text.steps[2].valid and text.steps[2].action is not None
    assert text.steps[0].usage.cost_usd is None and text.usage.cost_usd is None  # unknown model
    assert text.usage.prompt_tokens == 300 + 310 + 320 + 330

    # reflection: two calls per step after the first; a Chinese prompt; usage is the sum of both calls
    reflection = logs["reflection"]
    assert reflection.termination == "done" and state_success(reflection) is True
    assert [s.usage.calls for s in reflection.steps] == [1, 2, 2]
    assert reflection.steps[1].usage.prompt_tokens == 900 + 1200
    assert reflection.usage.calls == 5 and reflection.usage.cost_usd is not None
    assert "[reflection]" in (reflection.steps[1].agent_output or "")
    reflect_request = reflection_requests[1]
    assert len(reflect_request.image_urls()) == 2  # before and after
    assert "智能体" in reflect_request.messages[0]["content"]
    assert "反思：成功" in "\n".join(reflection_requests[2].texts())  # the verdict feeds the next step
    action_image = reflection_requests[0].image_urls()[0]["url"]
    shrunk = Image.open(io.BytesIO(base64.b64decode(action_image.split(",", 1)[1])))
    assert max(shrunk.size) == 1344  # default max_side


def test_a_model_that_keeps_failing_is_an_agent_error(results_dir: Path, api_key: str) -> None:
    with ScriptedOpenAIServer([ErrorReply(503, "down", retry_after=0)] * 3) as server:
        logs = run_agents(results_dir, [AgentConfig(agent="text", args={
            "api_key_env": KEY_ENV, "base_url": server.base_url, "model": "m", "max_retries": 2})])
    log = logs["text"]
    assert log.termination == "agent_error"
    assert "503" in log.errors[0].message or "down" in log.errors[0].message
    assert len(log.steps) == 1 and log.steps[0].error is not None
