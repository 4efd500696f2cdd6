"""An on-disk cache of OCR results, keyed by (engine identity, image content hash).

One SQLite file per run by default (`results/<run>/.cache/ocr.sqlite`): re-evaluating a run, or
evaluating it with another judge, reads every screenshot's text from here instead of running OCR again.
SQLite rather than a JSON-lines file because several evaluator processes may share one run folder:
WAL mode lets them read and write concurrently without corrupting the file.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable
from pathlib import Path

from spa_bench.evaluation.ocr import OcrLine

CACHE_DIR = ".cache"
CACHE_FILE = "ocr.sqlite"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS ocr (
    engine TEXT NOT NULL,
    key TEXT NOT NULL,
    lines TEXT NOT NULL,
    PRIMARY KEY (engine, key)
)
"""


def default_cache_path(run_root: Path) -> Path:
    """Where a run's OCR cache lives unless configured otherwise."""
    return run_root / CACHE_DIR / CACHE_FILE


class OcrCache:
    """A thread-safe SQLite cache; `OcrCache(None)` keeps it in memory (tests, one-off use)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(str(path) if path is not None else ":memory:",
                                     timeout=30.0, check_same_thread=False)
        with self._lock:
            if path is not None:
                self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute(_SCHEMA)
            self._conn.commit()
        self.hits = 0
        self.misses = 0

    def get(self, engine: str, key: str) -> tuple[OcrLine, ...] | None:
        with self._lock:
            row = self._conn.execute("SELECT lines FROM ocr WHERE engine = ? AND key = ?",
                                     (engine, key)).fetchone()
            if row is None:
                self.misses += 1
                return None
            self.hits += 1
        return tuple(OcrLine.from_json(item) for item in json.loads(row[0]))

    def put(self, engine: str, keys: Iterable[str], lines: Iterable[OcrLine]) -> None:
        payload = json.dumps([line.to_json() for line in lines], ensure_ascii=False)
        with self._lock:
            self._conn.executemany("INSERT OR REPLACE INTO ocr (engine, key, lines) VALUES (?, ?, ?)",
                                   [(engine, key, payload) for key in keys])
            self._conn.commit()

    def __len__(self) -> int:
        with self._lock:
            count: int = self._conn.execute("SELECT COUNT(*) FROM ocr").fetchone()[0]
        return count

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> OcrCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
