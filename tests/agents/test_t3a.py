"""`t3a` (AndroidWorld's T3A) through the real pipeline: text only, AndroidWorld's UIElement list, an
action call and a summary call per step, each answered in its own format; malformed replies are
invalid steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, run_malformed, run_native
from test_m3a import MALFORMED, SUMMARY, WithSummaries

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]


def test_t3a_plays_the_subset_text_only(results_dir: Path) -> None:
    wrap = WithSummaries()
    logs = run_native("t3a", results_dir, wrap=wrap)
    assert sorted(logs) == sorted(SUBSET)
    assert logs["settings_model_name_en"].answer == "SPA Virtual Phone"
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys  # type: ignore[operator]
    assert all(not r.image_urls() for _, r in wrap.requests)  # no screenshot in any request
    for log in logs.values():
        assert [s.usage.calls for s in log.steps] == [1] + [2] * (len(log.steps) - 1)
    first = "\n".join(wrap.of("action")[0].texts())
    assert "UI element 0: UIElement(text=" in first and "bbox_pixels=BoundingBox(x_min=" in first
    later = "\n".join(wrap.of("action")[1].texts())
    assert "Step 1: Action selected: {\"action_type\": " in later and SUMMARY in later
    summary = "\n".join(wrap.of("summary")[0].texts())
    assert "Here is the description for the before screenshot:\nUI element 0: UIElement(" in summary


def test_t3a_malformed_replies_are_invalid_steps(results_dir: Path) -> None:
    wrap = WithSummaries()
    log = run_malformed("t3a", MALFORMED, results_dir, wrap=wrap)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(MALFORMED)]]
    assert all(r.startswith("t3a: ") for r in reasons)
    assert "index 999 is not in the element list" in reasons[3]
    history = "\n".join(wrap.of("action")[0].texts())  # T3A's own wording of its notes
    assert ("Step 2: Can not parse the output to a valid action. Please make sure to pick the action from "
            "the list with the correct json format!") in history
    assert "Step 7: Some error happened executing the action input_text" in history
