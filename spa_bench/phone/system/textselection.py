"""Text selection in text fields and the floating text toolbar (Cut, Copy, Paste, Select all).

A long press on a field focuses it and selects the word under the finger (a run of letters and digits;
a CJK character on its own, where Android's dictionary break iterator would pick a word); in an empty
field it offers Paste alone. The toolbar floats above the field inside the app's window, as Android's
FloatingToolbar does (its items are `android.widget.Button`s). Typing replaces the selection; Paste puts
the clipboard there (the clipboard is the one `uiautomator2`'s set_clipboard/clipboard reach).
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.i18n import Strings
from spa_bench.phone.system.keyboard import ImeState
from spa_bench.phone.system.tasks import TaskManager
from spa_bench.phone.ui import FRAME, Button, EditText, Rect, View
from spa_bench.phone.ui.menu import ElevatedCard

if TYPE_CHECKING:
    from spa_bench.phone.api import Locale
    from spa_bench.phone.ui import Kit

STRINGS = Strings(
    {
        "cut": ("Cut", "剪切"),
        "copy": ("Copy", "复制"),
        "paste": ("Paste", "粘贴"),
        "select_all": ("Select all", "全选"),
    }
)
TOOLBAR_ID = "android:id/floating_toolbar_menu_item_text"


@dataclass(frozen=True)
class TextSelection:
    """The selected range of one field (by its key) of the activity on top; start == end: no selection
    (the toolbar offers Paste)."""

    package: str
    key: str
    start: int
    end: int
    anchor_y: int = -1  # where the finger was: a tall (multi-line) field shows the toolbar above it


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch in "_'"


def _is_cjk(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F") and ch.isalpha()


def word_at(text: str, index: int) -> tuple[int, int]:
    """The word around `index` (or the one just before it, when the press is on a space)."""
    if not text:
        return 0, 0
    i = min(max(0, index), len(text) - 1)
    if not _is_word_char(text[i]):
        while i > 0 and not _is_word_char(text[i]):
            i -= 1
        if not _is_word_char(text[i]):
            return i, i
    if _is_cjk(text[i]):
        return i, i + 1
    start, end = i, i + 1
    while start > 0 and _is_word_char(text[start - 1]) and not _is_cjk(text[start - 1]):
        start -= 1
    while end < len(text) and _is_word_char(text[end]) and not _is_cjk(text[end]):
        end += 1
    return start, end


class TextSelectionMixin:
    lock: threading.RLock
    tasks: TaskManager
    ime: ImeState
    clipboard: str
    invalidate: Callable[[], None]

    @property
    def kit(self) -> Kit:
        raise NotImplementedError

    @property
    def locale(self) -> Locale:
        raise NotImplementedError

    def _init_text_selection(self) -> None:
        self.text_selection: TextSelection | None = None

    def select_word(self, field: EditText, x: int, y: int) -> None:
        """A long press on `field`: focus it and select the word under (x, y) (nothing if it is empty)."""
        record = self.tasks.top()
        record.ui["focus"] = field.key
        self.ime.visible = True
        start, end = word_at(field.value, field.index_at(x, y)) if field.value else (0, 0)
        self.text_selection = TextSelection(self.tasks.front, field.key, start, end, y)
        self.invalidate()

    def clear_selection(self) -> None:
        if self.text_selection is not None:
            self.text_selection = None
            self.invalidate()

    def _selected_in(self, field: EditText) -> TextSelection | None:
        sel = self.text_selection
        if sel is None or sel.package != self.tasks.front or sel.key != field.key or not field.focused:
            return None
        return sel

    def replace_selection(self, field: EditText, text: str) -> bool:
        """Typing or pasting over a selection replaces it; False when the field has none."""
        sel = self._selected_in(field)
        if sel is None or sel.start == sel.end:
            return False
        value = field.value
        field.on_change(value[: sel.start] + text + value[sel.end:])
        self.text_selection = None
        return True

    def _copy(self, field: EditText, cut: bool) -> None:
        sel = self._selected_in(field)
        if sel is not None and sel.end > sel.start:
            self.clipboard = field.value[sel.start: sel.end]
            if cut:
                field.on_change(field.value[: sel.start] + field.value[sel.end:])
        self.text_selection = None
        self.invalidate()

    def _paste(self, field: EditText) -> None:
        if not self.replace_selection(field, self.clipboard):
            field.on_change(field.value + self.clipboard)
        self.text_selection = None
        self.invalidate()

    def _select_all(self, field: EditText) -> None:
        anchor = self.text_selection.anchor_y if self.text_selection is not None else -1
        self.text_selection = TextSelection(self.tasks.front, field.key, 0, len(field.value), anchor)
        self.invalidate()

    def decorate_selection(self, app_root: View, area: Rect) -> None:
        """Mark the selected field of the app's window and float the text toolbar above it."""
        sel = self.text_selection
        if sel is None or sel.package != self.tasks.front:
            return
        fields = (v for v in app_root.walk() if isinstance(v, EditText) and v.key == sel.key and v.focused)
        field = next(fields, None)
        if field is None:
            self.text_selection = None  # the field went away (screen changed)
            return
        start, end = min(sel.start, len(field.value)), min(sel.end, len(field.value))
        has_selection = end > start
        if has_selection:
            field.selection = (start, end)
        kit = self.kit
        items: list[tuple[str, Callable[[], None]]] = []
        if has_selection and not field.password:
            items += [("cut", partial(self._copy, field, True)), ("copy", partial(self._copy, field, False))]
        if self.clipboard:
            items.append(("paste", partial(self._paste, field)))
        if field.value and (start, end) != (0, len(field.value)):
            items.append(("select_all", partial(self._select_all, field)))
        if not items:
            return
        from spa_bench.phone.ui.fonts import text_width

        labels = [STRINGS.get(self.locale, k) for k, _ in items]
        widths = [round(text_width(t, kit.body_medium)) + kit.dp(32) for t in labels]
        h = kit.dp(48)
        total = sum(widths)
        left = max(area.left + kit.dp(8), min(field.bounds.left, area.right - kit.dp(8) - total))
        above = field.bounds.top
        if field.bounds.height > 2 * h and sel.anchor_y >= 0:
            above = max(field.bounds.top, sel.anchor_y - kit.dp(24))
        top = above - h - kit.dp(8)
        if top < area.top:
            top = min(field.bounds.bottom, above + kit.dp(48)) + kit.dp(8)
        bar = ElevatedCard(Rect(left, top, left + total, top + h), class_name=FRAME,
                           bg=kit.palette.surface, radius=kit.dp(8),
                           rid="android:id/floating_toolbar_menu_item_container")
        x = left
        for label, w, (_, action) in zip(labels, widths, items, strict=True):
            bar.add(Button(Rect(x, top, x + w, top + h), label, kit.body_medium, kit.palette.on_surface, None,
                           on_click=action, rid=TOOLBAR_ID))
            x += w
        app_root.add(bar)
