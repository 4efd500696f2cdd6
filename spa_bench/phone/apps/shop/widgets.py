"""Material 3 pieces the Shop and the apps built on its widgets share: filter chips, a bottom navigation
bar, icon buttons, a large title with a search button, and a product thumbnail."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spa_bench.phone.ui import FRAME, LINEAR, Callback, Canvas, ImageView, Kit, Rect, TextView, View, tone
from spa_bench.phone.ui.fonts import ellipsize, sp, text_width

CHIP = "com.google.android.material.chip.Chip"


class Chip(View):
    """A Material filter chip: one node carrying its text (as `Chip` does), painted with a check mark
    when selected."""

    class_name = CHIP

    def __init__(
        self, bounds: Rect, text: str, selected: bool, on_click: Callback | None, rid: str, kit: Kit
    ) -> None:
        p = kit.palette
        super().__init__(
            bounds,
            rid=rid,
            text=text,
            on_click=on_click,
            checkable=True,
            checked=selected,
            bg=p.primary_container if selected else p.surface_high,
            radius=kit.dp(8),
        )
        self.kit = kit
        self.size = sp(kit.body_medium)  # scaled as it is built, like TextView's

    def paint(self, canvas: Canvas) -> None:
        super().paint(canvas)
        kit, b = self.kit, self.bounds
        p = kit.palette
        fg = p.on_primary_container if self.checked else p.on_surface_variant
        left = b.left + kit.dp(16)
        if self.checked:
            s = kit.dp(18)
            cy = b.center[1]
            canvas.icon(
                "check", Rect(b.left + kit.dp(8), cy - s // 2, b.left + kit.dp(8) + s, cy + s // 2), fg
            )
            left = b.left + kit.dp(30)
        size = self.size
        canvas.text(left, b.center[1], ellipsize(self.text, size, b.right - left - kit.dp(8)), size, fg)


def chip(
    kit: Kit,
    left: int,
    top: int,
    text: str,
    selected: bool,
    on_click: Callback | None,
    rid: str = "",
    max_right: int | None = None,
) -> Chip:
    """A chip sized to its label, with its top-left at (left, top)."""
    w = round(text_width(text, kit.body_medium)) + kit.dp(34 if not selected else 46)
    if max_right is not None:
        w = min(w, max_right - left)
    return Chip(Rect(left, top, left + w, top + kit.dp(36)), text, selected, on_click, rid, kit)


def icon_button(
    kit: Kit,
    rect: Rect,
    glyph: str,
    desc: str,
    on_click: Callback | None,
    rid: str = "",
    color: tuple[int, int, int] | None = None,
) -> ImageView:
    p = kit.palette
    return ImageView(
        rect,
        glyph,
        color or p.on_surface_variant,
        desc=desc,
        rid=rid,
        on_click=on_click,
        circle=p.background,
        scale=0.5,
    )


def title_with_search(kit: Kit, area: Rect, title: str, *, size_dp: int, color: tuple[int, int, int],
                      rid: str, search_desc: str, on_search: Callback) -> list[View]:
    """A main screen's large title at the top left and a search button at the top right (ids
    `<rid>title` and `<rid>search`); the content below starts 64 dp down."""
    s = kit.dp(48)
    return [
        TextView(Rect(area.left + kit.dp(16), area.top + kit.dp(8), area.right - kit.dp(72),
                      area.top + kit.dp(60)),
                 title, kit.dp(size_dp), color, rid=rid + "title", bold=True),
        icon_button(kit, Rect(area.right - kit.dp(8) - s, area.top + kit.dp(10), area.right - kit.dp(8),
                              area.top + kit.dp(10) + s),
                    "search", search_desc, on_search, rid=rid + "search"),
    ]


@dataclass(frozen=True)
class NavItem:
    key: str
    label: str
    glyph: str
    selected: bool
    on_click: Callback
    badge: int = 0


def bottom_nav(kit: Kit, area: Rect, items: Sequence[NavItem], package: str) -> tuple[View, int]:
    """Material 3 navigation bar at the bottom of `area`: (view, height)."""
    p = kit.palette
    h = kit.dp(80)
    rect = Rect(area.left, area.bottom - h, area.right, area.bottom)
    bar = View(rect, class_name=FRAME, rid=f"{package}:id/bottom_navigation", bg=p.surface_high)
    w = rect.width // max(1, len(items))
    for i, item in enumerate(items):
        cell = Rect(rect.left + i * w, rect.top, rect.left + (i + 1) * w, rect.bottom)
        node = View(
            cell,
            class_name=LINEAR,
            rid=f"{package}:id/nav_{item.key}",
            desc=item.label,
            on_click=item.on_click,
            selected=item.selected,
        )
        pill = Rect(
            cell.center[0] - kit.dp(32),
            cell.top + kit.dp(12),
            cell.center[0] + kit.dp(32),
            cell.top + kit.dp(44),
        )
        if item.selected:
            node.add(View(pill, bg=p.primary_container, radius=kit.dp(16)))
        s = kit.dp(24)
        node.add(
            ImageView(
                Rect(
                    pill.center[0] - s // 2,
                    pill.center[1] - s // 2,
                    pill.center[0] + s // 2,
                    pill.center[1] + s // 2,
                ),
                item.glyph,
                p.on_primary_container if item.selected else p.on_surface_variant,
            )
        )
        if item.badge:
            b = kit.dp(16)
            badge = View(
                Rect(
                    pill.center[0] + kit.dp(6),
                    pill.top - kit.dp(2),
                    pill.center[0] + kit.dp(6) + b,
                    pill.top - kit.dp(2) + b,
                ),
                bg=p.error,
                radius=b // 2,
            )
            badge.add(TextView(badge.bounds, str(item.badge), kit.dp(11), (255, 255, 255), align="center"))
            node.add(badge)
        node.add(
            TextView(
                Rect(cell.left, cell.top + kit.dp(48), cell.right, cell.top + kit.dp(70)),
                item.label,
                kit.label,
                p.on_surface if item.selected else p.on_surface_variant,
                align="center",
            )
        )
        bar.add(node)
    return bar, h


def thumbnail(kit: Kit, rect: Rect, glyph: str, hue: str) -> View:
    """A product picture stand-in: the category pictogram on a tinted tile."""
    bg, fg = tone(hue, kit.palette.dark)
    return ImageView(rect, glyph, fg, circle=bg, rounded=kit.dp(12), scale=0.5)
