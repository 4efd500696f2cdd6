"""The Video app's state in SQLite: `/data/data/com.spa.video/databases/video.db`.

Tables (what checks read):
- `channels(_id, key, name_en, name_zh, subscribers)`;
- `videos(_id, vid, channel_id, category, title_en, title_zh, duration_s, views, published_at, subtitles,
  premiere_at)`: `subtitles` the languages available (comma-separated `en`, `zh`, `ja`); `premiere_at` is
  set (phone time, ms) for videos not out yet, NULL otherwise;
- `likes(vid, liked_at)`, `watch_later(vid, added_at)`;
- `comments(_id, vid, author, body, created_at, mine)`: seeded ones have ids below 1000 and `mine = 0`;
  the user's start at 1001 with `mine = 1`;
- `history(vid, watched_at, position_s)`: one row per video, the latest watch (a video opened again
  moves to the top);
- `player(_id = 1, vid, state, position_ms, updated_at, speed, subtitles_on, subtitle_lang)`: the player:
  `state` is `playing` or `paused` (`stopped` with no video); the position is `position_ms` at
  `updated_at`, advanced while playing by the phone's clock times `speed` (0.5-2.0). Subtitles:
  `subtitles_on` 0/1 and `subtitle_lang` (`en`, `zh`, `ja`) are the viewer's preference for every video.
A fresh install has nothing in the player, speed 1.0, subtitles off with language `en` (`zh` on a phone
set up in Chinese is left to the viewer: the default is the same in both, so checks need not care).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from spa_bench.phone.api import Locale
from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.video.seed import CHANNELS, COMMENTS, HISTORY, LIKED, VIDEOS, WATCH_LATER, seconds

SCHEMA = """
CREATE TABLE channels (_id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, name_en TEXT, name_zh TEXT,
    subscribers INTEGER);
CREATE TABLE videos (_id INTEGER PRIMARY KEY, vid TEXT UNIQUE NOT NULL, channel_id INTEGER NOT NULL,
    category TEXT, title_en TEXT, title_zh TEXT, duration_s INTEGER, views INTEGER, published_at INTEGER,
    subtitles TEXT, premiere_at INTEGER);
CREATE TABLE likes (vid TEXT PRIMARY KEY, liked_at INTEGER);
CREATE TABLE watch_later (vid TEXT PRIMARY KEY, added_at INTEGER);
CREATE TABLE comments (_id INTEGER PRIMARY KEY AUTOINCREMENT, vid TEXT NOT NULL, author TEXT, body TEXT,
    created_at INTEGER, mine INTEGER NOT NULL DEFAULT 0);
CREATE TABLE history (vid TEXT PRIMARY KEY, watched_at INTEGER, position_s INTEGER);
CREATE TABLE player (_id INTEGER PRIMARY KEY CHECK (_id = 1), vid TEXT, state TEXT NOT NULL,
    position_ms INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL DEFAULT 0,
    speed REAL NOT NULL DEFAULT 1.0, subtitles_on INTEGER NOT NULL DEFAULT 0,
    subtitle_lang TEXT NOT NULL DEFAULT 'en');
