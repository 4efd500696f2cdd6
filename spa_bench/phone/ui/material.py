"""Material 3 building blocks composed from widgets: top app bar, list items, search bar, dialogs,
toasts. A `Kit` carries the metrics and palette so app screens read like a layout file."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.geometry import Metrics, Rect
from spa_bench.phone.ui.theme import Palette, tone
from spa_bench.phone.ui.view import Callback, View
from spa_bench.phone.ui.widgets import Button, EditText, ImageView, Switch, TextView

LINEAR = "android.widget.LinearLayout"
FRAME = "android.widget.FrameLayout"


class Scrim(View):
    """The translucent layer behind a dialog; tapping it dismisses the dialog."""

    def __init__(self, bounds: Rect, on_click: Callback | None) -> None:
        super().__init__(bounds, class_name=FRAME)
        self.on_click = on_click
        self.clickable = False  # taps reach it through `hit` below, but the dump shows a plain layout
        # A dialog's panel: on Android a dialog is a window of its own, so dumps show it apart from the
        # activity's window (and `uiautomator dump`, whose active window it is, shows only it).
        self.dialog_panel: View | None = None

    def paint(self, canvas: Canvas) -> None:
        canvas.fill(self.bounds, (0, 0, 0, 96))

    def hit(self, x: int, y: int, clip: Rect) -> View | None:
        found = super().hit(x, y, clip)
        return found if found is not None else (self if self.bounds.contains(x, y) else None)


@dataclass(frozen=True)
class Kit:
    metrics: Metrics
    palette: Palette

    def dp(self, v: float) -> int:
        return self.metrics.dp(v)

    # text sizes (sp == dp at font scale 1)
    @property
    def title_large(self) -> int:
        return self.dp(22)

    @property
    def body_large(self) -> int:
        return self.dp(16)

    @property
    def body_medium(self) -> int:
        return self.dp(14)

    @property
    def label(self) -> int:
        return self.dp(12)

    def app_bar(
        self, area: Rect, title: str, on_back: Callback | None, *, large: bool = False, package: str = ""
    ) -> tuple[View, int]:
        """The top app bar with a back arrow; returns (view, height)."""
        p = self.palette
        h = self.dp(112 if large else 64)
        bar = View(
            area.with_height(h),
            rid=f"{package}:id/app_bar" if package else "",
            class_name=FRAME,
            bg=p.background,
        )
        if on_back is not None:
            s = self.dp(48)
            top = area.top + self.dp(8)
            bar.add(
                ImageView(
                    Rect(area.left + self.dp(4), top, area.left + self.dp(4) + s, top + s),
                    "arrow_back",
                    p.on_surface,
                    desc="Navigate up",
                    on_click=on_back,
                    scale=0.5,
                    circle=p.background,
                )
            )
        if large:
            tb = Rect(
                area.left + self.dp(16),
                area.top + self.dp(60),
                area.right - self.dp(16),
                area.top + self.dp(104),
            )
            bar.add(TextView(tb, title, self.dp(32), p.on_surface, rid="android:id/title"))
        else:
            left = area.left + self.dp(64 if on_back else 16)
            bar.add(
                TextView(
                    Rect(left, area.top, area.right - self.dp(16), area.top + h),
                    title,
                    self.title_large,
                    p.on_surface,
                    rid="android:id/title",
                )
            )
        return bar, h

    def icon_circle(self, rect: Rect, icon: str, hue: str, desc: str = "") -> ImageView:
        bg, fg = tone(hue, self.palette.dark)
        return ImageView(rect, icon, fg, circle=bg, desc=desc, rid="android:id/icon", scale=0.55)

    def list_item(
        self,
        area: Rect,
        top: int,
        title: str,
        summary: str = "",
        *,
        icon: str = "",
        hue: str = "blue",
        on_click: Callback | None = None,
        switch: bool | None = None,
        widget: View | None = None,
        card: bool = False,
        radius: int = 0,
        rid: str = "",
        enabled: bool = True,
        selected: bool = False,
    ) -> View:
        """A preference row (icon, title, summary, optional switch); its top is `top`, height fits."""
        p = self.palette
        pad = self.dp(16)
        text_left = area.left + pad + (self.dp(56) if icon else 0)
        text_right = area.right - pad - (self.dp(68) if switch is not None else 0)
        summary_lines = 0
        if summary:
            summary_lines = len(_wrap(summary, self.body_medium, text_right - text_left))
        text_h = TextView.line_height(self.body_large) + summary_lines * TextView.line_height(
            self.body_medium
        )
        h = max(self.dp(72 if summary else 56), text_h + self.dp(24))
        rect = Rect(area.left, top, area.right, top + h)
        row = View(
            rect,
            rid=rid,
            class_name=LINEAR,
            on_click=on_click,
            enabled=enabled,
            bg=p.surface if card else None,
            radius=radius,
            selected=selected,
        )
        if icon:
            s = self.dp(40)
            cy = rect.center[1]
            row.add(
                self.icon_circle(
                    Rect(area.left + pad, cy - s // 2, area.left + pad + s, cy + s // 2), icon, hue
                )
            )
        ty = rect.center[1] - text_h // 2
        lh = TextView.line_height(self.body_large)
        fg = p.on_surface if enabled else p.outline
        row.add(
            TextView(
                Rect(text_left, ty, text_right, ty + lh), title, self.body_large, fg, rid="android:id/title"
            )
        )
        if summary:
            sh = summary_lines * TextView.line_height(self.body_medium)
            row.add(
                TextView(
                    Rect(text_left, ty + lh, text_right, ty + lh + sh),
                    summary,
                    self.body_medium,
                    p.on_surface_variant,
                    rid="android:id/summary",
                    max_lines=3,
                )
            )
        if switch is not None:
            sw, sh2 = self.dp(52), self.dp(32)
            cy = rect.center[1]
            row.add(
                Switch(
                    Rect(area.right - pad - sw, cy - sh2 // 2, area.right - pad, cy + sh2 // 2),
                    switch,
                    (p.primary, p.on_primary),
                    (p.switch_off_track, p.switch_off_thumb),
                    outline=p.outline,
                )
            )
        if widget is not None:
            row.add(widget)
        return row

    def search_bar(self, rect: Rect, hint: str, *, on_click: Callback | None = None, rid: str = "") -> View:
        p = self.palette
        bar = View(
            rect, rid=rid, class_name=LINEAR, bg=p.surface_high, radius=rect.height // 2, on_click=on_click
        )
        s = self.dp(24)
        cy = rect.center[1]
        bar.add(
            ImageView(
                Rect(rect.left + self.dp(16), cy - s // 2, rect.left + self.dp(16) + s, cy + s // 2),
                "search",
                p.on_surface_variant,
                desc="",
            )
        )
        bar.add(
            TextView(
                Rect(rect.left + self.dp(56), rect.top, rect.right - self.dp(16), rect.bottom),
                hint,
                self.body_large,
                p.on_surface_variant,
                rid="android:id/search_src_text",
            )
        )
        return bar

    def text_field(
        self,
        rect: Rect,
        key: str,
        value: str,
        hint: str,
        focused: bool,
        on_change: Callable[[str], None],
        on_submit: Callback | None = None,
        rid: str = "android:id/edit",
        password: bool = False,
        multi_line: bool = False,
    ) -> EditText:
        p = self.palette
        return EditText(
            rect,
            key,
            value,
            hint,
            self.body_large,
            fg=p.on_surface,
            hint_color=p.on_surface_variant,
            bg=p.surface_high,
            focused=focused,
            on_change=on_change,
            on_submit=on_submit,
            rid=rid,
            password=password,
            accent=p.primary,
            radius=self.dp(4),
            multi_line=multi_line,
        )

    def dialog(
        self,
        screen: Rect,
        title: str,
        body: Sequence[View] | str,
        buttons: Sequence[tuple[str, Callback]],
        on_dismiss: Callback | None,
        body_height: int = 0,
    ) -> View:
        """A centred Material dialog over a scrim. `body` views are laid out from the body's top
        (the caller builds them with `dialog_body_rect`)."""
        p = self.palette
        w = screen.width - self.dp(48)
        inner_w = w - self.dp(48)
        if isinstance(body, str):
            body_height = TextView.wrapped_height(body, self.body_medium, inner_w, 8)
        title_h = TextView.wrapped_height(title, self.dp(24), inner_w, 2)
        chrome = self.dp(24) + title_h + self.dp(16) + self.dp(24) + self.dp(40) + self.dp(24)
        # a floating window stays in the area it is given (above the keyboard): a body too tall for it
        # is cut to fit, showing the focused field, as AlertDialog's scrolling panel does; the title and
        # the buttons stay in view (a small screen, a large font scale, the keyboard up)
        shown_h = max(min(body_height, self.dp(48)), min(body_height, screen.height - self.dp(32) - chrome))
        h = chrome + shown_h
        left = screen.left + self.dp(24)
        top = screen.center[1] - h // 2
        scrim = Scrim(screen, on_dismiss)
        box = View(
            Rect(left, top, left + w, top + h),
            class_name=FRAME,
            bg=p.surface_high,
            radius=self.dp(28),
            rid="android:id/parentPanel",
        )
        y = top + self.dp(24)
        box.add(
            TextView(
                Rect(left + self.dp(24), y, left + w - self.dp(24), y + title_h),
                title,
                self.dp(24),
                p.on_surface,
                rid="android:id/alertTitle",
                max_lines=2,
            )
        )
        y += title_h + self.dp(16)
        body_rect = Rect(left + self.dp(24), y, left + w - self.dp(24), y + body_height)
        views: list[View] = (
            [TextView(body_rect, body, self.body_medium, p.on_surface_variant, rid="android:id/message",
                      max_lines=8)]
            if isinstance(body, str) else list(body)
        )
        if not isinstance(body, str):
            for v in views:
                v.translate(body_rect.left, body_rect.top)
        if shown_h < body_height:
            panel = _ClippedPanel(body_rect.with_height(shown_h), views)
            panel.translate_children(-_focus_offset(views, body_rect.top, shown_h, body_height))
            box.add(panel)
        else:
            for v in views:
                box.add(v)
        y += shown_h + self.dp(24)
        right = left + w - self.dp(24)
        for i, (text, cb) in enumerate(reversed(buttons)):
            bw = max(self.dp(64), round(_text_w(text, self.body_medium)) + self.dp(24))
            box.add(
                Button(
                    Rect(right - bw, y, right, y + self.dp(40)),
                    text,
                    self.body_medium,
                    p.primary,
                    None,
                    on_click=cb,
                    rid=f"android:id/button{i + 1}",
                )
            )
            right -= bw + self.dp(8)
        scrim.add(box)
        scrim.dialog_panel = box
        return scrim

    def toast(self, screen: Rect, message: str, bottom: int) -> View:
        p = self.palette
        size = self.body_medium
        # ceil, not round: a text a fraction of a pixel wider than its box is ellipsized ("Sent" -> "S…")
        w = min(screen.width - self.dp(48), math.ceil(_text_w(message, size)) + self.dp(32))
        h = self.dp(48)
        cx = screen.center[0]
        rect = Rect(cx - w // 2, bottom - self.dp(64) - h, cx - w // 2 + w, bottom - self.dp(64))
        bg = (60, 60, 64) if not p.dark else (227, 226, 230)
        fg = (240, 240, 244) if not p.dark else (30, 32, 38)
        box = View(rect, class_name=FRAME, bg=bg, radius=h // 2)
        box.add(
            TextView(rect.inset(self.dp(16), 0), message, size, fg, rid="android:id/message", align="center")
        )
        box.class_name = "android.widget.Toast"
        return box


class _ClippedPanel(View):
    """AlertDialog's scrolling panel (android:id/scrollView) when the body is taller than the room left:
    its children are clipped to it, so the dump and the taps see only what shows."""

    class_name = "android.widget.ScrollView"

    def __init__(self, bounds: Rect, children: Sequence[View]) -> None:
        super().__init__(bounds, rid="android:id/scrollView", children=children)

    def translate_children(self, dy: int) -> None:
        for c in self.children:
            c.translate(0, dy)

    def child_clip(self, clip: Rect) -> Rect:
        return clip.intersect(self.bounds)


def _focus_offset(views: Sequence[View], top: int, shown: int, full: int) -> int:
    """How far the cut body scrolls so that its focused field shows (ScrollView's requestChildFocus)."""
    for root in views:
        for v in root.walk():
            if isinstance(v, EditText) and v.focused:
                return min(full - shown, max(0, v.bounds.bottom - top - shown))
    return 0


def _wrap(text: str, size: int, width: int) -> list[str]:
    from spa_bench.phone.ui.fonts import wrap

    return wrap(text, size, width, 3)


def _text_w(text: str, size: int) -> float:
    from spa_bench.phone.ui.fonts import text_width

    return text_width(text, size)
