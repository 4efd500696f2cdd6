"""The MLLM judge on single-app episodes, against the local scripted OpenAI-compatible server: what the
request carries (annotated screenshots, decoded back to pixels), the verdict, reason and cost, and how
unparsable replies and model errors end (evaluator errors, never success)."""

from __future__ import annotations

from pathlib import Path

import pytest
from judge_builders import H, W, decode, load, local_model, screen, single_task, write_episode
from spa_bench.evaluators.judge import JudgeEvaluator

from spa_bench.evaluation import EVALUATORS
from spa_bench.evaluation.annotate import DOT_RADIUS, STRIP_LINE_PX
from spa_bench.evaluation.judge_prompt import UnparsableReply, parse_judgement
from spa_bench.evaluation.policy import decide_success
from spa_bench.testing.openai_server import ErrorReply, RecordedRequest, ScriptedOpenAIServer, TextReply

TAP = {"type": "tap", "x": 100, "y": 200}
ACTIONS = [TAP, {"type": "type", "text": "héllo 世界"},
           {"type": "swipe", "x1": 180, "y1": 500, "x2": 180, "y2": 100}, {"type": "finish"}]
OK = "Reason: I believe this task is successful: the Bluetooth switch is on in screenshot 4.\nResult: 1"

HIERARCHY = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0"><node index="0" text="" class="android.widget.FrameLayout" package="p"
 bounds="[0,0][360,640]"><node index="0" text="Bluetooth" class="android.widget.TextView" package="p"
 clickable="true" bounds="[40,300][240,380]" /></node></hierarchy>"""


def _red(pixel: tuple[int, ...]) -> bool:
    r, g, b = pixel[:3]
    return r > 200 and 90 < g < 170 and 90 < b < 170  # 50% red over white


def test_request_carries_annotated_screenshots_and_verdict_records_reason_and_cost(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    with ScriptedOpenAIServer([TextReply(OK, prompt_tokens=12_000, completion_tokens=80)]) as server:
        judge = JudgeEvaluator(local_model(server.base_url))
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
        [request] = server.chat_requests()
        port = server.port
    assert verdict.evaluator == f"judge:gpt-4o@127.0.0.1:{port}"
    assert verdict.success is True and verdict.error is None
    assert "Bluetooth switch is on" in verdict.evidence[0].details["reason"]
    assert verdict.usage.calls == 1 and verdict.usage.prompt_tokens == 12_000
    assert verdict.usage.cost_usd == pytest.approx((12_000 * 2.5 + 80 * 10.0) / 1e6)  # gpt-4o list price
    # the prompt: guidelines as system message, then the task and the screenshots in order
    system = request.messages[0]
    assert system["role"] == "system" and "every part" in system["content"]
    assert "**Turn on Bluetooth**" in request.texts()[1] and "Result: <1 or 0>" in request.texts()[1]
    assert request.body["temperature"] == 0.0
    images = request.image_urls()
    assert len(images) == 5 and all(i["detail"] == "high" for i in images)
    shots = [decode(i["url"]) for i in images]
    # a caption strip under each screenshot with an action: blue line, then red labels and black text
    for shot in shots[:4]:
        assert shot.width == W and shot.height > H + STRIP_LINE_PX + 40
        assert shot.getpixel((W // 2, H + 2)) == (0, 0, 255)
        strip = [shot.getpixel((x, y)) for x in range(0, W, 2)
                 for y in range(H + STRIP_LINE_PX, shot.height, 2)]
        assert any(p[0] > 150 and p[1] < 80 for p in strip), "red 'Action:' label"
        assert any(max(p) < 60 for p in strip), "black action text"
    assert shots[4].size == (W, H), "the final screenshot has no action and no strip"
    # the tap: a translucent red dot of radius 20 around (100, 200), nothing outside it
    tap = shots[0]
    assert _red(tap.getpixel((100, 200))) and _red(tap.getpixel((100 + DOT_RADIUS - 3, 200)))
    assert tap.getpixel((100 + DOT_RADIUS + 3, 200)) == (255, 255, 255)
    assert tap.getpixel((300, 600)) == (255, 255, 255)
    # the swipe: an arrow along x=180 from y=500 to y=100
    swipe = shots[2]
    assert _red(swipe.getpixel((180, 300))) and swipe.getpixel((60, 300)) == (255, 255, 255)
    assert decide_success(load(folder).model_copy(update={"verdicts": [verdict]})).success is None, \
        "no key-component verdict yet: the policy waits for it"


def test_dots_mode_lists_typed_text_and_plain_mode_sends_screens_as_recorded(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    with ScriptedOpenAIServer([OK, OK]) as server:
        for mode in ("dots", "plain"):
            judge = JudgeEvaluator(local_model(server.base_url), action_mode=mode)  # type: ignore[arg-type]
            assert judge.evaluate(load(folder), folder).success is True
            judge.close()
        dots, plain = server.chat_requests()
    prompt = dots.texts()[1]
    assert "Screenshot 2: Type: héllo 世界" in prompt and "Screenshot 3: Swipe" in prompt
    assert "Screenshot 1: Tap" not in prompt, "a tap is shown by its dot, not listed"
    shot = decode(dots.image_urls()[0]["url"])
    assert shot.size == (W, H) and _red(shot.getpixel((100, 200)))
    assert "Actions" not in plain.messages[0]["content"]
    assert decode(plain.image_urls()[0]["url"]).getpixel((100, 200)) == (255, 255, 255)


def test_element_targets_are_drawn_at_the_element_centre(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), [{"type": "tap", "element": 0}, {"type": "finish"}],
                           hierarchy={0: HIERARCHY})
    with ScriptedOpenAIServer([OK]) as server:
        judge = JudgeEvaluator(local_model(server.base_url))
        judge.evaluate(load(folder), folder)
        judge.close()
        shot = decode(server.chat_requests()[0].image_urls()[0]["url"])
    assert _red(shot.getpixel((140, 340)))  # centre of [40,300][240,380]


def test_unparsable_replies_are_retried_then_recorded_as_an_evaluator_error(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    with ScriptedOpenAIServer(["It looks fine to me.", "Success!", "I would say yes"]) as server:
        judge = JudgeEvaluator(local_model(server.base_url), parse_retries=2)
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
        requests = server.chat_requests()
    assert verdict.success is None and verdict.error is not None
    assert verdict.error.kind == "evaluator" and verdict.error.type == "UnparsableReply"
    assert len(requests) == 3 and verdict.usage.calls == 3 and verdict.usage.prompt_tokens == 30
    # a re-ask shows the model its answer and the format again
    retry = requests[1].messages
    assert retry[2] == {"role": "assistant", "content": "It looks fine to me."}
    assert "Result: 1" in retry[3]["content"][0]["text"]
    assert len(requests[2].messages) == 4, "each re-ask replaces the last one"
    log = load(folder).model_copy(update={"task": single_task(key_components=[]), "verdicts": [verdict]})
    assert decide_success(log).success is None


def test_a_retry_that_parses_decides(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    failed = "Reason: I believe this task failed: Bluetooth is off.\nResult: 0"
    with ScriptedOpenAIServer(["no idea", failed]) as server:
        judge = JudgeEvaluator(local_model(server.base_url), parse_retries=1)
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
    assert verdict.success is False and verdict.usage.calls == 2
    assert verdict.evidence[-1].details["calls"] == 2


def test_model_errors_are_evaluator_errors_with_the_cost_so_far(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    with ScriptedOpenAIServer([ErrorReply(400, "image too large", "invalid_request_error")]) as server:
        judge = JudgeEvaluator(local_model(server.base_url))
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
    assert verdict.success is None and verdict.error is not None
    assert verdict.error.type == "ModelError" and "image too large" in verdict.error.message


def test_unknown_model_price_is_unknown_cost(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), ACTIONS)
    with ScriptedOpenAIServer([OK]) as server:
        judge = JudgeEvaluator(local_model(server.base_url, model="my-local-vlm"))
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
    assert verdict.success is True and verdict.usage.cost_usd is None


def test_invalid_steps_are_captioned(tmp_path: Path) -> None:
    folder = write_episode(tmp_path, single_task(), [None, {"type": "finish"}])

    def check(request: RecordedRequest) -> str:
        shot = decode(request.image_urls()[0]["url"])
        return OK if shot.height > H else "Result: 0"

    with ScriptedOpenAIServer([check]) as server:
        judge = JudgeEvaluator(local_model(server.base_url))
        assert judge.evaluate(load(folder), folder).success is True
        judge.close()


@pytest.mark.parametrize(("text", "success", "reason"), [
    ("Reason: I believe this task is successful.\nResult: 1", True, "I believe this task is successful."),
    ("**Reason:** done well\n**Result:** 0", False, "done well"),
    ("Result：1", True, ""),
    ("Reason: two lines\nof reasoning\nResult: [1]", True, "two lines\nof reasoning"),
])
def test_parse_judgement(text: str, success: bool, reason: str) -> None:
    judgement = parse_judgement(text)
    assert judgement.success is success and judgement.reason == reason


@pytest.mark.parametrize("text", ["Result: yes", "I think 1", "Result: 1 ... on reflection Result: 0", ""])
def test_parse_judgement_rejects(text: str) -> None:
    with pytest.raises(UnparsableReply):
        parse_judgement(text)


def test_registered_as_judge() -> None:
    assert EVALUATORS.get("judge") is JudgeEvaluator


def test_default_judge_needs_an_openai_key(monkeypatch: pytest.MonkeyPatch) -> None:
    from spa_bench.errors import ConfigError

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        JudgeEvaluator()


def test_screen_helper_size() -> None:
    assert screen().size == (W, H)
