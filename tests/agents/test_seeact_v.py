"""`seeact-v` through the real pipeline with two endpoints: the planner (SeeAct-V's JSON actions naming
targets in words, and its summary call) and the grounder (UGround: a point in 0-1000 for a
description), each answered by its own scripted responder in its own format; tokens of both count.
Malformed planner and grounder replies are invalid steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, NativeScriptedModel, run_malformed, run_native
from spa_bench.agents.seeact_v import GROUNDER_FRAME, SeeActPlannerCodec, UGroundCodec

from spa_bench.agent.native import NativeAction
from spa_bench.testing.native_model import _image_size
from spa_bench.testing.openai_server import RecordedRequest, Responder, TextReply

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

SUMMARY = "The located position was right and the action worked; go on with the task."


class TwoEndpoints:
    """Planner endpoint: summary requests get a summary, action requests the scripted model (whose codec
    describes each target in words); grounder endpoint: the point of the described target, in 0-1000 of
    the image it received."""

    def __init__(self, grounder_replies: list[str] | None = None) -> None:
        self.planner: list[tuple[str, RecordedRequest]] = []
        self.grounder: list[RecordedRequest] = []
        self.grounder_replies = list(grounder_replies or [])
        self.last: TextReply | None = None  # the planner's last action reply
        self.replay = False  # the grounder failed it: the planner says it again (the script stays put)

    def wrap(self, model: NativeScriptedModel) -> Responder:
        def respond(request: RecordedRequest) -> TextReply:
            text = "\n".join(request.texts())
            if text.rstrip().endswith("Summary of this step:"):
                self.planner.append(("summary", request))
                return TextReply(SUMMARY, 1100, 30)
            self.planner.append(("action", request))
            if self.replay and self.last is not None:
                self.replay = False
                return self.last
            reply = model(request)
            assert isinstance(reply, TextReply), reply
            self.last = reply
            return reply

        return respond

    def extra(self, model: NativeScriptedModel) -> dict[str, Responder]:
        codec = model.codec
        assert isinstance(codec, SeeActPlannerCodec)

        def ground(request: RecordedRequest) -> TextReply:
            self.grounder.append(request)
            if self.grounder_replies:
                self.replay = True
                return TextReply(self.grounder_replies.pop(0), 1500, 8)
            text = "\n".join(request.texts())
            description = text.split("Description: ", 1)[1].split("\n\nAnswer:", 1)[0]
            x, y = codec.described[description]
            width, height = _image_size(request.image_urls()[0]["url"])
            assert (width, height) == (882, 1960)  # resized as seeact_v.py does
            point = GROUNDER_FRAME.bind(1080, 2400).from_screen(x, y)  # relative: any image size
            return TextReply(UGroundCodec().encode(NativeAction("tap", point=point), ""), 1500, 8)

        return {"grounder_base_url": ground}


def test_seeact_v_plays_the_subset_with_planner_and_grounder(results_dir: Path) -> None:
    calls = TwoEndpoints()
    logs = run_native("seeact-v", results_dir, wrap=calls.wrap, extra=calls.extra)
    assert sorted(logs) == sorted(SUBSET)
    assert logs["settings_model_name_en"].answer == "SPA Virtual Phone"
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys  # type: ignore[operator]
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "open_app", "swipe", "finish"} <= kinds
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)
    grounded = [s for log in logs.values() for s in log.steps if "[grounder]" in (s.agent_output or "")]
    assert len(grounded) == len(calls.grounder) > 0
    for log in logs.values():
        for i, step in enumerate(log.steps):
            expected = (i > 0) + 1 + ("[grounder]" in (step.agent_output or ""))
            assert step.usage.calls == expected, (log.task.id, i, step.agent_output)
    tokens = sum(s.usage.prompt_tokens for log in logs.values() for s in log.steps)
    summaries = [r for kind, r in calls.planner if kind == "summary"]
    actions = [r for kind, r in calls.planner if kind == "action"]
    assert tokens == 1000 * len(actions) + 1100 * len(summaries) + 1500 * len(calls.grounder)
    assert all(len(r.image_urls()) == 1 for r in actions) and all(len(r.image_urls()) == 2 for r in summaries)
    description = "\n".join(calls.grounder[0].texts())
    assert "Your answer should be a single string (x, y)" in description
    assert 'Description: the "' in description
    assert calls.grounder[0].messages[0]["content"][0]["type"] == "image_url"  # image first, then text
    later = "\n".join(actions[1].texts())
    assert 'Step 1- Action selected: {"action_type": ' in later and SUMMARY in later


PLANNER_MALFORMED = [
    "Tap the network settings.",  # no Reason/Action
    'Reason: tap\nAction: {"action_type": "click"}',  # a click with no element
    'Reason: tap\nAction: {"action_type": "tap_it", "element": "the Wi-Fi row"}',  # unknown action
    'Reason: tap\nAction: {"action_type": "click", "element": "x", "colour": "red"}',  # unknown field
    "Reason: tap\nAction: {'action_type': 'click', 'element': }",  # unreadable JSON
    "",
]


def test_seeact_v_malformed_planner_replies_are_invalid_steps(results_dir: Path) -> None:
    calls = TwoEndpoints()
    log = run_malformed("seeact-v", PLANNER_MALFORMED, results_dir, wrap=calls.wrap, extra=calls.extra)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(PLANNER_MALFORMED)]]
    assert "no 'Reason:' part" in reasons[0] and "click needs an index" in reasons[1]
    assert "invalid action type 'tap_it'" in reasons[2] and "unknown field 'colour'" in reasons[3]


def test_seeact_v_malformed_grounder_replies_are_invalid_steps(results_dir: Path) -> None:
    bad = ["I cannot find it.", "(1200, 300)", "(512,", "[0.5, 0.3, 0.1]", ""]
    calls = TwoEndpoints(grounder_replies=bad)
    from native_runs import _run, state_success

    logs, model = _run("seeact-v", results_dir, ["settings_wifi_off_en"], None, [], max_steps=20,
                       wrap=calls.wrap, extra=calls.extra)
    assert not model.errors
    log = logs["settings_wifi_off_en"]
    invalid = [s for s in log.steps if not s.valid]
    assert len(invalid) == len(bad)
    assert all((s.invalid_reason or "").startswith("seeact-v: grounder: ") for s in invalid)
    assert "outside the model's frame" in (invalid[1].invalid_reason or "")
    assert all(s.usage.calls >= 2 for s in invalid)  # the planner and the grounder were both asked
    assert log.termination == "done" and state_success(log) is True
