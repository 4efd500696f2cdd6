"""Vector-style icons drawn with Pillow shapes on Material's 24-unit grid.

Pillow draws shapes without anti-aliasing, so each icon is drawn 4x larger on a transparent layer and
scaled down, then cached by (name, size, colour): an icon costs its drawing once per process. Apps add
their own glyphs with `@icon("name")`.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from spa_bench.phone.ui.theme import RGB

SUPERSAMPLE = 4
IconFn = Callable[[ImageDraw.ImageDraw, float, RGB], None]
ICONS: dict[str, IconFn] = {}
_lock = threading.Lock()


def icon(name: str) -> Callable[[IconFn], IconFn]:
    """Register a glyph painter: `fn(draw, u, colour)` where `u` is one grid unit in pixels."""

    def deco(fn: IconFn) -> IconFn:
        ICONS[name] = fn
        return fn

    return deco


def render_icon(name: str, size: int, color: RGB) -> Image.Image:
    """An RGBA image of the icon, `size` pixels square (cached). Unknown names draw a filled circle."""
    with _lock:
        return _render(name, max(2, size), color)


@lru_cache(maxsize=512)
def _render(name: str, size: int, color: RGB) -> Image.Image:
    big = size * SUPERSAMPLE
    layer = Image.new("RGBA", (big, big), (*color, 0))
    draw = ImageDraw.Draw(layer)
    painter = ICONS.get(name, _fallback)
    painter(draw, big / 24.0, color)
    return layer.resize((size, size), Image.Resampling.LANCZOS)


def _fallback(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 4, 4, 20, 20), fill=c)


def _b(u: float, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return x0 * u, y0 * u, x1 * u, y1 * u


def _pts(u: float, *xy: float) -> list[tuple[float, float]]:
    return [(xy[i] * u, xy[i + 1] * u) for i in range(0, len(xy), 2)]


def _line(d: ImageDraw.ImageDraw, u: float, c: RGB, w: float, *xy: float) -> None:
    points = _pts(u, *xy)
    d.line(points, fill=c, width=max(1, round(w * u)), joint="curve")
    r = w * u / 2
    for x, y in (points[0], points[-1]):
        d.ellipse((x - r, y - r, x + r, y + r), fill=c)


@icon("wifi")
def _wifi(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.pieslice(_b(u, 0.5, 3, 23.5, 26), 225, 315, fill=c)


@icon("signal")
def _signal(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(_pts(u, 21, 3, 21, 21, 3, 21), fill=c)


@icon("bluetooth")
def _bluetooth(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 6.5, 7, 17, 16.5, 12, 21, 12, 3, 17, 7.5, 6.5, 17)


@icon("airplane")
def _airplane(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        _pts(
            u,
            12,
            2,
            13.5,
            3.5,
            13.5,
            9,
            21,
            13.5,
            21,
            15.5,
            13.5,
            13,
            13.5,
            18.5,
            16,
            20.5,
            16,
            22,
            12,
            21,
            8,
            22,
            8,
            20.5,
            10.5,
            18.5,
            10.5,
            13,
            3,
            15.5,
            3,
            13.5,
            10.5,
            9,
            10.5,
            3.5,
        ),
        fill=c,
    )


@icon("sun")
def _sun(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 7, 7, 17, 17), fill=c)
    for k in range(8):
        a = k * math.pi / 4
        _line(
            d,
            u,
            c,
            2,
            12 + 7.5 * math.cos(a),
            12 + 7.5 * math.sin(a),
            12 + 10 * math.cos(a),
            12 + 10 * math.sin(a),
        )


@icon("moon")
def _moon(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 3, 3, 21, 21), fill=c)
    d.ellipse(_b(u, 9, 0, 25, 15), fill=(0, 0, 0, 0))


@icon("globe")
def _globe(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.ellipse(_b(u, 2.5, 2.5, 21.5, 21.5), outline=c, width=w)
    d.ellipse(_b(u, 7.5, 2.5, 16.5, 21.5), outline=c, width=w)
    d.line(_pts(u, 3, 9, 21, 9), fill=c, width=w)
    d.line(_pts(u, 3, 15, 21, 15), fill=c, width=w)


@icon("info")
def _info(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2, 2, 22, 22), outline=c, width=max(1, round(2 * u)))
    d.rectangle(_b(u, 11, 10.5, 13, 17), fill=c)
    d.ellipse(_b(u, 10.8, 6.3, 13.2, 8.7), fill=c)


@icon("apps")
def _apps(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    for x in (4, 10, 16):
        for y in (4, 10, 16):
            d.rounded_rectangle(_b(u, x, y, x + 4, y + 4), radius=u, fill=c)


@icon("bell")
def _bell(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.pieslice(_b(u, 5, 3.5, 19, 17.5), 180, 360, fill=c)
    d.polygon(_pts(u, 5, 10.5, 19, 10.5, 19, 16, 21, 18, 3, 18, 5, 16), fill=c)
    d.ellipse(_b(u, 10, 18.5, 14, 22), fill=c)
    d.ellipse(_b(u, 10.8, 2, 13.2, 4.4), fill=c)


@icon("battery")
def _battery(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 7, 4, 17, 22), radius=1.5 * u, fill=c)
    d.rectangle(_b(u, 10, 2, 14, 4), fill=c)


@icon("storage")
def _storage(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    for y in (4, 10, 16):
        d.rounded_rectangle(_b(u, 3, y, 21, y + 4.5), radius=u, fill=c)


@icon("volume")
def _volume(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(_pts(u, 3, 9, 7, 9, 12, 4, 12, 20, 7, 15, 3, 15), fill=c)
    w = max(1, round(2 * u))
    d.arc(_b(u, 9, 7.5, 17, 16.5), 300, 60, fill=c, width=w)
    d.arc(_b(u, 8.5, 3.5, 21, 20.5), 300, 60, fill=c, width=w)


@icon("location")
def _location(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 5, 2, 19, 16), fill=c)
    d.polygon(_pts(u, 6, 12, 18, 12, 12, 22), fill=c)
    d.ellipse(_b(u, 9.5, 6.5, 14.5, 11.5), fill=(0, 0, 0, 0))


@icon("phone_device")
def _phone_device(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 6, 1.5, 18, 22.5), radius=2 * u, outline=c, width=max(1, round(2 * u)))
    d.rectangle(_b(u, 10, 19, 14, 20), fill=c)


@icon("system")
def _system(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _info(d, u, c)


@icon("gear")
def _gear(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    for k in range(8):
        a = k * math.pi / 4
        cx, cy = 12 + 8.3 * math.cos(a), 12 + 8.3 * math.sin(a)
        d.ellipse(_b(u, cx - 2.4, cy - 2.4, cx + 2.4, cy + 2.4), fill=c)
    d.ellipse(_b(u, 4.5, 4.5, 19.5, 19.5), fill=c)
    d.ellipse(_b(u, 9, 9, 15, 15), fill=(0, 0, 0, 0))


@icon("devices")
def _devices(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.rounded_rectangle(_b(u, 2, 5, 16, 16), radius=u, outline=c, width=w)
    d.rectangle(_b(u, 1, 17, 15, 19), fill=c)
    d.rounded_rectangle(_b(u, 17, 9, 23, 19), radius=u, fill=c)


@icon("display")
def _display(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 3, 3, 21, 21), outline=c, width=max(1, round(2 * u)))
    d.pieslice(_b(u, 6.5, 6.5, 17.5, 17.5), 90, 270, fill=c)


@icon("arrow_back")
def _arrow_back(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 20, 12, 4.5, 12)
    _line(d, u, c, 2, 11, 5, 4.2, 12, 11, 19)


@icon("chevron_right")
def _chevron_right(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 9, 5.5, 15.5, 12, 9, 18.5)


@icon("chevron_down")
def _chevron_down(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 5.5, 9, 12, 15.5, 18.5, 9)


@icon("search")
def _search(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 3, 3, 16, 16), outline=c, width=max(1, round(2.2 * u)))
    _line(d, u, c, 2.4, 14.5, 14.5, 20.5, 20.5)


@icon("check")
def _check(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2.2, 4.5, 12.5, 9.5, 17.5, 19.5, 7)


@icon("plus")
def _plus(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 12, 5, 12, 19)
    _line(d, u, c, 2, 5, 12, 19, 12)


@icon("minus")
def _minus(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 5, 12, 19, 12)


@icon("close")
def _close(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 6, 6, 18, 18)
    _line(d, u, c, 2, 18, 6, 6, 18)


@icon("backspace")
def _backspace(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.polygon(_pts(u, 7, 5, 21, 5, 21, 19, 7, 19, 1.5, 12), outline=c, width=w)
    _line(d, u, c, 1.8, 11, 9, 17, 15)
    _line(d, u, c, 1.8, 17, 9, 11, 15)


@icon("shift")
def _shift(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        _pts(u, 12, 3, 21, 12.5, 16, 12.5, 16, 20, 8, 20, 8, 12.5, 3, 12.5),
        outline=c,
        width=max(1, round(2 * u)),
    )


@icon("enter")
def _enter(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(d, u, c, 2, 19, 5, 19, 14, 5, 14)
    _line(d, u, c, 2, 9.5, 9.5, 5, 14, 9.5, 18.5)


@icon("nav_back")
def _nav_back(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(_pts(u, 17, 4, 17, 20, 5, 12), outline=c, width=max(1, round(2 * u)))


@icon("nav_home")
def _nav_home(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 4, 4, 20, 20), outline=c, width=max(1, round(2 * u)))


@icon("nav_recents")
def _nav_recents(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 5, 5, 19, 19), radius=u, outline=c, width=max(1, round(2 * u)))


@icon("clock")
def _clock(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2.5, 2.5, 21.5, 21.5), outline=c, width=max(1, round(2 * u)))
    _line(d, u, c, 2, 12, 6.5, 12, 12, 16, 14.5)


@icon("translate")
def _translate(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _globe(d, u, c)


@icon("mic")
def _mic(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 9, 2, 15, 14), radius=3 * u, fill=c)
    d.arc(_b(u, 5.5, 5, 18.5, 17), 0, 180, fill=c, width=max(1, round(2 * u)))
    _line(d, u, c, 2, 12, 17, 12, 21)


@icon("pencil")
def _pencil(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(_pts(u, 3, 17.5, 15, 5.5, 18.5, 9, 6.5, 21, 3, 21), fill=c)
    d.polygon(_pts(u, 16.2, 4.3, 18, 2.5, 21.5, 6, 19.7, 7.8), fill=c)


@icon("delete")
def _delete(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 5, 5, 19, 7), fill=c)
    d.rectangle(_b(u, 9, 3, 15, 5), fill=c)
    d.polygon(_pts(u, 6, 8, 18, 8, 17, 21, 7, 21), fill=c)
