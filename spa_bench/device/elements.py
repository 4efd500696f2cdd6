"""UI elements parsed from uiautomator XML, and selectors that find one of them.

Every node of the dump becomes a UIElement (document order). Agents see `actionable(...)`: the nodes a
person could act on or read (clickable, long-clickable, scrollable, checkable, editable, or carrying
text or a content description), numbered 0..n-1 - the index an action's `element` refers to.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from spa_bench.actions import Selector
from spa_bench.errors import DeviceCommandFailed

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
EDITABLE_CLASSES = ("EditText", "AutoCompleteTextView", "SearchView")


@dataclass(frozen=True)
class UIElement:
    index: int  # position among the actionable elements, -1 when not actionable
    text: str
    resource_id: str
    class_name: str
    package: str
    content_desc: str
    checkable: bool
    checked: bool
    clickable: bool
    enabled: bool
    focusable: bool
    focused: bool
    scrollable: bool
    long_clickable: bool
    password: bool
    selected: bool
    bounds: tuple[int, int, int, int]  # left, top, right, bottom
    depth: int

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    @property
    def editable(self) -> bool:
        return self.class_name.endswith(EDITABLE_CLASSES)

    @property
    def area(self) -> int:
        left, top, right, bottom = self.bounds
        return max(0, right - left) * max(0, bottom - top)

    @property
    def label(self) -> str:
        """What a person would call it: text, else content description, else the id's last part."""
        return self.text or self.content_desc or self.resource_id.rpartition("/")[2]

    def is_actionable(self) -> bool:
        if self.area == 0:
            return False
        return (self.clickable or self.long_clickable or self.scrollable or self.checkable or self.editable
                or bool(self.text.strip()) or bool(self.content_desc.strip()))

    def describe(self) -> str:
        """One line for text-only agents and logs."""
        flags = [name for name, on in (("clickable", self.clickable), ("scrollable", self.scrollable),
                                       ("editable", self.editable), ("checked", self.checked),
                                       ("selected", self.selected), ("focused", self.focused)) if on]
        parts = [f"[{self.index}]", self.class_name.rpartition(".")[2]]
        if self.text:
            parts.append(repr(self.text))
        if self.content_desc:
            parts.append(f"desc={self.content_desc!r}")
        if self.resource_id:
            parts.append(f"id={self.resource_id.rpartition('/')[2]}")
        if flags:
            parts.append(",".join(flags))
        parts.append("bounds=[{},{}][{},{}]".format(*self.bounds))
        return " ".join(parts)


def _flag(node: ET.Element, name: str) -> bool:
    return node.get(name) == "true"


def parse_hierarchy(xml: str) -> list[UIElement]:
    """All nodes of a uiautomator dump, in document order; actionable ones get their index."""
    try:
        root = ET.fromstring(xml.encode("utf-8") if isinstance(xml, str) else xml)
    except ET.ParseError as exc:
        raise DeviceCommandFailed(f"unreadable uiautomator XML: {exc}") from None
    out: list[UIElement] = []
    counter = 0

    def walk(node: ET.Element, depth: int) -> None:
        nonlocal counter
        for child in node:
            if child.tag != "node":
                continue
            match = _BOUNDS.fullmatch(child.get("bounds", ""))
            bounds = tuple(int(v) for v in match.groups()) if match else (0, 0, 0, 0)
            element = UIElement(
                index=-1, text=child.get("text", ""), resource_id=child.get("resource-id", ""),
                class_name=child.get("class", ""), package=child.get("package", ""),
                content_desc=child.get("content-desc", ""), checkable=_flag(child, "checkable"),
                checked=_flag(child, "checked"), clickable=_flag(child, "clickable"),
                enabled=child.get("enabled", "true") == "true", focusable=_flag(child, "focusable"),
                focused=_flag(child, "focused"), scrollable=_flag(child, "scrollable"),
                long_clickable=_flag(child, "long-clickable"), password=_flag(child, "password"),
                selected=_flag(child, "selected"), bounds=bounds,  # type: ignore[arg-type]
                depth=depth)
            if element.is_actionable():
                element = _with_index(element, counter)
                counter += 1
            out.append(element)
            walk(child, depth + 1)

    walk(root, 0)
    return out


def _with_index(element: UIElement, index: int) -> UIElement:
    from dataclasses import replace

    return replace(element, index=index)


def actionable(elements: list[UIElement]) -> list[UIElement]:
    return [e for e in elements if e.index >= 0]


def _matches(element: UIElement, selector: Selector) -> bool:
    if selector.text is not None and element.text != selector.text:
        return False
    if selector.text_contains is not None and \
            selector.text_contains.casefold() not in element.text.casefold():
        return False
    if selector.resource_id is not None:
        rid = element.resource_id
        if rid != selector.resource_id and rid.rpartition("/")[2] != selector.resource_id:
            return False
    if selector.content_desc is not None and element.content_desc != selector.content_desc:
        return False
    if selector.any_of is not None and not any(_matches(element, alt) for alt in selector.any_of):
        return False
    return selector.class_name is None or element.class_name == selector.class_name or \
        element.class_name.rpartition(".")[2] == selector.class_name


def matching(elements: list[UIElement], selector: Selector) -> list[UIElement]:
    """The visible elements matching every field of the selector (its `nth` aside), in document order."""
    return [e for e in elements if e.area > 0 and _matches(e, selector)]


def find(elements: list[UIElement], selector: Selector) -> UIElement | None:
    """The `nth` visible element matching every field of the selector, or None."""
    found = matching(elements, selector)
    return found[selector.nth] if selector.nth < len(found) else None
