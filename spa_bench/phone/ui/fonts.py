"""The one font of the phone (Noto Sans CJK SC from the `noto-cjk-sans-otc` wheel), loaded lazily.

Opening a face of the 19 MB .ttc costs about a millisecond, and an open face about 0.9 MB of FreeType's
tables, so the last FACES sizes used stay open (text seen before is drawn from the mask cache and measured
from the width cache, without a face). The collection has only the Regular weight; bold text is drawn
with a thin stroke of the same colour.

Text sizes are sp: builders give them in pixels at font scale 1, and the system's `font_scale` applies
while a frame is built (spa_bench.phone.ui.fontscale, set by the screen). Widgets keep the scaled size
they were built with and layout measures with it, so a frame is drawn later (with no scale active) exactly
as laid out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

from PIL import ImageFont

from spa_bench.phone.ui.fontscale import font_scale, parse_font_scale, sp

__all__ = ["ellipsize", "font", "font_path", "font_scale", "parse_font_scale", "sp", "text_mask",
           "text_width", "wrap"]
SC_FACE_INDEX = 2  # Noto Sans CJK SC in NotoSansCJK-Regular.ttc
# Faces kept open. Each costs ~0.9 MB of FreeType's tables (heaptrack: mostly pointers to the local
# subroutines of the collection's CID subfonts, one set per face and so per size) and ~1.3 MB of the font
# file mapped (FreeType maps the file once per face); with 128 a phone kept every size it had drawn: 7
# after the calculator, more with every app visited. A face is needed only for text not in the caches,
# which on one screen comes in few sizes: scrolling Contacts, Messages, Shop, Chat, Eats, Dialer and
# Settings for 40 steps each reopened 3 faces in all with 4 kept (Chat); with 3, 29 (Messaging 19: one
# every other step, ~1 ms each); with 2, Contacts alone 54.
FACES = 4
_lock = threading.Lock()


def font_path() -> str:
    import noto_cjk_sans_otc  # imported here: nothing happens at import time of the toolkit

    return str(noto_cjk_sans_otc.FONT_PATH)


@lru_cache(maxsize=FACES)
def _load(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(), size, index=SC_FACE_INDEX)


def close_faces() -> None:
    """Close every open face (the next text at a size opens it again). The zygote does before it forks:
    a face it kept open would be in every phone's memory, whether or not the phone draws that size."""
    with _lock:
        _load.cache_clear()


def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at `size` pixels; thread-safe and cached."""
    with _lock:
        return _load(max(4, int(size)))


def text_mask(text: str, size: int, stroke: int, anchor: str,
              start: tuple[float, float]) -> tuple[Any, tuple[int, int]]:
    """One line of text as `ImageDraw.text` renders it on an RGB image: FreeType's coverage mask (mode L)
    and its offset from the drawing point. Cached, since every frame draws the same labels again and
    FreeType's rendering was a fifth of a frame's cost; `start` is the point's fractional part."""
    key = (text, max(4, int(size)), stroke, anchor, start)
    with _lock:
        hit = _masks.get(key)
        if hit is not None:
            _masks.move_to_end(key)
            return hit
        mask, offset = _load(key[1]).getmask2(text, "L", None, None, None, stroke, anchor, 0, start,
                                              stroke_filled=True)
        _remember(key, (mask, offset))
        return mask, offset


# Masks cached by their pixels, not their number: a label is a few KB, but the text a user types or a
# calculator's display (180 px high) makes a new mask of up to 200 KB at almost every step, and the
# count-bound cache this replaces (1024 masks) could hold 200 MB of those.
MASK_CACHE_BYTES = 4 << 20
MASK_MAX_BYTES = 64 << 10  # a bigger mask is not cached: such text rarely comes back unchanged
MaskKey = tuple[str, int, int, str, tuple[float, float]]  # text, size, stroke, anchor, start
Mask = tuple[Any, tuple[int, int]]  # FreeType's coverage mask and its offset
_masks: OrderedDict[MaskKey, Mask] = OrderedDict()
_mask_bytes = 0


def _remember(key: MaskKey, value: Mask) -> None:
    global _mask_bytes
    width, height = value[0].size
    if width * height > MASK_MAX_BYTES:
        return
    _masks[key] = value
    _mask_bytes += width * height
    while _mask_bytes > MASK_CACHE_BYTES:
        _, (old, _offset) = _masks.popitem(last=False)
        _mask_bytes -= old.size[0] * old.size[1]


def text_width(text: str, size: int) -> float:
    """Advance width in pixels at the active font scale (cached: layout measures the same labels on every
    frame)."""
    with _lock:
        return _width(text, max(4, sp(size)))


@lru_cache(maxsize=8192)
def _width(text: str, size: int) -> float:
    # FreeType's raqm layout refuses line breaks ("raqm_layout() failed"): a text typed with a newline
    # into a one-line field measures as its widest line
    if "\n" in text or "\r" in text:
        return max(_width(line, size) for line in text.replace("\r", "\n").split("\n"))
    return float(_load(size).getlength(text))


def ellipsize(text: str, size: int, max_width: int) -> str:
    """Cut `text` with an ellipsis so it fits `max_width` pixels, as TextView's ellipsize=end does."""
    if text_width(text, size) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", size) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap(text: str, size: int, max_width: int, max_lines: int = 3) -> list[str]:
    """Greedy line wrapping that breaks Latin text at spaces and CJK text anywhere."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for token in _tokens(paragraph):
            candidate = current + token
            if current and text_width(candidate, size) > max_width:
                lines.append(current.rstrip())
                current = token.lstrip()
            else:
                current = candidate
        lines.append(current.rstrip())
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], ellipsize(" ".join(lines[max_lines - 1 :]), size, max_width)]
    return lines


def _tokens(text: str) -> list[str]:
    """Words with their trailing space for Latin, single characters for CJK."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ord(ch) >= 0x2E80:
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        elif ch == " ":
            tokens.append(word + " ")
            word = ""
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens
