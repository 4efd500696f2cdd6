"""uiautomator2 selectors (UiSelector as a JSON dict with a `mask`) matched against a uiautomator dump.

uiautomator2 sends `{"mask": bits, "childOrSibling": [...], "childOrSiblingSelector": [...], field: value}`;
only fields whose mask bit is set count. `*Matches` fields are Java regexes that must match the whole
string; `instance` picks the n-th match in document order; `child` searches the descendants of the
matches and `sibling` the descendants of their parent (UiSelector.fromParent).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")

# name -> (mask bit, node attribute, how to compare)
FIELDS: dict[str, tuple[int, str, str]] = {
    "text": (0x01, "text", "eq"),
    "textContains": (0x02, "text", "contains"),
    "textMatches": (0x04, "text", "matches"),
    "textStartsWith": (0x08, "text", "startswith"),
    "className": (0x10, "class", "eq"),
    "classNameMatches": (0x20, "class", "matches"),
    "description": (0x40, "content-desc", "eq"),
    "descriptionContains": (0x80, "content-desc", "contains"),
    "descriptionMatches": (0x0100, "content-desc", "matches"),
    "descriptionStartsWith": (0x0200, "content-desc", "startswith"),
    "checkable": (0x0400, "checkable", "bool"),
    "checked": (0x0800, "checked", "bool"),
    "clickable": (0x1000, "clickable", "bool"),
    "longClickable": (0x2000, "long-clickable", "bool"),
    "scrollable": (0x4000, "scrollable", "bool"),
    "enabled": (0x8000, "enabled", "bool"),
    "focusable": (0x010000, "focusable", "bool"),
    "focused": (0x020000, "focused", "bool"),
    "selected": (0x040000, "selected", "bool"),
    "packageName": (0x080000, "package", "eq"),
    "packageNameMatches": (0x100000, "package", "matches"),
    "resourceId": (0x200000, "resource-id", "eq"),
    "resourceIdMatches": (0x400000, "resource-id", "matches"),
    "index": (0x800000, "index", "int"),
}
MASK_INSTANCE = 0x01000000
_SHORT = {"text": "TEXT", "textContains": "CONTAINS_TEXT", "className": "CLASS", "description": "DESCRIPTION",
          "resourceId": "RESOURCE_ID", "packageName": "PACKAGE_NAME"}


class SelectorError(ValueError):
    """The selector is not a dict uiautomator2 would send (or holds an invalid regex)."""


@dataclass(eq=False)
class UiNode:
    """One `<node>` of a dump, linked to its parent and children."""

    attrs: dict[str, str]
    parent: UiNode | None = None
    children: list[UiNode] = field(default_factory=list)

    def get(self, name: str) -> str:
        return self.attrs.get(name, "")

    def flag(self, name: str) -> bool:
        return self.attrs.get(name, "false") == "true"

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        m = _BOUNDS.fullmatch(self.attrs.get("bounds", ""))
        if not m:
            return (0, 0, 0, 0)
        left, top, right, bottom = (int(g) for g in m.groups())
        return left, top, right, bottom

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    def descendants(self) -> list[UiNode]:
        out: list[UiNode] = []
        for child in self.children:
            out.append(child)
            out.extend(child.descendants())
        return out

    def info(self, screen: tuple[int, int]) -> dict[str, Any]:
        """The objInfo dict uiautomator2's server returns."""
        left, top, right, bottom = self.bounds
        width, height = screen
        visible = {"left": max(left, 0), "top": max(top, 0), "right": min(right, width),
                   "bottom": min(bottom, height)}
        return {
            "bounds": {"left": left, "top": top, "right": right, "bottom": bottom},
            "childCount": len(self.children),
            "className": self.get("class"),
            "contentDescription": self.get("content-desc") or None,
            "packageName": self.get("package"),
            "resourceName": self.get("resource-id") or None,
            "text": self.get("text"),
            "visibleBounds": visible,
            "checkable": self.flag("checkable"),
            "checked": self.flag("checked"),
            "clickable": self.flag("clickable"),
            "enabled": self.flag("enabled"),
            "focusable": self.flag("focusable"),
            "focused": self.flag("focused"),
            "longClickable": self.flag("long-clickable"),
            "scrollable": self.flag("scrollable"),
            "selected": self.flag("selected"),
        }


