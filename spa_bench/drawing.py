"""Everything spa-bench draws on screenshots, in one place, with one font.

- `StepGestures(episode_dir).of(step)`: the gesture a step made on the screen - the one Device.execute
  recorded, or, for logs written before gestures were recorded, the one resolved once from the action
  and the step's saved UI dump by the device's own code (spa_bench.device.gesture), so that old logs
  draw the same points too. The report's overlay, the judge's screenshots and anything else that shows
  where an action landed start from here.
- `touch_marks(gesture)`: the dot (tap, long press, focusing tap) and the arrow (swipe) of a gesture.
- `draw_touch`: the dot and the arrow on a screenshot (the judge's annotated screenshots).
- `add_caption`: the judge's caption strip under a screenshot ("Action: ... / Detail: ...").
- `draw_element_marks`: Set-of-Mark, a numbered box on every element a vision agent may refer to.
- `font(size)`: the CJK-capable font every caption and label is written in.

Pillow is imported inside the functions: importing this module is cheap.
"""

from __future__ import annotations

import textwrap
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from spa_bench.device.elements import UIElement, parse_hierarchy
from spa_bench.device.gesture import Gesture, InvalidAction, Point, center, resolve_gesture
from spa_bench.errors import SpaBenchError

if TYPE_CHECKING:
    from PIL import Image, ImageFont

    from spa_bench.results.schema import StepRecord

Arrow = tuple[Point, Point]

DOT_RADIUS = 20
DOT_RGBA = (255, 0, 0, 128)  # red at 50% opacity, as SPA-Bench
STRIP_LINE_PX = 10  # the blue separator between screenshot and caption
# Distinct, saturated colours (Kelly's / Tableau-like), cycled by element number.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240),
    (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128), (170, 110, 40), (128, 0, 0),
    (255, 225, 25), (0, 0, 128), (128, 128, 0),
)


# -- which gesture ----------------------------------------------------------------------------------

class StepGestures:
    """The gestures of one episode's steps. Parses a step's UI dump only when its log has no gesture
    (older logs) and the action names an element, and each dump at most once."""

    def __init__(self, episode_dir: Path) -> None:
        self.episode_dir = episode_dir
        self._elements: dict[str, list[UIElement]] = {}

    def _dump(self, name: str | None) -> list[UIElement]:
        if not name:
            return []
        if name not in self._elements:
            try:
                xml = (self.episode_dir / name).read_text(encoding="utf-8")
                self._elements[name] = parse_hierarchy(xml)
            except (OSError, SpaBenchError):
                self._elements[name] = []
        return self._elements[name]

    def of(self, step: StepRecord) -> Gesture | None:
        if step.gesture is not None or step.action is None or not step.valid:
            return step.gesture
        action = step.action
        names_element = getattr(action, "element", None) is not None or \
            getattr(action, "selector", None) is not None
        elements = self._dump(step.observation.hierarchy) if names_element else []
        try:
            return resolve_gesture(action, elements, step.observation.width or 0,
                                   step.observation.height or 0)
        except InvalidAction:  # the saved dump lacks the element (or the log was written by hand)
            return None


def touch_marks(gesture: Gesture | None) -> tuple[Point | None, Arrow | None]:
    """(dot, arrow) of a gesture: a dot where a tap or long press landed (or where typing focused its
    field), an arrow from a swipe's start to its end."""
    if gesture is None:
        return None, None
    if gesture.kind == "swipe" and len(gesture.points) >= 2:
        return None, (gesture.points[0], gesture.points[-1])
    if gesture.points:
        return gesture.points[0], None
    return (center(gesture.target) if gesture.target is not None else None), None


# -- fonts ------------------------------------------------------------------------------------------

_fonts = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """Noto Sans CJK (Simplified Chinese face), loaded once per size and thread: the collection is large,
    and a FreeType face must not be shared by threads drawing at once."""
    cache: dict[int, ImageFont.FreeTypeFont] = _fonts.__dict__.setdefault("by_size", {})
    if size not in cache:
        import noto_cjk_sans_otc
        from PIL import ImageFont

        cache[size] = ImageFont.truetype(noto_cjk_sans_otc.FONT_PATH, size, index=2)
    return cache[size]


# -- the judge's screenshots ------------------------------------------------------------------------

