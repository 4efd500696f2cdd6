"""The Eats app's glyphs on Material's 24-unit grid: a bowl (restaurants), a moped (delivery), a coupon
ticket and a map pin for addresses."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

Draw = ImageDraw.ImageDraw


def _b(u: float, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return x0 * u, y0 * u, x1 * u, y1 * u


@icon("bowl")
def _bowl(d: Draw, u: float, c: RGB) -> None:
    d.chord(_b(u, 2, 4, 22, 22), 0, 180, fill=c)
    d.rectangle(_b(u, 2, 12.5, 22, 13.5), fill=c)
    d.line([(6 * u, 10 * u), (16 * u, 2 * u)], fill=c, width=max(1, round(1.6 * u)))
    d.line([(9 * u, 10 * u), (19 * u, 3 * u)], fill=c, width=max(1, round(1.6 * u)))


@icon("moped")
def _moped(d: Draw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.ellipse(_b(u, 2, 14, 8, 20), outline=c, width=w)
    d.ellipse(_b(u, 16, 14, 22, 20), outline=c, width=w)
    d.polygon(
        [(5 * u, 14 * u), (9 * u, 10 * u), (16 * u, 10 * u), (18 * u, 15 * u), (10 * u, 15 * u)], fill=c
    )
    d.rectangle(_b(u, 14, 5, 16, 10), fill=c)
    d.rectangle(_b(u, 3, 7, 10, 10), fill=c)


@icon("ticket")
def _ticket(d: Draw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2, 6, 22, 18), radius=1.5 * u, fill=c)
    bg = (*c, 0)
    d.ellipse(_b(u, 0, 10, 4, 14), fill=bg)
    d.ellipse(_b(u, 20, 10, 24, 14), fill=bg)
    for y in (7.5, 10.5, 13.5):
        d.rectangle(_b(u, 15.5, y, 16.5, y + 1.5), fill=bg)


@icon("map_pin")
def _pin(d: Draw, u: float, c: RGB) -> None:
    d.pieslice(_b(u, 5, 2, 19, 16), 180, 360, fill=c)
    d.polygon([(5 * u, 9 * u), (19 * u, 9 * u), (12 * u, 22 * u)], fill=c)
    d.ellipse(_b(u, 9.5, 6.5, 14.5, 11.5), fill=(*c, 0))
