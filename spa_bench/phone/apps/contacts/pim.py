"""Helpers shared by the personal-information apps (Contacts, Messages, Calendar, Notes, Clock).

- `provider_db`: where a provider package keeps its database (their `Db` and `RoutedProvider` are the
  system's: spa_bench.phone.system.databases and .providers, which the call log uses as well).
- Material 3 pieces the stock widgets lack: a top bar with action icons, a FAB, a navigation bar,
  letter avatars, filter chips; and a lenient time parser for the keyboard-mode time pickers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from spa_bench.phone.apps.base import Activity, AppContext
from spa_bench.phone.apps.contacts import pim_icons as _icons  # noqa: F401  (registers the glyphs)
from spa_bench.phone.ui import FRAME, LINEAR, Canvas, EditText, ImageView, Kit, Rect, TextView, View, tone
from spa_bench.phone.ui.theme import mix
from spa_bench.phone.ui.view import Callback


def provider_db(ctx: AppContext, provider_package: str, name: str) -> Path:
    """Host path of `/data/data/<provider_package>/databases/<name>`: on Android the data of Contacts,
    SMS and Calendar belongs to a separate provider package, not to the app that shows it."""
    return ctx.data_dir().parent / provider_package / "databases" / name


# -- Material pieces ----------------------------------------------------------------------------------
def icon_button(
    kit: Kit,
    rect: Rect,
    name: str,
    desc: str,
    on_click: Callback | None,
    rid: str = "",
    color: tuple[int, int, int] | None = None,
) -> ImageView:
    return ImageView(
        rect,
        name,
        color or kit.palette.on_surface_variant,
        desc=desc,
        rid=rid,
        on_click=on_click,
        scale=0.5,
        circle=kit.palette.background,
    )


def top_bar(
    kit: Kit,
    area: Rect,
    title: str,
    *,
    package: str,
    on_back: Callback | None = None,
    back_desc: str = "Navigate up",
    actions: Sequence[tuple[str, str, Callback, str]] = (),
) -> tuple[View, int]:
    """A small top app bar: optional back arrow, title, and (icon, description, callback, id) actions."""
    p = kit.palette
    h = kit.dp(64)
    bar = View(area.with_height(h), class_name=FRAME, rid=f"{package}:id/toolbar", bg=p.background)
    s = kit.dp(48)
    top = area.top + kit.dp(8)
    left = area.left + kit.dp(16)
    if on_back is not None:
        bar.add(
            icon_button(
                kit,
                Rect(area.left + kit.dp(4), top, area.left + kit.dp(4) + s, top + s),
                "arrow_back",
                back_desc,
                on_back,
                color=p.on_surface,
            )
        )
        left = area.left + kit.dp(64)
    right = area.right - kit.dp(4)
    for name, desc, cb, rid in reversed(actions):
        bar.add(
            icon_button(
                kit,
                Rect(right - s, top, right, top + s),
                name,
                desc,
                cb,
                rid=f"{package}:id/{rid}" if rid else "",
            )
        )
        right -= s
    bar.add(
        TextView(
            Rect(left, area.top, right - kit.dp(4), area.top + h),
            title,
            kit.title_large,
            p.on_surface,
            rid=f"{package}:id/toolbar_title",
        )
    )
    return bar, h


class Fab(View):
    """A Material 3 floating action button (extended when it has a label)."""

    class_name = "android.widget.ImageButton"

    def __init__(
        self, kit: Kit, area: Rect, icon: str, desc: str, on_click: Callback, rid: str, label: str = ""
    ) -> None:
        s = kit.dp(56)
        w = s if not label else kit.dp(72) + round(_text_width(label, kit.body_large))
        right, bottom = area.right - kit.dp(16), area.bottom - kit.dp(16)
        super().__init__(Rect(right - w, bottom - s, right, bottom), rid=rid, desc=desc, on_click=on_click)
        if label:
            self.class_name = "android.widget.Button"
            self.text = label
        self.kit, self.icon, self.label = kit, icon, label
        self.size = _sp(kit.body_large)  # scaled as it is built, as its width was measured

    def paint(self, canvas: Canvas) -> None:
        p = self.kit.palette
        b = self.bounds
        canvas.fill(b, p.primary_container, self.kit.dp(16))
        s = self.kit.dp(24)
        cx = b.left + self.kit.dp(16) + s // 2 if self.label else b.center[0]
        cy = b.center[1]
        canvas.icon(
            self.icon, Rect(cx - s // 2, cy - s // 2, cx + s // 2, cy + s // 2), p.on_primary_container
        )
        if self.label:
            canvas.text(
                cx + s // 2 + self.kit.dp(12),
                cy,
                self.label,
                self.size,
                p.on_primary_container,
                "lm",
                bold=True,
            )


def _text_width(text: str, size: int) -> float:
    from spa_bench.phone.ui.fonts import text_width

    return text_width(text, size)


def _sp(size: int) -> int:
    from spa_bench.phone.ui.fonts import sp

    return sp(size)


def nav_bar(kit: Kit, area: Rect, items: Sequence[tuple[str, str, bool, Callback, str]]) -> tuple[View, int]:
    """A bottom navigation bar: (icon, label, selected, callback, id) per destination."""
    p = kit.palette
    h = kit.dp(80)
    rect = Rect(area.left, area.bottom - h, area.right, area.bottom)
    bar = View(rect, class_name=LINEAR, rid="navigation_bar", bg=p.surface_high)
    w = rect.width // max(1, len(items))
    for i, (icon, label, selected, cb, rid) in enumerate(items):
        cell = Rect(rect.left + i * w, rect.top, rect.left + (i + 1) * w, rect.bottom)
        item = View(cell, rid=rid, desc=label, on_click=cb, selected=selected, class_name=FRAME)
        cx = cell.center[0]
        pill = Rect(cx - kit.dp(32), cell.top + kit.dp(12), cx + kit.dp(32), cell.top + kit.dp(44))
        if selected:
            item.add(View(pill, bg=p.primary_container, radius=pill.height // 2))
        s = kit.dp(24)
        item.add(
            ImageView(
                Rect(cx - s // 2, pill.center[1] - s // 2, cx + s // 2, pill.center[1] + s // 2),
                icon,
                p.on_primary_container if selected else p.on_surface_variant,
            )
        )
        item.add(
            TextView(
                Rect(cell.left, pill.bottom + kit.dp(2), cell.right, cell.bottom - kit.dp(8)),
                label,
                kit.label,
                p.on_surface,
                align="center",
                bold=selected,
            )
        )
        bar.add(item)
    return bar, h


class Avatar(View):
    """A letter avatar (first character of the name on a tonal circle)."""

    class_name = "android.widget.ImageView"

    def __init__(self, kit: Kit, rect: Rect, name: str) -> None:
        super().__init__(rect)
        hues = ("blue", "green", "orange", "purple", "pink", "teal", "red", "yellow")
        self.bg_color, self.fg = tone(hues[sum(map(ord, name or "?")) % len(hues)], kit.palette.dark)
        self.letter = (name.strip()[:1] or "?").upper()

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        canvas.ellipse(b, self.bg_color)
        canvas.text(b.center[0], b.center[1], self.letter, round(b.height * 0.45), self.fg, "mm")


def chip(
    kit: Kit,
    rect: Rect,
    text: str,
    selected: bool,
    on_click: Callback | None,
    rid: str = "",
    desc: str = "",
    round_: bool = False,
) -> View:
    """A filter chip (or a round day toggle when `round_`): `selected` fills it."""
    p = kit.palette
    radius = rect.height // 2 if round_ else kit.dp(8)
    box = View(
        rect,
        rid=rid,
        desc=desc,
        on_click=on_click,
        checkable=True,
        checked=selected,
        class_name="android.widget.CompoundButton",
        bg=p.primary if selected else p.surface_high,
        radius=radius,
    )
    box.add(
        TextView(
            rect, text, kit.body_medium, p.on_primary if selected else p.on_surface_variant, align="center"
        )
    )
    return box


# -- time ---------------------------------------------------------------------------------------------
_TIME = re.compile(
    r"^\s*(上午|下午|晚上|早上|中午)?\s*(\d{1,2})(?:[:：.点時时]\s*(\d{1,2})?分?)?\s*(am|pm|a\.m\.|p\.m\.)?\s*$",
    re.IGNORECASE,
)


def parse_time(text: str) -> tuple[int, int] | None:
    """`7:30`, `07:30`, `7:30 pm`, `19:30`, `下午3点`, `9` -> (hour, minute) in 24 h, or None."""
    m = _TIME.match(text)
    if not m:
        return None
    zh, hour, minute, ampm = m.group(1), int(m.group(2)), int(m.group(3) or 0), (m.group(4) or "").lower()
    if minute > 59 or hour > 23:
        return None
    pm = ampm.startswith("p") or zh in ("下午", "晚上") or (zh == "中午" and hour < 11)
    if (ampm or zh) and hour <= 12:
        hour = hour % 12 + (12 if pm else 0)
    return hour, minute


def format_time(hour: int, minute: int, use_24h: bool) -> str:
    if use_24h:
        return f"{hour:02d}:{minute:02d}"
    return f"{(hour % 12) or 12}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def use_24h(ctx: AppContext) -> bool:
    """The phone's 12/24-hour setting (`time_12_24`), defaulting by locale as Android does."""
    fmt = ctx.settings_get("system", "time_12_24")
    return fmt == "24" if fmt in ("12", "24") else ctx.locale == "zh"