def draw_touch(image: Image.Image, point: Point | None, arrow: Arrow | None) -> Image.Image:
    """A copy of the screenshot with a translucent red dot at `point` and an arrow along `arrow`.
    Only the region around the marks is blended (a full-screen alpha composite costs ~100 ms)."""
    from PIL import Image, ImageDraw

    width = max(6, image.size[0] // 120)  # of the arrow's line
    head = width * 5
    boxes = []
    if point is not None:
        x, y = point
        boxes.append((x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS))
    if arrow is not None:
        (x1, y1), (x2, y2) = arrow
        boxes.append((min(x1, x2) - head, min(y1, y2) - head, max(x1, x2) + head, max(y1, y2) + head))
    out = image.convert("RGB")  # a copy
    if not boxes:
        return out
    left, top = max(0, min(b[0] for b in boxes) - 1), max(0, min(b[1] for b in boxes) - 1)
    right = min(out.size[0], max(b[2] for b in boxes) + 2)
    bottom = min(out.size[1], max(b[3] for b in boxes) + 2)
    if left >= right or top >= bottom:
        return out  # the marks lie outside the screen
    region = out.crop((left, top, right, bottom)).convert("RGBA")
    layer = Image.new("RGBA", region.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    if point is not None:
        x, y = point[0] - left, point[1] - top
        draw.ellipse((x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS), fill=DOT_RGBA)
    if arrow is not None:
        (ax1, ay1), (ax2, ay2) = arrow
        x1, y1, x2, y2 = ax1 - left, ay1 - top, ax2 - left, ay2 - top
        draw.line((x1, y1, x2, y2), fill=DOT_RGBA, width=width)
        draw.ellipse((x1 - width, y1 - width, x1 + width, y1 + width), fill=DOT_RGBA)
        length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        side_a = (x2 - ux * head - uy * head * 0.6, y2 - uy * head + ux * head * 0.6)
        side_b = (x2 - ux * head + uy * head * 0.6, y2 - uy * head - ux * head * 0.6)
        draw.polygon([(x2, y2), side_a, side_b], fill=DOT_RGBA)
    out.paste(Image.alpha_composite(region, layer).convert("RGB"), (left, top))
    return out


def add_caption(image: Image.Image, name: str, detail: str) -> Image.Image:
    """The screenshot with a blue line and a white strip below it: "Action:" and "Detail:" in red, their
    values in black, wrapped to the image width (CJK text included)."""
    from PIL import Image, ImageDraw

    width, height = image.size
    face = font(max(16, width // 18))
    spacing = max(4, width // 100)
    line_height = int(face.getbbox("Ag国")[3]) + spacing
    average = max(1.0, face.getlength("abcdefghijklmnopqrstuvwxyz") / 26)
    columns = max(8, int((width - 2 * spacing) / average))
    lines: list[tuple[str, tuple[int, int, int]]] = []
    for label, value in (("Action:", name), ("Detail:", detail)):
        lines.append((label, (220, 0, 0)))
        wide = any(ord(ch) > 0x2E80 for ch in value)  # CJK glyphs are about twice as wide
        for chunk in textwrap.wrap(value, width=columns // 2 if wide else columns) or [""]:
            lines.append((chunk, (0, 0, 0)))
    strip = len(lines) * line_height + 2 * spacing
    out = Image.new("RGB", (width, height + STRIP_LINE_PX + strip), (255, 255, 255))
    out.paste(image.convert("RGB"), (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, height, width, height + STRIP_LINE_PX - 1), fill=(0, 0, 255))
    y = height + STRIP_LINE_PX + spacing
    for text, colour in lines:
        x = max(spacing, int((width - face.getlength(text)) / 2))
        draw.text((x, y), text, fill=colour, font=face)
        y += line_height
    return out


# -- Set-of-Mark ------------------------------------------------------------------------------------

def _luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG), 0 = black, 1 = white."""

    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else float(((v + 0.055) / 1.055) ** 2.4)

    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def text_colour(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever has the higher contrast ratio against `background`."""
    lum = _luminance(background)
    return (0, 0, 0) if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else (255, 255, 255)


def draw_element_marks(image: Image.Image, elements: Sequence[UIElement], *, scale: float | None = None,
                       outline_width: int | None = None) -> Image.Image:
    """Set-of-Mark: a copy of `image` with each element's box and number (its index in
    Observation.elements, so that `{"type": "tap", "element": 7}` goes straight to the device). Vision
    models read a printed number far better than pixel coordinates. Each label is a filled tag in the
    box's colour with black or white text (whichever contrasts more) and a thin outline of the opposite
    shade, readable on light, dark and busy backgrounds. `scale` sizes the labels (default from the
    image width: labels stay legible after the image is shrunk for the model)."""
    from PIL import ImageDraw

    out = image.convert("RGB")
    width, height = out.size
    scale = scale or max(1.0, width / 540)
    line = outline_width or max(2, round(2 * scale))
    face = font(max(10, round(14 * scale)))
    overlay = ImageDraw.Draw(out)
    boxes = []
    for element in elements:
        left, top, right, bottom = element.bounds
        left, top = max(0, left), max(0, top)
        right, bottom = min(width - 1, right), min(height - 1, bottom)
        if right <= left or bottom <= top:
            continue
        colour = PALETTE[element.index % len(PALETTE)]
        overlay.rectangle((left, top, right, bottom), outline=colour, width=line)
        boxes.append((element.index, colour, left, top, right, bottom))
    # Labels after all boxes, so that no box is drawn across another element's number.
    pad = max(2, round(2 * scale))
    for index, colour, left, top, _right, bottom in boxes:
        label = str(index)
        x0, y0, x1, y1 = overlay.textbbox((0, 0), label, font=face)
        tag_w, tag_h = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
        tx = min(left, width - tag_w)
        ty = top if top + tag_h <= bottom or top + tag_h <= height else max(0, bottom - tag_h)
        fg = text_colour(colour)
        edge = (255, 255, 255) if fg == (0, 0, 0) else (0, 0, 0)
        overlay.rectangle((tx, ty, tx + tag_w, ty + tag_h), fill=colour, outline=edge, width=1)
        overlay.text((tx + pad - x0, ty + pad - y0), label, fill=fg, font=face)
    return out
