"""Glyphs of the Shop app (bag, cart, heart, share, category pictograms) and of the Chat app."""

from __future__ import annotations

import math

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

CLEAR = (0, 0, 0, 0)


def _b(u: float, *xy: float) -> tuple[float, ...]:
    return tuple(v * u for v in xy)


def _w(u: float, k: float = 2) -> int:
    return max(1, round(k * u))


@icon("bag")
def _bag(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 4, 7, 20, 21), radius=2 * u, fill=c)
    d.arc(_b(u, 8, 2, 16, 12), 180, 360, fill=c, width=_w(u))
    d.ellipse(_b(u, 8, 10, 10, 12), fill=CLEAR)
    d.ellipse(_b(u, 14, 10, 16, 12), fill=CLEAR)


@icon("cart")
def _cart(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.line(
        [
            (1 * u, 3 * u),
            (5 * u, 3 * u),
            (8 * u, 15 * u),
            (19 * u, 15 * u),
            (21.5 * u, 6 * u),
            (6 * u, 6 * u),
        ],
        fill=c,
        width=_w(u),
        joint="curve",
    )
    d.ellipse(_b(u, 7, 17, 11, 21), fill=c)
    d.ellipse(_b(u, 16, 17, 20, 21), fill=c)


def _heart_shape(d: ImageDraw.ImageDraw, u: float, c: RGB | tuple[int, int, int, int], k: float = 0) -> None:
    d.ellipse(_b(u, 2 + k, 4 + k, 12.5 - k, 14 - k), fill=c)
    d.ellipse(_b(u, 11.5 + k, 4 + k, 22 - k, 14 - k), fill=c)
    d.polygon(
        [
            (2.6 * u + k * u, 11 * u),
            (12 * u, 21 * u - k * 1.4 * u),
            (21.4 * u - k * u, 11 * u),
            (12 * u, 8 * u),
        ],
        fill=c,
    )


@icon("heart")
def _heart(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _heart_shape(d, u, c)
    _heart_shape(d, u, CLEAR, 2)


@icon("heart_filled")
def _heart_filled(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _heart_shape(d, u, c)


@icon("share")
def _share(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.line([(17.5 * u, 5.5 * u), (6 * u, 12 * u), (17.5 * u, 18.5 * u)], fill=c, width=_w(u))
    for x, y in ((18, 5), (6, 12), (18, 19)):
        d.ellipse(_b(u, x - 3, y - 3, x + 3, y + 3), fill=c)


@icon("star")
def _star(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    pts = []
    for k in range(10):
        r = 10 if k % 2 == 0 else 4.2
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((12 * u + r * u * math.cos(a), 12.5 * u + r * u * math.sin(a)))
    d.polygon(pts, fill=c)


@icon("home")
def _home(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        [
            (12 * u, 3 * u),
            (22 * u, 11.5 * u),
            (19 * u, 11.5 * u),
            (19 * u, 21 * u),
            (5 * u, 21 * u),
            (5 * u, 11.5 * u),
            (2 * u, 11.5 * u),
        ],
        fill=c,
    )
    d.rectangle(_b(u, 10, 14, 14, 21), fill=CLEAR)


@icon("receipt")
def _receipt(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        [
            (4 * u, 2 * u),
            (20 * u, 2 * u),
            (20 * u, 22 * u),
            (17 * u, 20 * u),
            (14 * u, 22 * u),
            (12 * u, 20 * u),
            (10 * u, 22 * u),
            (7 * u, 20 * u),
            (4 * u, 22 * u),
        ],
        fill=c,
    )
    for y in (7, 11, 15):
        d.rectangle(_b(u, 7.5, y, 16.5, y + 1.6), fill=CLEAR)


@icon("headphones")
def _headphones(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 3, 3, 21, 21), 180, 360, fill=c, width=_w(u))
    d.rounded_rectangle(_b(u, 2.5, 12, 8, 21), radius=2 * u, fill=c)
    d.rounded_rectangle(_b(u, 16, 12, 21.5, 21), radius=2 * u, fill=c)


@icon("kettle")
def _kettle(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(6 * u, 7 * u), (16 * u, 7 * u), (18 * u, 21 * u), (4 * u, 21 * u)], fill=c)
    d.arc(_b(u, 14, 8, 22, 17), 270, 90, fill=c, width=_w(u))
    d.rectangle(_b(u, 8, 4, 14, 6), fill=c)


@icon("sports")
def _sports(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 3, 3, 21, 21), outline=c, width=_w(u))
    d.line([(3 * u, 12 * u), (21 * u, 12 * u)], fill=c, width=_w(u))
    d.arc(_b(u, -4, 3, 10, 21), 300, 60, fill=c, width=_w(u))
    d.arc(_b(u, 14, 3, 28, 21), 120, 240, fill=c, width=_w(u))


@icon("shirt")
def _shirt(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        [
            (8 * u, 3 * u),
            (16 * u, 3 * u),
            (22 * u, 8 * u),
            (19 * u, 12 * u),
            (17 * u, 10.5 * u),
            (17 * u, 21 * u),
            (7 * u, 21 * u),
            (7 * u, 10.5 * u),
            (5 * u, 12 * u),
            (2 * u, 8 * u),
        ],
        fill=c,
    )
    d.ellipse(_b(u, 9.5, 1, 14.5, 6), fill=CLEAR)


@icon("sparkle")
def _sparkle(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        [
            (12 * u, 2 * u),
            (14.5 * u, 9.5 * u),
            (22 * u, 12 * u),
            (14.5 * u, 14.5 * u),
            (12 * u, 22 * u),
            (9.5 * u, 14.5 * u),
            (2 * u, 12 * u),
            (9.5 * u, 9.5 * u),
        ],
        fill=c,
    )


@icon("book")
def _book(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 5, 2, 19, 22), radius=1.5 * u, fill=c)
    d.rectangle(_b(u, 7.5, 2, 8.5, 22), fill=CLEAR)
    d.rectangle(_b(u, 10.5, 6, 16.5, 7.5), fill=CLEAR)


@icon("filter")
def _filter(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    for y, x in ((6, 15), (12, 8), (18, 13)):
        d.rectangle(_b(u, 3, y - 1, 21, y + 1), fill=c)
        d.ellipse(_b(u, x - 2.5, y - 2.5, x + 2.5, y + 2.5), fill=c)


@icon("sort")
def _sort(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 3, 5, 21, 7), fill=c)
    d.rectangle(_b(u, 3, 11, 15, 13), fill=c)
    d.rectangle(_b(u, 3, 17, 9, 19), fill=c)


@icon("chat")
def _chat(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2, 3, 22, 19), fill=c)
    d.polygon([(5 * u, 15 * u), (4 * u, 22 * u), (11 * u, 18 * u)], fill=c)
    for x in (7.5, 12, 16.5):
        d.ellipse(_b(u, x - 1.3, 9.7, x + 1.3, 12.3), fill=CLEAR)


@icon("person")
def _person(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 7.5, 2.5, 16.5, 11.5), fill=c)
    d.chord(_b(u, 3, 13, 21, 31), 180, 360, fill=c)


@icon("send")
def _send(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon(
        [
            (3 * u, 3 * u),
            (22 * u, 12 * u),
            (3 * u, 21 * u),
            (5 * u, 13.5 * u),
            (14 * u, 12 * u),
            (5 * u, 10.5 * u),
        ],
        fill=c,
    )
