"""The notes database: `/data/data/com.google.android.keep/databases/notes.db`.

This is spa-bench's own, documented schema (Keep's private database is not public, and this does not
pretend to be it):
    notes(_id, title, body, pinned 0/1, trashed 0/1, created, modified)   times in ms since the epoch
    labels(_id, name UNIQUE)
    note_labels(note_id, label_id)                                        one row per label on a note
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.system.clock import epoch_ms
from spa_bench.phone.system.databases import Db, SeedFn

PACKAGE = "com.google.android.keep"

SCHEMA = """
CREATE TABLE notes (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL DEFAULT '',
    pinned INTEGER NOT NULL DEFAULT 0,
    trashed INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    modified INTEGER NOT NULL
);
CREATE TABLE labels (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE note_labels (
    note_id INTEGER NOT NULL,
    label_id INTEGER NOT NULL,
    PRIMARY KEY (note_id, label_id)
);
"""

LABELS = ("Work", "Personal", "Shopping", "旅行")
# (title, body, pinned, trashed, labels, hours ago) - the same notes in both locales.
SEED: tuple[tuple[str, str, int, int, tuple[str, ...], int], ...] = (
    ("Wi-Fi password", "Home network: SPA-Home-5G\nPassword: sunflower2024", 1, 0, ("Personal",), 400),
    ("旅行清单", "护照、充电器、转换插头、防晒霜、雨伞", 1, 0, ("旅行",), 30),
    ("Shopping list", "Milk, eggs, bread, apples, coffee beans", 0, 0, ("Shopping",), 2),
    ("会议纪要", "1. 下季度预算\n2. 新人入职安排\n3. 周五前提交方案", 0, 0, ("Work",), 5),
    ("Book recommendations", "The Three-Body Problem; Project Hail Mary; Educated", 0, 0, (), 20),
    ("Gift ideas", "Mom: silk scarf; Dad: coffee grinder; Anna: cookbook", 0, 0, ("Personal",), 26),
    ("Shopping list (party)", "Chips, soda, paper plates, balloons", 0, 0, ("Shopping",), 50),
    ("Gym plan", "Mon: legs, Wed: back, Fri: chest and arms", 0, 0, (), 60),
    ("快递单号", "顺丰 SF1234567890，圆通 YT9876543210", 0, 0, (), 72),
    ("Meeting notes 11/20", "Q4 roadmap review; hire 2 engineers; launch on Jan 15", 0, 0, ("Work",), 96),
    ("菜谱：番茄鸡蛋面", "番茄两个、鸡蛋两个、面条一把，先炒蛋再煮面", 0, 0, (), 120),
    ("Car maintenance", "Next oil change at 45,000 km; tyres rotated in May", 0, 0, (), 200),
    ("Parking spot", "Level B2, spot 117", 0, 0, (), 300),
    ("Old grocery list", "Rice, soy sauce, tofu", 0, 1, ("Shopping",), 500),
)


def make_seed(ctx: AppContext) -> SeedFn:
    def seed(conn: sqlite3.Connection) -> None:
        now = epoch_ms(ctx.clock.now())
        ids = {}
        for name in LABELS:
            ids[name] = conn.execute("INSERT INTO labels (name) VALUES (?)", (name,)).lastrowid
        for title, body, pinned, trashed, labels, hours in SEED:
            when = now - hours * 3_600_000
            note = conn.execute(
                "INSERT INTO notes (title, body, pinned, trashed, created, modified) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (title, body, pinned, trashed, when, when),
            ).lastrowid
            for name in labels:
                conn.execute("INSERT INTO note_labels (note_id, label_id) VALUES (?, ?)", (note, ids[name]))

    return seed


@dataclass(frozen=True)
class Note:
    id: int
    title: str
    body: str
    pinned: bool
    trashed: bool
    labels: tuple[str, ...]


class NotesStore:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.db = Db(lambda: ctx.data_dir() / "databases" / "notes.db", SCHEMA, make_seed(ctx))

    def notes(self, trashed: bool = False) -> list[Note]:
        rows = self.db.rows(
            "SELECT n._id, n.title, n.body, n.pinned, n.trashed, "
            "(SELECT group_concat(l.name, char(31)) FROM note_labels nl JOIN labels l ON l._id = nl.label_id "
            " WHERE nl.note_id = n._id) FROM notes n WHERE n.trashed = ? "
            "ORDER BY n.modified DESC, n._id DESC",
            int(trashed),
        )
        return [
            Note(
                int(r[0]),
                r[1] or "",
                r[2] or "",
                bool(r[3]),
                bool(r[4]),
                tuple(sorted((r[5] or "").split("\x1f"))) if r[5] else (),
            )
            for r in rows
        ]

    def get(self, note_id: int) -> Note | None:
        for trashed in (False, True):
            for n in self.notes(trashed):
                if n.id == note_id:
                    return n
        return None

    def labels(self) -> list[str]:
        return [str(r[0]) for r in self.db.rows("SELECT name FROM labels ORDER BY _id")]

    def create(self) -> int:
        now = epoch_ms(self.ctx.clock.now())
        return self.db.run(
            "INSERT INTO notes (title, body, created, modified) VALUES ('', '', ?, ?)", now, now
        )

    def update(self, note_id: int, column: str, value: str | int) -> None:
        if column not in ("title", "body", "pinned", "trashed"):
            raise ValueError(column)
        self.db.run(
            f"UPDATE notes SET {column} = ?, modified = ? WHERE _id = ?",
            value,
            epoch_ms(self.ctx.clock.now()),
            note_id,
        )

    def delete_forever(self, note_id: int) -> None:
        self.db.run("DELETE FROM note_labels WHERE note_id = ?", note_id)
        self.db.run("DELETE FROM notes WHERE _id = ?", note_id)

    def toggle_label(self, note_id: int, name: str) -> None:
        row = self.db.one("SELECT _id FROM labels WHERE name = ?", name)
        label_id = int(row[0]) if row else self.db.run("INSERT INTO labels (name) VALUES (?)", name)
        if self.db.one("SELECT 1 FROM note_labels WHERE note_id = ? AND label_id = ?", note_id, label_id):
            self.db.run("DELETE FROM note_labels WHERE note_id = ? AND label_id = ?", note_id, label_id)
        else:
            self.db.run("INSERT INTO note_labels (note_id, label_id) VALUES (?, ?)", note_id, label_id)

    def duplicate(self, note_id: int) -> int:
        """Keep's "Make a copy": a new note with the same title, text and labels, not pinned."""
        now = epoch_ms(self.ctx.clock.now())
        copy = self.db.run(
            "INSERT INTO notes (title, body, created, modified) "
            "SELECT title, body, ?, ? FROM notes WHERE _id = ?",
            now,
            now,
            note_id,
        )
        self.db.run(
            "INSERT INTO note_labels (note_id, label_id) "
            "SELECT ?, label_id FROM note_labels WHERE note_id = ?",
            copy,
            note_id,
        )
        return copy
