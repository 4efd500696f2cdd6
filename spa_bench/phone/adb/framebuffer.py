"""The `framebuffer:` service: the screen as adbd's raw image (what `adb` clients such as adbutils'
`framebuffer()` and ddmlib read).

As AOSP's daemon/framebuffer_service.cpp does, it runs `screencap` with no arguments (raw output: width,
height, pixel format, colour space as u32 LE, then pixels) and rewrites that header as `struct fbinfo`
version 2 (DDMS_RAWIMAGE_VERSION): fourteen u32 LE - version, bpp, colorSpace, size, width, height, then
offset and length of red, blue, green and alpha - followed by the pixels unchanged. A screencap whose
header is short or whose format is not one of the five AOSP knows ends the stream with nothing written,
as adbd does (it only logs the error).

A raw frame is large (10 MB at 1080x2400) and a host may open many streams it never reads, so a phone
captures for one `framebuffer:` stream at a time and sends the pixels in slices: memory holds one frame
however many streams wait. A stream that waits longer than CAPTURE_WAIT_S for its turn closes empty, as a
failed screencap does. When the shell belongs to a phone whose screen can be read directly (the virtual
phone's Shell has `system.screenshot()`), the frame screencap would print (its header, the RGB picture as
RGBA) is made band by band from that picture instead of through screencap's stdout: the same bytes
without four 10 MB copies, which the allocator would otherwise keep.
"""

from __future__ import annotations

import logging
import struct
import threading
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PIL import Image

from spa_bench.phone.adb.shell_service import ShellRunner
from spa_bench.phone.adb.stream import Stream

log = logging.getLogger(__name__)

DDMS_RAWIMAGE_VERSION = 2
SCREENCAP_HEADER = struct.Struct("<IIII")  # width, height, format, colour space
FBINFO = struct.Struct("<14I")
CAPTURE_WAIT_S = 30.0
SLICE = 256 * 1024
BAND_ROWS = 64
RGBA_8888, DATASPACE_SRGB = 1, 1  # what screencap's raw header says (shell/commands/input.py raw_frame)


@runtime_checkable
class Screen(Protocol):
    def screenshot(self) -> Image.Image: ...


@dataclass(frozen=True)
class PixelLayout:
    """bpp and the (offset, length) of each channel, in fbinfo's order: red, blue, green, alpha."""

    bpp: int
    red: tuple[int, int]
    blue: tuple[int, int]
    green: tuple[int, int]
    alpha: tuple[int, int]


# screencap's pixel formats (android.graphics.PixelFormat / HAL_PIXEL_FORMAT values) and the layout
# framebuffer_service.cpp announces for each
LAYOUTS = {
    1: PixelLayout(32, red=(0, 8), blue=(16, 8), green=(8, 8), alpha=(24, 8)),  # RGBA_8888
    2: PixelLayout(32, red=(0, 8), blue=(16, 8), green=(8, 8), alpha=(24, 0)),  # RGBX_8888
    3: PixelLayout(24, red=(0, 8), blue=(16, 8), green=(8, 8), alpha=(24, 0)),  # RGB_888
    4: PixelLayout(16, red=(11, 5), blue=(0, 5), green=(5, 6), alpha=(0, 0)),  # RGB_565
    5: PixelLayout(32, red=(16, 8), blue=(0, 8), green=(8, 8), alpha=(24, 8)),  # BGRA_8888
}


class ScreencapFormatError(ValueError):
    """screencap's raw output cannot be turned into an fbinfo header."""


def fbinfo_from_screencap(raw: bytes) -> tuple[bytes, int]:
    """The fbinfo v2 header for screencap's raw output, and the number of pixel bytes it announces."""
    if len(raw) < SCREENCAP_HEADER.size:
        raise ScreencapFormatError(f"couldn't read screencap header: {len(raw)} of "
                                   f"{SCREENCAP_HEADER.size} bytes")
    width, height, pixel_format, color_space = SCREENCAP_HEADER.unpack_from(raw)
    layout = LAYOUTS.get(pixel_format)
    if layout is None:
        raise ScreencapFormatError(f"bad screencap format: {pixel_format}")
    size = width * height * layout.bpp // 8
    header = FBINFO.pack(DDMS_RAWIMAGE_VERSION, layout.bpp, color_space, size, width, height,
                         *layout.red, *layout.blue, *layout.green, *layout.alpha)
    return header, size


class FramebufferService:
    """One `framebuffer:` stream: a fresh screencap, its header rewritten, its pixels passed on."""

    def __init__(self, shell: ShellRunner, turn: threading.Semaphore) -> None:
        self.shell = shell
        self.turn = turn  # shared by the phone's framebuffer streams

    def __call__(self, stream: Stream) -> None:
        if not self.turn.acquire(timeout=CAPTURE_WAIT_S):
            log.error("framebuffer service: no capture within %.0f s", CAPTURE_WAIT_S)
            return
        try:
            self._send_frame(stream)
        finally:
            self.turn.release()

    def _send_frame(self, stream: Stream) -> None:
        screen = getattr(self.shell, "system", None)
        if isinstance(screen, Screen):
            self._send_screen(stream, screen.screenshot())
            return
        raw = self.shell.run("screencap").stdout
        try:
            header, size = fbinfo_from_screencap(raw)
        except ScreencapFormatError as exc:
            log.error("framebuffer service: %s", exc)
            return
        end = min(len(raw), SCREENCAP_HEADER.size + size)
        if (got := end - SCREENCAP_HEADER.size) < size:
            # adbd copies what screencap wrote until the pipe ends; a short frame arrives short
            log.error("framebuffer service read failed: %d of %d pixel bytes", got, size)
        stream.write(header)
        for start in range(SCREENCAP_HEADER.size, end, SLICE):
            stream.write(raw[start:min(start + SLICE, end)])

    @staticmethod
    def _send_screen(stream: Stream, picture: Image.Image) -> None:
        """screencap's frame of this picture (RGBA_8888, sRGB), reformatted, sent a band at a time."""
        width, height = picture.size
        header, _size = fbinfo_from_screencap(SCREENCAP_HEADER.pack(width, height, RGBA_8888, DATASPACE_SRGB))
        stream.write(header)
        for top in range(0, height, BAND_ROWS):
            band = picture.crop((0, top, width, min(height, top + BAND_ROWS)))
            stream.write(band.convert("RGBA").tobytes())
