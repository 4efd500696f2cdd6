"""The Music app's state in SQLite: `/data/data/com.android.music/databases/music.db`.

Tables (what checks read):
- `tracks(_id, title, artist, album, album_id, track_no, duration_s, genre, year)`: the library (ids 1-48);
- `albums(_id, title, artist, year, genre)`;
- `playlists(_id, name, created_at)` and `playlist_tracks(playlist_id, track_id, position)` (positions
  0, 1, 2 ... in the playlist's order; seeded playlists have ids 1-4, new ones 5 and up);
- `likes(track_id, liked_at)`;
- `playback(_id = 1, track_id, state, position_ms, updated_at, shuffle, repeat, queue, queue_index)`: the
  one player: `state` is `stopped`, `playing` or `paused`; `position_ms` is the position at `updated_at`
  (phone time in ms), so while playing the real position is `position_ms + now - updated_at` (as
  Android's PlaybackState keeps position + last update time). `repeat` is `off`, `all` or `one`;
  `queue` the track ids being played, comma-separated, and `queue_index` the current one's index.
A fresh install has nothing playing (state `stopped`, no track), shuffle off and repeat off.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.music.seed import ALBUMS, LIKED, LIKED_AT, PLAYLISTS, seconds

SCHEMA = """
CREATE TABLE albums (_id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist TEXT NOT NULL, year INTEGER,
    genre TEXT);
CREATE TABLE tracks (_id INTEGER PRIMARY KEY, title TEXT NOT NULL, artist TEXT NOT NULL, album TEXT NOT NULL,
    album_id INTEGER NOT NULL, track_no INTEGER NOT NULL, duration_s INTEGER NOT NULL, genre TEXT,
    year INTEGER);
CREATE TABLE playlists (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, created_at INTEGER);
CREATE TABLE playlist_tracks (playlist_id INTEGER NOT NULL, track_id INTEGER NOT NULL,
    position INTEGER NOT NULL);
CREATE TABLE likes (track_id INTEGER PRIMARY KEY, liked_at INTEGER);
CREATE TABLE playback (_id INTEGER PRIMARY KEY CHECK (_id = 1), track_id INTEGER, state TEXT NOT NULL,
    position_ms INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL DEFAULT 0,
    shuffle INTEGER NOT NULL DEFAULT 0, repeat TEXT NOT NULL DEFAULT 'off', queue TEXT NOT NULL DEFAULT '',
    queue_index INTEGER NOT NULL DEFAULT 0);
