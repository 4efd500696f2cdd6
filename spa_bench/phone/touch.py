"""Touch gestures as timed motion events, built the way Android's own injectors build them.

A client never hands the phone "a swipe": `input swipe` (InputShellCommand.sendSwipe) and the
uiautomator2 server (androidx InteractionController) inject DOWN, a stream of MOVEs and UP, sleeping
between them, so the call lasts as long as the gesture. What the screen makes of it - a tap, a long
press, a scroll or a fling - follows from where and when those events land (see
`spa_bench.phone.system.touchscreen`). A `Gesture` is that timeline: events with their time since DOWN,
yielded lazily (an `input swipe ... 3600000` is 225,000 frames and must not be built as a list).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

TouchAction = Literal["down", "move", "up", "cancel"]

# ViewConfiguration.DEFAULT_LONG_PRESS_TIMEOUT since Android 12 (400 ms; 500 before), which is also what
# UiDevice's getSystemLongPressTime() answers and what a stock image's secure long_press_timeout holds
# (the accessibility "touch & hold delay"; a value written there is not read back by the phone's touch).
LONG_PRESS_TIMEOUT_MS = 400
# InputShellCommand's MOVE loop runs as fast as injection allows; the view tree consumes input once per
# display frame (Choreographer batches the MOVEs of a frame), so one MOVE per 60 Hz frame is what apps see.
FRAME_MS = 1000 / 60
# androidx.test.uiautomator.InteractionController: MOTION_EVENT_INJECTION_DELAY_MILLIS between MOVEs of
# a swipe, REGULAR_CLICK_LENGTH between DOWN and UP of a click (and before UP at the end of a drag).
UIAUTOMATOR_STEP_MS = 5
REGULAR_CLICK_MS = 100
# input swipe's duration when none (or a negative one) is given
DEFAULT_SWIPE_MS = 300


@dataclass(frozen=True)
class TouchEvent:
    """One MotionEvent of a single finger: action, screen position, time in ms since the gesture's DOWN."""

    action: TouchAction
    x: float
    y: float
    t_ms: float


@dataclass(frozen=True)
class Gesture:
    """A finger's timeline from DOWN to UP; `duration_ms` is the time of its UP."""

    duration_ms: float
    _events: Callable[[], Iterator[TouchEvent]]

    def events(self) -> Iterator[TouchEvent]:
        return self._events()


def _lerp(a: float, b: float, alpha: float) -> float:
    return a + (b - a) * alpha


def press(x: float, y: float, hold_ms: float) -> Gesture:
    """DOWN, the finger held still for `hold_ms`, UP (uiautomator2's click(x, y[, ms]), a long tap)."""
    hold = max(0.0, float(hold_ms))

    def events() -> Iterator[TouchEvent]:
        yield TouchEvent("down", x, y, 0.0)
        yield TouchEvent("up", x, y, hold)

    return Gesture(hold, events)


def input_swipe(x1: float, y1: float, x2: float, y2: float, duration_ms: int = DEFAULT_SWIPE_MS,
                hold_first_ms: float = 0.0) -> Gesture:
    """InputShellCommand.sendSwipe: DOWN at the start, MOVEs at lerp(elapsed / duration) until the duration
    has passed, UP at the end point. `hold_first_ms` is draganddrop's long press before the first MOVE
    (the position still follows the time since DOWN, so a drag shorter than the hold jumps to its end)."""
    duration = float(duration_ms if duration_ms >= 0 else DEFAULT_SWIPE_MS)
    up_at = max(duration, hold_first_ms)

    def events() -> Iterator[TouchEvent]:
        yield TouchEvent("down", x1, y1, 0.0)
        t = hold_first_ms
        while t < duration:
            alpha = t / duration
            yield TouchEvent("move", _lerp(x1, x2, alpha), _lerp(y1, y2, alpha), t)
            t += FRAME_MS
        yield TouchEvent("up", x2, y2, up_at)

    return Gesture(up_at, events)


def uiautomator_swipe(points: Sequence[tuple[int, int]], steps: int, drag: bool = False,
                      long_press_ms: int = LONG_PRESS_TIMEOUT_MS) -> Gesture:
    """InteractionController.swipe (two points) and swipe(Point[], segmentSteps): DOWN at the first point,
    per segment `steps - 1` MOVEs at the integer-truncated step positions, 5 ms apart, then UP at the last
    point. A drag holds still for the long-press time first and lingers a click's length before UP."""
    if not points:
        raise ValueError("a uiautomator swipe needs at least one point")
    steps = max(1, int(steps))
    moves_per_segment = steps - 1
    hold = float(long_press_ms) if drag else 0.0
    duration = hold + (len(points) - 1) * moves_per_segment * UIAUTOMATOR_STEP_MS \
        + (REGULAR_CLICK_MS if drag else 0)

    def events() -> Iterator[TouchEvent]:
        x0, y0 = points[0]
        yield TouchEvent("down", x0, y0, 0.0)
        t = hold
        for (ax, ay), (bx, by) in pairwise(points):
            x_step, y_step = (bx - ax) / steps, (by - ay) / steps
            for i in range(1, steps):
                yield TouchEvent("move", ax + int(x_step * i), ay + int(y_step * i), t)
                t += UIAUTOMATOR_STEP_MS
        x_end, y_end = points[-1]
        yield TouchEvent("up", x_end, y_end, duration)

    return Gesture(duration, events)


__all__ = ["DEFAULT_SWIPE_MS", "FRAME_MS", "LONG_PRESS_TIMEOUT_MS", "REGULAR_CLICK_MS", "UIAUTOMATOR_STEP_MS",
           "Gesture", "TouchAction", "TouchEvent", "input_swipe", "press", "uiautomator_swipe"]
