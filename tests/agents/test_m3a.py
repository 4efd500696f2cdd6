"""`m3a` (AndroidWorld's M3A) through the real pipeline: the scripted native model plays the common
subset in AndroidWorld's JSON (elements by AndroidWorld index), a second kind of call - the summary of
the previous step - is answered in its own format, and malformed replies are invalid steps that leave
AndroidWorld's own note in the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, run_malformed, run_native

from spa_bench.testing.native_model import NativeScriptedModel
from spa_bench.testing.openai_server import RecordedRequest, Responder, TextReply

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

SUMMARY = "Tapped the intended element and the expected screen opened; continue with the next part."


class WithSummaries:
    """The adapter's endpoint: summary requests get a one-line summary, the rest the scripted model."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, RecordedRequest]] = []

    def __call__(self, model: NativeScriptedModel) -> Responder:
        def respond(request: RecordedRequest) -> TextReply | str:
            text = "\n".join(request.texts())
            if text.rstrip().endswith("Summary of this step:"):
                self.requests.append(("summary", request))
                return TextReply(SUMMARY, 900, 25)
            self.requests.append(("action", request))
            return model(request)

        return respond

    def of(self, kind: str) -> list[RecordedRequest]:
        return [r for k, r in self.requests if k == kind]


def test_m3a_plays_the_subset_with_a_summary_call_per_step(results_dir: Path) -> None:
    wrap = WithSummaries()
    logs = run_native("m3a", results_dir, wrap=wrap)
    assert sorted(logs) == sorted(SUBSET)
    assert logs["settings_model_name_en"].answer == "SPA Virtual Phone"
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys  # type: ignore[operator]
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "open_app", "swipe", "finish"} <= kinds
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)
    for log in logs.values():  # two calls on every step but the first, both counted
        assert [s.usage.calls for s in log.steps] == [1] + [2] * (len(log.steps) - 1)
        assert log.usage.calls == 2 * len(log.steps) - 1
        assert all((s.agent_output or "").startswith("[summary] " + SUMMARY) for s in log.steps[1:])
    actions, summaries = wrap.of("action"), wrap.of("summary")
    assert len(summaries) == sum(len(log.steps) - 1 for log in logs.values())
    first = "\n".join(actions[0].texts())
    assert "You just started, no action has been performed yet." in first
    assert 'UI element 0: {"index": 0' in first and '"is_clickable": ' in first
    assert all(len(r.image_urls()) == 2 for r in actions)  # raw + marked screenshot
    assert all(r.image_urls()[0]["url"].startswith("data:image/png;base64,") for r in actions)  # as taken
    assert all(r.image_urls()[1]["url"].startswith("data:image/jpeg;base64,") for r in actions)  # drawn
    assert all(len(r.image_urls()) == 2 for r in summaries)  # before (marked) + after (labelled)
    later = "\n".join(actions[1].texts())
    assert "Step 1- Action selected: {\"action_type\": " in later and SUMMARY in later
    summary = "\n".join(summaries[0].texts())
    assert "This is the action you picked: {\"action_type\": " in summary
    assert "Based on the reason: " in summary


MALFORMED = [
    "I will tap the Network settings.",  # no Reason:/Action: parts
    "Reason: open it\nAction: {'action_type': 'click', 'index': }",  # unreadable JSON
    'Reason: fly\nAction: {"action_type": "teleport", "index": 2}',  # unknown action type
    'Reason: tap\nAction: {"action_type": "click", "index": 999}',  # index beyond the element list
    'Reason: tap\nAction: {"action_type": "click", "element": 3}',  # a field JSONAction does not have
    'Reason: scroll\nAction: {"action_type": "scroll", "direction": "sideways"}',  # bad direction
    'Reason: type\nAction: {"action_type": "input_text", "index": 1}',  # input_text with no text
    "",
]


def test_m3a_malformed_replies_are_invalid_steps_with_androidworld_notes(results_dir: Path) -> None:
    wrap = WithSummaries()
    log = run_malformed("m3a", MALFORMED, results_dir, wrap=wrap)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(MALFORMED)]]
    assert "no 'Reason:' part" in reasons[0] and "unreadable action" in reasons[1]
    assert "invalid action type 'teleport'" in reasons[2]
    assert "index 999 is not in the element list" in reasons[3]
    assert "unknown field 'element'" in reasons[4] and "invalid scroll direction" in reasons[5]
    # (the malformed replies are served from the script, so the responder sees the requests after them)
    # no summary call after an invalid step; the history keeps AndroidWorld's notes instead
    assert wrap.requests[0][0] == "action"
    after = "\n".join(wrap.of("action")[0].texts())
    assert ("Step 1- Output for action selection is not in the correct format, so no action is "
            "performed.") in after
    assert ("Step 4- The parameter index is out of range. Remember the index must be in the UI "
            "element list!") in after
