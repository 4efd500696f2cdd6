"""The Phone app's glyphs on Material's 24-unit grid: dialpad, hang-up, call direction arrows, block."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

Draw = ImageDraw.ImageDraw


def _p(u: float, *xy: float) -> list[tuple[float, float]]:
    return [(xy[i] * u, xy[i + 1] * u) for i in range(0, len(xy), 2)]


def _arrow(d: Draw, u: float, c: RGB, tail: tuple[float, float], head: tuple[float, float]) -> None:
    """A diagonal arrow from `tail` to `head` with an L-shaped head (the call log's direction marks)."""
    w = max(1, round(2 * u))
    d.line(_p(u, *tail, *head), fill=c, width=w)
    dx = 1 if head[0] > tail[0] else -1
    dy = 1 if head[1] > tail[1] else -1
    d.line(_p(u, head[0] - dx * 8, head[1], *head, head[0], head[1] - dy * 8), fill=c, width=w)


@icon("dialpad")
def _dialpad(d: Draw, u: float, c: RGB) -> None:
    for row in range(4):
        for col in range(3):
            if row == 3 and col != 1:
                continue
            cx, cy = 6 + col * 6, 3.5 + row * 5.5
            d.ellipse((u * (cx - 1.8), u * (cy - 1.8), u * (cx + 1.8), u * (cy + 1.8)), fill=c)


@icon("call_end")
def _call_end(d: Draw, u: float, c: RGB) -> None:
    d.chord((u * 2, u * 7, u * 22, u * 23), 180, 360, fill=c)
    d.rounded_rectangle((u * 2, u * 13, u * 7.5, u * 17), radius=u * 1.5, fill=c)
    d.rounded_rectangle((u * 16.5, u * 13, u * 22, u * 17), radius=u * 1.5, fill=c)


@icon("call_received")
def _received(d: Draw, u: float, c: RGB) -> None:
    _arrow(d, u, c, (19, 5), (6, 18))


@icon("call_made")
def _made(d: Draw, u: float, c: RGB) -> None:
    _arrow(d, u, c, (5, 19), (18, 6))


@icon("call_missed")
def _missed(d: Draw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.line(_p(u, 3, 8, 12, 17, 21, 7), fill=c, width=w)
    d.line(_p(u, 3, 8, 3, 14), fill=c, width=w)
    d.line(_p(u, 3, 8, 9, 8), fill=c, width=w)


@icon("block")
def _block(d: Draw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.ellipse((u * 3, u * 3, u * 21, u * 21), outline=c, width=w)
    d.line(_p(u, 6.5, 6.5, 17.5, 17.5), fill=c, width=w)


@icon("speaker")
def _speaker(d: Draw, u: float, c: RGB) -> None:
    d.polygon(_p(u, 3, 9, 7, 9, 12, 4, 12, 20, 7, 15, 3, 15), fill=c)
    w = max(1, round(2 * u))
    d.arc((u * 9, u * 7, u * 17, u * 17), 300, 60, fill=c, width=w)
    d.arc((u * 8, u * 3, u * 21, u * 21), 300, 60, fill=c, width=w)


@icon("copy")
def _copy(d: Draw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.rounded_rectangle((u * 8, u * 7, u * 20, u * 21), radius=u * 1.5, outline=c, width=w)
    d.line(_p(u, 4, 17, 4, 3, 15, 3), fill=c, width=w)
