"""The floating context menu a long press opens (Material 3 menu: a surface-container card of 48 dp rows).

As Android's PopupMenu/ContextMenu, the menu is a `ListView` whose rows are clickable `LinearLayout`s
holding an `android:id/title` TextView; a tap outside closes it without choosing. It opens below the
pressed row, or above it when there is no room, and is inset from the screen edges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.material import FRAME, LINEAR, Kit
from spa_bench.phone.ui.view import Callback, View
from spa_bench.phone.ui.widgets import TextView


@dataclass(frozen=True)
class MenuItem:
    title: str
    action: Callable[[], object]
    rid: str = ""  # the item's id in the app (e.g. "com.google.android.keep:id/menu_pin"), for selectors


class _Outside(View):
    """A transparent layer under the menu: a tap on it closes the menu, like a PopupWindow's outside touch."""

    def __init__(self, bounds: Rect, on_dismiss: Callback) -> None:
        super().__init__(bounds, class_name=FRAME)
        self.on_click = on_dismiss
        self.clickable = False  # not a control of the app: the dump shows a plain layout

    def hit(self, x: int, y: int, clip: Rect) -> View | None:
        found = super().hit(x, y, clip)
        return found if found is not None else (self if self.bounds.contains(x, y) else None)


class ElevatedCard(View):
    """The menu's surface with a soft shadow (elevation 3)."""

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        canvas.fill(b.offset(0, max(1, self.radius // 2)), (0, 0, 0, 40), self.radius)
        super().paint(canvas)


def context_menu(
    kit: Kit,
    area: Rect,
    anchor: Rect,
    items: Sequence[MenuItem],
    on_dismiss: Callable[[], None],
    cover: Rect | None = None,
) -> View:
    """The menu for a long press on `anchor`, placed inside `area` (the list); a tap anywhere in `cover`
    (default `area`; the whole window, so the app bar too) outside the menu closes it."""
    p = kit.palette
    row_h = kit.dp(48)
    pad = kit.dp(12)
    from spa_bench.phone.ui.fonts import text_width

    widest = max((text_width(i.title, kit.body_large) for i in items), default=0)
    width = min(kit.dp(280), max(kit.dp(160), round(widest) + 2 * pad + kit.dp(16)))
    height = len(items) * row_h + kit.dp(16)
    left = min(max(area.left + kit.dp(8), anchor.left + kit.dp(24)), area.right - kit.dp(8) - width)
    top = anchor.bottom - kit.dp(8)
    if top + height > area.bottom - kit.dp(8):
        top = max(area.top + kit.dp(8), anchor.top + kit.dp(8) - height)
    layer = _Outside(cover or area, on_dismiss)
    card = ElevatedCard(Rect(left, top, left + width, top + height), class_name="android.widget.ListView",
                 bg=p.surface_high, radius=kit.dp(4), rid="android:id/list")
    y = top + kit.dp(8)
    for item in items:
        row = View(Rect(left, y, left + width, y + row_h), class_name=LINEAR, rid=item.rid,
                   on_click=_then(item.action, on_dismiss))
        row.add(TextView(Rect(left + pad + kit.dp(4), y, left + width - pad, y + row_h), item.title,
                         kit.body_large, p.on_surface, rid="android:id/title"))
        card.add(row)
        y += row_h
    layer.add(card)
    return layer


def _then(action: Callable[[], object], close: Callback) -> Callback:
    def run() -> None:
        close()
        action()

    return run
