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

from spa_bench.phone.system.databases import connect

__all__ = ["AppDatabase", "connect"]


class AppDatabase:
    """Base of an app's store: `db()` opens the app's database (found by `path` on each call, since the
    data dir moves with snapshots) for one block of work and closes it after."""

    def __init__(self, path: Callable[[], Path]) -> None:
        self._path = path

    @contextmanager
    def db(self) -> Iterator[sqlite3.Connection]:
        with closing(connect(self._path(), rows=True)) as conn:
            yield conn
