"""Each native adapter completes the common task subset with its own syntax and frame, and survives
malformed replies (recorded invalid steps, never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, prototype, run_malformed, run_native

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

def tool_call(arguments: str) -> str:
    return f'<tool_call>\n{{"name": "mobile_use", "arguments": {arguments}}}\n</tool_call>'


# At least five kinds per adapter: no action, unknown action, a point outside the frame, truncated
# syntax, wrong argument types (and more where the format has its own ways to go wrong).
MALFORMED: dict[str, list[str]] = {
    "ui-tars": [
        "Thought: I should look at the screen first.",
        "Thought: fly there\nAction: teleport(point='<point>10 10</point>')",
        "Thought: tap\nAction: click(point='<point>5000 90</point>')",
        "Thought: tap\nAction: click(point='<point>100 2",
        "Thought: tap\nAction: click(point=100)",
        "Thought: scroll\nAction: scroll(point='<point>500 500</point>', direction='sideways')",
        "",
    ],
    "autoglm": [
        "<think>The settings page is open.</think>",
        '<think>x</think><answer>do(action="Teleport", element=[10,10])</answer>',
        '<think>x</think><answer>do(action="Tap", element=[1200,40])</answer>',
        '<think>x</think><answer>do(action="Tap", element=[500,',
        '<think>x</think><answer>do(action="Tap", element="middle")</answer>',
        '<think>x</think><answer>do(action="Swipe", start=[500,500])</answer>',
        '<think>x</think><answer>do(action="Type", text=42)</answer>',
    ],
    "qwen-vl": [
        "I will tap the Network item.",
        tool_call('{"action": "teleport", "coordinate": [1, 2]}'),
        tool_call('{"action": "click", "coordinate": [5000, 20]}'),
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [50',
        tool_call('{"action": "click", "coordinate": "here"}'),
        '<tool_call>\n{"name": "web_search", "arguments": {"action": "click"}}\n</tool_call>',
        tool_call('{"action": "wait", "time": "soon"}'),
    ],
    "gui-owl": [
        "<thinking>\nThe Settings app is open.\n</thinking>",
        '<thinking>\nx\n</thinking>\n' + tool_call('{"action": "fly"}'),
        tool_call('{"action": "click", "coordinate": [540, 9000]}'),
        '<tool_call>\n{"name": "mobile_use", "arguments": {"action": "long_press", "coordinate": [5',
        tool_call('{"action": "type", "text": ["a"]}'),
        tool_call('{"action": "terminate", "status": "maybe"}'),
    ],
    "cogagent": [
        "Action: Tap the network entry.",
        "Action: x\nGrounded Operation: TELEPORT(box=[[100,100,200,200]])\n<<一般操作>>",
        "Action: x\nGrounded Operation: CLICK(box=[[100,100,1200,200]], element_info='x')\n<<一般操作>>",
        "Action: x\nGrounded Operation: CLICK(box=[[100,100,",
        "Action: x\nGrounded Operation: CLICK(box='the button')\n<<一般操作>>",
        "Action: x\nGrounded Operation: HOVER(box=[[100,100,200,200]])\n<<一般操作>>",
        "Action: x\nGrounded Operation: LAUNCH(app='None', url='baidu.com')\n<<一般操作>>",
    ],
}

# An adapter's other version, run on the whole subset when its default cannot (Qwen2.5-VL's tool has no
# answer action: its default run leaves out the answer task, and Qwen3-VL plays all of it).
VARIANTS: list[tuple[str, dict[str, str]]] = [("qwen-vl", {"version": "3"})]


DEFAULT_SUBSET = {"qwen-vl": [t for t in SUBSET if t != "settings_model_name_en"]}  # no answer action


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_adapter_plays_the_subset_natively(agent: str, results_dir: Path) -> None:
    args: dict[str, str] = {}
    if agent in DEFAULT_SUBSET:
        run_native(agent, results_dir, ids=DEFAULT_SUBSET[agent])
        agent, args = next((a, v) for a, v in VARIANTS if a == agent)
        logs = run_native(agent, results_dir / "variant", args=args)
    else:
        logs = run_native(agent, results_dir)
    assert sorted(logs) == sorted(SUBSET)
    assert {log.task.language for log in logs.values()} == {"en", "zh"}
    answer = logs["settings_model_name_en"].answer
    assert answer == "SPA Virtual Phone"
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "finish"} <= kinds
    # apps open by name where the format can say so, else from the home screen's icon
    assert ("open_app" in kinds) == ("open_app" in prototype(agent, args).codec.verbs)
    assert kinds & {"scroll", "swipe"}
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_malformed_replies_are_invalid_steps(agent: str, results_dir: Path) -> None:
    replies = MALFORMED[agent]
    assert len(replies) >= 5
    log = run_malformed(agent, replies, results_dir)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(replies)]]
    assert any("outside the model's frame" in r for r in reasons), reasons


@pytest.mark.parametrize("agent", ["ui-tars", "qwen-vl", "gui-owl"])
def test_absolute_frames_at_720x1280(agent: str, results_dir: Path) -> None:
    """Smart-resize rounding end to end on a small screen: the model answers on 728x1288."""
    run_native(agent, results_dir, ids=["chat_reply_mom_zh"], phone_size="720x1280")
    frame = prototype(agent).frame_spec.bind(720, 1280)
    assert (frame.extent_x, frame.extent_y) == (728, 1288)


def test_ui_tars_version_1_answers_on_0_to_1000(results_dir: Path) -> None:
    run_native("ui-tars", results_dir, args={"version": "1.0"}, ids=["chat_reply_mom_zh"])
    assert prototype("ui-tars", {"version": "1.0"}).frame_spec.describe() == "relative 0-1000"
