"""uiautomator XML of a frame, attribute for attribute like AOSP's AccessibilityNodeInfoDumper.

Three shapes, as on a phone:
- `active` (`uiautomator dump`): only the root of the active window (the app, or the recents screen or
  a system window that has focus); the status bar, the navigation bar and the keyboard are other windows.
- `windows` (`uiautomator dump --windows`): `<displays><display id="0"><window ...><hierarchy ...>` per
  window, as `dumpWindowsToFile` writes it.
- `u2` (uiautomator2's `dumpWindowHierarchy`): every window as a sibling top-level node, with
  `visible-to-user` before `bounds` and `drawing-order`, `hint`, `display-id` after it.

`index` is a node's position among all its parent's children (the dumper skips children that are not
visible but keeps counting them); a RecyclerView's children are only its attached, on-screen rows.
`NAF="true"` comes first on a clickable, enabled node without text or content description when none of
its descendants has any (nafCheck / childNafCheck), except on grids, lists and tables. Bounds are the
visible part of a view (clipped by scrolling parents and the screen). With `compressed=True`, layout-only
nodes are dropped and their children hoisted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spa_bench.phone.api import DumpMode
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.material import FRAME
from spa_bench.phone.ui.view import Frame, View, Window

HEADER = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
# stripInvalidXMLChars replaces these with "." (C0 controls but tab/LF/CR, C1 controls but NEL,
# the noncharacters U+FDD0..U+FDDF and U+FFFE/U+FFFF).
_INVALID = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ufdd0-\ufddf\ufffe\uffff]")
_NAF_EXCLUDED = ("android.widget.GridView", "android.widget.GridLayout", "android.widget.ListView",
                 "android.widget.TableLayout")
_RECYCLING = ("RecyclerView", "ListView", "GridView")
# Windows that never take input focus, so they are never the "active window" a plain dump shows.
PASSIVE_WINDOWS = frozenset({"StatusBar", "NavigationBar", "InputMethod", "Toast"})


def escape(value: str) -> str:
    """Attribute text as Android's XmlSerializer writes it (the caller picks the quote character)."""
    value = _INVALID.sub(".", value.replace("\x00", ""))
    out = (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )
    # characters outside the BMP are written as decimal references (`&#128157;`)
    return "".join(c if ord(c) < 0x10000 else f"&#{ord(c)};" for c in out)


def attr(name: str, value: str) -> str:
    """` name="value"`; a value holding `"` is single-quoted with `'` as `&apos;` (never `&quot;`)."""
    text = escape(value)
    if '"' in text:
        return f" {name}='" + text.replace("'", "&apos;") + "'"
    return f' {name}="{text}"'


def _b(flag: bool) -> str:
    return "true" if flag else "false"


@dataclass
class DumpNode:
    """A view as it appears in the dump (visible bounds, window package, index among all siblings)."""

    view: View
    bounds: Rect
    package: str
    index: int = 0
    children: list[DumpNode] = field(default_factory=list)


def visible_tree(view: View, clip: Rect, package: str, index: int = 0,
                 dialogs: list[View] | None = None) -> DumpNode | None:
    """The dump node of `view` and its visible descendants. With `dialogs`, a dialog met on the way is
    left out and its panel appended there: it is a window of its own."""
    visible = view.bounds.intersect(clip)
    if visible.empty:
        return None
    panel = getattr(view, "dialog_panel", None)
    if dialogs is not None and isinstance(panel, View):
        dialogs.append(panel)
        return None
    node = DumpNode(view, visible, package, index)
    inner = view.child_clip(clip)
    # A recycling list holds only the rows on screen (the others are detached), so its children count
    # from 0 at the first visible row; any other layout keeps its children out of sight and counts them.
    recycling = view.class_name.endswith(_RECYCLING)
    for i, c in enumerate(view.children):
        child = visible_tree(c, inner, package, len(node.children) if recycling else i, dialogs)
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


@dataclass(frozen=True)
class DumpWindow:
    """A window as dumps list it: a frame window, or a dialog shown by one (its own window on Android)."""

    window: Window
    root: View
    dialog: bool = False

    @property
    def name(self) -> str:
        return self.window.name

    @property
    def package(self) -> str:
        return self.window.package


def dump_windows(frame: Frame) -> list[DumpWindow]:
    """The frame's windows bottom to top, each followed by the dialogs it shows."""
    out: list[DumpWindow] = []
    for w in frame.windows:
        dialogs: list[View] = []
        visible_tree(w.root, frame.screen, w.package, 0, dialogs)
        out.append(DumpWindow(w, w.root))
        for panel in dialogs:
            # PhoneWindow's decor: a FrameLayout holding android:id/content, holding the dialog's panel
            content = View(panel.bounds, class_name=FRAME, rid="android:id/content", children=[panel])
            out.append(DumpWindow(w, View(panel.bounds, class_name=FRAME, children=[content]), True))
    return out


