"""SQLite files on the phone, opened the same way by the system and by every app.

Their owners open them per call rather than holding a handle: a snapshot load swaps the phone's whole
file tree, and a long-lived connection would keep writing to the old file. Autocommit mode; callers that
write several rows wrap them in BEGIN/COMMIT themselves.

- `connect`: a connection to one file.
- `Db`: a provider's or an app's SQLite file, created with its schema and seed data on first use, so the
  seed is in the file system when the runner saves its base snapshots right after boot.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

SeedFn = Callable[[sqlite3.Connection], None]


def connect(path: Path, rows: bool = False) -> sqlite3.Connection:
    """A connection to the database at `path` (its folder created if needed); `rows` gives sqlite3.Row
    results (access by column name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    if rows:
        conn.row_factory = sqlite3.Row
    return conn


class Db:
    """One SQLite file: schema + seed on first use, then small helpers for the screens."""

    def __init__(self, path: Callable[[], Path], schema: str, seed: SeedFn | None = None) -> None:
        self.path = path
        self.schema = schema
        self.seed = seed

    def connect(self) -> sqlite3.Connection:
        path = self.path()
        fresh = not path.exists()
        conn = connect(path)
        if fresh or not conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            conn.executescript(self.schema)
            if self.seed is not None:
                conn.execute("BEGIN")
                self.seed(conn)
                conn.execute("COMMIT")
        return conn

    def ensure(self) -> None:
        self.connect().close()

    def rows(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        conn = self.connect()
        try:
            return list(conn.execute(sql, params).fetchall())
        finally:
            conn.close()

    def one(self, sql: str, *params: Any) -> tuple[Any, ...] | None:
        found = self.rows(sql, *params)
        return found[0] if found else None

    def run(self, sql: str, *params: Any) -> int:
        """Execute one statement; returns the new row id (inserts) or the changed row count."""
        conn = self.connect()
        try:
            cur = conn.execute(sql, params)
            return int(cur.lastrowid or 0) if sql.lstrip().upper().startswith("INSERT") else cur.rowcount
        finally:
            conn.close()
