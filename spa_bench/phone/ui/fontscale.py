"""The system font scale (`settings put system font_scale X`) as Android 14 applies it to sp sizes.

Builders give text sizes in pixels at font scale 1 (`kit.dp(14)` for 14sp). While a phone builds a frame,
its scale and density are active in a context variable - not a module global, since several phones with
different settings build frames in one process - and `sp()` turns such a size into the scaled one.

Android 14 (the version this phone reports) scales sp non-linearly above 100 %: small text grows by the
whole factor, large text less (FontScaleConverterFactory's tables, below), so headings and big clock
digits keep fitting. At or below 100 % and between the tables' ends the scale is linear, as there.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from functools import lru_cache

MIN_FONT_SCALE, MAX_FONT_SCALE = 0.5, 3.0

# AOSP frameworks/base core/java/android/content/res/FontScaleConverterFactory.java (Android 14):
# for each font scale, sp sizes -> dp sizes; between points linear, past 100sp the last pair's ratio.
_FROM_SP = (8.0, 10.0, 12.0, 14.0, 18.0, 20.0, 24.0, 30.0, 100.0)
_TABLES: dict[float, tuple[float, ...]] = {
    1.15: (9.2, 11.5, 13.8, 16.4, 19.8, 21.8, 25.2, 30.0, 100.0),
    1.3: (10.4, 13.0, 15.6, 18.8, 21.6, 23.6, 26.4, 30.0, 100.0),
    1.5: (12.0, 15.0, 18.0, 22.0, 24.0, 26.0, 28.0, 30.0, 100.0),
    1.8: (14.4, 18.0, 21.6, 24.4, 27.6, 30.8, 32.8, 34.8, 100.0),
    2.0: (16.0, 20.0, 24.0, 26.0, 30.0, 34.0, 36.0, 38.0, 100.0),
}
_KEYS = sorted(_TABLES)

# (font scale, pixels per dp) of the phone whose frame is being built; (1.0, 1.0) draws sizes as stored.
_active: ContextVar[tuple[float, float]] = ContextVar("font_scale", default=(1.0, 1.0))


def parse_font_scale(value: str | None) -> float:
    """`settings get system font_scale` as a factor (1.0 when unset or not a number), clamped to a range
    that still lays out."""
    try:
        scale = float(str(value).strip())
    except ValueError:
        return 1.0
    if scale != scale:  # NaN
        return 1.0
    return min(MAX_FONT_SCALE, max(MIN_FONT_SCALE, scale))


@contextlib.contextmanager
def font_scale(scale: float, px_per_dp: float = 1.0) -> Iterator[None]:
    """Build views with text sizes scaled as sp at `scale` on a screen of `px_per_dp` (1.0: draw or
    measure what was built, whose sizes are already scaled)."""
    token = _active.set((scale, px_per_dp))
    try:
        yield
    finally:
        _active.reset(token)


def _interpolate(x: float, xs: tuple[float, ...], ys: tuple[float, ...]) -> float:
    """FontScaleConverterImpl.lookupAndInterpolate: linear between points, from (0, 0) below the first,
    the last pair's ratio beyond the last."""
    i = bisect.bisect_left(xs, x)
    if i < len(xs) and xs[i] == x:
        return ys[i]
    if i >= len(xs):
        return x * ys[-1] / xs[-1]
    x0, y0 = (0.0, 0.0) if i == 0 else (xs[i - 1], ys[i - 1])
    return y0 + (ys[i] - y0) * (x - x0) / (xs[i] - x0)


def convert_sp_to_dp(sp_value: float, scale: float) -> float:
    """Android 14's `TypedValue.applyDimension(COMPLEX_UNIT_SP, ...)` in dp: FontScaleConverterFactory's
    table for `scale`, one interpolated between the two nearest tables, or linear outside them."""
    if scale <= 1.0 or scale < _KEYS[0] or scale > _KEYS[-1]:
        return sp_value * scale
    table = _TABLES.get(scale)
    if table is None:
        hi = bisect.bisect_left(_KEYS, scale)
        lo_key, hi_key = _KEYS[hi - 1], _KEYS[hi]
        t = (scale - lo_key) / (hi_key - lo_key)
        table = tuple(_interpolate(s, _FROM_SP, _TABLES[lo_key]) * (1 - t)
                      + _interpolate(s, _FROM_SP, _TABLES[hi_key]) * t for s in _FROM_SP)
    return _interpolate(sp_value, _FROM_SP, table)


@lru_cache(maxsize=4096)
def _scaled(size: float, scale: float, px_per_dp: float) -> int:
    return round(convert_sp_to_dp(size / px_per_dp, scale) * px_per_dp)


def sp(size: float) -> int:
    """A text size given in pixels at font scale 1, in pixels at the active font scale (cheap: cached)."""
    scale, px_per_dp = _active.get()
    return int(size) if scale == 1.0 else _scaled(size, scale, px_per_dp)