def _root(w: DumpWindow, screen: Rect, compressed: bool) -> DumpNode | None:
    # a view is seen only inside its window: an app's form laid out past the window's bottom (the window
    # shrinks above the keyboard) is under the keyboard, and uiautomator's bounds stop at the window's edge
    root = visible_tree(w.root, w.root.bounds.intersect(screen), w.package, 0, [] if not w.dialog else None)
    if root is None:
        return None
    if compressed:
        hoisted: list[DumpNode] = []
        for c in root.children:
            hoisted.extend(_compress(c))
        for i, c in enumerate(hoisted):
            c.index = i  # the compressed dumper numbers the nodes it keeps
        root.children = hoisted
    return root


def active_window(windows: list[DumpWindow]) -> DumpWindow | None:
    """The window `getRootInActiveWindow` returns: the top-most one that can take focus."""
    for w in reversed(windows):
        if w.window.focusable and w.name not in PASSIVE_WINDOWS:
            return w
    return windows[0] if windows else None


def frame_nodes(frame: Frame, compressed: bool = False) -> list[DumpNode]:
    """The top-level dump nodes of a frame (one per window and dialog, roots always kept)."""
    roots = [_root(w, frame.screen, compressed) for w in dump_windows(frame)]
    return [r for r in roots if r is not None]


def _has_label(view: View) -> bool:
    return any(bool(c.text or c.desc) or _has_label(c) for c in view.children)


def is_naf(view: View) -> bool:
    """AOSP's `!nafExcludedClass(node) && !nafCheck(node)`: a control no accessibility service can name."""
    if view.class_name.endswith(_NAF_EXCLUDED):  # nafExcludedClass: className.endsWith(excluded)
        return False
    return view.clickable and view.enabled and not view.text and not view.desc and not _has_label(view)


def _write(node: DumpNode, out: list[str], u2: bool, drawing_order: int, depth: int = 1) -> None:
    """One node and its subtree; u2 output is indented as androidx's serializer (indent-output) does."""
    v = node.view
    pad = "\n" + "  " * depth if u2 else ""
    parts = [pad + ('<node NAF="true"' if is_naf(v) else "<node"), f' index="{node.index}"',
             attr("text", v.text), attr("resource-id", v.rid), attr("class", v.class_name),
             attr("package", node.package), attr("content-desc", v.desc)]
    parts.append(
        f' checkable="{_b(v.checkable)}" checked="{_b(v.checked)}" clickable="{_b(v.clickable)}" '
        f'enabled="{_b(v.enabled)}" focusable="{_b(v.focusable)}" focused="{_b(v.focused)}" '
        f'scrollable="{_b(v.scrollable)}" long-clickable="{_b(v.long_clickable)}" '
        f'password="{_b(v.password)}" selected="{_b(v.selected)}"'
    )
    if u2:
        parts.append(' visible-to-user="true"')
    parts.append(f' bounds="{node.bounds.uia()}"')
    if u2:
        parts.append(f' drawing-order="{drawing_order}"')
        parts.append(attr("hint", str(getattr(v, "hint", "") or "")))
        parts.append(' display-id="0"')
    out.append("".join(parts))
    if not node.children:
        out.append(" />")
        return
    out.append(">")
    for c in node.children:
        _write(c, out, u2, c.index + 1, depth + 1)
    out.append(pad + "</node>")


def _window_type(w: DumpWindow) -> str:
    if w.name == "InputMethod":
        return "TYPE_INPUT_METHOD"
    if w.name in ("StatusBar", "NavigationBar"):
        return "TYPE_SYSTEM"
    return "TYPE_APPLICATION"


def _dump_windows(frame: Frame, compressed: bool, rotation: int) -> str:
    windows = dump_windows(frame)
    active = active_window(windows)
    out = [HEADER, '<displays><display id="0">']
    for i, w in enumerate(reversed(windows)):  # AccessibilityWindowInfo lists are top-most first
        root = _root(w, frame.screen, compressed)
        bounds = w.root.bounds.intersect(frame.screen)
        is_active = "true" if w is active else "false"
        out.append(f'<window index="{i}"{attr("title", w.name)} bounds="{bounds.uia()}" active="{is_active}" '
                   f'focused="{is_active}" accessibility-focused="false" id="{i + 1}" '
                   f'layer="{len(windows) - i}" type="{_window_type(w)}">')
        if root is not None:
            out.append(f'<hierarchy rotation="{rotation}">')
            _write(root, out, False, 0)
            out.append("</hierarchy>")
        out.append("</window>")
    out.append("</display></displays>")
    return "".join(out)


def dump(frame: Frame, compressed: bool = False, mode: DumpMode = "active", rotation: int = 0) -> str:
    if mode == "windows":
        return _dump_windows(frame, compressed, rotation)
    if mode == "u2":
        out = [HEADER, f'\n<hierarchy rotation="{rotation}">']
        for window_root in frame_nodes(frame, compressed):
            _write(window_root, out, True, 0)
        out.append("\n</hierarchy>")
        return "".join(out)
    out = [HEADER, f'<hierarchy rotation="{rotation}">']
    active = active_window(dump_windows(frame))
    root = _root(active, frame.screen, compressed) if active is not None else None
    if root is not None:
        _write(root, out, False, 0)
    out.append("</hierarchy>")
    return "".join(out)
