"""Unit tests: reading actions out of model answers, Set-of-Mark drawing, SPA-Bench recording import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from spa_bench.actions import Finish, Key, Scroll, Swipe, Tap, TypeText, parse_action
from spa_bench.agent.external import convert_action, read_recording
from spa_bench.agent.parsing import AnswerParseError, parse_answer
from spa_bench.device.elements import parse_hierarchy
from spa_bench.drawing import PALETTE, draw_element_marks, text_colour


@pytest.mark.parametrize(("text", "expected", "thought"), [
    ('Reason: the switch is on.\nAction: {"type": "tap", "element": 4}', {"type": "tap", "element": 4},
     "the switch is on."),
    ('I will tap it.\n```json\n{"type": "tap", "element": 2,}\n```', {"type": "tap", "element": 2},
     "I will tap it."),
    ("Action: {'type': 'type', 'text': 'hello', 'enter': True}",
     {"type": "type", "text": "hello", "enter": True}, None),
    ('{"thought": "done now", "action": {"type": "finish", "status": "done"}}',
     {"type": "finish", "status": "done"}, "done now"),
    ('{"action_type": "click", "index": "7"}', {"type": "tap", "element": 7}, None),
    ('{"action_type": "navigate_back"}', {"type": "key", "key": "back"}, None),
    ('{"action_type": "status", "goal_status": "infeasible"}', {"type": "finish", "status": "infeasible"},
     None),
    ('{"action_type": "answer", "text": "42"}', {"type": "finish", "status": "done", "answer": "42"}, None),
    ('思考：打开网络设置\n动作：{"type": "open_app", "app_name": "设置"}',
     {"type": "open_app", "app": "设置"}, "打开网络设置"),
    ('Action: {"type": "scroll", "direction": "Down", "note": "a } in a string"}',
     {"type": "scroll", "direction": "down", "note": "a } in a string"}, None),
])
def test_answers_in_many_shapes_parse(text: str, expected: dict[str, object], thought: str | None) -> None:
    parsed = parse_answer(text)
    assert parsed.action == expected
    assert parsed.thought == thought


@pytest.mark.parametrize("text", ["", "I think we are done here.", "Action: {type: tap element 3",
                                  '{"element": 3}'])
def test_unusable_answers_raise_with_a_reason(text: str) -> None:
    with pytest.raises(AnswerParseError) as info:
        parse_answer(text)
    assert str(info.value)


def test_parsed_actions_validate_against_the_action_union() -> None:
    assert isinstance(parse_action(parse_answer('Action: {"type": "tap", "x": 10.6, "y": 20}').action), Tap)
    assert parse_action(parse_answer('{"type": "key", "key": "KEYCODE_HOME"}').action) == Key(key="home")


HIERARCHY = """<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0">
<node text="" class="android.widget.FrameLayout" bounds="[0,0][540,960]">
  <node text="Wi-Fi" class="android.widget.TextView" clickable="true" bounds="[20,100][300,160]"/>
  <node text="" resource-id="x:id/switch_widget" class="android.widget.Switch" checkable="true"
        clickable="true" bounds="[400,100][520,160]"/>
</node></hierarchy>"""


@pytest.mark.parametrize("background", [(255, 255, 255), (0, 0, 0), (128, 128, 128)])
def test_marks_are_drawn_in_their_colours_with_contrasting_labels(background: tuple[int, int, int]) -> None:
    elements = [e for e in parse_hierarchy(HIERARCHY) if e.index >= 0]
    image = Image.new("RGB", (540, 960), background)
    marked = draw_element_marks(image, elements)
    assert marked.size == image.size and image.getpixel((20, 130)) == background  # the original is untouched
    for element in elements:
        left, top, right, bottom = element.bounds
        assert marked.getpixel((right - 1, (top + bottom) // 2)) == PALETTE[element.index]
        # the label tag: filled with the element's colour, text in black or white
        tag = marked.crop((left, top, left + 16, top + 16)).getcolors(4096) or []
        colours = {c for _, c in tag}
        assert PALETTE[element.index] in colours and (colours & {(0, 0, 0), (255, 255, 255)})


def test_label_text_colour_has_the_better_contrast() -> None:
    assert text_colour((255, 225, 25)) == (0, 0, 0)  # yellow tag: black digits
    assert text_colour((0, 0, 128)) == (255, 255, 255)  # navy tag: white digits


def test_spa_bench_actions_convert_or_stay_raw() -> None:
    tap = ["tap", {"detail_type": "coordinates", "detail": [540, 1200]}]
    assert convert_action(tap)[0] == Tap(x=540, y=1200)
    assert convert_action(["Type", {"detail_type": "string", "detail": "hello"}])[0] == TypeText(text="hello")
    assert convert_action(["swipe", {"detail_type": "string", "detail": "up"}])[0] == Scroll(direction="down")
    assert convert_action(["SWIPE", {"detail_type": "coordinates", "detail": [[1, 2], [3, 4]]}])[0] == \
        Swipe(x1=1, y1=2, x2=3, y2=4)
    assert convert_action(["Back", {"detail_type": "string", "detail": ""}])[0] == Key(key="back")
    assert convert_action(["finish", {"detail_type": "string", "detail": "42"}])[0] == Finish(answer="42")
    weird = ["Zoom", {"detail_type": "string", "detail": "in"}]
    assert convert_action(weird) == (None, weird)


def test_a_recording_is_read_with_tokens_prices_and_timings(tmp_path: Path) -> None:
    for i in range(3):
        Image.new("RGB", (8, 8)).save(tmp_path / f"{i}.png")
    log = [{"step": 0, "prompt_tokens": 1000, "completion_tokens": 100, "response": "tap it",
            "action": ["tap", {"detail_type": "coordinates", "detail": [5, 5]}]},
           {"step": 1, "prompt_tokens": 2000, "completion_tokens": 50,
            "action": ["finish", {"detail_type": "string", "detail": ""}]},
           {"total_steps": 2, "finish_signal": 1, "elapsed_time_initial": 1.5, "elapsed_time_exec": 7.0,
            "total_prompt_tokens": 3000, "total_completion_tokens": 150}]
    (tmp_path / "log.json").write_text(json.dumps(log))
    (tmp_path / "error.json").write_text(json.dumps([{"error_message": "minor"}]))
    rec = read_recording(tmp_path, lambda p, c: p * 1e-6 + c * 2e-6)
    assert rec.finish_signal == 1 and rec.total_steps == 2 and rec.elapsed_exec_s == 7.0
    assert rec.error_messages == ["minor"] and not rec.problems
    assert [s.screenshot.name for s in rec.steps if s.screenshot] == ["0.png", "1.png"]
    assert rec.steps[0].action == Tap(x=5, y=5) and rec.steps[0].output == "tap it"
    assert rec.steps[0].usage.prompt_tokens == 1000 and rec.steps[0].usage.cost_usd == pytest.approx(0.0012)
    assert rec.steps[1].started_at is not None
    unpriced = read_recording(tmp_path)
    assert unpriced.steps[1].usage.cost_usd is None and unpriced.steps[1].usage.calls == 1


def test_a_broken_log_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "log.json").write_text("{not json")
    Image.new("RGB", (8, 8)).save(tmp_path / "0.png")
    Image.new("RGB", (8, 8)).save(tmp_path / "1.png")
    rec = read_recording(tmp_path)
    assert rec.problems and "log.json" in rec.problems[0]
    assert len(rec.steps) == 1 and rec.steps[0].action is None  # screenshots only: all but the final one
