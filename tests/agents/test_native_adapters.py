"""Each native adapter completes the common task subset with its own syntax and frame, and survives
malformed replies (recorded invalid steps, never a crash)."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, prototype, run_malformed, run_native

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

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
}


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_adapter_plays_the_subset_natively(agent: str, results_dir: Path) -> None:
    logs = run_native(agent, results_dir)
    assert sorted(logs) == sorted(SUBSET)
    assert {log.task.language for log in logs.values()} == {"en", "zh"}
    answer = logs["settings_model_name_en"].answer
    assert answer == "SPA Virtual Phone"
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "open_app", "finish"} <= kinds
    assert kinds & {"scroll", "swipe"}
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)


@pytest.mark.parametrize("agent", sorted(MALFORMED))
def test_malformed_replies_are_invalid_steps(agent: str, results_dir: Path) -> None:
    replies = MALFORMED[agent]
    assert len(replies) >= 5
    log = run_malformed(agent, replies, results_dir)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(replies)]]
    assert any("outside the model's frame" in r for r in reasons), reasons


def test_ui_tars_at_720x1280_and_version_1(results_dir: Path) -> None:
    """Smart-resize rounding end to end on a small screen (728x1288 frame), and the 0-1000 frame."""
    run_native("ui-tars", results_dir / "v15", ids=["chat_reply_mom_zh"], phone_size="720x1280")
    run_native("ui-tars", results_dir / "v10", args={"version": "1.0"}, ids=["chat_reply_mom_zh"])
    assert prototype("ui-tars", {"version": "1.0"}).frame_spec.describe() == "relative 0-1000"

