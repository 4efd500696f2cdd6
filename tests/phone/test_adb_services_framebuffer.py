"""`framebuffer:` answers as AOSP's daemon/framebuffer_service.cpp: fbinfo version 2, then screencap's
pixels. The header is read here field by field in the order of AOSP's `struct fbinfo` (DDMS_RAWIMAGE_VERSION
2: version, bpp, colorSpace, size, width, height, red/blue/green/alpha offset and length), and through a
real client: adbutils' `AdbDevice.framebuffer()` over the real adb server."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from PIL import Image

from spa_bench.phone.adb.framebuffer import FramebufferService, ScreencapFormatError, fbinfo_from_screencap
from spa_bench.phone.adb.packet import Packet
from spa_bench.phone.adb.stream import Stream

AOSP_FBINFO_FIELDS = ("version", "bpp", "colorSpace", "size", "width", "height", "red_offset", "red_length",
                      "blue_offset", "blue_length", "green_offset", "green_length", "alpha_offset",
                      "alpha_length")


def read_fbinfo(data: bytes) -> dict[str, int]:
    return dict(zip(AOSP_FBINFO_FIELDS, struct.unpack_from("<14I", data), strict=True))


def framebuffer_bytes(device: Any) -> bytes:
    """Everything the device sends on a `framebuffer:` stream, read over the adb server as adbutils does."""
    with device.open_transport() as conn:
        conn.send_command("framebuffer:")
        conn.check_okay()
        chunks = []
        while chunk := conn.conn.recv(1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)


@pytest.mark.parametrize(("pixel_format", "expected"), [
    # AOSP framebuffer_service.cpp's table: format -> bpp, (offset, length) of red, green, blue, alpha
    (1, (32, 0, 8, 8, 8, 16, 8, 24, 8)),  # RGBA_8888
    (2, (32, 0, 8, 8, 8, 16, 8, 24, 0)),  # RGBX_8888
    (3, (24, 0, 8, 8, 8, 16, 8, 24, 0)),  # RGB_888
    (4, (16, 11, 5, 5, 6, 0, 5, 0, 0)),  # RGB_565
    (5, (32, 16, 8, 8, 8, 0, 8, 24, 8)),  # BGRA_8888
])
def test_header_for_each_screencap_format(pixel_format: int, expected: tuple[int, ...]) -> None:
    header, size = fbinfo_from_screencap(struct.pack("<4I", 3, 2, pixel_format, 2))
    info = read_fbinfo(header)
    assert len(header) == 14 * 4
    assert (info["version"], info["colorSpace"], info["width"], info["height"]) == (2, 2, 3, 2)
    assert (info["bpp"], info["red_offset"], info["red_length"], info["green_offset"], info["green_length"],
            info["blue_offset"], info["blue_length"], info["alpha_offset"], info["alpha_length"]) == expected
    assert info["size"] == size == 3 * 2 * expected[0] // 8


def test_bad_screencap_output_is_named() -> None:
    with pytest.raises(ScreencapFormatError, match="bad screencap format: 9"):
        fbinfo_from_screencap(struct.pack("<4I", 1, 1, 9, 1))
    with pytest.raises(ScreencapFormatError, match="couldn't read screencap header: 8 of 16 bytes"):
        fbinfo_from_screencap(b"\0" * 8)


class _ScreencapOnly:
    """A shell with no screen to read directly: the service runs its `screencap`, as adbd does."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.ran: list[str] = []

    def run(self, command: str, stdin: Any = b"", client: Any = None) -> Any:
        self.ran.append(command)
        return type("Result", (), {"stdout": self.raw, "stderr": b"", "exit_code": 0})()


def test_without_a_screen_it_reformats_screencaps_output() -> None:
    import threading

    pixels = bytes(range(256)) * 6  # 16x24 RGB_565 = 768 bytes
    shell = _ScreencapOnly(struct.pack("<4I", 16, 24, 4, 0) + pixels[:768])
    sent: list[bytes] = []
    stream: Stream

    def send(packet: Packet) -> None:
        sent.append(packet.payload)
        stream.on_okay()  # the host acks at once

    stream = Stream(send, 1, 2, 4096)
    FramebufferService(shell, threading.Semaphore(1))(stream)
    data = b"".join(sent)
    assert shell.ran == ["screencap"]
    info = read_fbinfo(data)
    fields = (info["bpp"], info["size"], info["width"], info["height"], info["red_offset"])
    assert fields == (16, 768, 16, 24, 11)
    assert data[14 * 4:] == pixels[:768]


def test_framebuffer_is_fbinfo_v2_then_the_screen(running_phone: Any) -> None:
    running_phone.reset()
    device = running_phone.device()
    data = framebuffer_bytes(device)
    info = read_fbinfo(data)
    assert info["version"] == 2
    assert (info["width"], info["height"]) == (1080, 2400)
    assert info["bpp"] == 32 and info["colorSpace"] == 1  # RGBA_8888, sRGB: what screencap reports
    assert info["size"] == 1080 * 2400 * 4 == len(data) - 14 * 4
    pixels = Image.frombytes("RGBA", (1080, 2400), data[14 * 4:]).convert("RGB")
    assert pixels.tobytes() == device.screenshot().convert("RGB").tobytes()


def test_adbutils_framebuffer_reads_the_screen(running_phone: Any) -> None:
    running_phone.reset()
    device = running_phone.device()
    image = device.framebuffer()
    assert image.size == (1080, 2400)
    assert image.convert("RGB").tobytes() == device.screenshot().convert("RGB").tobytes()
