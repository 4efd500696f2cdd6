"""The shared translation of native actions into ours, and back (what the scripted native model uses)."""

from __future__ import annotations

import pytest

from spa_bench.actions import Finish, Key, LongPress, OpenApp, Scroll, Swipe, Tap, TypeText, Wait
from spa_bench.agent.frames import FrameSpec, SmartResize
from spa_bench.agent.native import NativeAction, NativeActionError, from_action, scroll_as_swipe, to_action
from spa_bench.report.overlay import scroll_path

ABSOLUTE = FrameSpec.absolute(SmartResize()).bind(1080, 2400)  # 1092 x 2408
GRID = FrameSpec.relative(999, 1000).bind(1080, 2400)


@pytest.mark.parametrize("frame", [ABSOLUTE, GRID], ids=["absolute", "relative"])
@pytest.mark.parametrize("action", [
    Tap(x=100, y=2000), LongPress(x=1000, y=50, duration_ms=1500), Swipe(x1=540, y1=1800, x2=540, y2=600),
    TypeText(text="你好，世界"), TypeText(text="earbuds", enter=True), Key(key="back"), Key(key="home"),
    OpenApp(app="设置"), Wait(seconds=2), Finish(answer="156.25"), Finish(status="infeasible"),
])
def test_actions_survive_native_and_back(frame: object, action: object) -> None:
    native = from_action(action, frame)  # type: ignore[arg-type]
    back = to_action(native, frame)  # type: ignore[arg-type]
    assert back.type == action.type  # type: ignore[attr-defined]
    for key, value in action.model_dump().items():  # type: ignore[attr-defined]
        got = getattr(back, key)
        if key in ("x", "y", "x1", "y1", "x2", "y2") and value is not None:
            assert abs(got - value) <= 2, (key, got, value)
        else:
            assert got == value, key


def test_a_scroll_at_the_centre_is_the_devices_scroll() -> None:
    native = from_action(Scroll(direction="down"), GRID)
    assert native.verb == "scroll" and native.point is not None
    swipe = to_action(native, GRID)
    assert isinstance(swipe, Swipe)
    # Device._scroll of a point-less scroll: the middle half of the screen, 3/8 of it each way
    assert (swipe.x1, swipe.y1, swipe.x2, swipe.y2) == scroll_path("down", (0, 600, 1080, 1800))
    as_swipe = scroll_as_swipe("up", ABSOLUTE, (0, 300, 1080, 1300))
    mapped = to_action(as_swipe, ABSOLUTE)
    assert isinstance(mapped, Swipe)
    expected = scroll_path("up", (0, 300, 1080, 1300))
    got = (mapped.x1, mapped.y1, mapped.x2, mapped.y2)
    assert all(abs(a - b) <= 1 for a, b in zip(got, expected, strict=True))


def test_text_ending_in_newline_submits() -> None:
    assert to_action(NativeAction("type", text="hi\n"), GRID) == TypeText(text="hi", enter=True)
    assert to_action(NativeAction("type", text="\n"), GRID) == Key(key="enter")
    assert to_action(NativeAction("double_tap", point=(500, 500)), GRID) == Tap(x=540, y=1200)


@pytest.mark.parametrize(("native", "reason"), [
    (NativeAction("tap"), "needs a start point"),
    (NativeAction("tap", point=(1000, 10)), "outside the model's frame"),
    (NativeAction("swipe", point=(1, 1)), "needs an end point"),
    (NativeAction("scroll", point=(5, 5)), "needs a direction"),
    (NativeAction("type"), "needs the text"),
    (NativeAction("open_app", text="  "), "needs the app's name"),
    (NativeAction("key"), "names no key"),
])
def test_unusable_native_actions_say_why(native: NativeAction, reason: str) -> None:
    with pytest.raises(NativeActionError, match=reason):
        to_action(native, GRID)


def test_what_no_native_action_can_say() -> None:
    with pytest.raises(NativeActionError, match="clears"):
        from_action(TypeText(text="x", clear=True), GRID)
