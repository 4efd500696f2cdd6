"""`os-atlas` (OS-Atlas-Pro) through the real pipeline: the scripted native model plays the common
subset as `thoughts:/actions:` replies with 0-1000 points; malformed replies are invalid steps."""

from __future__ import annotations

from pathlib import Path

import pytest
from native_runs import SUBSET, prototype, run_malformed, run_native

from spa_bench.agent import TaskContext
from spa_bench.agent.codec import ReplyError
from spa_bench.agent.frames import FrameSpec
from spa_bench.models import ModelReply
from spa_bench.results.schema import TokenUsage
from spa_bench.tasks.repository import TaskRepository, default_tasks_root
from spa_bench.testing.native_model import sample_observation

pytestmark = [pytest.mark.usefixtures("adb_env")]


@pytest.mark.slow
def test_os_atlas_plays_the_subset(results_dir: Path) -> None:
    logs = run_native("os-atlas", results_dir)
    assert sorted(logs) == sorted(SUBSET)
    assert logs["settings_model_name_en"].answer == "SPA Virtual Phone"
    keys = {s.action.key for log in logs.values() for s in log.steps if s.action and s.action.type == "key"}
    assert {"back", "home"} <= keys  # type: ignore[operator]
    kinds = {s.action.type for log in logs.values() for s in log.steps if s.action is not None}
    assert {"tap", "long_press", "type", "key", "open_app", "scroll", "finish"} <= kinds
    typed = [s.action.text for s in logs["chat_reply_mom_zh"].steps if s.action and s.action.type == "type"]
    assert typed and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in typed)
    replies = [s.agent_output or "" for log in logs.values() for s in log.steps]
    assert all(r.startswith("thoughts:\n") and "\nactions:\n" in r for r in replies)
    assert any("CLICK <point>[[" in r for r in replies) and any("LONG_PRESS <point>[[" in r for r in replies)
    assert any("ANSWER [SPA Virtual Phone]" in r for r in replies)


MALFORMED = [
    "thoughts:\nI need to find the settings first.",  # no actions: section
    "thoughts:\nfly\nactions:\nTELEPORT <point>[[100,100]]</point>",  # unknown action
    "thoughts:\ntap\nactions:\nCLICK <point>[[1500,300]]</point>",  # outside 0-1000
    "thoughts:\ntap\nactions:\nCLICK <point>[[500,",  # truncated point
    "thoughts:\ntap\nactions:\nCLICK [Network & internet]",  # a label where a point belongs
    "thoughts:\nscroll\nactions:\nSCROLL [SIDEWAYS]",  # bad direction
    "thoughts:\ntype\nactions:\nTYPE",  # no text
    "",
]


@pytest.mark.slow
def test_os_atlas_malformed_replies_are_invalid_steps(results_dir: Path) -> None:
    log = run_malformed("os-atlas", MALFORMED, results_dir)
    reasons = [s.invalid_reason or "" for s in log.steps[:len(MALFORMED)]]
    assert "no 'actions:' section" in reasons[0] and "unknown OS-Atlas action 'TELEPORT'" in reasons[1]
    assert "outside the model's frame" in reasons[2]
    assert "SCROLL direction" in reasons[5] and "TYPE needs its argument" in reasons[6]


def test_os_atlas_reads_the_point_forms_and_its_frame() -> None:
    agent = prototype("os-atlas")
    assert agent.frame_spec == FrameSpec.relative(1000)
    frame = agent.frame_spec.bind(1080, 2400)
    codec = agent.codec
    for text in ("thoughts:\nopen it\nactions:\nCLICK <point>[[500,250]]</point><|im_end|>",
                 "Thoughts: open it\nActions: CLICK [[500, 250]]",
                 "actions:\nCLICK (500,250)", "actions:\nCLICK <point>[[450,200,550,300]]</point>"):
        parsed = codec.parse(text, frame)
        assert (parsed.action.x, parsed.action.y) == (540, 600), text  # type: ignore[union-attr]
    assert codec.parse("actions:\nTYPE [a [b] c]", frame).action.text == "a [b] c"  # type: ignore[union-attr]
    assert codec.parse("actions:\nIMPOSSIBLE", frame).action.status == "infeasible"  # type: ignore[union-attr]
    assert codec.parse("actions:\nPRESS_RECENT", frame).action.key == "app_switch"  # type: ignore[union-attr]
    with pytest.raises(ReplyError):
        codec.parse("actions:\nCLICK <point>[[500]]</point>", frame)


def test_os_atlas_request_follows_the_model_card(tmp_path: Path) -> None:
    agent = prototype("os-atlas")
    task = TaskRepository(default_tasks_root()).get("settings_wifi_off_en")
    context = TaskContext.for_task(task, max_steps=5, instance_seed=0, serial="none", screen_width=1080,
                                   screen_height=2400, workdir=tmp_path)
    agent.reset(context)
    observation = sample_observation(tmp_path / "phone")
    screen = agent.screen(observation)
    (message,) = agent.messages(observation, screen)
    parts = message["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "text"]  # prompt, screenshot, task
    assert parts[0]["text"].startswith("\nYou are now operating in Executable Language Grounding mode.")
    assert "Custom Action 8: COMPLETE" in parts[0]["text"]
    assert "Custom Action 9: IMPOSSIBLE" in parts[0]["text"]
    assert parts[0]["text"].endswith("associated screenshot are as follows:\nScreenshot: \n")
    assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")
    assert parts[2]["text"] == f"Task instruction: {context.instruction}\nHistory: null"
    reply = "thoughts:\nOpen the network page.\nactions:\nCLICK <point>[[500,300]]</point>"
    agent.interpret(ModelReply(reply, TokenUsage(), 0.0, "m", "stop"), screen, observation)
    (message,) = agent.messages(observation, agent.screen(observation))
    assert message["content"][2]["text"].endswith("History: \nStep 1: Open the network page.\n")


@pytest.mark.slow
def test_os_atlas_at_720x1280(results_dir: Path) -> None:
    """The 0-1000 frame on a smaller screen: the same replies land on the same elements."""
    logs = run_native("os-atlas", results_dir, ids=["chat_reply_mom_zh", "settings_wifi_off_en"],
                      phone_size="720x1280")
    assert all(log.steps for log in logs.values())
