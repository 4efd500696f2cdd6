"""Fling: how far a list keeps moving after a quick swipe, with Android's spline decay
(`OverScroller.SplineOverScroller.getSplineFlingDistance`).

The velocity at lift-off is the finger's over its last 100 ms (spa_bench.phone.system.touchscreen, from
the injected events' times); `input swipe` moves the finger at a constant speed, so it is distance /
duration there. Android flings from 50 dp/s up; here a fling starts only above `FLING_START_DP` so that
the deliberate, measured swipes of scripts and agents (a 300-400 ms swipe over half the screen is
1,000-1,800 dp/s) keep scrolling exactly the distance the finger moved, while a flick (e.g. 600 px in
80 ms) throws the list.
"""

from __future__ import annotations

import math

SCROLL_FRICTION = 0.015  # ViewConfiguration.getScrollFriction()
INFLEXION = 0.35
DECELERATION_RATE = math.log(0.78) / math.log(0.9)
GRAVITY_EARTH = 9.80665
MAX_FLING_DP = 8000  # ViewConfiguration's maximum fling velocity, dp/s
FLING_START_DP = 2000


def velocity(distance_px: float, duration_ms: int) -> float:
    """Lift-off velocity in px/s of a constant-speed swipe."""
    return distance_px * 1000.0 / max(1, duration_ms)


def spline_distance(velocity_px_s: float, dpi: int) -> float:
    """How far a fling at `velocity_px_s` travels before it stops (px, always >= 0)."""
    v = min(abs(velocity_px_s), MAX_FLING_DP * dpi / 160)
    if v <= 0:
        return 0.0
    physical = GRAVITY_EARTH * 39.37 * dpi * 0.84
    decel = math.log(INFLEXION * v / (SCROLL_FRICTION * physical))
    return SCROLL_FRICTION * physical * math.exp(DECELERATION_RATE / (DECELERATION_RATE - 1.0) * decel)


def fling_travel(velocity_px_s: float, dpi: int) -> int:
    """The extra scroll (signed like the velocity) a finger lifted at `velocity_px_s` adds; 0 when slow."""
    if abs(velocity_px_s) < FLING_START_DP * dpi / 160:
        return 0
    return round(math.copysign(spline_distance(velocity_px_s, dpi), velocity_px_s))


def fling_distance(distance_px: int, duration_ms: int, dpi: int) -> int:
    """The extra scroll (signed like `distance_px`) a constant-speed swipe adds after lift-off."""
    return fling_travel(velocity(distance_px, duration_ms), dpi) if distance_px else 0
