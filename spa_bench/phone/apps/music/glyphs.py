"""Media glyphs shared by the Music and Video apps: transport controls (play, pause, skip, seek by ten
seconds), shuffle and repeat, a music note, an album, a playlist, subtitles, playback speed, watch later
and history."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

CLEAR = (0, 0, 0, 0)


def _b(u: float, *xy: float) -> tuple[float, ...]:
    return tuple(v * u for v in xy)


def _w(u: float, k: float = 2) -> int:
    return max(1, round(k * u))


@icon("play")
def _play(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(7 * u, 4 * u), (20 * u, 12 * u), (7 * u, 20 * u)], fill=c)


@icon("pause")
def _pause(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 6, 4, 10, 20), radius=u, fill=c)
    d.rounded_rectangle(_b(u, 14, 4, 18, 20), radius=u, fill=c)


@icon("skip_next")
def _skip_next(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(5 * u, 5 * u), (15 * u, 12 * u), (5 * u, 19 * u)], fill=c)
    d.rectangle(_b(u, 16, 5, 19, 19), fill=c)


@icon("skip_previous")
def _skip_previous(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(19 * u, 5 * u), (9 * u, 12 * u), (19 * u, 19 * u)], fill=c)
    d.rectangle(_b(u, 5, 5, 8, 19), fill=c)


@icon("replay_10")
def _replay_10(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 3, 4, 21, 22), 200, 160, fill=c, width=_w(u, 1.6))
    d.polygon([(7.5 * u, 1.5 * u), (3 * u, 6 * u), (8.5 * u, 8 * u)], fill=c)
    d.rectangle(_b(u, 8.5, 10, 10, 17), fill=c)
    d.ellipse(_b(u, 11.5, 10, 16, 17), outline=c, width=_w(u, 1.4))


@icon("forward_10")
def _forward_10(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 3, 4, 21, 22), 20, 340, fill=c, width=_w(u, 1.6))
    d.polygon([(16.5 * u, 1.5 * u), (21 * u, 6 * u), (15.5 * u, 8 * u)], fill=c)
    d.rectangle(_b(u, 8.5, 10, 10, 17), fill=c)
    d.ellipse(_b(u, 11.5, 10, 16, 17), outline=c, width=_w(u, 1.4))


@icon("shuffle")
def _shuffle(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.line(
        [(3 * u, 6 * u), (8 * u, 6 * u), (15 * u, 18 * u), (19 * u, 18 * u)],
        fill=c,
        width=_w(u),
        joint="curve",
    )
    d.line(
        [(3 * u, 18 * u), (8 * u, 18 * u), (15 * u, 6 * u), (19 * u, 6 * u)],
        fill=c,
        width=_w(u),
        joint="curve",
    )
    d.polygon([(18 * u, 2.5 * u), (22 * u, 6 * u), (18 * u, 9.5 * u)], fill=c)
    d.polygon([(18 * u, 14.5 * u), (22 * u, 18 * u), (18 * u, 21.5 * u)], fill=c)


def _repeat_shape(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.line([(4 * u, 12 * u), (4 * u, 7 * u), (18 * u, 7 * u)], fill=c, width=_w(u), joint="curve")
    d.line([(20 * u, 12 * u), (20 * u, 17 * u), (6 * u, 17 * u)], fill=c, width=_w(u), joint="curve")
    d.polygon([(17 * u, 3.5 * u), (21 * u, 7 * u), (17 * u, 10.5 * u)], fill=c)
    d.polygon([(7 * u, 13.5 * u), (3 * u, 17 * u), (7 * u, 20.5 * u)], fill=c)


@icon("repeat")
def _repeat(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _repeat_shape(d, u, c)


@icon("repeat_one")
def _repeat_one(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    _repeat_shape(d, u, c)
    d.rectangle(_b(u, 11.2, 9.5, 12.8, 14.5), fill=c)


@icon("music_note")
def _music_note(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 5, 14, 12, 21), fill=c)
    d.rectangle(_b(u, 10, 3, 12.2, 18), fill=c)
    d.polygon([(10 * u, 3 * u), (19 * u, 5 * u), (19 * u, 9 * u), (12 * u, 7.5 * u)], fill=c)


@icon("album")
def _album(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2, 2, 22, 22), fill=c)
    d.ellipse(_b(u, 9, 9, 15, 15), fill=CLEAR)
    d.ellipse(_b(u, 11, 11, 13, 13), fill=c)


@icon("playlist")
def _playlist(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    for y in (5, 10, 15):
        d.rectangle(_b(u, 3, y, 15 if y < 15 else 11, y + 2), fill=c)
    d.ellipse(_b(u, 13, 15, 18, 20), fill=c)
    d.rectangle(_b(u, 16.5, 6, 18.2, 18), fill=c)
    d.polygon([(16.5 * u, 6 * u), (22 * u, 8 * u), (22 * u, 10.5 * u), (18 * u, 9 * u)], fill=c)


@icon("person_music")
def _person_music(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 7, 3, 15, 11), fill=c)
    d.pieslice(_b(u, 3, 13, 19, 29), 180, 360, fill=c)


@icon("subtitles")
def _subtitles(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rounded_rectangle(_b(u, 2, 4, 22, 20), radius=2 * u, fill=c)
    for x0, x1, y in ((5, 9, 13), (10, 19, 13), (5, 14, 16), (15, 19, 16)):
        d.rectangle(_b(u, x0, y, x1, y + 1.6), fill=CLEAR)


@icon("speed")
def _speed(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 2, 4, 22, 24), 150, 30, fill=c, width=_w(u))
    d.line([(12 * u, 14 * u), (17 * u, 8 * u)], fill=c, width=_w(u, 2.2))
    d.ellipse(_b(u, 10, 12, 14, 16), fill=c)


@icon("watch_later")
def _watch_later(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2, 2, 22, 22), fill=c)
    d.line([(12 * u, 6 * u), (12 * u, 12 * u), (16 * u, 15 * u)], fill=CLEAR, width=_w(u), joint="curve")


@icon("history")
def _history(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc(_b(u, 3, 3, 21, 21), 200, 160, fill=c, width=_w(u))
    d.polygon([(1 * u, 10 * u), (7 * u, 10 * u), (4 * u, 14 * u)], fill=c)
    d.line([(12 * u, 7 * u), (12 * u, 12 * u), (15.5 * u, 14.5 * u)], fill=c, width=_w(u), joint="curve")


@icon("thumb_up")
def _thumb_up(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 2, 10, 6, 21), fill=c)
    d.polygon(
        [
            (8 * u, 10 * u),
            (12 * u, 3 * u),
            (14 * u, 4 * u),
            (13 * u, 9 * u),
            (21 * u, 9 * u),
            (22 * u, 11 * u),
            (19 * u, 21 * u),
            (8 * u, 21 * u),
        ],
        fill=c,
    )


@icon("thumb_up_outline")
def _thumb_up_outline(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 2, 10, 6, 21), outline=c, width=_w(u, 1.6))
    d.polygon(
        [
            (8 * u, 10 * u),
            (12 * u, 3 * u),
            (14 * u, 4 * u),
            (13 * u, 9 * u),
            (21 * u, 9 * u),
            (22 * u, 11 * u),
            (19 * u, 21 * u),
            (8 * u, 21 * u),
        ],
        outline=c,
        width=_w(u, 1.6),
    )


@icon("video_library")
def _video_library(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.rectangle(_b(u, 2, 6, 4, 22), fill=c)
    d.rectangle(_b(u, 2, 20, 18, 22), fill=c)
    d.rounded_rectangle(_b(u, 6, 2, 22, 18), radius=1.5 * u, fill=c)
    d.polygon([(11 * u, 6 * u), (18 * u, 10 * u), (11 * u, 14 * u)], fill=CLEAR)


@icon("play_circle")
def _play_circle(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse(_b(u, 2, 2, 22, 22), fill=c)
    d.polygon([(10 * u, 7.5 * u), (16.5 * u, 12 * u), (10 * u, 16.5 * u)], fill=CLEAR)
