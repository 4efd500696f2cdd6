"""The Maps app's state in SQLite: `/data/data/com.spa.maps/databases/maps.db`.

- `places(_id, key, city, name, category, address, hours, rating, reviews, phone, lat, lon)`: the seeded
  places (`city` is `sf` or `sh`);
- `lists(_id, kind, name, created_at)`: saved lists; `kind` is `favorites` or `want_to_go` for the two
  built-in lists (ids 1 and 2, their names shown in the phone's language) or `custom`;
- `saved(_id, list_id, place_id, saved_at)`: a place in a list (unique per list);
- `searches(_id, city, query, searched_at)`: the search history (per city);
- `routes(_id, origin, destination, mode, distance_m, minutes, requested_at)`: directions asked for
  (`origin`/`destination` are place keys, or `here` for "Your location"; `mode` drive/transit/walk/cycle).

Seeded rows have ids below 1000; the first row made on the phone gets 1001 (`WHERE _id > 1000`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.maps.seed import PLACES, Place

SCHEMA = """
CREATE TABLE places (_id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, city TEXT NOT NULL,
    name TEXT NOT NULL, category TEXT, address TEXT, hours TEXT, rating REAL, reviews INTEGER, phone TEXT,
    lat REAL, lon REAL, keywords TEXT);
CREATE TABLE lists (_id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, name TEXT NOT NULL,
    created_at INTEGER NOT NULL);
CREATE TABLE saved (_id INTEGER PRIMARY KEY AUTOINCREMENT, list_id INTEGER NOT NULL,
    place_id INTEGER NOT NULL, saved_at INTEGER NOT NULL, UNIQUE (list_id, place_id));
CREATE TABLE searches (_id INTEGER PRIMARY KEY AUTOINCREMENT, city TEXT NOT NULL, query TEXT NOT NULL,
    searched_at INTEGER NOT NULL);
CREATE TABLE routes (_id INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, destination TEXT NOT NULL,
    mode TEXT NOT NULL, distance_m INTEGER NOT NULL, minutes INTEGER NOT NULL, requested_at INTEGER NOT NULL);
