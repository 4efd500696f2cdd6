"""One translation between GUI models' native actions and our action union, shared by every adapter.

An adapter's codec only reads and writes its syntax (`click(point='<point>x y</point>')`,
`do(action="Tap", element=[x,y])`, a mobile_use tool call...) into a NativeAction: a verb from the
common vocabulary below with its points still in the model's frame. Everything after that is here:
frame -> screen (spa_bench.agent.frames), the verb -> our Action, and the reverse for the scripted
native model of the tests (`from_action`), so no adapter re-implements a mapping.

Verbs: tap, double_tap, long_press, swipe (point -> end), scroll (direction, optionally at a point),
type (text, optionally submitted with enter), key (back / home / enter / app_switch), open_app (by
name), wait, ask (a question to the user: our AskUser, whose reply the next observation carries), note
(a step with no effect on the phone, such as CogAgent's QUOTE_TEXT or AutoGLM's Note: recorded as a
0.1 s wait; its text may be the answer a later finish reports), finish (done or infeasible, optional
answer). A double tap has no action of its own in our union: it becomes a tap (documented in the
adapters that have it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from spa_bench.actions import (
    Action,
    AskUser,
    Direction,
    Finish,
    Key,
    KeyName,
    LongPress,
    OpenApp,
    Scroll,
    Swipe,
    Tap,
    TypeText,
    Wait,
)
from spa_bench.agent.frames import Frame, FrameError
from spa_bench.device.elements import UIElement
from spa_bench.device.observation import Observation

Verb = Literal["tap", "double_tap", "long_press", "swipe", "scroll", "type", "key", "open_app", "wait",
               "ask", "note", "finish"]
Point = tuple[float, float]

# A scroll "down" shows what is further down, as in spa_bench.actions.Scroll; a point-less one swipes over
# the middle half of the screen, as Device._scroll does.
_SCROLL_REGION = (0.25, 0.75)


class NativeActionError(ValueError):
    """A reply that parses but cannot be carried out (a point outside the frame, a missing argument)."""


@dataclass(frozen=True)
class NativeAction:
    """One action in a model's own vocabulary, points in its frame."""

    verb: Verb
    point: Point | None = None
    end: Point | None = None  # swipe: where the finger stops
    text: str | None = None  # type: the text; open_app: the app's name; ask: the question; finish: the answer
    direction: Direction | None = None
    key: KeyName | None = None
    enter: bool = False  # type: submit after typing
    status: Literal["done", "infeasible"] = "done"
    seconds: float | None = None
    duration_ms: int | None = None


def to_action(native: NativeAction, frame: Frame) -> Action:
    """Our Action for a native one, points mapped to the screen. NativeActionError when unusable.

    A scroll at a point becomes the swipe Device._scroll makes for a point-less scroll, centred on that
    point (a scroll at the screen's centre is exactly our Scroll)."""
    try:
        return _to_action(native, frame)
    except FrameError as exc:
        raise NativeActionError(str(exc)) from None


def _need_point(native: NativeAction, frame: Frame, which: str = "point") -> tuple[int, int]:
    point = native.point if which == "point" else native.end
    if point is None:
        raise NativeActionError(f"{native.verb} needs {'a start' if which == 'point' else 'an end'} point")
    return frame.to_screen(*point)


def _to_action(native: NativeAction, frame: Frame) -> Action:
    verb = native.verb
    if verb in ("tap", "double_tap"):
        x, y = _need_point(native, frame)
        return Tap(x=x, y=y)
    if verb == "long_press":
        x, y = _need_point(native, frame)
        duration = native.duration_ms if native.duration_ms is not None else 1000
        return LongPress(x=x, y=y, duration_ms=min(max(duration, 500), 10_000))
    if verb == "swipe":
        x1, y1 = _need_point(native, frame)
        x2, y2 = _need_point(native, frame, "end")
        duration = native.duration_ms if native.duration_ms is not None else 300
        return Swipe(x1=x1, y1=y1, x2=x2, y2=y2, duration_ms=min(max(duration, 10), 10_000))
    if verb == "scroll":
        if native.direction is None:
            raise NativeActionError("scroll needs a direction (up, down, left or right)")
        if native.point is None:
            return Scroll(direction=native.direction)
        x, y = frame.to_screen(*native.point)
        return _swipe_at(native.direction, x, y, frame)
    if verb == "type":
        if native.text is None:
            raise NativeActionError("type needs the text to type")
        text, enter = native.text, native.enter
        if text.endswith("\n"):  # UI-TARS: "use \n at the end of content" to submit
            text, enter = text.rstrip("\n"), True
        if not text and enter:
            return Key(key="enter")
        if not text:
            raise NativeActionError("type needs the text to type")
        return TypeText(text=text, enter=enter)
    if verb == "key":
        if native.key is None:
            raise NativeActionError("the key action names no key")
        return Key(key=native.key)
    if verb == "open_app":
        if not native.text or not native.text.strip():
            raise NativeActionError("open_app needs the app's name")
        return OpenApp(app=native.text.strip())
    if verb == "wait":
        seconds = native.seconds if native.seconds is not None else 1.0
        return Wait(seconds=min(max(seconds, 0.1), 60.0))
    if verb == "ask":
        if not native.text or not native.text.strip():
            raise NativeActionError("ask needs the question to ask the user")
        return AskUser(question=native.text.strip())
    if verb == "note":
        return Wait(seconds=0.1)
    if verb == "finish":
        answer = native.text.strip() if native.text and native.text.strip() else None
        return Finish(status=native.status, answer=answer)
    raise NativeActionError(f"unknown action {verb!r}")  # pragma: no cover - Verb is closed


