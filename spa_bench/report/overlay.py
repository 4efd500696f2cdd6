"""Where an action landed on its screenshot, for the SVG overlay of the episode browser.

Coordinates are given directly by most model agents; element indices and selectors are resolved against
the step's saved uiautomator XML with the same parser and the same matching the device used when it
carried the action out (spa_bench.device.elements), so the mark sits on the element that was acted on.
Scroll gestures are drawn where Device._scroll puts the finger.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spa_bench.actions import Action, Finish, Key, LongPress, OpenApp, Scroll, Swipe, Tap, TypeText, Wait
from spa_bench.device.elements import UIElement, find, parse_hierarchy
from spa_bench.errors import SpaBenchError
from spa_bench.results.schema import ObservationRef

Box = tuple[int, int, int, int]


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


class ElementResolver:
    """Finds the element an action names on one step's screen; parses each XML file at most once and
    only for steps that need it (parsing costs ~2 ms, most model agents act by coordinates)."""

    def __init__(self, episode_dir: Path) -> None:
        self.episode_dir = episode_dir
        self._cache: dict[str, list[UIElement] | None] = {}

    def elements(self, observation: ObservationRef) -> list[UIElement] | None:
        name = observation.hierarchy
        if not name:
            return None
        if name not in self._cache:
            try:
                xml = (self.episode_dir / name).read_text(encoding="utf-8")
                self._cache[name] = parse_hierarchy(xml)
            except (OSError, SpaBenchError):
                self._cache[name] = None
        return self._cache[name]

    def box(self, action: Tap | LongPress | Scroll | TypeText, observation: ObservationRef) -> Box | None:
        if action.element is None and action.selector is None:
            return None
        elements = self.elements(observation)
        if elements is None:
            return None
        if action.element is not None:
            found = next((e for e in elements if e.index == action.element), None)
        else:
            assert action.selector is not None
            found = find(elements, action.selector)
        return found.bounds if found is not None else None


def _center(box: Box) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def scroll_path(direction: str, box: Box) -> tuple[int, int, int, int]:
    """The finger's path of a scroll, as Device._scroll draws it ("down" moves the finger up)."""
    left, top, right, bottom = box
    cx, cy = (left + right) // 2, (top + bottom) // 2
    dx, dy = (right - left) * 3 // 8, (bottom - top) * 3 // 8
    return {"down": (cx, cy + dy, cx, cy - dy), "up": (cx, cy - dy, cx, cy + dy),
            "right": (cx + dx, cy, cx - dx, cy), "left": (cx - dx, cy, cx + dx, cy)}[direction]


def overlay(action: Action | None, observation: ObservationRef, resolver: ElementResolver) -> dict[str, Any]:
    """The mark to draw: {"k": kind, ...coordinates in screen pixels, "box": element bounds}.
    Kinds: tap, long_press (x, y), swipe (x1, y1, x2, y2), type (text, box?), label (text) for actions
    without a place on the screen. Empty when there is nothing to draw."""
    if action is None:
        return {}
    width, height = observation.width or 0, observation.height or 0
    if isinstance(action, Tap | LongPress):
        box = resolver.box(action, observation)
        if action.x is not None and action.y is not None:
            x, y = action.x, action.y
        elif box is not None:
            x, y = _center(box)
        else:
            return {"k": "label", "text": describe(action)}
        mark: dict[str, Any] = {"k": action.type, "x": x, "y": y}
        if box is not None:
            mark["box"] = list(box)
        return mark
    if isinstance(action, Swipe):
        return {"k": "swipe", "x1": action.x1, "y1": action.y1, "x2": action.x2, "y2": action.y2}
    if isinstance(action, Scroll):
        box = resolver.box(action, observation)
        if box is None:
            if not (width and height):
                return {"k": "label", "text": describe(action)}
            box = (0, int(height * 0.25), width, int(height * 0.75))
        x1, y1, x2, y2 = scroll_path(action.direction, box)
        return {"k": "swipe", "x1": x1, "y1": y1, "x2": x2, "y2": y2}
    if isinstance(action, TypeText):
        mark = {"k": "type", "text": action.text}
        box = resolver.box(action, observation)
        if box is not None:
            mark["box"] = list(box)
        return mark
    return {"k": "label", "text": describe(action)}
