"""The on-screen keyboard (AOSP LatinIME look): a window of real key nodes that type into the
focused field. Its modes (shift, symbols) are OS state, saved with snapshots."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.phone.ui import FRAME, Kit, Rect, View
from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.view import Callback

IME_PACKAGE = "com.android.inputmethod.latin"
ADB_IME_PACKAGE = "com.android.adbkeyboard"
LETTERS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
SYMBOLS = ("1234567890", "@#$_&-+()/", "*\"':;!?")


@dataclass
class ImeState:
    visible: bool = False
    shift: bool = False
    symbols: bool = False

    def to_json(self) -> dict[str, bool]:
        return {"visible": self.visible, "shift": self.shift, "symbols": self.symbols}

    @classmethod
    def from_json(cls, data: object) -> ImeState:
        d = data if isinstance(data, dict) else {}
        return cls(bool(d.get("visible")), bool(d.get("shift")), bool(d.get("symbols")))


class Key(View):
    class_name = "android.widget.Button"

    def __init__(
        self,
        bounds: Rect,
        label: str,
        desc: str,
        *,
        on_click: Callback,
        fill: tuple[int, int, int],
        fg: tuple[int, int, int],
        size: int,
        icon: str = "",
        radius: int = 0,
    ) -> None:
        super().__init__(
            bounds,
            rid=f"{IME_PACKAGE}:id/key",
            text=label if not icon else "",
            desc=desc,
            on_click=on_click,
            bg=fill,
            radius=radius,
        )
        self.label = label
        self.fg = fg
        self.size = size
        self.icon = icon

    def paint(self, canvas: Canvas) -> None:
        super().paint(canvas)
        cx, cy = self.bounds.center
        if self.icon:
            s = round(self.size * 1.25)
            canvas.icon(self.icon, Rect(cx - s // 2, cy - s // 2, cx - s // 2 + s, cy - s // 2 + s), self.fg)
        else:
            canvas.text(cx, cy, self.label, self.size, self.fg, "mm")


def keyboard_height(kit: Kit) -> int:
    return kit.dp(44 + 4 * 56 + 8)


def adb_keyboard_height(kit: Kit) -> int:
    return kit.dp(40)


def build_keyboard(
    kit: Kit,
    area: Rect,
    state: ImeState,
    *,
    type_text: Callable[[str], None],
    delete: Callback,
    enter: Callback,
    toggle_shift: Callback,
    toggle_symbols: Callback,
    hide: Callback,
    enter_label: str,
) -> View:
    """The keyboard window's view tree, filling `area` (bottom of the screen, above the nav bar)."""
    p = kit.palette
    root = View(area, class_name=FRAME, bg=p.keyboard, rid=f"{IME_PACKAGE}:id/keyboard_view")
    bar = kit.dp(44)
    s = kit.dp(40)
    root.add(
        View(
            Rect(area.left, area.top, area.right, area.top + bar),
            class_name=FRAME,
            children=[
                _icon_button(
                    kit,
                    Rect(area.left + kit.dp(8), area.top + 2, area.left + kit.dp(8) + s, area.top + 2 + s),
                    "chevron_down",
                    "Hide keyboard",
                    hide,
                )
            ],
        )
    )
    row_h = kit.dp(56)
    gap = kit.dp(6)
    pad = kit.dp(4)
    unit = (area.width - 2 * pad) / 10
    top = area.top + bar
    key_size = kit.dp(22)
    rows = SYMBOLS if state.symbols else LETTERS
    key_fill, fn_fill, fg = p.key, p.surface_high if not p.dark else p.surface, p.on_surface
    radius = kit.dp(6)

    def key(
        x0: float,
        x1: float,
        y: int,
        label: str,
        desc: str,
        cb: Callback,
        *,
        fill: tuple[int, int, int],
        icon: str = "",
    ) -> None:
        r = Rect(round(x0 + gap / 2), y + gap // 2, round(x1 - gap / 2), y + row_h - gap // 2)
        root.add(Key(r, label, desc, on_click=cb, fill=fill, fg=fg, size=key_size, icon=icon, radius=radius))

    def typer(ch: str) -> Callback:
        return lambda: type_text(ch)

    for i, letters in enumerate(rows):
        y = top + i * row_h
        start = pad + (10 - len(letters)) * unit / 2 if i < 2 else pad + 1.5 * unit
        if i == 2:
            key(
                pad,
                pad + 1.5 * unit,
                y,
                "",
                "Shift" if not state.symbols else "More symbols",
                toggle_shift,
                fill=p.primary_container if state.shift else fn_fill,
                icon="shift",
            )
        for j, ch in enumerate(letters):
            label = ch.upper() if state.shift and not state.symbols else ch
            key(start + j * unit, start + (j + 1) * unit, y, label, label, typer(label), fill=key_fill)
        if i == 2:
            key(
                area.width - pad - 1.5 * unit,
                area.width - pad,
                y,
                "",
                "Delete",
                delete,
                fill=fn_fill,
                icon="backspace",
            )
    y = top + 3 * row_h
    key(pad, pad + 1.5 * unit, y, "ABC" if state.symbols else "?123", "Symbols", toggle_symbols, fill=fn_fill)
    key(pad + 1.5 * unit, pad + 2.5 * unit, y, ",", ",", typer(","), fill=fn_fill)
    key(pad + 2.5 * unit, pad + 7.5 * unit, y, "", "Space", typer(" "), fill=key_fill)
    key(pad + 7.5 * unit, pad + 8.5 * unit, y, ".", ".", typer("."), fill=fn_fill)
    ent = Rect(
        round(pad + 8.5 * unit + gap / 2),
        y + gap // 2,
        round(area.width - pad - gap / 2),
        y + row_h - gap // 2,
    )
    root.add(
        Key(
            ent,
            "",
            enter_label,
            on_click=enter,
            fill=p.primary,
            fg=p.on_primary,
            size=key_size,
            icon="enter",
            radius=radius,
        )
    )
    return root


def build_adb_keyboard(kit: Kit, area: Rect) -> View:
    """ADBKeyboard's input view: a thin bar saying the keyboard is on; text arrives by broadcast."""
    p = kit.palette
    root = View(area, class_name=FRAME, bg=p.keyboard, rid=f"{ADB_IME_PACKAGE}:id/keyboard")
    from spa_bench.phone.ui import TextView

    root.add(
        TextView(
            area,
            "ADB Keyboard {ON}",
            kit.body_medium,
            p.on_surface,
            align="center",
            rid=f"{ADB_IME_PACKAGE}:id/keyboard_title",
        )
    )
    return root


def _icon_button(kit: Kit, rect: Rect, icon: str, desc: str, cb: Callback) -> View:
    from spa_bench.phone.ui import ImageView

    return ImageView(rect, icon, kit.palette.on_surface_variant, desc=desc, on_click=cb)
