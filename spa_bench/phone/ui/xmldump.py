"""uiautomator XML of a frame, attribute for attribute like AOSP's `uiautomator dump`.

Each window is one top-level `<node>` (uiautomator2's dump also lists every window). Bounds are the
visible part of a view (clipped by its scrolling parents); views scrolled out of sight are left out.
With `compressed=True`, layout-only nodes are dropped and their children hoisted, as uiautomator's
"compressed layout hierarchy" does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.view import Frame, View

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape(value: str) -> str:
    """XML attribute escaping, dropping characters XML 1.0 cannot carry."""
    value = _INVALID.sub("", value)
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )


def _b(flag: bool) -> str:
    return "true" if flag else "false"


@dataclass
class DumpNode:
    """A view as it appears in the dump (visible bounds, window package)."""

    view: View
    bounds: Rect
    package: str
    children: list[DumpNode] = field(default_factory=list)


def visible_tree(view: View, clip: Rect, package: str) -> DumpNode | None:
    visible = view.bounds.intersect(clip)
    if visible.empty:
        return None
    node = DumpNode(view, visible, package)
    inner = view.child_clip(clip)
    for c in view.children:
        child = visible_tree(c, inner, package)
        if child is not None:
            node.children.append(child)
    return node


def _compress(node: DumpNode) -> list[DumpNode]:
    kept: list[DumpNode] = []
    for c in node.children:
        kept.extend(_compress(c))
    node.children = kept
    if node.view.informative:
        return [node]
    return kept


def frame_nodes(frame: Frame, compressed: bool = False) -> list[DumpNode]:
    """The top-level dump nodes of a frame (one per window, roots always kept)."""
    roots: list[DumpNode] = []
    for w in frame.windows:
        root = visible_tree(w.root, frame.screen, w.package)
        if root is None:
            continue
        if compressed:
            hoisted: list[DumpNode] = []
            for c in root.children:
                hoisted.extend(_compress(c))
            root.children = hoisted
        roots.append(root)
    return roots


def _write(node: DumpNode, index: int, out: list[str]) -> None:
    v = node.view
    out.append(
        f'<node index="{index}" text="{escape(v.text)}" resource-id="{escape(v.rid)}" '
        f'class="{escape(v.class_name)}" package="{escape(node.package)}" '
        f'content-desc="{escape(v.desc)}" checkable="{_b(v.checkable)}" checked="{_b(v.checked)}" '
        f'clickable="{_b(v.clickable)}" enabled="{_b(v.enabled)}" focusable="{_b(v.focusable)}" '
        f'focused="{_b(v.focused)}" scrollable="{_b(v.scrollable)}" '
        f'long-clickable="{_b(v.long_clickable)}" password="{_b(v.password)}" '
        f'selected="{_b(v.selected)}" bounds="{node.bounds.uia()}"'
    )
    if not node.children:
        out.append(" />")
        return
    out.append(">")
    for i, c in enumerate(node.children):
        _write(c, i, out)
    out.append("</node>")


def dump(frame: Frame, compressed: bool = False) -> str:
    out = [HEADER, '<hierarchy rotation="0">']
    for i, root in enumerate(frame_nodes(frame, compressed)):
        _write(root, i, out)
    out.append("</hierarchy>")
    return "".join(out)
