"""The Browser's state in SQLite: `/data/data/com.android.browser/databases/browser.db`.

- `tabs(_id, url, title, stack, position, active, created_at)`: open tabs; `stack` is the tab's
  back history (a JSON list of URLs, the current page last); exactly one tab has `active = 1`;
- `bookmarks(_id, url UNIQUE, title, created_at)`;
- `history(_id, url, title, visited_at)`: one row per page load;
- `form_submissions(_id, form, url, ref, submitted_at)` and `form_values(submission_id, field, value)`:
  what the offline web's forms received (a booking, a feedback message).

Seeded rows have ids below 1000 (tabs below 100); the first row made on the phone gets 1001, so
`WHERE _id > 1000` selects what the user did.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from spa_bench.phone.apps.browser import sites_en, sites_zh
from spa_bench.phone.apps.browser.web import HOME_URL
from spa_bench.phone.apps.db import AppDatabase

SCHEMA = """
CREATE TABLE tabs (_id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, title TEXT, stack TEXT NOT NULL,
    position INTEGER NOT NULL, active INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL);
CREATE TABLE bookmarks (_id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL UNIQUE, title TEXT,
    created_at INTEGER NOT NULL);
CREATE TABLE history (_id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, title TEXT,
    visited_at INTEGER NOT NULL);
CREATE TABLE form_submissions (_id INTEGER PRIMARY KEY AUTOINCREMENT, form TEXT NOT NULL, url TEXT NOT NULL,
    ref TEXT NOT NULL, submitted_at INTEGER NOT NULL);
