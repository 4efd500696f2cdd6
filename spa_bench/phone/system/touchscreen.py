"""One finger on the screen, told apart as Android's views tell it apart.

Events come in as they are injected (with their times); the outcome follows the rules of
ViewConfiguration and View.onTouchEvent:
- a finger that stays within the touch slop until the long-press timeout is a long press, fired at that
  moment, while the finger is still down (a later UP does not click);
- one that lifts within the slop before the timeout is a tap at its DOWN point;
- one that leaves the slop is a swipe from DOWN to UP whose lift-off velocity (the VelocityTracker's
  horizon: the last 100 ms, zero when the finger rested 40 ms before lifting) decides the fling.
A new DOWN while a finger is down, or CANCEL, drops the touch in progress without an outcome.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from spa_bench.phone.touch import LONG_PRESS_TIMEOUT_MS, TouchAction

# VelocityTracker (frameworks/native libs/input/VelocityTracker.cpp): samples older than HORIZON do not
# count, and a pointer that has not moved for ASSUME_POINTER_STOPPED before UP has velocity 0.
VELOCITY_HORIZON_MS = 100
ASSUME_POINTER_STOPPED_MS = 40


@dataclass(frozen=True)
class Tap:
    x: int
    y: int


@dataclass(frozen=True)
class LongPress:
    x: int
    y: int


@dataclass(frozen=True)
class Swipe:
    """A finger that moved: from DOWN to UP, with its lift-off velocity in px/s."""

    x1: int
    y1: int
    x2: int
    y2: int
    duration_ms: float
    velocity_x: float
    velocity_y: float


Outcome = Tap | LongPress | Swipe


@dataclass
class _Touch:
    x: float
    y: float
    t_ms: float
    moved: bool = False
    long_pressed: bool = False


class Touchscreen:
    """The touch in progress; `feed` returns what the events so far amount to (usually nothing)."""

    def __init__(self, slop_px: int, long_press_ms: int = LONG_PRESS_TIMEOUT_MS) -> None:
        self.slop_px = slop_px
        self.long_press_ms = long_press_ms
        self._touch: _Touch | None = None
        self._samples: deque[tuple[float, float, float]] = deque()  # (t_ms, x, y) within the horizon

    def feed(self, action: TouchAction, x: float, y: float, t_ms: float) -> list[Outcome]:
        if action == "down":
            self._touch = _Touch(x, y, t_ms)
            self._samples.clear()
            self._sample(x, y, t_ms)
            return []
        touch = self._touch
        if touch is None:
            return []  # a MOVE or UP without DOWN reaches no view
        if action == "cancel":
            self._touch = None
            return []
        out: list[Outcome] = []
        long_press = self._long_press_due(touch, t_ms)
        if long_press is not None:
            out.append(long_press)
        if not touch.moved and not touch.long_pressed and self._beyond_slop(touch, x, y):
            touch.moved = True
        self._sample(x, y, t_ms)
        if action == "up":
            self._touch = None
            if touch.moved:
                vx, vy = self._velocity(t_ms)
                out.append(Swipe(round(touch.x), round(touch.y), round(x), round(y), t_ms - touch.t_ms,
                                 vx, vy))
            elif not touch.long_pressed:
                out.append(Tap(round(touch.x), round(touch.y)))
        return out

    def _long_press_due(self, touch: _Touch, now_ms: float) -> LongPress | None:
        """The long-press timer of the DOWN has run out while the finger stayed within the slop."""
        if touch.moved or touch.long_pressed or now_ms - touch.t_ms < self.long_press_ms:
            return None
        touch.long_pressed = True
        return LongPress(round(touch.x), round(touch.y))

    def _beyond_slop(self, touch: _Touch, x: float, y: float) -> bool:
        return abs(x - touch.x) > self.slop_px or abs(y - touch.y) > self.slop_px

    def _sample(self, x: float, y: float, t_ms: float) -> None:
        self._samples.append((t_ms, x, y))
        while self._samples and t_ms - self._samples[0][0] > VELOCITY_HORIZON_MS:
            self._samples.popleft()

    def _velocity(self, up_ms: float) -> tuple[float, float]:
        """Displacement per second over the horizon's samples (DOWN, MOVEs and the UP's position); zero
        when no MOVE came in the ASSUME_POINTER_STOPPED_MS before UP (the finger rested, then lifted)."""
        samples = list(self._samples)
        if len(samples) < 2 or up_ms - samples[-2][0] >= ASSUME_POINTER_STOPPED_MS:
            return 0.0, 0.0
        t0, x0, y0 = samples[0]
        _, x1, y1 = samples[-1]
        span_s = max(up_ms - t0, 1.0) / 1000
        return (x1 - x0) / span_s, (y1 - y0) / span_s
