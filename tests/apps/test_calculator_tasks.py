"""The Calculator suite through the real pipeline: the oracle passes every task (three instances of
each parameterised one), noop none; the
keypad arithmetic and history unit-tested on a PhoneOS."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.apps.calculator.engine import CalcError, evaluate, format_number
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.calculator2"


@pytest.mark.parametrize(("expr", "shown"), [
    ("12×7", "84"), ("0.1+0.2", "0.3"), ("50+10%", "50.1"), ("2(3+4)", "14"), ("(1+2", "3"),
    ("10÷3", "3.3333333333333"), ("−5×3", "-15"), ("286.4÷4×1.15", "82.34"), ("1e10", None), ("1÷0", None),
])
def test_engine(expr: str, shown: str | None) -> None:
    if shown is None:
        with pytest.raises(CalcError):
            evaluate(expr)
    else:
        assert format_number(evaluate(expr)) == shown
    assert format_number(Decimal("1.5E20")) == "1.5E20"


def test_keypad_writes_history(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(PKG)
    for rid in ("digit_7", "op_mul", "op_add", "digit_6", "eq"):  # a second operator replaces the first
        view = phone.frame().find(rid=f"{PKG}:id/{rid}")
        assert view is not None
        phone.tap(*view.bounds.center)
    formula = phone.frame().find(rid=f"{PKG}:id/formula")
    assert formula is not None and formula.text == "13"
    rows = phone.apps[PKG].history.entries()  # type: ignore[attr-defined]
    assert rows[0] == ("7+6", "13") and len(rows) == 7
