"""AndroidWorld's JSON action format (`Reason: ... Action: {"action_type": "click", "index": 3}`), both ways.

Our own reader of the format defined by google-research/android_world (Apache-2.0), doing what its
agents do with a reply, step by step, so that the same replies are accepted and rejected:
- m3a_utils.parse_reason_action_output: `Reason:(.*)Action:` and `Action:(.*)` (both must be there),
  then agent_utils.extract_json: the first `{...}` (non-greedy), read as a Python literal, else JSON;
- env/json_action.JSONAction: only its fields, an action_type of its list, an int index and not also
  x/y, a scroll direction of up/down/left/right;
- m3a.py / t3a.py: an index beyond the element list is rejected before anything is done;
- env/actuation.execute_adb_action: what each action does on the device. A click / long_press /
  double_tap by index taps the centre of that element's box; input_text taps the field (when an index
  is given), types and presses enter; scroll swipes from the middle of the element (or screen) to its
  edge; swipe is the inverse of scroll over the whole screen; wait sleeps one second.
Everything is then carried out through the shared translation (spa_bench.agent.native) with points in
screen pixels. The reasons given for rejected replies are AndroidWorld's own history notes.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spa_bench.actions import Action, TypeText
from spa_bench.agent.codec import ReplyError
from spa_bench.agent.frames import Frame
from spa_bench.agent.native import NativeAction, NativeActionError, to_action

from .aw_elements import AWElement, is_shown

ACTION_TYPES = ("click", "double_tap", "scroll", "swipe", "input_text", "navigate_home", "navigate_back",
                "keyboard_enter", "open_app", "status", "wait", "long_press", "answer", "unknown")
FIELDS = ("action_type", "index", "x", "y", "text", "direction", "goal_status", "app_name", "keycode",
          "clear_text")
DIRECTIONS = ("left", "right", "down", "up")

# AndroidWorld's notes for the history when a reply cannot be used (m3a.py, t3a.py)
NOT_IN_FORMAT = "Output for action selection is not in the correct format, so no action is performed."
NOT_PARSED = ("Can not parse the output to a valid action. Please make sure to pick the action from the list "
              "with required parameters (if any) in the correct JSON format!")
OUT_OF_RANGE = "The parameter index is out of range. Remember the index must be in the UI element list!"
# t3a.py words two of them differently
T3A_NOTES = {
    "Can not parse the output to a valid action. Please make sure to pick the action from the list "
    "with required parameters (if any) in the correct JSON format!":
        "Can not parse the output to a valid action. Please make sure to pick the action from the list "
        "with the correct json format!",
}
NOT_EXECUTABLE = ("Can not execute the action, make sure to select the action with the required parameters "
                  "(if any) in the correct JSON format!")


class AWReplyError(ReplyError):
    """A reply AndroidWorld would not carry out; `note` is the line its agents put in the history."""

    def __init__(self, reason: str, note: str) -> None:
        super().__init__(reason)
        self.note = note


@dataclass(frozen=True)
class AWReply:
    reason: str
    action_text: str  # the JSON as the model wrote it, normalised by json.dumps (as m3a_utils does)
    fields: dict[str, Any]


_REASON = re.compile(r"Reason:(.*)Action:", re.S)
_ACTION = re.compile(r"Action:(.*)", re.S)
_FIRST_OBJECT = re.compile(r"\{.*?\}", re.S)


def read_reply(text: str, fields: tuple[str, ...] = FIELDS) -> AWReply:
    """Reason, action text and the validated JSONAction fields of a reply (`fields`: the JSONAction's
    fields; SeeAct-V's adds `element`). AWReplyError otherwise."""
    reason_match, action_match = _REASON.search(text), _ACTION.search(text)
    reason = reason_match.group(1).strip() if reason_match else ""
    action = action_match.group(1).strip() if action_match else ""
    if not reason or not action:
        missing = "'Reason:'" if not reason else "'Action:'"
        raise AWReplyError(f"no {missing} part in the reply", NOT_IN_FORMAT)
    found = _FIRST_OBJECT.search(action)
    if found is None:
        raise AWReplyError("no {...} after 'Action:'", NOT_PARSED)
    try:
        data = ast.literal_eval(found.group())
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        try:
            data = json.loads(found.group())
        except ValueError:
            raise AWReplyError(f"unreadable action {found.group()[:80]!r}", NOT_PARSED) from None
    if not isinstance(data, dict):
        raise AWReplyError("the action is not a JSON object", NOT_PARSED)
    return AWReply(reason, json.dumps(data, ensure_ascii=False), _validate(data, fields))


def _validate(data: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    """json_action.JSONAction(**data): its fields only, a known type, int index, a known direction."""
    unknown = [k for k in data if k not in known]
    if unknown:
        raise AWReplyError(f"unknown field {unknown[0]!r}", NOT_PARSED)
    kind = data.get("action_type")
    if kind not in ACTION_TYPES:
        raise AWReplyError(f"invalid action type {kind!r}", NOT_PARSED)
    fields = dict(data)
    if fields.get("index") is not None:
        try:
            fields["index"] = int(fields["index"])
        except (TypeError, ValueError):
            raise AWReplyError(f"index {fields['index']!r} is not a number", NOT_PARSED) from None
        if fields.get("x") is not None or fields.get("y") is not None:
            raise AWReplyError("either an index or x, y, not both", NOT_PARSED)
    if fields.get("direction") and fields["direction"] not in DIRECTIONS:
        raise AWReplyError(f"invalid scroll direction {fields['direction']!r}", NOT_PARSED)
    if fields.get("text") is not None and not isinstance(fields["text"], str):
        fields["text"] = str(fields["text"])
    return fields


def to_native(fields: dict[str, Any], elements: Sequence[AWElement], width: int,
              height: int) -> tuple[NativeAction, AWElement | None]:
    """What actuation.execute_adb_action does, as a NativeAction in screen pixels (and the element)."""
    kind, index = fields["action_type"], fields.get("index")
    element = None
    if index is not None and kind in ("click", "double_tap", "long_press", "input_text", "scroll"):
        if not 0 <= index < len(elements):
            raise AWReplyError(f"index {index} is not in the element list (0..{len(elements) - 1})",
                               OUT_OF_RANGE)
        element = elements[index]
    point = None
    if element is not None:
        point = float(element.center[0]), float(element.center[1])
    elif fields.get("x") is not None and fields.get("y") is not None:
        point = float(fields["x"]), float(fields["y"])
    if kind in ("click", "double_tap", "long_press"):
        if point is None:
            raise AWReplyError(f"{kind} needs an index", NOT_EXECUTABLE)
        verb = "tap" if kind == "click" else kind
        return NativeAction(verb, point=point), element  # type: ignore[arg-type]
    if kind == "input_text":
        if not fields.get("text"):
            raise AWReplyError("input_text needs a text", NOT_EXECUTABLE)
        return NativeAction("type", text=fields["text"], enter=True), element
    if kind in ("scroll", "swipe"):
        direction = fields.get("direction")
        if direction is None:
            raise AWReplyError(f"{kind} needs a direction", NOT_EXECUTABLE)
        return gesture(kind, direction, element, width, height), element
    if kind in ("navigate_home", "navigate_back", "keyboard_enter"):
        key = {"navigate_home": "home", "navigate_back": "back", "keyboard_enter": "enter"}[kind]
        return NativeAction("key", key=key), None  # type: ignore[arg-type]
    if kind == "open_app":
        if not fields.get("app_name"):
            raise AWReplyError("open_app needs an app_name", NOT_EXECUTABLE)
        return NativeAction("open_app", text=str(fields["app_name"])), None
    if kind == "wait":
        return NativeAction("wait", seconds=1.0), None
    if kind == "status":
        status = "infeasible" if fields.get("goal_status") == "infeasible" else "done"
        return NativeAction("finish", status=status), None  # type: ignore[arg-type]
    if kind == "answer":
        return NativeAction("finish", text=fields.get("text") or ""), None
    raise AWReplyError("unknown action type: no action is performed", NOT_EXECUTABLE)


def gesture(kind: str, direction: str, element: AWElement | None, width: int, height: int) -> NativeAction:
    """actuation's scroll (middle of the element or screen to its edge) and swipe (edge to edge)."""
    if kind == "swipe":
        mid_x, mid_y = width / 2, height / 2
        start, end = {"down": ((mid_x, 0), (mid_x, height)), "up": ((mid_x, height), (mid_x, 0)),
                      "left": ((0, mid_y), (width, mid_y)), "right": ((width, mid_y), (0, mid_y))}[direction]
        # a swipe to the far edge ends one pixel inside the screen
        end = (min(end[0], width - 1), min(end[1], height - 1))
        start = (min(start[0], width - 1), min(start[1], height - 1))
        return NativeAction("swipe", point=(float(start[0]), float(start[1])),
                            end=(float(end[0]), float(end[1])), duration_ms=500)
    left, top, right, bottom = (0, 0, width, height) if element is None else element.node.bounds
    left, top, right, bottom = max(left, 0), max(top, 0), min(right, width), min(bottom, height)
    cx, cy = (left + right) // 2, (top + bottom) // 2
    end = {"down": (cx, top), "up": (cx, bottom), "right": (left, cy), "left": (right, cy)}[direction]
    end = (min(end[0], width - 1), min(end[1], height - 1))
    return NativeAction("swipe", point=(float(cx), float(cy)), end=(float(end[0]), float(end[1])))


def to_our_action(native: NativeAction, element: AWElement | None, frame: Frame) -> Action:
    """The shared translation, plus the one thing it cannot know: input_text's field is tapped first,
    which our TypeText does when it names the field (by our element index)."""
    try:
        action = to_action(native, frame)
    except NativeActionError as exc:
        raise AWReplyError(str(exc), NOT_EXECUTABLE) from None
    if isinstance(action, TypeText) and element is not None and element.node.index >= 0:
        action = action.model_copy(update={"element": element.node.index})
    return action


# -- the reverse, for the scripted model of the tests ------------------------------------------------------
def render(native: NativeAction, elements: Sequence[AWElement], width: int, height: int,
           reason: str = "Following the plan.") -> str:
    """A NativeAction in screen pixels as an AndroidWorld agent would answer it, elements by their
    AndroidWorld index. NativeActionError when the format cannot say it."""
    fields = render_fields(native, elements, width, height)
    return f"Reason: {reason}\nAction: {json.dumps(fields, ensure_ascii=False)}"


def render_fields(native: NativeAction, elements: Sequence[AWElement], width: int,
                  height: int) -> dict[str, Any]:
    verb = native.verb
    point = (round(native.point[0]), round(native.point[1])) if native.point is not None else None
    if verb in ("tap", "double_tap", "long_press"):
        assert point is not None
        kind = "long_press" if verb == "long_press" else "click"
        found = element_at(point, elements, width, height)
        return {"action_type": kind, "index": found.index} if found is not None else \
            {"action_type": kind, "x": point[0], "y": point[1]}
    if verb == "type":
        return {"action_type": "input_text", "text": native.text or ""}
    if verb in ("scroll", "swipe"):
        direction = native.direction
        if verb == "swipe":  # a finger moving up scrolls down
            assert native.point is not None and native.end is not None
            dx, dy = native.end[0] - native.point[0], native.end[1] - native.point[1]
            vertical = abs(dy) >= abs(dx)
            direction = ("down" if dy < 0 else "up") if vertical else ("right" if dx < 0 else "left")
        fields: dict[str, Any] = {"action_type": "scroll", "direction": direction}
        found = element_at(point, elements, width, height, scrollable=True) if point is not None else None
        return fields | ({"index": found.index} if found is not None else {})
    if verb == "key":
        names = {"back": "navigate_back", "home": "navigate_home", "enter": "keyboard_enter"}
        if native.key not in names:
            raise NativeActionError(f"AndroidWorld's actions have no {native.key} key")
        return {"action_type": names[native.key]}
    if verb == "open_app":
        return {"action_type": "open_app", "app_name": native.text}
    if verb == "wait":
        return {"action_type": "wait"}
    if native.text:
        return {"action_type": "answer", "text": native.text}
    status = "infeasible" if native.status == "infeasible" else "complete"
    return {"action_type": "status", "goal_status": status}


def element_at(point: tuple[int, int], elements: Sequence[AWElement], width: int, height: int,
               scrollable: bool = False) -> AWElement | None:
    """The smallest shown element whose box holds the point (tapping its centre lands inside it)."""
    x, y = point
    best: AWElement | None = None
    for element in elements:
        left, top, right, bottom = element.node.bounds
        if not is_shown(element, width, height) or not (left <= x < right and top <= y < bottom):
            continue
        if scrollable and not element.node.scrollable:
            continue
        if best is None or element.node.area < best.node.area:
            best = element
    return best
