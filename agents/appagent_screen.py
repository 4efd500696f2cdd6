"""AppAgent's view of a screen: the numbered labels on interactive elements, and the grid overlay.

Our own code following TencentQQGYLab/AppAgent (MIT) so that the model sees what AppAgent shows:
- labels (scripts/and_controller.py `traverse_tree`, scripts/task_executor.py): every clickable node in
  document order, skipping one whose centre is within MIN_DIST (30 px) of one already kept; then
  every focusable node the same way among focusable ones; the list is the clickable ones followed by
  the focusable ones not within MIN_DIST of a clickable one. Labels are numbered from 1;
- drawing (scripts/utils.py `draw_bbox_multi`, light mode): the number in a half-transparent dark tag
  (RGB 10,10,10 at alpha 0.5, 10 px padding) placed at the element's centre + 10 px, text near-white;
- grid (scripts/utils.py `draw_grid`): square-ish cells whose side is the smallest divisor of the
  image side between 120 and 180 (else 120), numbered from 1 row by row in their top-left corner;
  `area_to_xy` (task_executor.py) turns (area, subarea) into a point - the cell's centre, or a quarter
  of the way in from the named side or corner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spa_bench.device.elements import UIElement

if TYPE_CHECKING:
    from PIL import Image

MIN_DIST = 30  # config.yaml MIN_DIST
SUBAREAS = ("center", "top-left", "top", "top-right", "left", "right", "bottom-left", "bottom",
            "bottom-right")


@dataclass(frozen=True)
class Label:
    number: int  # 1-based, as shown
    bounds: tuple[int, int, int, int]

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2


def _center(bounds: tuple[int, int, int, int]) -> tuple[int, int]:
    return (bounds[0] + bounds[2]) // 2, (bounds[1] + bounds[3]) // 2


def _near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return math.dist(a, b) <= MIN_DIST


def _collect(nodes: Sequence[UIElement], attribute: str) -> list[tuple[int, int, int, int]]:
    kept: list[tuple[int, int, int, int]] = []
    for node in nodes:
        if getattr(node, attribute) and not any(_near(_center(node.bounds), _center(k)) for k in kept):
            kept.append(node.bounds)
    return kept


def labels(all_elements: Sequence[UIElement]) -> list[Label]:
    """AppAgent's labelled elements of a screen (see the module docstring)."""
    clickable = _collect(all_elements, "clickable")
    focusable = [b for b in _collect(all_elements, "focusable")
                 if not any(_near(_center(b), _center(c)) for c in clickable)]
    return [Label(i + 1, b) for i, b in enumerate(clickable + focusable)]


def draw_labels(image: Image.Image, marks: Sequence[Label]) -> Image.Image:
    """The labels drawn on `image` itself (an RGB screenshot the caller owns), each tag blended at 0.5
    over its own small region (blending the whole screen would cost far more)."""
    from PIL import Image, ImageDraw

    from .aw_elements import label_font

    out = image if image.mode == "RGB" else image.convert("RGB")
    draw = ImageDraw.Draw(out)
    font = label_font(30)
    width, height = out.size
    for mark in marks:
        x, y = mark.center[0] + 10, mark.center[1] + 10
        left, top, right, bottom = draw.textbbox((0, 0), str(mark.number), font=font)
        box = (max(0, x - 10), max(0, y - 10), min(width, x + (right - left) + 10),
               min(height, y + (bottom - top) + 10))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue
        region = out.crop(box)
        out.paste(Image.blend(region, Image.new("RGB", region.size, (10, 10, 10)), 0.5), box[:2])
        draw.text((x - left, y - top), str(mark.number), fill=(255, 250, 250), font=font)
    return out


# -- grid -------------------------------------------------------------------------------------------------
def _unit(n: int) -> int:
    return next((i for i in range(120, 181) if n % i == 0), 120)


@dataclass(frozen=True)
class Grid:
    width: int
    height: int

    @property
    def unit_w(self) -> int:
        return _unit(self.width)

    @property
    def unit_h(self) -> int:
        return _unit(self.height)

    @property
    def rows(self) -> int:
        return self.height // self.unit_h

    @property
    def cols(self) -> int:
        return self.width // self.unit_w

    @property
    def areas(self) -> int:
        return self.rows * self.cols

    def point(self, area: int, subarea: str) -> tuple[int, int]:
        """task_executor.py `area_to_xy` (an unknown subarea is the centre, as there)."""
        row, col = (area - 1) // self.cols, (area - 1) % self.cols
        cw, ch = self.width // self.cols, self.height // self.rows
        x0, y0 = col * cw, row * ch
        fx = {"left": 1, "top-left": 1, "bottom-left": 1, "right": 3, "top-right": 3, "bottom-right": 3}
        fy = {"top": 1, "top-left": 1, "top-right": 1, "bottom": 3, "bottom-left": 3, "bottom-right": 3}
        x = x0 + cw * fx[subarea] // 4 if subarea in fx else x0 + cw // 2
        y = y0 + ch * fy[subarea] // 4 if subarea in fy else y0 + ch // 2
        return x, y

    def locate(self, x: int, y: int) -> tuple[int, str]:
        """The area and subarea whose point is nearest (x, y) - the reverse, for the scripted model."""
        cw, ch = self.width // self.cols, self.height // self.rows
        col, row = min(x // cw, self.cols - 1), min(y // ch, self.rows - 1)
        area = row * self.cols + col + 1
        return area, min(SUBAREAS, key=lambda s: math.dist(self.point(area, s), (x, y)))

    def draw(self, image: Image.Image) -> Image.Image:
        """utils.draw_grid: cell outlines in (113, 116, 255), the number in the top-left corner."""
        from PIL import ImageDraw

        from .aw_elements import label_font

        out = image if image.mode == "RGB" else image.convert("RGB")  # drawn on the caller's image
        draw = ImageDraw.Draw(out)
        colour, font = (113, 116, 255), label_font(max(12, self.unit_w // 4))
        for row in range(self.rows):
            for col in range(self.cols):
                left, top = col * self.unit_w, row * self.unit_h
                draw.rectangle((left, top, left + self.unit_w, top + self.unit_h), outline=colour, width=1)
                label = str(row * self.cols + col + 1)
                tx, ty = left + int(self.unit_w * 0.05), top + int(self.unit_h * 0.05)
                draw.text((tx + 2, ty + 2), label, fill=(0, 0, 0), font=font)
                draw.text((tx, ty), label, fill=colour, font=font)
        return out
