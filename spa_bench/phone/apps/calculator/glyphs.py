"""The Calculator's launcher glyph (registered with the icon table on import)."""

from __future__ import annotations

from PIL import ImageDraw

from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB


@icon("calculator")
def _calculator(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    w = max(1, round(2 * u))
    d.rounded_rectangle((4 * u, 2 * u, 20 * u, 22 * u), radius=2 * u, outline=c, width=w)
    d.rectangle((7 * u, 5 * u, 17 * u, 9 * u), fill=c)
    for row in range(3):
        for col in range(3):
            x, y = 7.5 + col * 4, 12 + row * 3.4
            d.ellipse((x * u - 1.1 * u, y * u - 1.1 * u, x * u + 1.1 * u, y * u + 1.1 * u), fill=c)