"""
REPEAT_MODES = ("off", "all", "one")
RESTART_AFTER_MS = 3000  # "previous" restarts the song once it has played this long, as players do


@dataclass(frozen=True)
class Track:
    id: int
    title: str
    artist: str
    album: str
    album_id: int
    track_no: int
    duration_s: int


@dataclass(frozen=True)
class Album:
    id: int
    title: str
    artist: str
    year: int
    genre: str


@dataclass(frozen=True)
class Playlist:
    id: int
    name: str
    track_ids: tuple[int, ...]


@dataclass(frozen=True)
class Playback:
    track_id: int | None
    state: str
    position_ms: int  # at `updated_at`
    updated_at: int
    shuffle: bool
    repeat: str
    queue: tuple[int, ...]
    queue_index: int

    def position_at(self, now_ms: int) -> int:
        if self.state == "playing":
            return self.position_ms + max(0, now_ms - self.updated_at)
        return self.position_ms


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def _track(r: sqlite3.Row) -> Track:
    return Track(
        int(r["_id"]),
        r["title"],
        r["artist"],
        r["album"],
        int(r["album_id"]),
        int(r["track_no"]),
        int(r["duration_s"]),
    )


class MusicStore(AppDatabase):
    """Open-per-call SQLite access (a snapshot swaps the files underneath)."""

    def __init__(self, path: Callable[[], Path]) -> None:
        super().__init__(path)
        self._tracks: dict[int, Track] | None = None

    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            ids: dict[str, int] = {}
            track_id = 0
            for album_id, (album, artist, year, genre, songs) in enumerate(ALBUMS, start=1):
                conn.execute("INSERT INTO albums VALUES (?,?,?,?,?)", (album_id, album, artist, year, genre))
                for no, (title, length) in enumerate(songs, start=1):
                    track_id += 1
                    ids[title] = track_id
                    conn.execute(
                        "INSERT INTO tracks VALUES (?,?,?,?,?,?,?,?,?)",
                        (track_id, title, artist, album, album_id, no, seconds(length), genre, year),
                    )
            for name, titles, created in PLAYLISTS:
                cur = conn.execute(
                    "INSERT INTO playlists (name, created_at) VALUES (?, ?)", (name, _ms(created))
                )
                for pos, title in enumerate(titles):
                    conn.execute(
                        "INSERT INTO playlist_tracks VALUES (?,?,?)", (cur.lastrowid, ids[title], pos)
                    )
            for title in LIKED:
                conn.execute("INSERT INTO likes VALUES (?, ?)", (ids[title], _ms(LIKED_AT)))
            conn.execute("INSERT INTO playback (_id, track_id, state) VALUES (1, NULL, 'stopped')")
            conn.execute("COMMIT")

    # -- library --------------------------------------------------------------------------------------
    def tracks(self) -> dict[int, Track]:
        """Every track by id (the library is fixed on the phone, so it is read once)."""
        if self._tracks is None:
            self.ensure()
            with self.db() as conn:
                rows = conn.execute("SELECT * FROM tracks ORDER BY _id").fetchall()
            self._tracks = {int(r["_id"]): _track(r) for r in rows}
        return self._tracks

    def songs(self) -> list[Track]:
        """All songs in title order (the Songs tab)."""
        return sorted(self.tracks().values(), key=lambda t: t.title.casefold())

    def albums(self) -> list[Album]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM albums ORDER BY _id").fetchall()
        return [Album(int(r["_id"]), r["title"], r["artist"], int(r["year"]), r["genre"]) for r in rows]

    def album_tracks(self, album_id: int) -> list[Track]:
        return sorted((t for t in self.tracks().values() if t.album_id == album_id), key=lambda t: t.track_no)

    def search(self, query: str) -> list[Track]:
        """Songs whose title, artist or album contains every word of `query` (case-insensitive); songs
        whose title matches come first, as a player ranks them."""
        words = query.casefold().split()
        if not words:
            return []
        found = []
        for t in self.songs():
            hay = f"{t.title} {t.artist} {t.album}".casefold()
            if all(w in hay for w in words):
                found.append((not all(w in t.title.casefold() for w in words), t.title.casefold(), t))
        return [t for _, _, t in sorted(found, key=lambda x: (x[0], x[1]))]

    # -- likes ----------------------------------------------------------------------------------------
    def liked(self) -> list[Track]:
        tracks = self.tracks()
        with self.db() as conn:
            rows = conn.execute("SELECT track_id FROM likes ORDER BY liked_at DESC, track_id").fetchall()
        return [tracks[int(r["track_id"])] for r in rows if int(r["track_id"]) in tracks]

    def is_liked(self, track_id: int) -> bool:
        with self.db() as conn:
            return conn.execute("SELECT 1 FROM likes WHERE track_id = ?", (track_id,)).fetchone() is not None

    def toggle_like(self, track_id: int, now_ms: int) -> bool:
        """Like or unlike; True when the song is now liked."""
        with self.db() as conn:
            if conn.execute("DELETE FROM likes WHERE track_id = ?", (track_id,)).rowcount:
                return False
            conn.execute("INSERT INTO likes VALUES (?, ?)", (track_id, now_ms))
            return True

    # -- playlists ------------------------------------------------------------------------------------
    def playlists(self) -> list[Playlist]:
        with self.db() as conn:
            lists = conn.execute("SELECT * FROM playlists ORDER BY _id").fetchall()
            items = conn.execute("SELECT * FROM playlist_tracks ORDER BY playlist_id, position").fetchall()
        return [
            Playlist(
                int(p["_id"]),
                p["name"],
                tuple(int(i["track_id"]) for i in items if i["playlist_id"] == p["_id"]),
            )
            for p in lists
        ]

    def playlist(self, playlist_id: int) -> Playlist | None:
        return next((p for p in self.playlists() if p.id == playlist_id), None)

    def create_playlist(self, name: str, now_ms: int) -> int:
        with self.db() as conn:
            cur = conn.execute("INSERT INTO playlists (name, created_at) VALUES (?, ?)", (name, now_ms))
            return int(cur.lastrowid or 0)

    def rename_playlist(self, playlist_id: int, name: str) -> None:
        with self.db() as conn:
            conn.execute("UPDATE playlists SET name = ? WHERE _id = ?", (name, playlist_id))

    def delete_playlist(self, playlist_id: int) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute("DELETE FROM playlist_tracks WHERE playlist_id = ?", (playlist_id,))
            conn.execute("DELETE FROM playlists WHERE _id = ?", (playlist_id,))
            conn.execute("COMMIT")

    def add_to_playlist(self, playlist_id: int, track_id: int) -> bool:
        """Append the song; False (nothing changed) when it is already in the playlist."""
        with self.db() as conn:
            if conn.execute(
                "SELECT 1 FROM playlist_tracks WHERE playlist_id = ? AND track_id = ?",
                (playlist_id, track_id),
            ).fetchone():
                return False
            row = conn.execute(
                "SELECT COALESCE(MAX(position) + 1, 0) AS n FROM playlist_tracks WHERE playlist_id = ?",
                (playlist_id,),
            ).fetchone()
            conn.execute("INSERT INTO playlist_tracks VALUES (?,?,?)", (playlist_id, track_id, int(row["n"])))
            return True

    def _write_order(self, playlist_id: int, order: list[int]) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute("DELETE FROM playlist_tracks WHERE playlist_id = ?", (playlist_id,))
            for pos, track_id in enumerate(order):
                conn.execute("INSERT INTO playlist_tracks VALUES (?,?,?)", (playlist_id, track_id, pos))
            conn.execute("COMMIT")

    def remove_from_playlist(self, playlist_id: int, track_id: int) -> None:
        playlist = self.playlist(playlist_id)
        if playlist is not None:
            self._write_order(playlist_id, [t for t in playlist.track_ids if t != track_id])

    def move_in_playlist(self, playlist_id: int, track_id: int, delta: int) -> None:
        """Move the song `delta` places (-1 up, +1 down), positions renumbered 0, 1, 2 ..."""
        playlist = self.playlist(playlist_id)
        if playlist is None or track_id not in playlist.track_ids:
            return
        order = list(playlist.track_ids)
        i = order.index(track_id)
        j = min(max(0, i + delta), len(order) - 1)
        order.insert(j, order.pop(i))
        self._write_order(playlist_id, order)

    # -- playback -------------------------------------------------------------------------------------
    def playback(self) -> Playback:
        with self.db() as conn:
            r = conn.execute("SELECT * FROM playback WHERE _id = 1").fetchone()
        if r is None:
            return Playback(None, "stopped", 0, 0, False, "off", (), 0)
        queue = tuple(int(x) for x in str(r["queue"]).split(",") if x)
        track = int(r["track_id"]) if r["track_id"] is not None else None
        return Playback(
            track,
            r["state"],
            int(r["position_ms"]),
            int(r["updated_at"]),
            bool(r["shuffle"]),
            r["repeat"],
            queue,
            int(r["queue_index"]),
        )

    def _save(self, pb: Playback) -> None:
        with self.db() as conn:
            conn.execute(
                "UPDATE playback SET track_id=?, state=?, position_ms=?, updated_at=?, shuffle=?, repeat=?, "
                "queue=?, queue_index=? WHERE _id = 1",
                (
                    pb.track_id,
                    pb.state,
                    pb.position_ms,
                    pb.updated_at,
                    int(pb.shuffle),
                    pb.repeat,
                    ",".join(map(str, pb.queue)),
                    pb.queue_index,
                ),
            )

    def current(self, now_ms: int) -> Playback:
        """The player now: a song that played to its end moves on (repeat one replays it, the end of the
        queue stops unless repeat all wraps round); the row is updated when that happens."""
        pb = self.playback()
        if pb.state != "playing" or pb.track_id is None:
            return pb
        tracks = self.tracks()
        changed = False
        pos = pb.position_at(now_ms)
        while pb.track_id is not None and pos >= tracks[pb.track_id].duration_s * 1000:
            pos -= tracks[pb.track_id].duration_s * 1000
            changed = True
            if pb.repeat == "one":
                continue
            nxt = self._next_index(pb)
            if nxt is None:
                pb = Playback(
                    pb.track_id,
                    "paused",
                    tracks[pb.track_id].duration_s * 1000,
                    now_ms,
                    pb.shuffle,
                    pb.repeat,
                    pb.queue,
                    pb.queue_index,
                )
                self._save(pb)
                return pb
            pb = Playback(pb.queue[nxt], "playing", 0, 0, pb.shuffle, pb.repeat, pb.queue, nxt)
        if changed:
            pb = Playback(
                pb.track_id, "playing", pos, now_ms, pb.shuffle, pb.repeat, pb.queue, pb.queue_index
            )
            self._save(pb)
        return pb

    def _next_index(self, pb: Playback) -> int | None:
        if not pb.queue:
            return None
        if pb.shuffle and len(pb.queue) > 1:
            # a stable "random" next song: drawn from the queue with the current song left out
            rng = random.Random(f"{pb.queue_index}:{','.join(map(str, pb.queue))}")
            return rng.choice([i for i in range(len(pb.queue)) if i != pb.queue_index])
        if pb.queue_index + 1 < len(pb.queue):
            return pb.queue_index + 1
        return 0 if pb.repeat == "all" else None

    def play(self, queue: list[int], index: int, now_ms: int) -> None:
        """Start playing `queue[index]` from the beginning, with `queue` as the play queue."""
        pb = self.playback()
        self._save(Playback(queue[index], "playing", 0, now_ms, pb.shuffle, pb.repeat, tuple(queue), index))

    def toggle_play(self, now_ms: int) -> None:
        pb = self.current(now_ms)
        if pb.track_id is None:
            return
        tracks = self.tracks()
        pos = min(pb.position_at(now_ms), tracks[pb.track_id].duration_s * 1000)
        if pb.state == "playing":
            self._save(
                Playback(pb.track_id, "paused", pos, now_ms, pb.shuffle, pb.repeat, pb.queue, pb.queue_index)
            )
        else:
            if pos >= tracks[pb.track_id].duration_s * 1000:
                pos = 0
            self._save(
                Playback(pb.track_id, "playing", pos, now_ms, pb.shuffle, pb.repeat, pb.queue, pb.queue_index)
            )

    def skip(self, delta: int, now_ms: int) -> None:
        """Next (+1) or previous (-1); previous restarts the song when it has played a few seconds."""
        pb = self.current(now_ms)
        if pb.track_id is None or not pb.queue:
            return
        state = pb.state if pb.state != "stopped" else "paused"
        if delta < 0 and pb.position_at(now_ms) > RESTART_AFTER_MS:
            index = pb.queue_index
        elif delta < 0:
            index = max(0, pb.queue_index - 1)
        else:
            nxt = self._next_index(pb)
            index = nxt if nxt is not None else 0
        self._save(Playback(pb.queue[index], state, 0, now_ms, pb.shuffle, pb.repeat, pb.queue, index))

    def seek(self, position_ms: int, now_ms: int) -> None:
        pb = self.current(now_ms)
        if pb.track_id is None:
            return
        limit = self.tracks()[pb.track_id].duration_s * 1000
        pos = min(max(0, position_ms), limit)
        self._save(
            Playback(pb.track_id, pb.state, pos, now_ms, pb.shuffle, pb.repeat, pb.queue, pb.queue_index)
        )

    def set_shuffle(self, on: bool, now_ms: int) -> None:
        pb = self.current(now_ms)
        self._save(
            Playback(
                pb.track_id, pb.state, pb.position_at(now_ms), now_ms, on, pb.repeat, pb.queue, pb.queue_index
            )
        )

    def cycle_repeat(self, now_ms: int) -> str:
        """off -> all -> one -> off; the new mode."""
        pb = self.current(now_ms)
        mode = REPEAT_MODES[(REPEAT_MODES.index(pb.repeat) + 1) % len(REPEAT_MODES)]
        self._save(
            Playback(
                pb.track_id,
                pb.state,
                pb.position_at(now_ms),
                now_ms,
                pb.shuffle,
                mode,
                pb.queue,
                pb.queue_index,
            )
        )
        return mode
