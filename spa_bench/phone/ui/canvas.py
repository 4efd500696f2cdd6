"""A thin drawing surface over Pillow: shapes, text and icons in screen coordinates.

A canvas may stand for a clipped region (a scrolling list draws its rows on a sub-canvas the size of its
viewport, then pastes it back), so every call goes through `origin`.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from PIL import Image, ImageDraw

from spa_bench.phone.ui import fonts
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.icons import render_icon
from spa_bench.phone.ui.theme import RGB

Anchor = Literal["lm", "mm", "rm", "la", "ma", "ls"]


class Canvas:
    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.origin = origin
        self.draw = ImageDraw.Draw(image)  # opaque drawing: no per-pixel blending
        self.blend = ImageDraw.Draw(image, "RGBA")  # only for translucent colours (scrims, tracks)

    def _r(self, rect: Rect) -> tuple[int, int, int, int]:
        ox, oy = self.origin
        return rect.left - ox, rect.top - oy, rect.right - 1 - ox, rect.bottom - 1 - oy

    def _p(self, x: float, y: float) -> tuple[float, float]:
        return x - self.origin[0], y - self.origin[1]

    def fill(
        self,
        rect: Rect,
        color: RGB | tuple[int, int, int, int],
        radius: int = 0,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        if rect.empty:
            return
        translucent = len(color) == 4
        if radius <= 0 and outline is None and not translucent:
            ox, oy = self.origin
            self.image.paste(color, (rect.left - ox, rect.top - oy, rect.right - ox, rect.bottom - oy))
            return
        draw = self.blend if translucent else self.draw
        if radius > 0:
            radius = min(radius, rect.width // 2, rect.height // 2)
            draw.rounded_rectangle(self._r(rect), radius=radius, fill=color, outline=outline, width=width)
        else:
            draw.rectangle(self._r(rect), fill=color, outline=outline, width=width)

    def ellipse(self, rect: Rect, color: RGB | None, outline: RGB | None = None, width: int = 1) -> None:
        self.draw.ellipse(self._r(rect), fill=color, outline=outline, width=width)

    def line(self, x0: float, y0: float, x1: float, y1: float, color: RGB, width: int = 1) -> None:
        self.draw.line([self._p(x0, y0), self._p(x1, y1)], fill=color, width=width)

    def text(
        self, x: float, y: float, text: str, size: int, color: RGB, anchor: Anchor = "lm", bold: bool = False
    ) -> None:
        if not text:
            return
        stroke = 1 if bold and size >= 30 else 0
        px, py = self._p(x, y)
        if "\n" in text or "\r" in text:  # several lines: Pillow lays them out
            self.draw.text((px, py), text, font=fonts.font(size), fill=color, anchor=anchor,
                           stroke_width=stroke, stroke_fill=color)
            return
        # What ImageDraw.text does for one line (a stroke drawn filled in the text's own colour), with
        # the glyph mask cached: the same pixels, without FreeType rendering the label on every frame
        # (tests/phone/test_ui_toolkit.py compares both).
        mask, (dx, dy) = fonts.text_mask(text, size, stroke, anchor, (math.modf(px)[0], math.modf(py)[0]))
        draw: Any = self.draw
        draw.draw.draw_bitmap((int(px) + dx, int(py) + dy), mask, draw._getink(color)[0])

    def icon(self, name: str, rect: Rect, color: RGB) -> None:
        size = min(rect.width, rect.height)
        img = render_icon(name, size, color)
        x = rect.left + (rect.width - size) // 2 - self.origin[0]
        y = rect.top + (rect.height - size) // 2 - self.origin[1]
        self.image.paste(img, (x, y), img)

    def sub(self, rect: Rect) -> Canvas:
        """A canvas over a copy of `rect` whose drawing is clipped to it; `paste_back()` commits."""
        ox, oy = self.origin
        region = self.image.crop((rect.left - ox, rect.top - oy, rect.right - ox, rect.bottom - oy))
        child = Canvas(region, (rect.left, rect.top))
        return child

    def paste(self, child: Canvas) -> None:
        self.image.paste(child.image, (child.origin[0] - self.origin[0], child.origin[1] - self.origin[1]))
