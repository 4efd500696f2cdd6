"""The calculation history in SQLite, which is also what success checks read.

`/data/data/com.android.calculator2/databases/history.db`, table
`history(_id INTEGER PRIMARY KEY AUTOINCREMENT, expression TEXT, result TEXT, timestamp INTEGER)`:
one row per `=` that produced a value, `expression` as displayed (`12×7`, operators `+ − × ÷`),
`result` as plain digits (`84`, `3.5`, `-15`), `timestamp` in ms. The last result is
`SELECT result FROM history ORDER BY _id DESC LIMIT 1`. A fresh install holds a few past calculations;
their ids stay below 1000 and rows added on the phone start at 1001.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from spa_bench.phone.apps.db import connect

SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    expression TEXT NOT NULL,
    result TEXT NOT NULL,
    timestamp INTEGER NOT NULL
);
"""

# Past calculations a user might have done (timestamps: spring 2025, UTC ms).
SEED: tuple[tuple[str, str, int], ...] = (
    ("1280×12", "15360", 1_743_500_000_000),
    ("86.5+42.3+19.9", "148.7", 1_744_100_000_000),
    ("2400÷3", "800", 1_745_000_000_000),
    ("365×24", "8760", 1_745_900_000_000),
    ("199×0.85", "169.15", 1_746_800_000_000),
    ("4500×12%", "540", 1_747_300_000_000),
)
FIRST_NEW_ID = 1001


class HistoryStore:
    """Open-per-call access, so a snapshot that swaps the file system never sees a stale handle."""

    def __init__(self, path: Callable[[], Path]) -> None:
        self._path = path

    def _connect(self) -> sqlite3.Connection:
        return connect(self._path())

    def ensure(self) -> None:
        """Create the database with its seed rows on first start (or after `pm clear`)."""
        if self._path().exists():
            return
        with closing(self._connect()) as db:
            db.executescript(SCHEMA)
            db.executemany("INSERT INTO history (expression, result, timestamp) VALUES (?, ?, ?)", SEED)
            db.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'history'", (FIRST_NEW_ID - 1,))

    def add(self, expression: str, result: str, timestamp_ms: int) -> None:
        self.ensure()
        with closing(self._connect()) as db:
            db.execute(
                "INSERT INTO history (expression, result, timestamp) VALUES (?, ?, ?)",
                (expression, result, timestamp_ms),
            )

    def entries(self) -> list[tuple[str, str]]:
        """(expression, result), newest first."""
        self.ensure()
        with closing(self._connect()) as db:
            return [
                (str(e), str(r))
                for e, r in db.execute("SELECT expression, result FROM history ORDER BY _id DESC")
            ]

    def clear(self) -> None:
        self.ensure()
        with closing(self._connect()) as db:
            db.execute("DELETE FROM history")
