"""Opening an app's SQLite database, the same way for every app.

Apps open their database per call rather than holding a handle: a snapshot load swaps the phone's whole
file tree, and a long-lived connection would keep writing to the old file. Autocommit mode; callers that
write several rows wrap them in BEGIN/COMMIT themselves.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path


def connect(path: Path, rows: bool = False) -> sqlite3.Connection:
    """A connection to the database at `path` (its folder created if needed); `rows` gives sqlite3.Row
    results (access by column name)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    if rows:
        conn.row_factory = sqlite3.Row
    return conn


class AppDatabase:
    """Base of an app's store: `db()` opens the app's database (found by `path` on each call, since the
    data dir moves with snapshots) for one block of work and closes it after."""

    def __init__(self, path: Callable[[], Path]) -> None:
        self._path = path

    @contextmanager
    def db(self) -> Iterator[sqlite3.Connection]:
        with closing(connect(self._path(), rows=True)) as conn:
            yield conn