def form(
    activity: Activity, area: Rect, top: int, fields: Sequence[tuple[str, str, str]], package: str
) -> tuple[list[View], int]:
    """Labelled text fields stacked from `top`: (key, label, id) each; values live in the record."""
    kit = activity.kit
    p = kit.palette
    views: list[View] = []
    y = top
    for key, label, rid in fields:
        views.append(
            TextView(
                Rect(area.left + kit.dp(20), y, area.right - kit.dp(20), y + kit.dp(20)),
                label,
                kit.label,
                p.primary,
                rid=f"{package}:id/{rid}_label",
            )
        )
        y += kit.dp(22)
        views.append(
            activity.text_field(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(52)),
                key,
                label,
                rid=f"{package}:id/{rid}",
            )
        )
        y += kit.dp(64)
    return views, y


def prefill(activity: Activity, values: dict[str, str]) -> None:
    """Put an entity's values into the form fields once, when an editor opens."""
    if activity.record.ui.get("loaded"):
        return
    activity.record.ui["loaded"] = True
    for key, value in values.items():
        activity.record.ui[f"text:{key}"] = value


def field(activity: Activity, key: str) -> str:
    return str(activity.ui(f"text:{key}", "")).strip()


class TextArea(EditText):
    """An EditText laid out over several lines: wrapped text from the top, the cursor after the last
    character. Made by `text_area`, multi-line unless told (a title that wraps but takes no newline)."""

    def _lines(self) -> list[tuple[int, str]]:
        """The wrapped lines that fit, each with the index in `value` of its first character."""
        from spa_bench.phone.ui import fonts

        b = self.bounds
        pad = max(8, self.size // 2)
        lh = TextView.line_height(self.size)
        max_lines = max(1, (b.height - pad) // lh)
        text = self.value or self.hint
        lines: list[tuple[int, str]] = []
        start = 0
        for para in text.split("\n"):
            at = start
            for line in fonts.wrap(para, self.size, b.width - 2 * pad, max_lines) or [""]:
                found = text.find(line, at) if line else at
                at = found if found >= 0 else at
                lines.append((at, line))
                at += len(line)
            start += len(para) + 1
        return lines[:max_lines]

    def index_at(self, x: int, y: int) -> int:
        from spa_bench.phone.ui import fonts

        pad = max(8, self.size // 2)
        lines = self._lines()
        if not self.value or not lines:
            return 0
        row = min(len(lines) - 1, max(0, (y - self.bounds.top - pad) // TextView.line_height(self.size)))
        first, line = lines[row]
        for i in range(len(line)):
            if self.bounds.left + pad + fonts.text_width(line[: i + 1], self.size) > x:
                return first + i
        return first + max(0, len(line) - 1)

    def paint(self, canvas: Canvas) -> None:
        from spa_bench.phone.ui import fonts

        b = self.bounds
        if self.bg is not None:
            canvas.fill(b, self.bg, self.radius)
        pad = max(8, self.size // 2)
        lh = TextView.line_height(self.size)
        lines = self._lines()
        color = self.fg if self.value else self.hint_color
        for i, (first, line) in enumerate(lines):
            cy = b.top + pad + lh * (i + 0.5)
            if self.selection is not None and self.value:
                start = min(max(self.selection[0] - first, 0), len(line))
                end = min(max(self.selection[1] - first, 0), len(line))
                if end > start:
                    x0 = b.left + pad + fonts.text_width(line[:start], self.size)
                    x1 = b.left + pad + fonts.text_width(line[:end], self.size)
                    canvas.fill(Rect(round(x0), round(cy - lh / 2), round(x1), round(cy + lh / 2)),
                                mix(self.accent, (255, 255, 255), 0.7))
            canvas.text(b.left + pad, cy, line, self.size, color)
        if self.focused and self.selection is None:
            last = lines[-1][1] if self.value and lines else ""
            x = b.left + pad + fonts.text_width(last, self.size) + 2
            cy = b.top + pad + lh * (len(lines) - 0.5 if self.value else 0.5)
            half = round(self.size * 0.65)
            canvas.line(x, cy - half, x, cy + half, self.accent, max(2, self.size // 14))


def text_area(
    kit: Kit,
    rect: Rect,
    key: str,
    value: str,
    hint: str,
    focused: bool,
    on_change: Callable[[str], None],
    rid: str,
    size: int = 0,
    multi_line: bool = True,
    on_submit: Callable[[], None] | None = None,
) -> TextArea:
    p = kit.palette
    return TextArea(
        rect,
        key,
        value,
        hint,
        size or kit.body_large,
        fg=p.on_surface,
        hint_color=p.on_surface_variant,
        bg=None,
        focused=focused,
        on_change=on_change,
        rid=rid,
        accent=p.primary,
        underline=False,
        multi_line=multi_line,
        on_submit=on_submit,
    )
