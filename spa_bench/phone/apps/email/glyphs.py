"""Glyphs of the Email app (archive, reply, forward, attach) and of the Gallery and Camera apps
(camera, album, shutter ring, flip camera)."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import _line, icon
from spa_bench.phone.ui.theme import RGB

CLEAR = (0, 0, 0, 0)


def _b(u: float, *xy: float) -> tuple[float, ...]:
    return tuple(v * u for v in xy)


@icon("archive")
def _archive(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 3, 3, 21, 8), radius=u, fill=c)
    d.rectangle(_b(u, 4, 9, 20, 21), fill=c)
    d.rectangle(_b(u, 9, 11, 15, 13), fill=CLEAR)


@icon("reply")
def _reply(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(3 * u, 11 * u), (10 * u, 4 * u), (10 * u, 18 * u)], fill=c)
    _line(d, u, c, 2.6, 9, 11, 15, 11, 19, 14, 21, 19)


@icon("forward")
def _forward(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(21 * u, 11 * u), (14 * u, 4 * u), (14 * u, 18 * u)], fill=c)
    _line(d, u, c, 2.6, 15, 11, 9, 11, 5, 14, 3, 19)


@icon("attach")
def _attach(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _line(
        d,
        u,
        c,
        1.8,
        16,
        7,
        16,
        17,
        14.5,
        20,
        12,
        21,
        9.5,
        20,
        8,
        17,
        8,
        6,
        9,
        3.5,
        11,
        2.5,
        13,
        3.5,
        14,
        6,
        14,
        16,
        12,
        18,
        10,
        16,
        10,
        7,
    )


@icon("camera")
def _camera(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2, 6, 22, 20), radius=2 * u, fill=c)
    d.polygon([(8 * u, 6 * u), (9.5 * u, 3.5 * u), (14.5 * u, 3.5 * u), (16 * u, 6 * u)], fill=c)
    d.ellipse(_b(u, 7, 8.5, 17, 18.5), fill=CLEAR)
    d.ellipse(_b(u, 9.5, 11, 14.5, 16), fill=c)


@icon("album")
def _album(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 6, 2, 22, 18), radius=2 * u, fill=c)
    d.polygon(
        [(8 * u, 15 * u), (12 * u, 9 * u), (15 * u, 13 * u), (17 * u, 11 * u), (20 * u, 15 * u)], fill=CLEAR
    )
    d.rectangle(_b(u, 2, 6, 4, 22), fill=c)
    d.rectangle(_b(u, 2, 20, 18, 22), fill=c)


@icon("flip_camera")
def _flip_camera(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 4, 4, 20, 20), 200, 340, fill=c, width=max(1, round(2 * u)))
    d.arc(_b(u, 4, 4, 20, 20), 20, 160, fill=c, width=max(1, round(2 * u)))
    d.polygon([(17 * u, 4 * u), (21 * u, 8 * u), (16 * u, 9 * u)], fill=c)
    d.polygon([(7 * u, 20 * u), (3 * u, 16 * u), (8 * u, 15 * u)], fill=c)


@icon("restore")
def _restore(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 4, 4, 20, 20), 120, 420, fill=c, width=max(1, round(2.2 * u)))
    d.polygon([(2 * u, 9 * u), (8 * u, 9 * u), (5 * u, 14 * u)], fill=c)
