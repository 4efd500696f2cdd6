"""AndroidWorld's view of a screen: its UI element list, M3A's and T3A's descriptions of it, M3A's marks.

Our own code, following google-research/android_world (Apache-2.0) so that the model sees what the
published M3A / T3A runs saw:
- which nodes are elements: representation_utils.forest_to_ui_elements keeps every accessibility node
  that is a leaf, has a content description, or is scrollable (AndroidWorld's default a11y method), in
  tree order; their position in that list is the `index` the model answers with. We read the same nodes
  from the uiautomator dump (a leaf: the next node in document order is not deeper);
- which are shown: m3a_utils.validate_ui_element drops boxes that are empty or off screen (the indexes
  of the others stay as they are);
- M3A's line per element (m3a.py `_generate_ui_element_description`) and T3A's (t3a.py: the
  UIElement dataclass repr), the Set-of-Mark drawing (m3a_utils.add_ui_element_mark: a green box,
  a white tag in its top-left corner with the index in black) and the "after" label of the summary
  screenshot (m3a_utils.add_screenshot_label).
Fields the uiautomator dump does not have (hint text, tooltip) are None, as AndroidWorld's own
uiautomator path leaves them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spa_bench.device.elements import UIElement

if TYPE_CHECKING:
    from PIL import Image, ImageFont


@dataclass(frozen=True)
class AWElement:
    """One element of AndroidWorld's list: its index there and the node it is."""

    index: int
    node: UIElement

    @property
    def center(self) -> tuple[int, int]:
        """actuation.execute_adb_action taps int() of the box's float centre."""
        left, top, right, bottom = self.node.bounds
        return int((left + right) / 2), int((top + bottom) / 2)


def aw_elements(all_elements: Sequence[UIElement]) -> list[AWElement]:
    """Leaves, nodes with a content description and scrollable nodes, in document order."""
    out: list[AWElement] = []
    for i, node in enumerate(all_elements):
        leaf = i + 1 == len(all_elements) or all_elements[i + 1].depth <= node.depth
        if leaf or node.content_desc or node.scrollable:
            out.append(AWElement(len(out), node))
    return out


def is_shown(element: AWElement, width: int, height: int) -> bool:
    """m3a_utils.validate_ui_element: a non-empty box that overlaps the screen."""
    left, top, right, bottom = element.node.bounds
    return not (left >= right or left >= width or right <= 0 or top >= bottom or top >= height or bottom <= 0)


def _py(value: bool) -> str:
    return "True" if value else "False"


def m3a_line(element: AWElement) -> str:
    """`UI element 3: {"index": 3, "text": "...", "is_clickable": True, ...}` as M3A writes it."""
    node, i = element.node, element.index
    line = f'UI element {i}: {{"index": {i}, '
    if node.text:
        line += f'"text": "{node.text}", '
    if node.content_desc:
        line += f'"content_description": "{node.content_desc}", '
    line += f'"is_clickable": {_py(node.clickable)}, '
    line += f'"is_long_clickable": {_py(node.long_clickable)}, '
    line += f'"is_editable": {_py(node.editable)}, '
    if node.scrollable:
        line += '"is_scrollable": True, '
    if node.focusable:
        line += '"is_focusable": True, '
    line += f'"is_selected": {_py(node.selected)}, '
    line += f'"is_checked": {_py(node.checked)}, '
    return line[:-2] + "}"


def _none_or(value: str) -> str:
    return repr(value) if value else "None"


def t3a_line(element: AWElement) -> str:
    """`UI element 3: UIElement(text='...', ...)`: the repr of AndroidWorld's UIElement dataclass, field
    order as in representation_utils.UIElement (bbox is None when no screen size is passed, as there)."""
    n = element.node
    left, top, right, bottom = n.bounds
    fields = [
        ("text", _none_or(n.text)), ("content_description", _none_or(n.content_desc)),
        ("class_name", _none_or(n.class_name)), ("bbox", "None"),
        ("bbox_pixels", f"BoundingBox(x_min={left}, x_max={right}, y_min={top}, y_max={bottom})"),
        ("hint_text", "None"), ("is_checked", _py(n.checked)), ("is_checkable", _py(n.checkable)),
        ("is_clickable", _py(n.clickable)), ("is_editable", _py(n.editable)), ("is_enabled", _py(n.enabled)),
        ("is_focused", _py(n.focused)), ("is_focusable", _py(n.focusable)),
        ("is_long_clickable", _py(n.long_clickable)), ("is_scrollable", _py(n.scrollable)),
        ("is_selected", _py(n.selected)), ("is_visible", "True"), ("package_name", _none_or(n.package)),
        ("resource_name", _none_or(n.resource_id)), ("tooltip", "None"), ("resource_id", "None"),
        ("metadata", "None"),
    ]
    return f"UI element {element.index}: UIElement(" + ", ".join(f"{k}={v}" for k, v in fields) + ")"


def describe(elements: Sequence[AWElement], width: int, height: int, style: str) -> str:
    """The element list of a prompt: one line per shown element, each ending in a newline (as there)."""
    line = m3a_line if style == "m3a" else t3a_line
    return "".join(line(e) + "\n" for e in elements if is_shown(e, width, height))


# -- drawing --------------------------------------------------------------------------------------------
_GREEN = (0, 255, 0)


def label_font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except (OSError, TypeError):  # Pillow without FreeType
        return ImageFont.load_default()


def draw_aw_marks(image: Image.Image, elements: Sequence[AWElement], copy: bool = True) -> Image.Image:
    """M3A's marks on every shown element: a green box 2 px wide (int(2 * sqrt(2)) at scale 1), a white
    tag from (1, 1) to (35, 25) inside its top-left corner, the index in black on it. On a copy, or on
    `image` itself with copy=False (an RGB image the caller owns: a copy of a full screen costs time)."""
    from PIL import ImageDraw

    out = image.convert("RGB") if copy or image.mode != "RGB" else image
    width, height = out.size
    draw = ImageDraw.Draw(out)
    font = label_font(20)
    for element in elements:
        if not is_shown(element, width, height):
            continue
        left, top, right, bottom = element.node.bounds
        draw.rectangle((left, top, right, bottom), outline=_GREEN, width=2)
        draw.rectangle((left + 1, top + 1, left + 34, top + 24), fill=(255, 255, 255))
        draw.text((left + 2, top + 3), str(element.index), fill=(0, 0, 0), font=font)
    return out


def label_corner(image: Image.Image, label: str, copy: bool = True) -> Image.Image:
    """m3a_utils.add_screenshot_label: a white 150 x 30 box at the bottom right with the word in black
    (on a copy, or on `image` itself with copy=False)."""
    from PIL import ImageDraw

    out = image.copy() if copy else image
    width, height = out.size
    draw = ImageDraw.Draw(out)
    draw.rectangle((width - 150, height - 30, width - 1, height - 1), fill=(255, 255, 255))
    draw.text((width - 120, height - 28), label, fill=(0, 0, 0), font=label_font(24))
    return out
