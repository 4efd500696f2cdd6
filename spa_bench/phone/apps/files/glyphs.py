"""Glyphs of the Files app: folder, file types, new folder, move."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB


def _b(u: float, *xy: float) -> tuple[float, ...]:
    return tuple(v * u for v in xy)


@icon("folder")
def _folder(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2, 4, 11, 8), radius=u, fill=c)
    d.rounded_rectangle(_b(u, 2, 6, 22, 20), radius=1.5 * u, fill=c)


@icon("create_folder")
def _create_folder(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _folder(d, u, c)
    d.rectangle(_b(u, 11, 9, 13, 17), fill=(0, 0, 0, 0))
    d.rectangle(_b(u, 8, 12, 16, 14), fill=(0, 0, 0, 0))


@icon("file")
def _file(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(5 * u, 2 * u), (14 * u, 2 * u), (19 * u, 7 * u), (19 * u, 22 * u), (5 * u, 22 * u)], fill=c)
    d.polygon([(14 * u, 2 * u), (14 * u, 7 * u), (19 * u, 7 * u)], fill=(0, 0, 0, 0))
    for y in (11, 14.5, 18):
        d.rectangle(_b(u, 8, y, 16, y + 1.5), fill=(0, 0, 0, 0))


@icon("image")
def _image(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 3, 3, 21, 21), radius=2 * u, fill=c)
    d.polygon(
        [(5 * u, 18 * u), (10 * u, 11 * u), (13 * u, 15 * u), (15 * u, 13 * u), (19 * u, 18 * u)],
        fill=(0, 0, 0, 0),
    )
    d.ellipse(_b(u, 14, 6, 17, 9), fill=(0, 0, 0, 0))


@icon("audio")
def _audio(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 12, 3, 14, 17), fill=c)
    d.rectangle(_b(u, 12, 3, 19, 7), fill=c)
    d.ellipse(_b(u, 6, 14, 14, 21), fill=c)


@icon("video")
def _video(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2, 6, 16, 18), radius=2 * u, fill=c)
    d.polygon([(16 * u, 10 * u), (22 * u, 6.5 * u), (22 * u, 17.5 * u), (16 * u, 14 * u)], fill=c)


@icon("move")
def _move(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _folder(d, u, c)
    d.rectangle(_b(u, 7, 12, 13, 14), fill=(0, 0, 0, 0))
    d.polygon([(13 * u, 9 * u), (17 * u, 13 * u), (13 * u, 17 * u)], fill=(0, 0, 0, 0))
