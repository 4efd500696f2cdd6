"""Where an action lands on the screen: the one place that turns an action into finger positions.

`resolve_gesture` is the device's policy (an element's centre, the swipe of a scroll); `Device.execute`
carries out exactly the gesture it returns and hands it back, the episode stores it on the step, and the
report's overlay, the judge's annotated screenshots and anything else that draws an action draw that
recorded gesture. For logs written before gestures were recorded, readers resolve it here once from
the action and the step's saved UI dump - the same code, so the same points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from spa_bench.actions import Action, LongPress, Scroll, Swipe, Tap, TypeText
from spa_bench.device.elements import UIElement, find

Point = tuple[int, int]
Box = tuple[int, int, int, int]  # left, top, right, bottom
SCROLL_DURATION_MS = 400


class InvalidAction(ValueError):
    """The action cannot be carried out on this screen (unknown element, app not installed, ...).
    Recorded as an invalid step; not a device failure."""


class Gesture(BaseModel):
    """What the finger did. `points`: one for a tap or long press, start and end for a swipe, the tap
    that focused the field for typing (none when it already had focus); `target`: the bounds of the
    element the action named, if it named one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["tap", "long_press", "swipe", "type"]
    points: tuple[Point, ...] = ()
    duration_ms: int | None = Field(None, description="press or swipe duration")
    target: Box | None = None

    @property
    def start(self) -> Point | None:
        return self.points[0] if self.points else None

    @property
    def end(self) -> Point | None:
        return self.points[-1] if self.points else None


def center(box: Box) -> Point:
    left, top, right, bottom = box
    return (left + right) // 2, (top + bottom) // 2


def scroll_path(direction: str, box: Box) -> tuple[int, int, int, int]:
    """The finger's path (x1, y1, x2, y2) for a scroll over `box`: three quarters of its extent through
    its centre. A scroll shows what lies further in `direction`, so the finger moves the other way."""
    left, top, right, bottom = box
    cx, cy = center(box)
    dx, dy = (right - left) * 3 // 8, (bottom - top) * 3 // 8
    return {"down": (cx, cy + dy, cx, cy - dy), "up": (cx, cy - dy, cx, cy + dy),
            "right": (cx + dx, cy, cx - dx, cy), "left": (cx - dx, cy, cx + dx, cy)}[direction]


def target_element(action: Tap | LongPress | TypeText | Scroll,
                   elements: Sequence[UIElement]) -> UIElement | None:
    """The element an action names by index (among the actionable elements) or by selector; None when
    it names none. InvalidAction when it names one that is not on this screen."""
    if action.element is not None:
        found = next((e for e in elements if e.index == action.element), None)
        if found is None:
            shown = sum(1 for e in elements if e.index >= 0)
            raise InvalidAction(f"no element {action.element} on this screen ({shown} elements)")
        return found
    if action.selector is not None:
        found = find(list(elements), action.selector)
        if found is None:
            raise InvalidAction(f"no element matches {action.selector.model_dump(exclude_defaults=True)}")
        return found
    return None


def resolve_gesture(action: Action, elements: Sequence[UIElement], width: int, height: int) -> Gesture | None:
    """The gesture that carries out `action` on a screen of `width` x `height` whose UI dump gave
    `elements` (all nodes, as parse_hierarchy returns them); None for actions that touch nothing
    (keys, opening apps, waiting, finishing, typing into whatever has focus)."""
    if isinstance(action, Tap | LongPress):
        element = target_element(action, elements)
        if element is not None:
            point, box = element.center, element.bounds
        else:
            assert action.x is not None and action.y is not None  # the model validator ensures it
            if width and height and not (0 <= action.x < width and 0 <= action.y < height):
                raise InvalidAction(f"({action.x}, {action.y}) is outside the {width}x{height} screen")
            point, box = (action.x, action.y), None
        if isinstance(action, Tap):
            return Gesture(kind="tap", points=(point,), target=box)
        return Gesture(kind="long_press", points=(point,), duration_ms=action.duration_ms, target=box)
    if isinstance(action, Swipe):
        return Gesture(kind="swipe", points=((action.x1, action.y1), (action.x2, action.y2)),
                       duration_ms=action.duration_ms)
    if isinstance(action, Scroll):
        element = target_element(action, elements)
        if element is None and not (width and height):
            raise InvalidAction("a scroll of the whole screen needs the screen size")
        area = element.bounds if element is not None else (0, int(height * 0.25), width, int(height * 0.75))
        x1, y1, x2, y2 = scroll_path(action.direction, area)
        return Gesture(kind="swipe", points=((x1, y1), (x2, y2)),
                       duration_ms=SCROLL_DURATION_MS, target=element.bounds if element is not None else None)
    if isinstance(action, TypeText):
        element = target_element(action, elements)
        if element is None:
            return None
        tap = () if element.focused else (element.center,)
        return Gesture(kind="type", points=tap, target=element.bounds)
    return None