"""
FIRST_NEW_COMMENT = 1001


@dataclass(frozen=True)
class Channel:
    id: int
    key: str
    name_en: str
    name_zh: str
    subscribers: int

    def name(self, locale: Locale) -> str:
        return self.name_zh if locale == "zh" else self.name_en


@dataclass(frozen=True)
class Video:
    id: int
    vid: str
    channel: Channel
    category: str
    title_en: str
    title_zh: str
    duration_s: int
    views: int
    published_at: int
    subtitles: tuple[str, ...]
    premiere_at: int | None

    def title(self, locale: Locale) -> str:
        return self.title_zh if locale == "zh" else self.title_en


@dataclass(frozen=True)
class Player:
    vid: str | None
    state: str
    position_ms: int
    updated_at: int
    speed: float
    subtitles_on: bool
    subtitle_lang: str

    def position_at(self, now_ms: int) -> int:
        if self.state == "playing":
            return self.position_ms + round(max(0, now_ms - self.updated_at) * self.speed)
        return self.position_ms


@dataclass(frozen=True)
class Comment:
    id: int
    author: str
    body: str
    created_at: int
    mine: bool


def _ms(when: datetime) -> int:
    return int((when - datetime(1970, 1, 1)).total_seconds() * 1000)


class VideoStore(AppDatabase):
    """Open-per-call SQLite access (a snapshot swaps the files underneath)."""

    def __init__(self, path: Callable[[], Path], now: Callable[[], datetime]) -> None:
        super().__init__(path)
        self._now = now
        self._videos: dict[str, Video] | None = None

    def ensure(self) -> None:
        """Create and seed the database; dates are relative to the phone's clock at first start."""
        if self._path().exists():
            return
        now = self._now().replace(second=0, microsecond=0)
        today = now.replace(hour=0, minute=0)
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            ids: dict[str, int] = {}
            for i, (key, en, zh, subscribers) in enumerate(CHANNELS, start=1):
                conn.execute("INSERT INTO channels VALUES (?,?,?,?,?)", (i, key, en, zh, subscribers))
                ids[key] = i
            for n, (vid, ch, cat, en, zh, length, views, days, subs, premiere) in enumerate(VIDEOS, start=1):
                premiere_at = None
                if premiere:
                    offset, hhmm = premiere.split()
                    hour, minute = (int(x) for x in hhmm.split(":"))
                    premiere_at = _ms(today + timedelta(days=int(offset), hours=hour, minutes=minute))
                published = _ms(now - timedelta(days=days, hours=2))
                conn.execute(
                    "INSERT INTO videos VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (n, vid, ids[ch], cat, en, zh, seconds(length), views, published, subs, premiere_at),
                )
            for vid, author, body, days in COMMENTS:
                conn.execute(
                    "INSERT INTO comments (vid, author, body, created_at, mine) VALUES (?,?,?,?,0)",
                    (vid, author, body, _ms(now - timedelta(days=days))),
                )
            conn.execute(
                "UPDATE sqlite_sequence SET seq = ? WHERE name = 'comments'", (FIRST_NEW_COMMENT - 1,)
            )
            for vid, days, minutes, pos in HISTORY:
                when = now - timedelta(days=days, minutes=minutes)
                conn.execute("INSERT INTO history VALUES (?,?,?)", (vid, _ms(when), pos))
            for vid in LIKED:
                conn.execute("INSERT INTO likes VALUES (?, ?)", (vid, _ms(now - timedelta(days=7))))
            for vid in WATCH_LATER:
                conn.execute("INSERT INTO watch_later VALUES (?, ?)", (vid, _ms(now - timedelta(days=2))))
            conn.execute("INSERT INTO player (_id, vid, state) VALUES (1, NULL, 'stopped')")
            conn.execute("COMMIT")

    # -- catalogue ------------------------------------------------------------------------------------
    def videos(self) -> dict[str, Video]:
        if self._videos is None:
            self.ensure()
            with self.db() as conn:
                chans = {
                    int(r["_id"]): Channel(
                        int(r["_id"]), r["key"], r["name_en"], r["name_zh"], int(r["subscribers"])
                    )
                    for r in conn.execute("SELECT * FROM channels")
                }
                rows = conn.execute("SELECT * FROM videos ORDER BY _id").fetchall()
            self._videos = {
                r["vid"]: Video(
                    int(r["_id"]),
                    r["vid"],
                    chans[int(r["channel_id"])],
                    r["category"],
                    r["title_en"],
                    r["title_zh"],
                    int(r["duration_s"]),
                    int(r["views"]),
                    int(r["published_at"]),
                    tuple(s for s in str(r["subtitles"]).split(",") if s),
                    int(r["premiere_at"]) if r["premiere_at"] is not None else None,
                )
                for r in rows
            }
        return self._videos

    def feed(self, category: str = "") -> list[Video]:
        """Home: upcoming premieres first, then the most viewed."""
        vids = [v for v in self.videos().values() if not category or v.category == category]
        return sorted(
            vids, key=lambda v: (0, v.premiere_at, v.vid) if v.premiere_at else (1, -v.views, v.vid)
        )

    def search(self, query: str) -> list[Video]:
        """Videos whose title (either language) or channel contains every word of `query`."""
        words = query.casefold().split()
        if not words:
            return []
        found = []
        for v in self.videos().values():
            hay = f"{v.title_en} {v.title_zh} {v.channel.name_en} {v.channel.name_zh}".casefold()
            if all(w in hay for w in words):
                found.append(v)
        return sorted(found, key=lambda v: (-v.views, v.vid))

    # -- lists ----------------------------------------------------------------------------------------
    def _vids(self, query: str) -> list[Video]:
        videos = self.videos()
        with self.db() as conn:
            rows = conn.execute(query).fetchall()
        return [videos[r[0]] for r in rows if r[0] in videos]

    def liked(self) -> list[Video]:
        return self._vids("SELECT vid FROM likes ORDER BY liked_at DESC, vid")

    def watch_later(self) -> list[Video]:
        return self._vids("SELECT vid FROM watch_later ORDER BY added_at DESC, vid")

    def history(self) -> list[Video]:
        # the newest write wins a tie (a video opened in the same millisecond the previous one stopped)
        return self._vids("SELECT vid FROM history ORDER BY watched_at DESC, rowid DESC")

    def _toggle(self, table: str, column: str, vid: str, now_ms: int) -> bool:
        with self.db() as conn:
            if conn.execute(f"DELETE FROM {table} WHERE vid = ?", (vid,)).rowcount:
                return False
            conn.execute(f"INSERT INTO {table} (vid, {column}) VALUES (?, ?)", (vid, now_ms))
            return True

    def toggle_like(self, vid: str, now_ms: int) -> bool:
        return self._toggle("likes", "liked_at", vid, now_ms)

    def toggle_watch_later(self, vid: str, now_ms: int) -> bool:
        return self._toggle("watch_later", "added_at", vid, now_ms)

    def is_in(self, table: str, vid: str) -> bool:
        assert table in ("likes", "watch_later")
        with self.db() as conn:
            return conn.execute(f"SELECT 1 FROM {table} WHERE vid = ?", (vid,)).fetchone() is not None

    def clear_history(self) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM history")

    # -- comments -------------------------------------------------------------------------------------
    def comments(self, vid: str) -> list[Comment]:
        with self.db() as conn:
            rows = conn.execute(
                "SELECT * FROM comments WHERE vid = ? ORDER BY mine DESC, created_at DESC, _id DESC", (vid,)
            ).fetchall()
        return [
            Comment(int(r["_id"]), r["author"], r["body"], int(r["created_at"]), bool(r["mine"]))
            for r in rows
        ]

    def add_comment(self, vid: str, author: str, body: str, now_ms: int) -> None:
        with self.db() as conn:
            conn.execute(
                "INSERT INTO comments (vid, author, body, created_at, mine) VALUES (?,?,?,?,1)",
                (vid, author, body, now_ms),
            )

    # -- player ---------------------------------------------------------------------------------------
    def player(self) -> Player:
        with self.db() as conn:
            r = conn.execute("SELECT * FROM player WHERE _id = 1").fetchone()
        if r is None:
            return Player(None, "stopped", 0, 0, 1.0, False, "en")
        return Player(
            r["vid"],
            r["state"],
            int(r["position_ms"]),
            int(r["updated_at"]),
            float(r["speed"]),
            bool(r["subtitles_on"]),
            r["subtitle_lang"],
        )

    def current(self, now_ms: int) -> Player:
        """The player now; a video that played to its end stops there, paused."""
        pl = self.player()
        if pl.state == "playing" and pl.vid in self.videos():
            end = self.videos()[pl.vid].duration_s * 1000
            if pl.position_at(now_ms) >= end:
                self._update(state="paused", position_ms=end, updated_at=now_ms)
                return self.player()
        return pl

    def _update(self, **values: object) -> None:
        cols = ", ".join(f"{k} = ?" for k in values)
        with self.db() as conn:
            conn.execute(f"UPDATE player SET {cols} WHERE _id = 1", tuple(values.values()))

    def _save_history(self, vid: str, now_ms: int, position_s: int) -> None:
        with self.db() as conn:
            conn.execute("INSERT OR REPLACE INTO history VALUES (?,?,?)", (vid, now_ms, position_s))

    def open(self, vid: str, now_ms: int) -> None:
        """Start `vid` (a premiere cannot play): from where it was left if in the history, playing."""
        video = self.videos().get(vid)
        if video is None or video.premiere_at is not None:
            return
        pl = self.current(now_ms)
        if pl.vid == vid:
            return
        if pl.vid is not None:
            self._save_history(pl.vid, now_ms, pl.position_at(now_ms) // 1000)
        with self.db() as conn:
            row = conn.execute("SELECT position_s FROM history WHERE vid = ?", (vid,)).fetchone()
        start = int(row["position_s"]) if row else 0
        if start >= video.duration_s - 5:
            start = 0
        self._update(vid=vid, state="playing", position_ms=start * 1000, updated_at=now_ms)
        self._save_history(vid, now_ms, start)

    def toggle_play(self, now_ms: int) -> None:
        pl = self.current(now_ms)
        if pl.vid is None:
            return
        end = self.videos()[pl.vid].duration_s * 1000
        pos = min(pl.position_at(now_ms), end)
        if pl.state == "playing":
            self._update(state="paused", position_ms=pos, updated_at=now_ms)
        else:
            self._update(state="playing", position_ms=0 if pos >= end else pos, updated_at=now_ms)
        self._save_history(pl.vid, now_ms, pos // 1000)

    def seek(self, position_ms: int, now_ms: int) -> None:
        pl = self.current(now_ms)
        if pl.vid is None:
            return
        end = self.videos()[pl.vid].duration_s * 1000
        pos = min(max(0, position_ms), end)
        self._update(position_ms=pos, updated_at=now_ms)
        self._save_history(pl.vid, now_ms, pos // 1000)

    def seek_by(self, delta_ms: int, now_ms: int) -> None:
        self.seek(self.current(now_ms).position_at(now_ms) + delta_ms, now_ms)

    def set_speed(self, speed: float, now_ms: int) -> None:
        pl = self.current(now_ms)
        self._update(speed=speed, position_ms=pl.position_at(now_ms), updated_at=now_ms)

    def set_subtitles(self, on: bool, lang: str | None = None) -> None:
        if lang is None:
            self._update(subtitles_on=int(on))
        else:
            self._update(subtitles_on=int(on), subtitle_lang=lang)
