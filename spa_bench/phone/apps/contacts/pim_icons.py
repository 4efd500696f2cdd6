"""Glyphs for the personal-information apps (Contacts, Messages, Calendar, Notes, Clock), drawn on
Material's 24-unit grid and registered in the toolkit's icon table when this module is imported."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

Draw = ImageDraw.ImageDraw


def _b(u: float, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return x0 * u, y0 * u, x1 * u, y1 * u


def _w(u: float, w: float = 2) -> int:
    return max(1, round(w * u))


def _poly(u: float, *xy: float) -> list[tuple[float, float]]:
    return [(xy[i] * u, xy[i + 1] * u) for i in range(0, len(xy), 2)]


@icon("person")
def _person(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 8, 3, 16, 11), fill=c)
    d.chord(_b(u, 4, 13, 20, 29), 180, 360, fill=c)


@icon("message")
def _message(d: Draw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 3, 3, 21, 17), radius=2 * u, fill=c)
    d.polygon(_poly(u, 5, 16, 5, 22, 11, 16), fill=c)


@icon("calendar")
def _calendar(d: Draw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 3, 4.5, 21, 21), radius=2 * u, outline=c, width=_w(u))
    d.rectangle(_b(u, 3, 4.5, 21, 9), fill=c)
    d.rectangle(_b(u, 7, 2, 9, 6), fill=c)
    d.rectangle(_b(u, 15, 2, 17, 6), fill=c)
    d.rectangle(_b(u, 13, 13, 17, 17), fill=c)


@icon("note")
def _note(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 6, 2, 18, 14), fill=c)
    d.rectangle(_b(u, 9, 14, 15, 18), fill=c)
    d.rectangle(_b(u, 9, 19, 15, 21), fill=c)


@icon("alarm")
def _alarm(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 4, 5, 20, 21), outline=c, width=_w(u))
    d.line(_poly(u, 12, 9, 12, 13.5, 15, 15.5), fill=c, width=_w(u))
    d.line(_poly(u, 3, 6, 7, 2.5), fill=c, width=_w(u))
    d.line(_poly(u, 21, 6, 17, 2.5), fill=c, width=_w(u))


@icon("timer")
def _timer(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 4, 5, 20, 21), outline=c, width=_w(u))
    d.rectangle(_b(u, 9, 1.5, 15, 3.5), fill=c)
    d.line(_poly(u, 12, 13, 12, 8), fill=c, width=_w(u))


@icon("stopwatch")
def _stopwatch(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 4, 5, 20, 21), outline=c, width=_w(u))
    d.rectangle(_b(u, 10, 1.5, 14, 3.5), fill=c)
    d.pieslice(_b(u, 7, 8, 17, 18), 270, 360, fill=c)


@icon("public")
def _public(d: Draw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2.5, 2.5, 21.5, 21.5), outline=c, width=_w(u))
    d.ellipse(_b(u, 8, 2.5, 16, 21.5), outline=c, width=_w(u, 1.5))
    d.line(_poly(u, 3, 12, 21, 12), fill=c, width=_w(u, 1.5))


@icon("star")
def _star(d: Draw, u: float, c: RGB) -> None:
    d.polygon(
        _poly(
            u, 12, 2, 14.9, 8.6, 22, 9.2, 16.6, 13.9, 18.2, 21, 12, 17.3, 5.8, 21, 7.4, 13.9, 2, 9.2, 9.1, 8.6
        ),
        fill=c,
    )


@icon("star_outline")
def _star_outline(d: Draw, u: float, c: RGB) -> None:
    d.polygon(
        _poly(
            u, 12, 2, 14.9, 8.6, 22, 9.2, 16.6, 13.9, 18.2, 21, 12, 17.3, 5.8, 21, 7.4, 13.9, 2, 9.2, 9.1, 8.6
        ),
        outline=c,
        width=_w(u),
    )


@icon("send")
def _send(d: Draw, u: float, c: RGB) -> None:
    d.polygon(_poly(u, 3, 3, 22, 12, 3, 21, 3, 14, 15, 12, 3, 10), fill=c)


@icon("menu")
def _menu(d: Draw, u: float, c: RGB) -> None:
    for y in (6, 11, 16):
        d.rectangle(_b(u, 3, y, 21, y + 2), fill=c)


@icon("more_vert")
def _more(d: Draw, u: float, c: RGB) -> None:
    for y in (4, 10.5, 17):
        d.ellipse(_b(u, 10.5, y, 13.5, y + 3), fill=c)


@icon("label")
def _label(d: Draw, u: float, c: RGB) -> None:
    d.polygon(_poly(u, 3, 6, 16, 6, 21, 12, 16, 18, 3, 18), outline=c, width=_w(u))


@icon("pin")
def _pin(d: Draw, u: float, c: RGB) -> None:
    d.polygon(_poly(u, 8, 3, 16, 3, 15, 10, 18, 14, 6, 14, 9, 10), fill=c)
    d.line(_poly(u, 12, 14, 12, 21), fill=c, width=_w(u))


@icon("call")
def _call(d: Draw, u: float, c: RGB) -> None:
    d.polygon(
        _poly(u, 5, 3, 9, 3, 10.5, 8, 8, 10, 14, 16, 16, 13.5, 21, 15, 21, 19, 19, 21, 11, 18, 6, 13, 3, 5),
        fill=c,
    )


@icon("mail")
def _mail(d: Draw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2.5, 5, 21.5, 19), radius=u, outline=c, width=_w(u))
    d.line(_poly(u, 3, 6, 12, 12.5, 21, 6), fill=c, width=_w(u))


@icon("chevron_left")
def _chevron_left(d: Draw, u: float, c: RGB) -> None:
    d.line(_poly(u, 15, 5, 8, 12, 15, 19), fill=c, width=_w(u, 2.4), joint="curve")


@icon("trash_restore")
def _restore(d: Draw, u: float, c: RGB) -> None:
    d.arc(_b(u, 4, 4, 20, 20), 200, 520, fill=c, width=_w(u))
    d.polygon(_poly(u, 2, 9, 8, 9, 5, 13), fill=c)
