"""Where an action landed on its screenshot, for the SVG overlay of the episode browser.

The mark is the gesture the device executed (spa_bench.drawing.StepGestures: recorded on the step, or
resolved by the device's own code for logs written before it was), so the report, the judge's annotated
screenshots and the device agree to the pixel.
"""

from __future__ import annotations

from typing import Any

from spa_bench.actions import (
    Action,
    AskUser,
    Finish,
    Key,
    LongPress,
    OpenApp,
    Scroll,
    Swipe,
    Tap,
    TypeText,
    Wait,
)
from spa_bench.drawing import StepGestures, touch_marks
from spa_bench.results.schema import StepRecord


def describe(action: Action) -> str:
    """One short line for the step card, e.g. `tap (540, 1200)` or `type "hello"`."""
    if isinstance(action, Tap | LongPress):
        verb = "tap" if isinstance(action, Tap) else "long press"
        return f"{verb} {_target_text(action)}"
    if isinstance(action, Swipe):
        return f"swipe ({action.x1}, {action.y1}) → ({action.x2}, {action.y2})"
    if isinstance(action, Scroll):
        where = _target_text(action)
        return f"scroll {action.direction}" + (f" in {where}" if where != "?" else "")
    if isinstance(action, TypeText):
        return f"type {action.text!r}" + (" + enter" if action.enter else "")
    if isinstance(action, Key):
        return f"key {action.key}"
    if isinstance(action, OpenApp):
        return f"open app {action.app!r}"
    if isinstance(action, Wait):
        return f"wait {action.seconds:g} s"
    if isinstance(action, AskUser):
        return f"ask user {action.question!r}"
    if isinstance(action, Finish):
        return f"finish ({action.status})" + (f": {action.answer!r}" if action.answer is not None else "")
    return action.type  # pragma: no cover - the union is closed


def _target_text(action: Tap | LongPress | Scroll | TypeText) -> str:
    x, y = getattr(action, "x", None), getattr(action, "y", None)
    if x is not None and y is not None:
        return f"({x}, {y})"
    if action.element is not None:
        return f"element #{action.element}"
    if action.selector is not None:
        fields = action.selector.model_dump(exclude_defaults=True)
        return "[" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + "]"
    return "?"


def overlay(step: StepRecord, gestures: StepGestures) -> dict[str, Any]:
    """The mark to draw: {"k": kind, ...coordinates in screen pixels, "box": element bounds}.
    Kinds: tap, long_press (x, y), swipe (x1, y1, x2, y2), type (text, box?), label (text) for actions
    without a place on the screen. Empty when there is nothing to draw."""
    action = step.action
    if action is None:
        return {}
    gesture = gestures.of(step)
    point, arrow = touch_marks(gesture)
    box = list(gesture.target) if gesture is not None and gesture.target is not None else None
    if isinstance(action, TypeText):
        return {"k": "type", "text": action.text, **({"box": box} if box is not None else {})}
    if arrow is not None:
        (x1, y1), (x2, y2) = arrow
        return {"k": "swipe", "x1": x1, "y1": y1, "x2": x2, "y2": y2}
    if point is not None and isinstance(action, Tap | LongPress):
        return {"k": action.type, "x": point[0], "y": point[1], **({"box": box} if box is not None else {})}
    return {"k": "label", "text": describe(action)}
