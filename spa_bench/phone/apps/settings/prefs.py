"""Preference screens: a screen lists `Pref`s and the base activity lays them out like AndroidX
Preference does (title/summary rows, switches bound to a setting, sliders, radio choices)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.ui import LINEAR, Canvas, ImageView, Rect, SeekBar, Switch, TextView, View
from spa_bench.phone.ui.view import Callback

PACKAGE = "com.android.settings"
Kind = Literal["link", "switch", "info", "radio", "header", "slider", "main_switch", "text"]


@dataclass(frozen=True)
class Pref:
    kind: Kind
    title: str
    summary: str = ""
    icon: str = ""
    hue: str = "blue"
    checked: bool = False
    on_click: Callback | None = None
    value: int = 0
    maximum: int = 255
    on_set: Callable[[int], None] | None = None
    key: str = ""
    extra: dict[str, str] = field(default_factory=dict)


class RadioButton(View):
    class_name = "android.widget.RadioButton"

    def __init__(self, bounds: Rect, checked: bool, color: tuple[int, int, int]) -> None:
        super().__init__(bounds, rid="android:id/checkbox", checkable=True, checked=checked)
        self.color = color

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        canvas.ellipse(b, None, outline=self.color, width=max(2, b.width // 10))
        if self.checked:
            canvas.ellipse(b.inset(b.width // 4), self.color)


class PreferenceActivity(Activity):
    """A Settings sub-page: top app bar with back arrow, then a scrolling list of preferences."""

    title_key = "app_name"

    def prefs(self) -> Sequence[Pref]:
        raise NotImplementedError

    def overlay(self, area: Rect) -> View | None:
        """A dialog over the page, when one is open (see `record.ui['dialog']`)."""
        return None

    # -- setting-bound helpers -----------------------------------------------------------------------
    def flag(self, namespace: str, key: str, on: str = "1") -> bool:
        return self.ctx.settings_get(namespace, key) == on

    def toggle(self, namespace: str, key: str, on: str = "1", off: str = "0") -> Callback:
        def flip() -> None:
            self.ctx.settings_put(namespace, key, off if self.flag(namespace, key, on) else on)

        return flip

    def switch(
        self,
        title: str,
        namespace: str,
        key: str,
        summary: str = "",
        on: str = "1",
        off: str = "0",
        icon: str = "",
        kind: Kind = "switch",
    ) -> Pref:
        return Pref(
            kind,
            title,
            summary,
            icon=icon,
            checked=self.flag(namespace, key, on),
            on_click=self.toggle(namespace, key, on, off),
            key=key,
        )

    def link(self, title: str, activity: str, summary: str = "", icon: str = "", hue: str = "blue") -> Pref:
        return Pref(
            "link", title, summary, icon=icon, hue=hue, on_click=lambda: self.ctx.start_activity(activity)
        )

    # -- layout ---------------------------------------------------------------------------------------
    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=f"{PACKAGE}:id/main_content")
        bar, bar_h = kit.app_bar(area, self.t(self.title_key), self.ctx.finish, large=True, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        for pref in self.prefs():
            row = self.row(pref, list_area, y)
            rows.append(row)
            y = row.bounds.bottom
        root.add(
            self.scroll_list(list_area, rows, rid=f"{PACKAGE}:id/recycler_view", padding_bottom=kit.dp(24))
        )
        dialog = self.overlay(area)
        if dialog is not None:
            root.add(dialog)
        return root

    def row(self, pref: Pref, area: Rect, top: int) -> View:
        kit = self.kit
        p = kit.palette
        if pref.kind == "header":
            h = kit.dp(48)
            return TextView(
                Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + h),
                pref.title,
                kit.body_medium,
                p.primary,
                rid="android:id/title",
            )
        if pref.kind == "main_switch":
            return self._main_switch(pref, area, top)
        if pref.kind == "slider":
            return self._slider(pref, area, top)
        if pref.kind == "text":
            h = TextView.wrapped_height(pref.title, kit.body_medium, area.width - kit.dp(32), 6) + kit.dp(24)
            return TextView(
                Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + h),
                pref.title,
                kit.body_medium,
                p.on_surface_variant,
                rid="android:id/summary",
                max_lines=6,
            )
        switch = pref.checked if pref.kind == "switch" else None
        row = kit.list_item(
            area,
            top,
            pref.title,
            pref.summary,
            icon=pref.icon,
            hue=pref.hue,
            on_click=pref.on_click,
            switch=switch,
        )
        if pref.kind == "radio":
            s = kit.dp(24)
            cy = row.bounds.center[1]
            x = area.left + kit.dp(20)
            radio = RadioButton(
                Rect(x, cy - s // 2, x + s, cy + s // 2),
                pref.checked,
                p.primary if pref.checked else p.on_surface_variant,
            )
            row.children.insert(0, radio)
            for child in row.children[1:]:
                child.translate(kit.dp(40), 0)
        return row

    def _main_switch(self, pref: Pref, area: Rect, top: int) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        rect = Rect(area.left + kit.dp(16), top + kit.dp(8), area.right - kit.dp(16), top + kit.dp(8) + h)
        bg = p.primary_container if pref.checked else p.surface_high
        bar = View(
            rect,
            class_name=LINEAR,
            rid=f"{PACKAGE}:id/main_switch_bar",
            bg=bg,
            radius=kit.dp(28),
            on_click=pref.on_click,
        )
        fg = p.on_primary_container if pref.checked else p.on_surface
        bar.add(
            TextView(
                Rect(rect.left + kit.dp(24), rect.top, rect.right - kit.dp(96), rect.bottom),
                pref.title,
                kit.dp(20),
                fg,
                rid=f"{PACKAGE}:id/switch_text",
            )
        )
        sw, sh = kit.dp(52), kit.dp(32)
        cy = rect.center[1]
        bar.add(
            Switch(
                Rect(rect.right - kit.dp(24) - sw, cy - sh // 2, rect.right - kit.dp(24), cy + sh // 2),
                pref.checked,
                (p.primary, p.on_primary),
                (p.switch_off_track, p.switch_off_thumb),
                rid=f"{PACKAGE}:id/switch_widget",
                outline=p.outline,
            )
        )
        wrapper = View(
            Rect(area.left, top, area.right, rect.bottom + kit.dp(8)), class_name=LINEAR, children=[bar]
        )
        return wrapper

    def _slider(self, pref: Pref, area: Rect, top: int) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(112)
        row = View(Rect(area.left, top, area.right, top + h), class_name=LINEAR)
        row.add(
            TextView(
                Rect(area.left + kit.dp(16), top + kit.dp(12), area.right - kit.dp(16), top + kit.dp(40)),
                pref.title,
                kit.body_large,
                p.on_surface,
                rid="android:id/title",
            )
        )
        on_set = pref.on_set or (lambda _v: None)
        s = kit.dp(48)
        cy = top + kit.dp(76)
        minus = ImageView(
            Rect(area.left + kit.dp(8), cy - s // 2, area.left + kit.dp(8) + s, cy + s // 2),
            "minus",
            p.on_surface_variant,
            desc=pref.extra.get("down", "-"),
            on_click=lambda: on_set(max(0, pref.value - 16)),
            rid=f"{PACKAGE}:id/minus",
        )
        plus = ImageView(
            Rect(area.right - kit.dp(8) - s, cy - s // 2, area.right - kit.dp(8), cy + s // 2),
            "plus",
            p.on_surface_variant,
            desc=pref.extra.get("up", "+"),
            on_click=lambda: on_set(min(pref.maximum, pref.value + 16)),
            rid=f"{PACKAGE}:id/plus",
        )
        bar = SeekBar(
            Rect(
                minus.bounds.right + kit.dp(8), cy - kit.dp(20), plus.bounds.left - kit.dp(8), cy + kit.dp(20)
            ),
            pref.value,
            pref.maximum,
            on_set=on_set,
            active=p.primary,
            inactive=p.primary_container,
            desc=pref.title,
        )
        row.extend([minus, bar, plus])
        return row
