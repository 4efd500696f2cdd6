"""The gesture is recorded once: the report's drawn action, the judge's annotation and what the device
executed are the same points - for new logs (gesture on the step) and old ones (resolved from the action)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import android_captures
import pytest
from android_captures import FakeAndroid

from spa_bench.actions import Action, LongPress, Scroll, Selector, Tap, TypeText
from spa_bench.device.device import Device
from spa_bench.device.transport import ScriptedTransport
from spa_bench.drawing import DOT_RGBA, StepGestures
from spa_bench.evaluation.annotate import render, trajectory
from spa_bench.report.overlay import overlay
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    EpisodeLog,
    InstanceInfo,
    ObservationRef,
    StepRecord,
)
from spa_bench.tasks.model import Task


@pytest.fixture
def vivo_home() -> FakeAndroid:
    return android_captures.vivo_home()

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
ACTIONS: list[Action] = [
    Tap(selector=Selector(text="微信")),
    Scroll(direction="down"),  # the whole screen: the swipe the device makes, not an arrow of our own
    LongPress(element=3, duration_ms=700),
    Scroll(direction="left", element=0),
]


def executed_points(command: str) -> list[tuple[int, int]]:
    """The points of an `input tap X Y` / `input swipe X1 Y1 X2 Y2 MS` command (a swipe that stays on one
    point is a long press there)."""
    numbers = [int(n) for n in re.findall(r"-?\d+", command)]
    coords = numbers[:2] if command.startswith("input tap") else numbers[:4]
    points = [(coords[i], coords[i + 1]) for i in range(0, len(coords), 2)]
    return points[:1] if len(points) == 2 and points[0] == points[1] else points


def record_episode(root: Path, phone: FakeAndroid, actions: list[Action]) -> tuple[EpisodeLog, Path]:
    """An episode as the runner writes it: observe, save screenshot and dump, execute, store the gesture."""
    device = Device(phone.serial, transport=ScriptedTransport(phone))
    layout = RunLayout(root)
    folder = layout.episode_dir("a__t__r0")
    (folder / "screenshots").mkdir(parents=True)
    (folder / "hierarchy").mkdir()
    steps = []
    for index, action in enumerate(actions):
        obs = device.observe()
        (folder / "screenshots" / f"{index:03d}.png").write_bytes(obs.screenshot_png)
        (folder / "hierarchy" / f"{index:03d}.xml").write_text(obs.hierarchy_xml, encoding="utf-8")
        gesture = device.execute(action, obs)
        steps.append(StepRecord(index=index, started_at=T0, action=action, gesture=gesture, observation=
                                ObservationRef(screenshot=f"screenshots/{index:03d}.png",
                                               hierarchy=f"hierarchy/{index:03d}.xml", width=obs.width,
                                               height=obs.height)))
    task = Task.model_validate({
        "id": "t", "apps": [{"package": "com.bbk.launcher2", "name": {"zh": "桌面"}}], "language": "zh",
        "difficulty": 1, "category": "single_app", "instruction": "打开微信", "golden_steps": 1,
        "key_components": ["微信"]})
    log = EpisodeLog(episode_id="a__t__r0", run_id="r", status="finished", task=task,
                     instance=InstanceInfo(seed=0), agent=AgentSpec(name="a", reference="scripted"),
                     device=device.info(), started_at=T0, steps=steps, termination="done")
    layout.write_episode(log)
    return EpisodeLog.model_validate_json((folder / "episode.json").read_text(encoding="utf-8")), folder


def drawn_points(mark: dict[str, object]) -> list[tuple[int, int]]:
    if mark["k"] == "swipe":
        return [(int(mark["x1"]), int(mark["y1"])), (int(mark["x2"]), int(mark["y2"]))]  # type: ignore[call-overload]
    return [(int(mark["x"]), int(mark["y"]))]  # type: ignore[call-overload]


@pytest.mark.parametrize("old_log", [False, True], ids=["gesture recorded", "log without gestures"])
def test_report_judge_and_device_agree(tmp_path: Path, vivo_home: FakeAndroid, old_log: bool) -> None:
    log, folder = record_episode(tmp_path, vivo_home, ACTIONS)
    assert all(step.gesture is not None for step in log.steps)
    if old_log:  # as spa-bench wrote it before gestures were recorded: no "gesture" key at all
        raw = json.loads((folder / "episode.json").read_text(encoding="utf-8"))
        for step in raw["steps"]:
            del step["gesture"]
        log = EpisodeLog.model_validate(raw)
        assert all(step.gesture is None for step in log.steps)
    gestures = StepGestures(folder)
    frames = trajectory(log, folder)
    for step, frame, command in zip(log.steps, frames, vivo_home.inputs, strict=True):
        executed = executed_points(command)
        drawn = drawn_points(overlay(step, gestures))
        mark = frame.mark
        assert mark is not None
        judged = [mark.point] if mark.point is not None else list(mark.arrow or ())
        assert executed == drawn == judged, f"step {step.index} ({step.action})"
    # the judge's screenshot really carries the dot where the tap was executed
    image = render(frames[0], "dots")
    x, y = executed_points(vivo_home.inputs[0])[0]
    background = (250, 250, 250)
    alpha = DOT_RGBA[3] / 255
    expected = tuple(round(b + (d - b) * alpha) for b, d in zip(background, DOT_RGBA[:3], strict=True))
    assert image.getpixel((x, y)) == pytest.approx(expected, abs=2)


def test_typing_draws_the_field_it_typed_into(tmp_path: Path, vivo_home: FakeAndroid) -> None:
    from android_captures import capture

    vivo_home.dump = capture("uiautomator_dump/app_with_ime_open_resized_1080x2225.xml")
    log, folder = record_episode(tmp_path, vivo_home, [TypeText(selector=Selector(class_name="EditText"),
                                                                text="hello")])
    gesture = log.steps[0].gesture
    assert gesture is not None and gesture.target is not None
    mark = overlay(log.steps[0], StepGestures(folder))
    assert mark["k"] == "type" and mark["box"] == list(gesture.target)
    taps = [executed_points(c) for c in vivo_home.inputs if c.startswith("input tap")]
    assert taps == ([list(gesture.points)] if gesture.points else [])


def test_nothing_is_drawn_where_nothing_happened(tmp_path: Path, vivo_home: FakeAndroid) -> None:
    log, folder = record_episode(tmp_path, vivo_home, [Tap(element=2), Tap(element=2)])
    invalid = log.steps[0].model_copy(update={"gesture": None, "valid": False,
                                              "invalid_reason": "no element 2 on this screen"})
    (folder / "hierarchy" / "001.xml").unlink()  # an old log whose dump is gone: nowhere to resolve
    undumped = log.steps[1].model_copy(update={"gesture": None})
    gestures = StepGestures(folder)
    assert overlay(invalid, gestures) == {"k": "label", "text": "tap element #2"}
    assert overlay(undumped, gestures) == {"k": "label", "text": "tap element #2"}
    assert gestures.of(log.steps[1]) == log.steps[1].gesture  # a recorded gesture needs no dump
