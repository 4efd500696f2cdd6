"""Set-of-Mark: the screenshot with a numbered box on every element an agent may refer to.

Vision models are poor at reading pixel coordinates off a screenshot but good at reading a printed
number, so multimodal agents (M3A, SeeAct, Mobile-Agent) mark the elements and let the model answer
"tap 7". The numbers are the indices of `Observation.elements`, so that `{"type": "tap", "element": 7}`
goes straight to the device layer. Each label is a filled tag in the box's colour with black or white
text (whichever contrasts more) and a thin outline of the opposite shade, so it stays readable on
light, dark and busy backgrounds alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spa_bench.device.elements import UIElement

if TYPE_CHECKING:
    from PIL import Image, ImageFont

# Distinct, saturated colours (Kelly's / Tableau-like), cycled by element number.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240),
    (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128), (170, 110, 40), (128, 0, 0),
    (255, 225, 25), (0, 0, 128), (128, 128, 0),
)


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


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except (OSError, TypeError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


def draw_marks(image: Image.Image, elements: Sequence[UIElement], *, scale: float | None = None,
               outline_width: int | None = None) -> Image.Image:
    """A copy of `image` with each element's box and number. `scale` sizes the labels (default from the
    image width: labels stay legible after the image is shrunk for the model)."""
    from PIL import ImageDraw

    out = image.convert("RGB")
    width, height = out.size
    scale = scale or max(1.0, width / 540)
    line = outline_width or max(2, round(2 * scale))
    font = _font(max(10, round(14 * scale)))
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
        x0, y0, x1, y1 = overlay.textbbox((0, 0), label, font=font)
        tag_w, tag_h = x1 - x0 + 2 * pad, y1 - y0 + 2 * pad
        tx = min(left, width - tag_w)
        ty = top if top + tag_h <= bottom or top + tag_h <= height else max(0, bottom - tag_h)
        fg = text_colour(colour)
        edge = (255, 255, 255) if fg == (0, 0, 0) else (0, 0, 0)
        overlay.rectangle((tx, ty, tx + tag_w, ty + tag_h), fill=colour, outline=edge, width=1)
        overlay.text((tx + pad - x0, ty + pad - y0), label, fill=fg, font=font)
    return out