def _screen_region(frame: Frame) -> tuple[int, int, int, int]:
    w, h = frame.screen_width, frame.screen_height
    return 0, int(h * _SCROLL_REGION[0]), w, int(h * _SCROLL_REGION[1])


def _swipe_at(direction: Direction, x: int, y: int, frame: Frame) -> Swipe:
    from spa_bench.device.gesture import scroll_path

    left, top, right, bottom = _screen_region(frame)
    half_w, half_h = (right - left) // 2, (bottom - top) // 2
    x1, y1, x2, y2 = scroll_path(direction, (x - half_w, y - half_h, x + half_w, y + half_h))
    w, h = frame.screen_width, frame.screen_height
    return Swipe(x1=min(max(x1, 0), w - 1), y1=min(max(y1, 0), h - 1), x2=min(max(x2, 0), w - 1),
                 y2=min(max(y2, 0), h - 1), duration_ms=400)


# -- the reverse: our action (screen pixels) -> the native one, for the scripted native model ---------------
def from_action(action: Action, frame: Frame, observation: Observation | None = None) -> NativeAction:
    """The native action that `to_action` maps back onto `action` (or onto the same gesture).

    Targets must be coordinates, or element indexes into `observation`; selectors are resolved by the
    caller first. NativeActionError for what no native action expresses (a text field to clear)."""
    if isinstance(action, Tap | LongPress):
        point = frame.from_screen(*_screen_point(action, observation))
        if isinstance(action, Tap):
            return NativeAction("tap", point=point)
        return NativeAction("long_press", point=point, duration_ms=action.duration_ms)
    if isinstance(action, Swipe):
        return NativeAction("swipe", point=frame.from_screen(action.x1, action.y1),
                            end=frame.from_screen(action.x2, action.y2), duration_ms=action.duration_ms)
    if isinstance(action, Scroll):
        if action.selector is not None:
            raise NativeActionError("resolve the scroll's selector to an element first")
        if action.element is None:  # the screen's centre: to_action makes exactly Device._scroll's swipe
            centre = frame.from_screen(frame.screen_width // 2, frame.screen_height // 2)
            return NativeAction("scroll", point=centre, direction=action.direction)
        element = _element(action.element, observation)
        return NativeAction("scroll", point=frame.from_screen(*element.center), direction=action.direction)
    if isinstance(action, TypeText):
        if action.clear or action.element is not None or action.selector is not None:
            raise NativeActionError("native type actions type into the focused field: tap the field "
                                    "first, and no native action clears it")
        return NativeAction("type", text=action.text, enter=action.enter)
    if isinstance(action, Key):
        return NativeAction("key", key=action.key)
    if isinstance(action, OpenApp):
        return NativeAction("open_app", text=action.app)
    if isinstance(action, Wait):
        return NativeAction("wait", seconds=action.seconds)
    if isinstance(action, AskUser):
        return NativeAction("ask", text=action.question)
    return NativeAction("finish", text=action.answer, status=action.status)


def scroll_as_swipe(direction: Direction, frame: Frame,
                    box: tuple[int, int, int, int] | None = None) -> NativeAction:
    """A scroll for formats that only swipe: the finger path Device._scroll takes for the same scroll
    (inside the element `box`, or over the middle half of the screen), in the model's frame."""
    from spa_bench.device.gesture import scroll_path

    x1, y1, x2, y2 = scroll_path(direction, box or _screen_region(frame))
    return NativeAction("swipe", point=frame.from_screen(x1, y1), end=frame.from_screen(x2, y2),
                        duration_ms=400)


def _element(index: int, observation: Observation | None) -> UIElement:
    element = observation.element(index) if observation is not None else None
    if element is None:
        raise NativeActionError(f"no element {index} on this screen")
    return element


def _screen_point(action: Tap | LongPress, observation: Observation | None) -> tuple[int, int]:
    if action.x is not None and action.y is not None:
        return action.x, action.y
    if action.element is not None:
        element = observation.element(action.element) if observation is not None else None
        if element is None:
            raise NativeActionError(f"no element {action.element} on this screen")
        return element.center
    raise NativeActionError("resolve the action's selector to coordinates first")