CREATE TABLE form_values (submission_id INTEGER NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL);
"""
FIRST_NEW_ROW = 1001
FIRST_NEW_TAB = 101

SEED_TABS: tuple[tuple[str, str], ...] = (
    (sites_en.WIKI + "Golden_Gate_Bridge", "Golden Gate Bridge - Openpedia"),
    (sites_zh.WIKI + "xihu", "西湖 - 开放百科"),
    (HOME_URL, "Searchly"),
)
SEED_BOOKMARKS: tuple[tuple[str, str, str], ...] = (
    (sites_en.NEWS, "Bay Daily - San Francisco news", "2024-06-02 08:10"),
    (sites_en.WIKI + "Main_Page", "Openpedia, the free encyclopedia", "2024-06-10 21:00"),
    (sites_zh.NEWS, "晨报网 - 上海本地新闻", "2024-06-15 07:45"),
    (sites_zh.SHOP, "田园鲜 - 新鲜蔬果 当日送达", "2024-07-01 19:30"),
)
SEED_HISTORY: tuple[tuple[str, str, str], ...] = (
    (sites_en.NEWS, "Bay Daily - San Francisco news", "2024-07-18 08:02"),
    (
        sites_en.NEWS + "2024/07/17/chinatown-night-market",
        "Night market returns to Chinatown - Bay Daily",
        "2024-07-18 08:04",
    ),
    (sites_zh.NEWS, "晨报网 - 上海本地新闻", "2024-07-18 12:30"),
    (sites_zh.NEWS + "2024/0717/yinyuejie", "滨江音乐节本周末开幕 - 晨报网", "2024-07-18 12:31"),
    (sites_en.SHOP, "Greenleaf Market - fresh groceries delivered", "2024-07-19 18:20"),
    (sites_en.WIKI + "Golden_Gate_Bridge", "Golden Gate Bridge - Openpedia", "2024-07-19 21:15"),
    (sites_zh.WIKI + "xihu", "西湖 - 开放百科", "2024-07-19 22:40"),
)


@dataclass(frozen=True)
class Tab:
    id: int
    url: str
    title: str
    stack: tuple[str, ...]
    active: bool


@dataclass(frozen=True)
class Entry:
    """A bookmark or a history row."""

    id: int
    url: str
    title: str
    when: int


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def _tab(r: sqlite3.Row) -> Tab:
    return Tab(int(r["_id"]), r["url"], r["title"] or "", tuple(json.loads(r["stack"])), bool(r["active"]))


class BrowserStore(AppDatabase):
    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            base = _ms("2024-07-19 22:45")
            for i, (url, title) in enumerate(SEED_TABS, start=1):
                conn.execute(
                    "INSERT INTO tabs VALUES (?,?,?,?,?,?,?)",
                    (i, url, title, json.dumps([url]), i, int(i == len(SEED_TABS)), base + i),
                )
            for i, (url, title, when) in enumerate(SEED_BOOKMARKS, start=1):
                conn.execute("INSERT INTO bookmarks VALUES (?,?,?,?)", (i, url, title, _ms(when)))
            for i, (url, title, when) in enumerate(SEED_HISTORY, start=1):
                conn.execute("INSERT INTO history VALUES (?,?,?,?)", (i, url, title, _ms(when)))
            for table, first in (
                ("tabs", FIRST_NEW_TAB),
                ("bookmarks", FIRST_NEW_ROW),
                ("history", FIRST_NEW_ROW),
                ("form_submissions", FIRST_NEW_ROW),
            ):
                if not conn.execute(
                    "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (first - 1, table)
                ).rowcount:
                    conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", (table, first - 1))
            conn.execute("COMMIT")

    # -- tabs ---------------------------------------------------------------------------------------
    def tabs(self) -> list[Tab]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM tabs ORDER BY position, _id").fetchall()
        return [_tab(r) for r in rows]

    def active_tab(self) -> Tab:
        tabs = self.tabs()
        found = next((t for t in tabs if t.active), None)
        if found is not None:
            return found
        if tabs:
            self.activate(tabs[-1].id)
            return self.tabs()[-1]
        return self.new_tab(HOME_URL, "Searchly", 0)

    def new_tab(self, url: str, title: str, now_ms: int) -> Tab:
        with self.db() as conn:
            conn.execute("BEGIN")
            position = conn.execute("SELECT COALESCE(MAX(position), 0) + 1 FROM tabs").fetchone()[0]
            conn.execute("UPDATE tabs SET active = 0 WHERE active != 0")
            tid = conn.execute(
                "INSERT INTO tabs (url, title, stack, position, active, created_at) VALUES (?,?,?,?,1,?)",
                (url, title, json.dumps([url]), position, now_ms),
            ).lastrowid
            conn.execute("COMMIT")
        return Tab(int(tid or 0), url, title, (url,), True)

    def activate(self, tab_id: int) -> None:
        with self.db() as conn:
            conn.execute("UPDATE tabs SET active = (_id = ?)", (tab_id,))

    def close_tab(self, tab_id: int) -> None:
        """Close a tab; when it was the active one, its neighbour (the one before, else after) becomes
        active, and closing the last tab leaves none (the next screen opens a new-tab page)."""
        tabs = self.tabs()
        index = next((i for i, t in enumerate(tabs) if t.id == tab_id), None)
        if index is None:
            return
        with self.db() as conn:
            conn.execute("DELETE FROM tabs WHERE _id = ?", (tab_id,))
        rest = tabs[:index] + tabs[index + 1 :]
        if tabs[index].active and rest:
            self.activate(rest[max(0, index - 1)].id)

    def close_all_tabs(self) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM tabs")

    def navigate(self, tab_id: int, url: str, title: str, now_ms: int, push: bool = True) -> None:
        """Load `url` in the tab (pushed on its back history, or replacing the page when going back) and
        record the visit."""
        with self.db() as conn:
            conn.execute("BEGIN")
            row = conn.execute("SELECT stack FROM tabs WHERE _id = ?", (tab_id,)).fetchone()
            stack = list(json.loads(row["stack"])) if row else []
            if push:
                stack.append(url)
            elif stack:
                stack[-1] = url
            conn.execute(
                "UPDATE tabs SET url = ?, title = ?, stack = ? WHERE _id = ?",
                (url, title, json.dumps(stack[-50:]), tab_id),
            )
            conn.execute("INSERT INTO history (url, title, visited_at) VALUES (?,?,?)", (url, title, now_ms))
            conn.execute("COMMIT")

    def go_back(self, tab_id: int) -> str | None:
        """Drop the tab's current page; the URL to show now, or None when it has no earlier page."""
        with self.db() as conn:
            row = conn.execute("SELECT stack FROM tabs WHERE _id = ?", (tab_id,)).fetchone()
            stack = list(json.loads(row["stack"])) if row else []
            if len(stack) < 2:
                return None
            stack.pop()
            conn.execute("UPDATE tabs SET stack = ? WHERE _id = ?", (json.dumps(stack), tab_id))
        return str(stack[-1])

    def set_title(self, tab_id: int, title: str) -> None:
        with self.db() as conn:
            conn.execute("UPDATE tabs SET title = ? WHERE _id = ? AND title IS NOT ?", (title, tab_id, title))

    # -- bookmarks and history ------------------------------------------------------------------------
    def bookmarks(self) -> list[Entry]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM bookmarks ORDER BY created_at DESC, _id DESC").fetchall()
        return [Entry(int(r["_id"]), r["url"], r["title"] or "", int(r["created_at"])) for r in rows]

    def is_bookmarked(self, url: str) -> bool:
        return any(b.url == url for b in self.bookmarks())

    def add_bookmark(self, url: str, title: str, now_ms: int) -> None:
        with self.db() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO bookmarks (url, title, created_at) VALUES (?,?,?)",
                (url, title, now_ms),
            )

    def remove_bookmark(self, url: str) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM bookmarks WHERE url = ?", (url,))

    def history(self) -> list[Entry]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM history ORDER BY visited_at DESC, _id DESC").fetchall()
        return [Entry(int(r["_id"]), r["url"], r["title"] or "", int(r["visited_at"])) for r in rows]

    def delete_history(self, entry_id: int) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM history WHERE _id = ?", (entry_id,))

    def clear_history(self) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM history")

    # -- forms --------------------------------------------------------------------------------------
    def submit_form(self, form: str, url: str, values: Mapping[str, str], now_ms: int, prefix: str) -> str:
        """Store a submission; its reference (`prefix` + the row id, e.g. LG-1001)."""
        with self.db() as conn:
            conn.execute("BEGIN")
            sid = conn.execute(
                "INSERT INTO form_submissions (form, url, ref, submitted_at) VALUES (?,?,?,?)",
                (form, url, "", now_ms),
            ).lastrowid
            ref = f"{prefix}-{sid}"
            conn.execute("UPDATE form_submissions SET ref = ? WHERE _id = ?", (ref, sid))
            conn.executemany(
                "INSERT INTO form_values VALUES (?,?,?)", [(sid, k, v) for k, v in values.items()]
            )
            conn.execute("COMMIT")
        return ref

    def submission(self, ref: str) -> dict[str, str]:
        with self.db() as conn:
            rows = conn.execute(
                "SELECT v.field, v.value FROM form_values v "
                "JOIN form_submissions s ON s._id = v.submission_id WHERE s.ref = ?",
                (ref,),
            ).fetchall()
        return {r["field"]: r["value"] for r in rows}