def parse_hierarchy(xml: str) -> list[UiNode]:
    """Every node of a dump in document order."""
    root = ET.fromstring(xml.encode("utf-8"))
    nodes: list[UiNode] = []

    def walk(element: ET.Element, parent: UiNode | None) -> None:
        for child in element:
            if child.tag != "node":
                continue
            node = UiNode(dict(child.attrib), parent)
            if parent is not None:
                parent.children.append(node)
            nodes.append(node)
            walk(child, node)

    walk(root, None)
    return nodes


def _regex(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern, re.DOTALL)
    except re.error as exc:
        raise SelectorError(f"invalid regex {pattern!r}: {exc}") from None


def _compare(kind: str, actual: str, wanted: object) -> bool:
    if kind == "bool":
        return (actual == "true") == bool(wanted)
    if kind == "int":
        return actual == str(wanted)
    text = str(wanted)
    checks: dict[str, Callable[[], bool]] = {
        "eq": lambda: actual == text,
        "contains": lambda: text in actual,
        "startswith": lambda: actual.startswith(text),
        "matches": lambda: _regex(text).fullmatch(actual) is not None,
    }
    return checks[kind]()


def matches(node: UiNode, selector: Mapping[str, Any]) -> bool:
    mask = int(selector.get("mask", 0) or 0)
    for name, (bit, attr, kind) in FIELDS.items():
        if mask & bit and name in selector and not _compare(kind, node.get(attr), selector[name]):
            return False
    return True


def _pick_instance(found: list[UiNode], selector: Mapping[str, Any]) -> list[UiNode]:
    if int(selector.get("mask", 0) or 0) & MASK_INSTANCE:
        i = int(selector.get("instance", 0))
        return found[i:i + 1]
    return found


def select(nodes: list[UiNode], selector: object) -> list[UiNode]:
    """All nodes the selector designates, in document order."""
    if not isinstance(selector, Mapping):
        raise SelectorError(f"a selector must be an object, got {type(selector).__name__}")
    found = _pick_instance([n for n in nodes if matches(n, selector)], selector)
    relations = selector.get("childOrSibling") or []
    subs = selector.get("childOrSiblingSelector") or []
    for relation, sub in zip(relations, subs, strict=False):
        if not isinstance(sub, Mapping):
            raise SelectorError("childOrSiblingSelector entries must be objects")
        pool: list[UiNode] = []
        seen: set[int] = set()
        for node in found:
            scope = node if relation == "child" else node.parent
            candidates = scope.descendants() if scope is not None else nodes
            for cand in candidates:
                if cand is not node and id(cand) not in seen:
                    seen.add(id(cand))
                    pool.append(cand)
        found = _pick_instance([n for n in pool if matches(n, sub)], sub)
    return found


def describe(selector: object) -> str:
    """`UiSelector[TEXT=Foo, CLASS=android.widget.Button]`, as the Java exception message shows it."""
    if not isinstance(selector, Mapping):
        return f"UiSelector[{selector!r}]"
    mask = int(selector.get("mask", 0) or 0)
    parts = [f"{_SHORT.get(name, name.upper())}={selector[name]}"
             for name, (bit, _attr, _kind) in FIELDS.items() if mask & bit and name in selector]
    if mask & MASK_INSTANCE:
        parts.append(f"INSTANCE={selector.get('instance', 0)}")
    relations = selector.get("childOrSibling") or []
    for relation, sub in zip(relations, selector.get("childOrSiblingSelector") or [], strict=False):
        parts.append(f"{relation.upper()}={describe(sub)}")
    return "UiSelector[" + ", ".join(parts) + "]"
