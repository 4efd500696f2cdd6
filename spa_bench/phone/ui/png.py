"""A fast PNG encoder for screenshots: filter type 0 on every row, zlib level 1, and bands that did not
change since the previous frame are not compressed again.

Pillow's encoder picks a filter per row, which costs more than it saves on flat UI pictures (about 80 ms
against 20 ms here for a 1080x2400 Settings screen, with files of similar size). Most of what is left is
zlib; so the image is cut into bands of BAND_ROWS rows, each compressed on its own (a fresh deflate
window, ended by a sync flush, as pigz does), and `FrameEncoder` keeps the previous frame's bands: after
a tap that redraws one list row, only the bands that row touches are compressed again. The result is one
ordinary zlib stream in one IDAT chunk; any PNG decoder reads it. Deflate is zlib-ng's when it is
installed (a dependency: about 4x faster than zlib at level 1, for files a quarter larger), else zlib's.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections.abc import Iterable

from PIL import Image

try:
    from zlib_ng import zlib_ng as deflate
except ImportError:  # pragma: no cover - zlib-ng is a dependency; the standard library's zlib also works
    import zlib as deflate  # type: ignore[no-redef]

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BAND_ROWS = 32
_ADLER_BASE = 65521
_FINAL_BLOCK = b"\x03\x00"  # an empty fixed-Huffman block with BFINAL set: the end of the deflate stream


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of A + B from those of A and B (zlib's adler32_combine, which Python lacks)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


Band = tuple[tuple[int, int], bytes, int]  # (the raw rows' CRC-32 and Adler-32, deflate data, the filtered
                                          #  rows' Adler-32)


class FrameEncoder:
    """Encodes successive frames of one screen; thread-safe.

    A band is known again by the CRC-32 and Adler-32 of its raw rows (64 bits; zlib-ng computes both in
    under a millisecond for a 1080x2400 frame), not by keeping the previous frame's 7.8 MB of rows and
    comparing them, which cost both that memory and more time (8 ms)."""

    def __init__(self, level: int = 1) -> None:
        self.level = level
        self._size: tuple[int, int] | None = None
        self._bands: list[Band] = []
        self._lock = threading.Lock()

    def _band(self, rows: memoryview, stride: int, key: tuple[int, int]) -> Band:
        filtered = b"\x00" + b"\x00".join(rows[i:i + stride] for i in range(0, len(rows), stride))
        compressor = deflate.compressobj(self.level, deflate.DEFLATED, -15)
        data = compressor.compress(filtered) + compressor.flush(deflate.Z_SYNC_FLUSH)
        return key, data, deflate.adler32(filtered)

    def encode(self, image: Image.Image) -> bytes:
        """PNG bytes of an image (converted to RGB)."""
        return self.encode_bands(image.size, [image])

    def encode_bands(self, size: tuple[int, int], pieces: Iterable[Image.Image]) -> bytes:
        """PNG bytes of a `size` image given as pieces of its full width, top to bottom, each a whole
        number of BAND_ROWS rows but the last (a piece may be reused for the next once it is consumed)."""
        width, height = size
        stride = width * 3
        with self._lock:
            if self._size != size:
                self._size, self._bands = size, []
            bands: list[Band] = []
            adler = 1
            # band by band: no frame-sized buffer (7.8 MB at 1080x2400) per frame, which glibc would keep
            # in the heap, and faster too (9 ms against 19 for the whole frame's bytes at once)
            done = 0  # rows
            for piece in pieces:
                rgb = piece if piece.mode == "RGB" else piece.convert("RGB")
                if rgb.width != width or done % BAND_ROWS:
                    raise ValueError(f"a piece {rgb.width} wide after {done} rows: an image {width} wide "
                                     f"comes in pieces of whole bands of {BAND_ROWS} rows")
                done += rgb.height
                for top in range(0, rgb.height, BAND_ROWS):
                    rows = memoryview(rgb.crop((0, top, width, min(rgb.height, top + BAND_ROWS))).tobytes())
                    key = (deflate.crc32(rows), deflate.adler32(rows))
                    index = len(bands)
                    old = self._bands[index] if index < len(self._bands) else None
                    band = old if old is not None and old[0] == key else self._band(rows, stride, key)
                    bands.append(band)
                    adler = adler32_combine(adler, band[2], len(rows) + len(rows) // stride)
            if done != height:
                raise ValueError(f"pieces of {done} rows for an image {height} rows high")
            self._bands = bands
        stream = b"\x78\x01" + b"".join(b[1] for b in bands) + _FINAL_BLOCK + struct.pack(">I", adler)
        header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
        return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")


def encode_png(image: Image.Image, level: int = 1) -> bytes:
    """PNG bytes of one image (no previous frame to reuse)."""
    return FrameEncoder(level).encode(image)
