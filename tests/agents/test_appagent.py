"""`appagent` (AppAgent's labelled-element design) through the real pipeline, in-process (no adb on
PATH is used): the scripted native model answers Observation/Thought/Action/Summary replies naming
AppAgent's numeric labels; the grid mode; malformed replies are invalid steps.

AppAgent's action space has no back or home key, no app launcher and no answer, so it plays the tasks
of the common subset it can express (taps, a long press, typing Chinese) plus swipes, not the ones that
need back, opening an app or answering."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import _run, prototype, run_malformed, run_native, state_success
from spa_bench.agents.appagent import AppAgentCodec
from spa_bench.agents.appagent_screen import Grid, labels

from spa_bench.device.elements import UIElement
from spa_bench.testing.native_model import NativeScriptedModel
from spa_bench.testing.openai_server import RecordedRequest, Responder, TextReply

pytestmark = [pytest.mark.usefixtures("adb_env")]

TASKS = ["files_delete_invoice_en", "chat_reply_mom_zh", "settings_language_to_zh_en", "clock_alarm_off_zh"]


@pytest.mark.slow
def test_appagent_plays_what_its_actions_can_express(results_dir: Path) -> None:
    logs = run_native("appagent", results_dir, ids=TASKS)
    assert {log.task.language for log in logs.values()} == {"en", "zh"}
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "swipe", "finish"} <= kinds
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)
    replies = [s.agent_output or "" for log in logs.values() for s in log.steps]
    assert all(r.startswith("Observation: ") and "\nAction: " in r for r in replies)
    assert any('swipe(' in r and '"up"' in r for r in replies) and any("long_press(" in r for r in replies)


def grid_aware(model: NativeScriptedModel) -> Responder:
    """After grid() the request carries the grid prompt: answer in grid mode (area, subarea)."""
    label_codec, grid_codec = AppAgentCodec(), AppAgentCodec(grid=True)

    def respond(request: RecordedRequest) -> TextReply:
        model.codec = grid_codec if "overlaid by a grid" in "\n".join(request.texts()) else label_codec
        reply = model(request)
        assert isinstance(reply, TextReply), reply
        return reply

    return respond


GRID = "Observation: no tag on it\nThought: I need the grid\nAction: grid()\nSummary: asked for a grid"


@pytest.mark.slow
def test_appagent_grid_mode(results_dir: Path) -> None:
    logs, model = _run("appagent", results_dir, ["settings_wifi_off_en"], None, [GRID], wrap=grid_aware)
    assert not model.errors, model.errors
    log = logs["settings_wifi_off_en"]
    assert log.termination == "done" and state_success(log) is True
    assert [s.action.type for s in log.steps if s.action] == ["wait", "tap", "tap", "finish"]
    assert log.steps[0].action.seconds == pytest.approx(0.1)  # type: ignore[union-attr]
    assert 'tap(' in (log.steps[1].agent_output or "") and '", "' not in (log.steps[1].agent_output or "")
    grid_reply = model.replies[0]
    assert grid_reply.split("Action: ")[1].startswith("tap(") and '"' in grid_reply.split("Action: ")[1]


MALFORMED = [
    "I would tap the network entry.",  # no Observation/Thought/Action lines
    "Observation: settings\nThought: tap\nAction: teleport(3)\nSummary: x",  # undefined function
    "Observation: settings\nThought: tap\nAction: tap(999)\nSummary: x",  # no such label
    "Observation: settings\nThought: tap\nAction: tap(0)\nSummary: x",  # labels start at 1
    "Observation: settings\nThought: tap\nAction: tap(Network)\nSummary: x",  # not a number
    'Observation: o\nThought: swipe\nAction: swipe(1, "sideways", "long")\nSummary: x',  # bad direction
    'Observation: settings\nThought: swipe\nAction: swipe(1, "up")\nSummary: x',  # missing argument
    "",
]


@pytest.mark.slow
def test_appagent_malformed_replies_are_invalid_steps(results_dir: Path) -> None:
    log = run_malformed("appagent", MALFORMED, results_dir, task_id="settings_wifi_off_en")
    reasons = [s.invalid_reason or "" for s in log.steps[:len(MALFORMED)]]
    assert "no 'Observation:' line" in reasons[0] and "undefined action 'teleport'" in reasons[1]
    assert "no element labelled 999" in reasons[2] and "no element labelled 0" in reasons[3]
    assert "must be a number" in reasons[4] and "swipe direction" in reasons[5]


def _node(bounds: tuple[int, int, int, int], clickable: bool = False, focusable: bool = False) -> UIElement:
    return UIElement(index=-1, text="", resource_id="", class_name="android.view.View", package="p",
                     content_desc="", checkable=False, checked=False, clickable=clickable, enabled=True,
                     focusable=focusable, focused=False, scrollable=False, long_clickable=False,
                     password=False, selected=False, bounds=bounds, depth=1)


def test_labels_grid_and_swipe_distances_follow_appagent() -> None:
    # the second clickable is 14 px from the first: dropped; a focusable on a clickable: dropped
    nodes = [_node((0, 0, 100, 100), clickable=True), _node((10, 10, 110, 110), clickable=True),
             _node((500, 500, 700, 600), focusable=True), _node((0, 0, 100, 100), focusable=True),
             _node((200, 200, 300, 300), clickable=True, focusable=True)]
    marks = labels(nodes)
    assert [(m.number, m.bounds) for m in marks] == [(1, (0, 0, 100, 100)), (2, (200, 200, 300, 300)),
                                                      (3, (500, 500, 700, 600))]
    grid = Grid(1080, 2400)
    assert (grid.unit_w, grid.unit_h, grid.cols, grid.rows) == (120, 120, 9, 20)
    assert grid.point(1, "center") == (60, 60) and grid.point(10, "top-left") == (30, 150)
    assert grid.locate(*grid.point(57, "bottom-right")) == (57, "bottom-right")
    assert Grid(720, 1280).unit_h == 128 and Grid(1000, 1000).unit_w == 125
    codec = AppAgentCodec(marks, 1080, 2400)
    swipe = codec.read('Observation: o\nThought: t\nAction: swipe(2, "up", "medium")\nSummary: s').native
    assert swipe.point == (250.0, 250.0) and swipe.end == (250.0, 0.0)  # 2 x 2 x 108 px up, clamped at 0
    right = codec.read('Observation: o\nThought: t\nAction: swipe(3, "right", "long")\nSummary: s').native
    assert right.end == (600.0 + 324, 550.0)
    text = codec.read('Observation: o\nThought: t\nAction: text("你好 (world)")').native
    assert text.text == "你好 (world)"
    assert codec.read("Observation: o\nThought: t\nAction: FINISH").kind == "finish"
    assert prototype("appagent").codec.name == "appagent"


@pytest.mark.slow
def test_appagent_at_720x1280(results_dir: Path) -> None:
    """Labels and Chinese typing on a smaller screen (the golden scripts of scroll tasks assume the
    1080x2400 layout)."""
    logs = run_native("appagent", results_dir, ids=["chat_reply_mom_zh", "settings_wifi_off_en"],
                      phone_size="720x1280")
    assert all(log.steps for log in logs.values())
