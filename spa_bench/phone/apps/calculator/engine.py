"""The calculator's arithmetic: a small recursive-descent parser over the display's symbols, computed
with `Decimal` so that 0.1+0.2 shows 0.3, as on a phone calculator.

Grammar (what the keypad can type): numbers, `+ − × ÷`, postfix `%` (divide by 100, as Google's
Calculator does: 50+10% = 50.1), parentheses (missing closing ones are added at `=`), and implicit
multiplication between a number or `)` and a following `(` or number.
"""

from __future__ import annotations

from decimal import Decimal, DivisionByZero, InvalidOperation, localcontext

OPERATORS = "+−×÷"
MAX_DIGITS = 14


class CalcError(ValueError):
    """The expression has no value: `kind` is `syntax` or `div_zero` (the display says which)."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _tokens(expr: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(expr):
        ch = expr[i]
        if ch.isdigit() or ch == ".":
            j = i
            while j < len(expr) and (expr[j].isdigit() or expr[j] == "."):
                j += 1
            number = expr[i:j]
            if number.count(".") > 1 or number == ".":
                raise CalcError("syntax")
            out.append(number)
            i = j
            continue
        if ch in OPERATORS + "%()":
            out.append(ch)
        elif ch == "-":
            out.append("−")
        elif ch in "*xX":
            out.append("×")
        elif ch == "/":
            out.append("÷")
        elif not ch.isspace() and ch != ",":
            raise CalcError("syntax")
        i += 1
    # implicit multiplication: 2(3), (1)(2), (2)3, 5%(2)
    fixed: list[str] = []
    for tok in out:
        if (
            fixed
            and (tok == "(" or tok[0].isdigit() or tok[0] == ".")
            and (fixed[-1] in (")", "%") or fixed[-1][0].isdigit() or fixed[-1][0] == ".")
        ):
            fixed.append("×")
        fixed.append(tok)
    depth = fixed.count("(") - fixed.count(")")
    return fixed + [")"] * max(0, depth)


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise CalcError("syntax")
        self.pos += 1
        return tok

    def expression(self) -> Decimal:
        value = self.term()
        while self.peek() in ("+", "−"):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self) -> Decimal:
        value = self.factor()
        while self.peek() in ("×", "÷"):
            op = self.take()
            rhs = self.factor()
            if op == "÷" and rhs == 0:
                raise CalcError("div_zero")
            value = value * rhs if op == "×" else value / rhs
        return value

    def factor(self) -> Decimal:
        if self.peek() == "−":
            self.take()
            return -self.factor()
        value = self.primary()
        while self.peek() == "%":
            self.take()
            value = value / 100
        return value

    def primary(self) -> Decimal:
        tok = self.take()
        if tok == "(":
            value = self.expression()
            if self.take() != ")":
                raise CalcError("syntax")
            return value
        if tok[0].isdigit() or tok[0] == ".":
            return Decimal(tok)
        raise CalcError("syntax")


def evaluate(expr: str) -> Decimal:
    """The value of a display expression; CalcError when it has none."""
    tokens = _tokens(expr)
    if not tokens:
        raise CalcError("syntax")
    with localcontext() as ctx:
        ctx.prec = 28
        ctx.traps[DivisionByZero] = True
        try:
            parser = _Parser(tokens)
            value = parser.expression()
            if parser.peek() is not None:
                raise CalcError("syntax")
        except (InvalidOperation, DivisionByZero):
            raise CalcError("div_zero") from None
    return value


def format_number(value: Decimal) -> str:
    """Plain digits without grouping, at most 14 significant digits, no trailing zeros: 84, 3.5,
    0.3333333333333, -12.25; very large or small values in E notation (1.5E20)."""
    if value == 0:
        return "0"
    with localcontext() as ctx:
        ctx.prec = MAX_DIGITS
        rounded = +value
    exponent = rounded.adjusted()
    if exponent >= MAX_DIGITS or exponent < -8:
        mantissa = f"{rounded.scaleb(-exponent).normalize():f}"
        return f"{mantissa}E{exponent}"
    text = f"{rounded.normalize():f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def has_operation(expr: str) -> bool:
    """Whether the expression does something (a preview of a bare number is not shown)."""
    return any(op in expr[1:] for op in OPERATORS) or any(ch in expr for ch in "%()")
