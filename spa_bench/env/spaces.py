"""The env's spaces, and an observation turned into a value of its observation space.

Gymnasium's `Text` space holds only the characters of its charset (alphanumerics by default), which
cannot describe Chinese screens or JSON. `AnyText` accepts every string up to `max_length`; it samples
from a charset like `Text`, so `check_env` and `action_space.sample()` work.
"""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np
from gymnasium import spaces
from PIL import Image

from spa_bench.device.elements import UIElement
from spa_bench.device.observation import Observation

ELEMENTS_MAX = 1_000_000  # characters of the JSON element list
TEXT_MAX = 10_000  # instruction, package, an action's JSON


class AnyText(spaces.Text):
    """A Text space over all of Unicode (sampling still draws from `charset`)."""

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"


def screen_box(width: int, height: int) -> spaces.Box:
    """The screenshot's space. Box keeps four arrays of the image's shape (low, high, bounded below and
    above: 31 MB at 1080x2400, more than the phone itself); here each is a read-only view of its one
    value, which every Box method reads the same way (they compare elementwise)."""
    box = spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8)
    shape = box.shape
    box.low = np.broadcast_to(np.uint8(0), shape)
    box.high = np.broadcast_to(np.uint8(255), shape)
    box.bounded_below = np.broadcast_to(np.True_, shape)
    box.bounded_above = np.broadcast_to(np.True_, shape)
    return box


def observation_space(width: int, height: int) -> spaces.Dict:
    return spaces.Dict({
        "screenshot": screen_box(width, height),
        "elements": AnyText(ELEMENTS_MAX, min_length=0),
        "package": AnyText(TEXT_MAX, min_length=0),
        "instruction": AnyText(TEXT_MAX, min_length=0),
    })


def action_space() -> AnyText:
    """An action as the JSON of spa_bench.actions (e.g. '{"type": "tap", "x": 540, "y": 1200}');
    `step` also takes an Action object or its dict form."""
    return AnyText(TEXT_MAX, min_length=1)


def element_dict(element: UIElement) -> dict[str, Any]:
    return {"index": element.index, "text": element.text, "resource_id": element.resource_id,
            "class_name": element.class_name, "content_desc": element.content_desc,
            "bounds": list(element.bounds), "clickable": element.clickable,
            "long_clickable": element.long_clickable, "scrollable": element.scrollable,
            "checkable": element.checkable, "checked": element.checked, "enabled": element.enabled,
            "focused": element.focused, "selected": element.selected, "editable": element.editable}


NO_PIXELS: np.ndarray[Any, Any] = np.zeros((0, 0, 3), dtype=np.uint8)


def to_space(obs: Observation, instruction: str, pixels: bool = True) -> dict[str, Any]:
    """The observation as the env returns it: the screenshot as an HxWx3 uint8 array, the actionable
    elements (those `element` indexes) as JSON text, the foreground package ("" when none). Without
    `pixels` the screenshot is an empty array (NO_PIXELS): for callers that send the PNG on as it is."""
    if not pixels:
        return {"screenshot": NO_PIXELS, "elements": json.dumps([element_dict(e) for e in obs.elements],
                                                                ensure_ascii=False),
                "package": obs.package or "", "instruction": instruction}
    with Image.open(io.BytesIO(obs.screenshot_png)) as img:
        # the virtual phone's PNGs are RGB already (a copy saved); a real device's may carry alpha
        pixels_array = np.asarray(img if img.mode == "RGB" else img.convert("RGB"), dtype=np.uint8)
    return {"screenshot": pixels_array,
            "elements": json.dumps([element_dict(e) for e in obs.elements], ensure_ascii=False),
            "package": obs.package or "", "instruction": instruction}
