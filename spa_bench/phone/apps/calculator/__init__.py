"""The Calculator (com.android.calculator2): keypad arithmetic with a history kept in SQLite.

Checks read `/data/data/com.android.calculator2/databases/history.db` (see `history.py`): the last
result is `SELECT result FROM history ORDER BY _id DESC LIMIT 1`.
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import Activity, App, AppContext
from spa_bench.phone.apps.calculator import glyphs as _glyphs  # noqa: F401  (registers the icon)
from spa_bench.phone.apps.calculator.history import HistoryStore
from spa_bench.phone.apps.calculator.screens import Calculator, History
from spa_bench.phone.apps.calculator.strings import STRINGS
from spa_bench.phone.system.tasks import ActivityRecord


class CalculatorApp(App):
    package = "com.android.calculator2"
    label_en = "Calculator"
    label_zh = "计算器"
    launcher_activity = Calculator.name
    apk_path = "/product/app/CalculatorGooglePrebuilt/CalculatorGooglePrebuilt.apk"
    icon = "calculator"
    hue = "blue"
    strings = STRINGS
    activities = (Calculator, History)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.history = HistoryStore(self._db_path)
        self.pending_result: str | None = None
        self.history.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "history.db"

    def create(self, record: ActivityRecord) -> Activity:
        if self.pending_result is not None and record.activity == Calculator.name:
            record.ui.update({"expr": self.pending_result, "evaluated": True})
            record.ui.pop("error", None)
            self.pending_result = None
        return super().create(record)

    def on_data_cleared(self) -> None:
        self.history.ensure()


__all__ = ["CalculatorApp"]
