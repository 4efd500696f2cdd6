"""What an agent sees before a step."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from functools import cached_property

from PIL import Image

from spa_bench.device.elements import UIElement, actionable


@dataclass(frozen=True)
class Observation:
    """One screen: screenshot (PNG bytes), UI tree, foreground app, keyboard state."""

    screenshot_png: bytes
    hierarchy_xml: str
    all_elements: list[UIElement]
    package: str | None
    activity: str | None
    keyboard_shown: bool
    width: int
    height: int
    taken_at: float = field(default=0.0)

    @cached_property
    def elements(self) -> list[UIElement]:
        """The actionable elements; `Action.element` indexes this list."""
        return actionable(self.all_elements)

    def screenshot(self) -> Image.Image:
        """The screenshot as an RGB image (decoded on each call; keep the result if you reuse it)."""
        with Image.open(io.BytesIO(self.screenshot_png)) as img:
            return img.convert("RGB")

    def element(self, index: int) -> UIElement | None:
        elements = self.elements
        return elements[index] if 0 <= index < len(elements) else None

    def describe_elements(self) -> str:
        return "\n".join(e.describe() for e in self.elements)