"""
FIRST_NEW_ROW = 1001
SEED_LISTS = ((1, "favorites", "Favorites"), (2, "want_to_go", "Want to go"))
SEED_SAVED = ((1, "tartine"), (1, "city_lights"), (2, "sfmoma"), (1, "bund"), (1, "xiaoyang"), (2, "yuyuan"))
SEED_SEARCHES = (
    ("sf", "coffee", "2024-07-18 08:30"),
    ("sh", "咖啡", "2024-07-18 09:10"),
    ("sf", "museum", "2024-07-19 14:00"),
    ("sh", "外滩", "2024-07-19 15:20"),
)


@dataclass(frozen=True)
class SavedList:
    id: int
    kind: str
    name: str
    place_keys: tuple[str, ...]


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


class MapsStore(AppDatabase):
    def __init__(self, path: Callable[[], Path]) -> None:
        super().__init__(path)
        self.by_key = {p.key: p for p in PLACES}

    def ensure(self) -> None:
        if self._path().exists():
            return
        ids = {p.key: i for i, p in enumerate(PLACES, start=1)}
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            for p in PLACES:
                conn.execute(
                    "INSERT INTO places VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        ids[p.key],
                        p.key,
                        p.city,
                        p.name,
                        p.category,
                        p.address,
                        p.hours,
                        p.rating,
                        p.reviews,
                        p.phone,
                        p.lat,
                        p.lon,
                        p.keywords,
                    ),
                )
            base = _ms("2024-06-01 12:00")
            for lid, kind, name in SEED_LISTS:
                conn.execute("INSERT INTO lists VALUES (?,?,?,?)", (lid, kind, name, base))
            for i, (lid, key) in enumerate(SEED_SAVED, start=1):
                conn.execute("INSERT INTO saved VALUES (?,?,?,?)", (i, lid, ids[key], base + i * 60000))
            for i, (city, query, when) in enumerate(SEED_SEARCHES, start=1):
                conn.execute("INSERT INTO searches VALUES (?,?,?,?)", (i, city, query, _ms(when)))
            for table in ("lists", "saved", "searches", "routes"):
                if not conn.execute(
                    "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (FIRST_NEW_ROW - 1, table)
                ).rowcount:
                    conn.execute(
                        "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, FIRST_NEW_ROW - 1)
                    )
            conn.execute("COMMIT")

    def _place_id(self, conn: sqlite3.Connection, key: str) -> int:
        row = conn.execute("SELECT _id FROM places WHERE key = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return int(row["_id"])

    # -- search -------------------------------------------------------------------------------------
    def search(self, city: str, query: str) -> list[Place]:
        """Places of the city whose name, category, address or keywords hold every word of `query`,
        best rated first."""
        words = query.casefold().split()
        if not words:
            return []
        found = [
            p
            for p in PLACES
            if p.city == city
            and all(w in f"{p.name} {p.category} {p.address} {p.keywords}".casefold() for w in words)
        ]
        return sorted(found, key=lambda p: (-p.rating, p.name))

    def record_search(self, city: str, query: str, now_ms: int) -> None:
        with self.db() as conn:
            conn.execute(
                "INSERT INTO searches (city, query, searched_at) VALUES (?,?,?)", (city, query, now_ms)
            )

    def recent_searches(self, city: str, limit: int = 5) -> list[str]:
        with self.db() as conn:
            rows = conn.execute(
                "SELECT query FROM searches WHERE city = ? ORDER BY searched_at DESC, _id DESC", (city,)
            ).fetchall()
        seen: list[str] = []
        for r in rows:
            if r["query"] not in seen:
                seen.append(r["query"])
        return seen[:limit]

    # -- saved lists ----------------------------------------------------------------------------------
    def lists(self) -> list[SavedList]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM lists ORDER BY _id").fetchall()
            saved = conn.execute(
                "SELECT s.list_id, p.key FROM saved s JOIN places p ON p._id = s.place_id "
                "ORDER BY s.saved_at, s._id"
            ).fetchall()
        keys: dict[int, list[str]] = {}
        for r in saved:
            keys.setdefault(int(r["list_id"]), []).append(r["key"])
        return [
            SavedList(int(r["_id"]), r["kind"], r["name"], tuple(keys.get(int(r["_id"]), ()))) for r in rows
        ]

    def toggle_saved(self, list_id: int, key: str, now_ms: int) -> bool:
        """Put the place in the list, or take it out; True when it is in the list now."""
        with self.db() as conn:
            pid = self._place_id(conn, key)
            if conn.execute("DELETE FROM saved WHERE list_id = ? AND place_id = ?", (list_id, pid)).rowcount:
                return False
            conn.execute(
                "INSERT INTO saved (list_id, place_id, saved_at) VALUES (?,?,?)", (list_id, pid, now_ms)
            )
            return True

    def new_list(self, name: str, now_ms: int) -> int:
        with self.db() as conn:
            return int(
                conn.execute(
                    "INSERT INTO lists (kind, name, created_at) VALUES ('custom', ?, ?)", (name, now_ms)
                ).lastrowid
                or 0
            )

    def is_saved(self, key: str) -> bool:
        return any(key in lst.place_keys for lst in self.lists())

    # -- routes -------------------------------------------------------------------------------------
    def record_route(
        self, origin: str, destination: str, mode: str, metres: int, minutes: int, now_ms: int
    ) -> None:
        with self.db() as conn:
            conn.execute(
                "INSERT INTO routes (origin, destination, mode, distance_m, minutes, requested_at) "
                "VALUES (?,?,?,?,?,?)",
                (origin, destination, mode, metres, minutes, now_ms),
            )
