"""The widgets: text, icons, buttons, switches, text fields, sliders and scrolling lists."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from spa_bench.phone.ui import fonts
from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.theme import RGB, mix
from spa_bench.phone.ui.view import Callback, View

Align = Literal["left", "center", "right"]


class TextView(View):
    """Single-line (ellipsized) or wrapped text. `size` is in pixels at font scale 1 (sp): the view keeps
    it scaled by the font scale active while it is built (spa_bench.phone.ui.fonts)."""

    class_name = "android.widget.TextView"

    def __init__(
        self,
        bounds: Rect,
        text: str,
        size: int,
        color: RGB,
        *,
        rid: str = "",
        align: Align = "left",
        bold: bool = False,
        max_lines: int = 1,
        on_click: Callback | None = None,
        desc: str = "",
    ) -> None:
        super().__init__(bounds, rid=rid, text=text, on_click=on_click, desc=desc)
        self.size = fonts.sp(size)
        self.color = color
        self.align = align
        self.bold = bold
        self.max_lines = max_lines

    @staticmethod
    def line_height(size: int) -> int:
        """The height of one line of text of `size` sp at the active font scale."""
        return round(fonts.sp(size) * 1.45)

    def paint(self, canvas: Canvas) -> None:
        super().paint(canvas)
        b = self.bounds
        x = {"left": b.left, "center": (b.left + b.right) / 2, "right": b.right}[self.align]
        anchor: Literal["lm", "mm", "rm"] = (
            "lm" if self.align == "left" else ("mm" if self.align == "center" else "rm")
        )
        if self.max_lines <= 1:
            canvas.text(
                x,
                (b.top + b.bottom) / 2,
                fonts.ellipsize(self.text, self.size, b.width),
                self.size,
                self.color,
                anchor,
                self.bold,
            )
            return
        lines = fonts.wrap(self.text, self.size, b.width, self.max_lines)
        lh = self.line_height(self.size)
        top = (b.top + b.bottom) / 2 - lh * len(lines) / 2
        for i, line in enumerate(lines):
            canvas.text(x, top + lh * (i + 0.5), line, self.size, self.color, anchor, self.bold)

    @classmethod
    def wrapped_height(cls, text: str, size: int, width: int, max_lines: int = 3) -> int:
        return cls.line_height(size) * len(fonts.wrap(text, size, width, max_lines))


class ImageView(View):
    """A vector icon, optionally on a filled circle (Settings' tonal icon circles, app icons)."""

    class_name = "android.widget.ImageView"

    def __init__(
        self,
        bounds: Rect,
        icon: str,
        color: RGB,
        *,
        circle: RGB | None = None,
        desc: str = "",
        rid: str = "",
        scale: float = 0.55,
        on_click: Callback | None = None,
        rounded: int = 0,
    ) -> None:
        super().__init__(bounds, rid=rid, desc=desc, on_click=on_click)
        self.icon = icon
        self.color = color
        self.circle = circle
        self.scale = scale if circle is not None else 1.0
        self.rounded = rounded

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        if self.circle is not None:
            if self.rounded:
                canvas.fill(b, self.circle, self.rounded)
            else:
                canvas.ellipse(b, self.circle)
        side = round(min(b.width, b.height) * self.scale)
        cx, cy = b.center
        canvas.icon(
            self.icon,
            Rect(cx - side // 2, cy - side // 2, cx - side // 2 + side, cy - side // 2 + side),
            self.color,
        )


class Button(View):
    """A Material button: filled, tonal, outlined or text."""

    class_name = "android.widget.Button"

    def __init__(
        self,
        bounds: Rect,
        text: str,
        size: int,
        fg: RGB,
        bg: RGB | None,
        *,
        on_click: Callback | None,
        rid: str = "",
        outline: RGB | None = None,
        enabled: bool = True,
    ) -> None:
        super().__init__(bounds, rid=rid, text=text, on_click=on_click, enabled=enabled)
        self.size = fonts.sp(size)
        self.fg = fg
        self.fill_color = bg
        self.outline = outline

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        if self.fill_color is not None or self.outline is not None:
            canvas.fill(
                b,
                self.fill_color or (0, 0, 0, 0),
                b.height // 2,
                outline=self.outline,
                width=max(1, b.height // 40),
            )
        cx, cy = b.center
        canvas.text(
            cx, cy, fonts.ellipsize(self.text, self.size, b.width), self.size, self.fg, "mm", bold=True
        )


class Switch(View):
    """Material 3 switch. Not clickable itself: the preference row around it takes the tap."""

    class_name = "android.widget.Switch"

    def __init__(
        self,
        bounds: Rect,
        checked: bool,
        on_colors: tuple[RGB, RGB],
        off_colors: tuple[RGB, RGB],
        *,
        rid: str = "android:id/switch_widget",
        on_click: Callback | None = None,
        outline: RGB | None = None,
    ) -> None:
        super().__init__(bounds, rid=rid, checkable=True, checked=checked, on_click=on_click)
        self.on_colors = on_colors  # (track, thumb)
        self.off_colors = off_colors
        self.outline = outline
        self.text = "ON" if checked else "OFF"

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        h = b.height
        track, thumb = self.on_colors if self.checked else self.off_colors
        canvas.fill(b, track, h // 2, outline=None if self.checked else self.outline, width=max(1, h // 16))
        r = round(h * (0.375 if self.checked else 0.25))
        cy = b.top + h // 2
        cx = b.right - h // 2 if self.checked else b.left + h // 2
        canvas.ellipse(Rect(cx - r, cy - r, cx + r, cy + r), thumb)
        if self.checked:
            s = round(h * 0.4)
            canvas.icon("check", Rect(cx - s // 2, cy - s // 2, cx - s // 2 + s, cy - s // 2 + s), track)


class EditText(View):
    """A text field. Tapping it gives it focus (the OS shows the keyboard); the OS edits `value`
    through `on_change`. `multi_line` is inputType's TYPE_TEXT_FLAG_MULTI_LINE: Enter types a newline
    there (TextView.shouldAdvanceFocusOnEnter is false) and the keyboard stays up; in a single-line field
    Enter runs the IME action, `on_submit` (the app's OnEditorActionListener), or hides the keyboard."""

    class_name = "android.widget.EditText"

    def __init__(
        self,
        bounds: Rect,
        key: str,
        value: str,
        hint: str,
        size: int,
        *,
        fg: RGB,
        hint_color: RGB,
        bg: RGB | None,
        focused: bool,
        on_change: Callable[[str], None],
        on_submit: Callback | None = None,
        rid: str = "",
        password: bool = False,
        accent: RGB = (11, 87, 208),
        radius: int = 0,
        underline: bool = True,
        icon: str = "",
        multi_line: bool = False,
    ) -> None:
        super().__init__(
            bounds,
            rid=rid,
            text=value or hint,
            focusable=True,
            focused=focused,
            clickable=True,
            long_clickable=True,
            password=password,
            bg=bg,
            radius=radius,
        )
        self.key = key
        self.value = value
        self.hint = hint
        self.size = fonts.sp(size)
        self.fg = fg
        self.hint_color = hint_color
        self.on_change = on_change
        self.on_submit = on_submit
        self.multi_line = multi_line
        self.accent = accent
        self.underline = underline
        self.icon = icon
        self.selection: tuple[int, int] | None = None  # (start, end) while text is selected

    def _layout(self) -> tuple[int, int, str, int]:
        """(text left, text width, the shown text's visible tail, index of its first char in value)."""
        b = self.bounds
        pad = max(8, b.height // 5)
        left = b.left + pad
        if self.icon:
            left += round(b.height * 0.42) + pad
        visible = _tail_fit(self._shown(), self.size, b.right - pad - left)
        return left, b.right - pad - left, visible, len(self.value) - len(visible)

    def _shown(self) -> str:
        """The text on the field's one line: bullets for a password; a multi-line field this tall shows
        the line being typed (the box keeps the cursor in view)."""
        if self.password:
            return "•" * len(self.value)
        return self.value.rsplit("\n", 1)[-1] if self.multi_line else self.value

    def index_at(self, x: int, y: int) -> int:
        """The character of `value` under (x, y) (for a long press that selects a word)."""
        left, _, visible, first = self._layout()
        for i in range(len(visible)):
            if left + fonts.text_width(visible[: i + 1], self.size) > x:
                return first + i
        return first + max(0, len(visible) - 1)

    def paint(self, canvas: Canvas) -> None:
        super().paint(canvas)
        b = self.bounds
        pad = max(8, b.height // 5)
        left = b.left + pad
        if self.icon:
            s = round(b.height * 0.42)
            cy = b.center[1]
            canvas.icon(self.icon, Rect(left, cy - s // 2, left + s, cy - s // 2 + s), self.hint_color)
            left += s + pad
        shown = self._shown()
        width = b.right - pad - left
        cy = b.center[1]
        if self.value:  # (a multi-line value ending in a newline shows an empty line, not the hint)
            visible = _tail_fit(shown, self.size, width)
            if self.selection is not None:  # the selection highlight behind the selected characters
                first = len(self.value) - len(visible)
                start, end = (max(0, i - first) for i in self.selection)
                x0 = left + fonts.text_width(visible[:start], self.size)
                x1 = left + fonts.text_width(visible[:end], self.size)
                half = round(self.size * 0.7)
                canvas.fill(Rect(round(x0), cy - half, round(x1), cy + half), mix(self.accent, self.bg or
                                                                                 (255, 255, 255), 0.7))
            canvas.text(left, cy, visible, self.size, self.fg)
            cursor_x = left + fonts.text_width(visible, self.size) + 2
        else:
            canvas.text(left, cy, fonts.ellipsize(self.hint, self.size, width), self.size, self.hint_color)
            cursor_x = left
        if self.focused and self.selection is None:
            half = round(self.size * 0.65)
            canvas.line(cursor_x, cy - half, cursor_x, cy + half, self.accent, max(2, self.size // 14))
        if self.underline:
            color = self.accent if self.focused else mix(self.hint_color, self.fg, 0.3)
            w = max(2, b.height // 40) * (2 if self.focused else 1)
            canvas.fill(Rect(b.left, b.bottom - w, b.right, b.bottom), color)


def _tail_fit(text: str, size: int, width: int) -> str:
    """The end of `text` that fits (a field scrolls to keep the cursor visible)."""
    while text and fonts.text_width(text, size) > width:
        text = text[1:]
    return text


class SeekBar(View):
    """A slider; a tap anywhere on it sets the value from the x coordinate."""

    class_name = "android.widget.SeekBar"

    def __init__(
        self,
        bounds: Rect,
        value: int,
        maximum: int,
        *,
        on_set: Callable[[int], None],
        active: RGB,
        inactive: RGB,
        desc: str = "",
        rid: str = "android:id/seekbar",
    ) -> None:
        super().__init__(bounds, rid=rid, desc=desc, focusable=True, clickable=True)
        self.value = value
        self.maximum = maximum
        self.on_set = on_set
        self.active = active
        self.inactive = inactive
        self.text = str(value)
        self.on_tap_at = self._tap

    def _tap(self, x: int, _y: int) -> None:
        track = self.bounds.inset(self.bounds.height // 2, 0)
        frac = min(1.0, max(0.0, (x - track.left) / max(1, track.width)))
        self.on_set(round(frac * self.maximum))

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        h = b.height
        th = max(4, h // 3)
        cy = b.center[1]
        track = Rect(b.left, cy - th // 2, b.right, cy - th // 2 + th)
        canvas.fill(track, self.inactive, th // 2)
        frac = self.value / max(1, self.maximum)
        x = round(b.left + h // 2 + frac * (b.width - h))
        canvas.fill(Rect(b.left, track.top, max(b.left + th, x), track.bottom), self.active, th // 2)
        canvas.fill(
            Rect(x - max(3, h // 14), b.top + h // 8, x + max(3, h // 14), b.bottom - h // 8),
            self.active,
            h // 14,
        )


class ScrollList(View):
    """A vertically scrolling list. Children are laid out from the list's top as if unscrolled; the
    list moves them by `-offset` (clamped) and clips them to its bounds."""

    class_name = "androidx.recyclerview.widget.RecyclerView"

    def __init__(
        self,
        bounds: Rect,
        children: Sequence[View],
        offset: int,
        on_scroll: Callable[[int], None],
        *,
        rid: str = "",
        bg: RGB | None = None,
        padding_bottom: int = 0,
        class_name: str | None = None,
    ) -> None:
        super().__init__(bounds, rid=rid, bg=bg, class_name=class_name, children=children)
        bottom = max((c.bounds.bottom for c in self.children), default=bounds.top)
        self.content_height = bottom - bounds.top + padding_bottom
        self.max_offset = max(0, self.content_height - bounds.height)
        self.offset = min(max(0, offset), self.max_offset)
        self.scrollable = self.max_offset > 0
        self.on_scroll = on_scroll
        if self.offset:
            for c in self.children:
                c.translate(0, -self.offset)

    def child_clip(self, clip: Rect) -> Rect:
        return clip.intersect(self.bounds)

    def scroll_by(self, dy: int) -> bool:
        """Scroll by `dy` pixels (positive: content moves up); False when already at that edge."""
        target = min(max(0, self.offset + dy), self.max_offset)
        if target == self.offset:
            return False
        self.on_scroll(target)
        return True
