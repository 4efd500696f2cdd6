"""Glyphs of Circle: bookmark (outline and filled), a comment bubble, the compose tile and a globe-free
"friends" mark for posts seen by friends only."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

CLEAR = (0, 0, 0, 0)


def _w(u: float, k: float = 2) -> int:
    return max(1, round(k * u))


def _bookmark_shape(
    d: ImageDraw.ImageDraw, u: float, c: RGB | tuple[int, int, int, int], k: float = 0
) -> None:
    d.polygon(
        [
            (6 * u + k * u, 3 * u + k * u),
            (18 * u - k * u, 3 * u + k * u),
            (18 * u - k * u, 21 * u - k * 1.6 * u),
            (12 * u, 16.5 * u - k * 0.4 * u),
            (6 * u + k * u, 21 * u - k * 1.6 * u),
        ],
        fill=c,
    )


@icon("bookmark")
def _bookmark(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _bookmark_shape(d, u, c)
    _bookmark_shape(d, u, CLEAR, 2)


@icon("bookmark_filled")
def _bookmark_filled(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _bookmark_shape(d, u, c)


@icon("comment")
def _comment(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle((3 * u, 4 * u, 21 * u, 17 * u), radius=4 * u, outline=c, width=_w(u))
    d.polygon([(7 * u, 16 * u), (7 * u, 21 * u), (12 * u, 16 * u)], fill=c)


@icon("add_box")
def _add_box(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle((3 * u, 3 * u, 21 * u, 21 * u), radius=5 * u, outline=c, width=_w(u))
    d.line([(12 * u, 7.5 * u), (12 * u, 16.5 * u)], fill=c, width=_w(u))
    d.line([(7.5 * u, 12 * u), (16.5 * u, 12 * u)], fill=c, width=_w(u))


@icon("friends")
def _friends(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse((4 * u, 4 * u, 11 * u, 11 * u), fill=c)
    d.ellipse((13 * u, 4 * u, 20 * u, 11 * u), fill=c)
    d.pieslice((1 * u, 12 * u, 14 * u, 26 * u), 180, 360, fill=c)
    d.pieslice((10 * u, 12 * u, 23 * u, 26 * u), 180, 360, fill=c)
