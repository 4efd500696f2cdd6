"""The phone's PNG encoder: any decoder reads back the exact pixels, also when bands are reused."""

from __future__ import annotations

import io
import random
import zlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image, ImageDraw

from spa_bench.phone.ui.png import BAND_ROWS, FrameEncoder, adler32_combine, encode_png

if TYPE_CHECKING:
    from spa_bench.phone.system import PhoneOS


def _screen(seed: int, size: tuple[int, int] = (1080, 2400)) -> Image.Image:
    """A UI-like picture: flat panels and noisy text-like strips."""
    rng = random.Random(seed)
    image = Image.new("RGB", size, (250, 250, 250))
    draw = ImageDraw.Draw(image)
    for _ in range(40):
        x, y = rng.randrange(size[0]), rng.randrange(size[1])
        draw.rectangle((x, y, x + rng.randrange(400), y + rng.randrange(120)),
                       fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
    noise = Image.frombytes("RGB", (size[0], 37), rng.randbytes(size[0] * 37 * 3))
    image.paste(noise, (0, size[1] // 3))
    return image


def _decoded(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        assert image.format == "PNG" and image.mode == "RGB"
        return image.tobytes()


def test_frames_decode_to_their_pixels_when_bands_are_reused() -> None:
    encoder = FrameEncoder()
    first = _screen(1)
    changed = first.copy()
    ImageDraw.Draw(changed).rectangle((0, 1000, 1080, 1000 + BAND_ROWS // 2), fill=(10, 20, 30))
    for frame in (first, changed, first, _screen(2), _screen(2).convert("RGBA")):
        png = encoder.encode(frame)
        assert _decoded(png) == frame.convert("RGB").tobytes()
    odd = _screen(3, (721, 1557))  # a height that is no multiple of the band, a width of odd bytes
    assert _decoded(encoder.encode(odd)) == odd.tobytes() == _decoded(encode_png(odd))


def test_idat_is_one_checked_zlib_stream() -> None:
    frame = _screen(4, (320, 200))
    png = encode_png(frame)
    length = int.from_bytes(png[33:37], "big")
    assert png[37:41] == b"IDAT"
    rows = zlib.decompress(png[41:41 + length])  # verifies the Adler-32 as well
    assert rows == b"".join(b"\x00" + frame.tobytes()[y * 960:(y + 1) * 960] for y in range(200))


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(5)
    for sizes in ((0, 10), (1, 0), (65521, 3), (70_000, 200_000), (5, 65521 * 2 + 7)):
        a, b = rng.randbytes(sizes[0]), rng.randbytes(sizes[1])
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def _booted(root: Path, **config: Any) -> PhoneOS:
    """A phone in this process, with its files under `root` and its clock frozen."""
    from datetime import UTC, datetime

    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    fs = VirtualFS(root / "fs")
    fs.ensure_layout()
    frozen = datetime(2026, 6, 15, 10, 30, tzinfo=UTC)
    return PhoneOS(replace(PhoneConfig(**config), data_dir=root, frozen_clock=frozen), fs)


def test_a_frame_drawn_over_the_last_one_equals_one_drawn_afresh(tmp_path: Path) -> None:
    """The phone draws each frame over the last frame's buffer: nothing of an app may show through the
    screens drawn over it (the home screen's wallpaper, the recents list), pixel for pixel against a phone
    that draws them first."""
    from spa_bench.phone.keycodes import KEYCODES

    over, fresh = _booted(tmp_path / "over"), _booted(tmp_path / "fresh")
    try:
        for phone in (over, fresh):
            phone.start_activity("com.android.calculator2")
        over.screenshot_png()  # the calculator, drawn first on one phone only
        for key in ("HOME", "APP_SWITCH"):
            for phone in (over, fresh):
                phone.press_key(KEYCODES[key])
            assert _decoded(over.screenshot_png()) == _decoded(fresh.screenshot_png()), key
            assert over.screenshot().tobytes() == fresh.screenshot().tobytes(), key
    finally:
        over.close()
        fresh.close()


def test_pieces_must_be_whole_bands_that_add_up_to_the_image() -> None:
    frame = _screen(6, (64, 3 * BAND_ROWS))
    top, rest = frame.crop((0, 0, 64, BAND_ROWS)), frame.crop((0, BAND_ROWS, 64, 3 * BAND_ROWS))
    assert _decoded(FrameEncoder().encode_bands(frame.size, [top, rest])) == frame.tobytes()
    with pytest.raises(ValueError, match="whole bands"):
        FrameEncoder().encode_bands(frame.size, [frame.crop((0, 0, 64, 5)), frame.crop((0, 5, 64, 96))])
    with pytest.raises(ValueError, match="rows high"):
        FrameEncoder().encode_bands(frame.size, [top])


@pytest.mark.parametrize(("locale", "size", "dark"), [("en", (1080, 2400), False), ("zh", (720, 1280), True)])
def test_every_app_drawn_in_bands_is_the_screen_drawn_whole(tmp_path: Path, locale: str,
                                                           size: tuple[int, int], dark: bool) -> None:
    """screencap -p draws the screen in bands (no whole-screen buffer); labels that overflow their view
    across a band's edge (the home screen's, at 720x1280 in Chinese) must still show, pixel for pixel as in
    the whole-screen drawing that screencap's raw format and uiautomator2 use."""
    phone = _booted(tmp_path, locale=locale, width=size[0], height=size[1])
    if dark:
        phone.settings.put("secure", "ui_night_mode", "2")
    try:
        for package in sorted(phone.apps):
            phone.start_activity(package)
            for tap in (None, (size[0] // 2, size[1] // 3)):
                if tap is not None:
                    phone.tap(*tap)
                assert _decoded(phone.screenshot_png()) == phone.screenshot().tobytes(), (package, tap)
    finally:
        phone.close()
