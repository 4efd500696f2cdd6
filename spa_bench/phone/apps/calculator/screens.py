"""The Calculator's two screens: the keypad with its display, and the history list.

The expression being typed lives in the activity record (`ui['expr']`), so a snapshot restores it;
each `=` that gives a value is appended to the history database (see `history.py`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.calculator.engine import (
    OPERATORS,
    CalcError,
    evaluate,
    format_number,
    has_operation,
)
from spa_bench.phone.ui import FRAME, LINEAR, Button, ImageView, Rect, TextView, View, tone

if TYPE_CHECKING:
    from spa_bench.phone.apps.calculator import CalculatorApp

PACKAGE = "com.android.calculator2"
RID = f"{PACKAGE}:id/"

# (label, resource id, kind) row by row; kind picks the button colours.
KEYS: tuple[tuple[tuple[str, str, str], ...], ...] = (
    (("AC", "clr", "clear"), ("(", "lparen", "op"), (")", "rparen", "op"), ("÷", "op_div", "op")),
    (("7", "digit_7", "digit"), ("8", "digit_8", "digit"), ("9", "digit_9", "digit"), ("×", "op_mul", "op")),
    (("4", "digit_4", "digit"), ("5", "digit_5", "digit"), ("6", "digit_6", "digit"), ("−", "op_sub", "op")),
    (("1", "digit_1", "digit"), ("2", "digit_2", "digit"), ("3", "digit_3", "digit"), ("+", "op_add", "op")),
    (("%", "op_pct", "op"), ("0", "digit_0", "digit"), (".", "dec_point", "digit"), ("=", "eq", "eq")),
)
_DESC = {
    "clr": "desc_clr",
    "op_add": "desc_add",
    "op_sub": "desc_sub",
    "op_mul": "desc_mul",
    "op_div": "desc_div",
    "op_pct": "desc_pct",
    "lparen": "desc_lparen",
    "rparen": "desc_rparen",
    "dec_point": "desc_point",
    "eq": "desc_eq",
}


def shown(number: str) -> str:
    """A result as the display writes it (a real minus sign)."""
    return number.replace("-", "−")


class Calculator(Activity):
    """`com.android.calculator2.Calculator`: display on top, a 4x5 keypad below."""

    name = "com.android.calculator2.Calculator"
    app: CalculatorApp

    # -- input ----------------------------------------------------------------------------------------
    @property
    def expr(self) -> str:
        return str(self.ui("expr", ""))

    def _set(self, expr: str, evaluated: bool = False, error: str | None = None) -> None:
        self.record.ui["expr"] = expr
        self.record.ui["evaluated"] = evaluated
        self.set_ui("error", error)

    def press(self, label: str) -> None:
        expr = self.expr
        evaluated = bool(self.ui("evaluated"))
        if self.ui("error"):
            expr, evaluated = "", False
        if label == "AC":
            self._set("")
        elif label.isdigit() or label == ".":
            if evaluated:
                expr = ""
            last = expr.rsplit(None, 1)[-1] if expr else ""
            tail = last
            for op in OPERATORS + "()%":
                tail = tail.split(op)[-1]
            if label == "." and "." in tail:
                return
            self._set(expr + ("0." if label == "." and not tail else label))
        elif label in OPERATORS:
            if expr and expr[-1] in OPERATORS:
                expr = expr[:-1] if len(expr) > 1 or label == "−" else expr
                if expr and expr[-1] in OPERATORS:
                    expr = expr[:-1]
            if not expr and label != "−":
                expr = "0"
            self._set(expr + label)
        elif label in "()%":
            if evaluated and label == "(":
                expr = ""
            self._set(expr + label)

    def backspace(self) -> None:
        if self.ui("evaluated") or self.ui("error"):
            self._set("")
        else:
            self._set(self.expr[:-1])

    def equals(self) -> None:
        expr = self.expr
        if not expr or self.ui("evaluated"):
            return
        try:
            result = format_number(evaluate(expr))
        except CalcError as exc:
            self.set_ui("error", exc.kind)
            return
        ms = int(self.ctx.clock.now().timestamp() * 1000)
        self.app.history.add(expr, result, ms)
        self._set(shown(result), evaluated=True)

    def preview(self) -> str:
        expr = self.expr
        if not expr or self.ui("evaluated") or not has_operation(expr):
            return ""
        try:
            return shown(format_number(evaluate(expr)))
        except CalcError:
            return ""

    # -- layout ---------------------------------------------------------------------------------------
    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "main_calculator")
        display_h = max(kit.dp(220), area.height - kit.dp(5 * 84 + 24))
        display = View(
            Rect(area.left, area.top, area.right, area.top + display_h), class_name=FRAME, rid=RID + "display"
        )
        s = kit.dp(48)
        display.add(
            ImageView(
                Rect(
                    area.left + kit.dp(8),
                    area.top + kit.dp(8),
                    area.left + kit.dp(8) + s,
                    area.top + kit.dp(8) + s,
                ),
                "clock",
                p.on_surface_variant,
                desc=self.t("history"),
                rid=RID + "history",
                on_click=lambda: self.ctx.start_activity(History.name),
            )
        )
        pad = kit.dp(24)
        error = self.ui("error")
        formula_size = kit.dp(56) if not self.ui("evaluated") else kit.dp(64)
        formula_rect = Rect(
            area.left + pad,
            area.top + display_h - kit.dp(176),
            area.right - pad,
            area.top + display_h - kit.dp(96),
        )
        display.add(
            TextView(formula_rect, self.expr, formula_size, p.on_surface, rid=RID + "formula", align="right")
        )
        result_text = self.t(f"error_{error}") if error else self.preview()
        result_rect = Rect(
            area.left + pad,
            formula_rect.bottom,
            area.right - pad - kit.dp(56),
            formula_rect.bottom + kit.dp(56),
        )
        display.add(
            TextView(
                result_rect,
                result_text,
                kit.dp(32),
                p.error if error else p.on_surface_variant,
                rid=RID + "result_preview",
                align="right",
            )
        )
        display.add(
            ImageView(
                Rect(
                    area.right - pad - s,
                    result_rect.top + kit.dp(4),
                    area.right - pad,
                    result_rect.top + kit.dp(4) + s,
                ),
                "backspace",
                p.on_surface_variant,
                desc=self.t("desc_del"),
                rid=RID + "del",
                on_click=self.backspace,
            )
        )
        root.add(display)
        pad_area = Rect(
            area.left + kit.dp(12), area.top + display_h, area.right - kit.dp(12), area.bottom - kit.dp(12)
        )
        root.add(self._keypad(pad_area))
        return root

    def _keypad(self, rect: Rect) -> View:
        kit = self.kit
        p = kit.palette
        pad = View(rect, class_name="android.widget.GridLayout", rid=RID + "pad_numeric")
        cols, rows = 4, len(KEYS)
        cw, rh = rect.width // cols, rect.height // rows
        gap = kit.dp(6)
        colours = {
            "digit": (p.surface_high, p.on_surface),
            "op": (tone("blue", p.dark)[0], tone("blue", p.dark)[1]),
            "clear": (tone("orange", p.dark)[0], tone("orange", p.dark)[1]),
            "eq": (p.primary, p.on_primary),
        }
        for r, row in enumerate(KEYS):
            for c, (label, rid, kind) in enumerate(row):
                cell = Rect(
                    rect.left + c * cw + gap,
                    rect.top + r * rh + gap,
                    rect.left + (c + 1) * cw - gap,
                    rect.top + (r + 1) * rh - gap,
                )
                bg, fg = colours[kind]
                action = self.equals if rid == "eq" else partial(self.press, label)
                button = Button(cell, label, kit.dp(30), fg, bg, on_click=action, rid=RID + rid)
                if rid in _DESC:
                    button.desc = self.t(_DESC[rid])
                pad.add(button)
        return pad


class History(Activity):
    """`com.android.calculator2.HistoryActivity`: past calculations, newest first; tap one to reuse
    its result."""

    name = "com.android.calculator2.HistoryActivity"
    app: CalculatorApp

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "history_frame")
        bar, bar_h = kit.app_bar(area, self.t("history"), self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        s = kit.dp(48)
        bar.add(
            ImageView(
                Rect(
                    area.right - kit.dp(8) - s,
                    area.top + kit.dp(8),
                    area.right - kit.dp(8),
                    area.top + kit.dp(8) + s,
                ),
                "delete",
                p.on_surface_variant,
                desc=self.t("clear_history"),
                rid=RID + "clear_history",
                on_click=self.setter("dialog", "clear"),
            )
        )
        root.add(bar)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        entries = self.app.history.entries()
        if not entries:
            rows.append(
                TextView(
                    Rect(area.left, y + kit.dp(32), area.right, y + kit.dp(80)),
                    self.t("no_history"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        pad = kit.dp(24)
        for expression, result in entries:
            h = kit.dp(96)
            row = View(
                Rect(area.left, y, area.right, y + h),
                class_name=LINEAR,
                rid=RID + "history_item",
                on_click=partial(self._reuse, result),
            )
            row.add(
                TextView(
                    Rect(area.left + pad, y + kit.dp(10), area.right - pad, y + kit.dp(46)),
                    expression,
                    kit.dp(20),
                    p.on_surface_variant,
                    align="right",
                    rid=RID + "history_formula",
                )
            )
            row.add(
                TextView(
                    Rect(area.left + pad, y + kit.dp(46), area.right - pad, y + kit.dp(88)),
                    "= " + shown(result),
                    kit.dp(28),
                    p.on_surface,
                    align="right",
                    rid=RID + "history_result",
                )
            )
            row.add(View(Rect(area.left + pad, y + h - 1, area.right - pad, y + h), bg=p.divider))
            rows.append(row)
            y += h
        root.add(self.scroll_list(list_area, rows, rid=RID + "history_list"))
        if self.ui("dialog") == "clear":
            root.add(
                kit.dialog(
                    area,
                    self.t("clear_history_title"),
                    self.t("clear_history_body"),
                    [(self.t("cancel"), self.setter("dialog", None)), (self.t("clear"), self._clear)],
                    self.setter("dialog", None),
                )
            )
        return root

    def _clear(self) -> None:
        self.app.history.clear()
        self.set_ui("dialog", None)

    def _reuse(self, result: str) -> None:
        self.ctx.finish()
        # the keypad's record is now on top: put the result there, as if it had just been computed
        self.app.pending_result = shown(result)
        self.ctx.invalidate()
