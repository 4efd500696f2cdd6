"""The Gallery's state: the pictures are the files under /sdcard/DCIM and /sdcard/Pictures (as
MediaStore sees them: the Files app lists the same files), and
`/data/data/com.android.gallery3d/databases/gallery.db` holds what the files do not:

- `favorites(path, added_at)`: favourite pictures by path;
- `trash(_id, original_path, trashed_path, deleted_at)`: pictures in the trash. Deleting moves the file
  to `.trashed-<expiry>-<name>` in its folder, as MediaStore's trash does on Android 11+ (a dot file, so
  `ls` and the Files app no longer list it); restoring moves it back;
- `albums(_id, name, created_at)` and `album_items(album_id, path)`: albums the user made (folder
  albums - Camera, Screenshots, Pictures - come from the files themselves).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.vfs import VfsError, VirtualFS

SCHEMA = """
CREATE TABLE favorites (path TEXT PRIMARY KEY, added_at INTEGER NOT NULL);
CREATE TABLE trash (_id INTEGER PRIMARY KEY AUTOINCREMENT, original_path TEXT NOT NULL,
    trashed_path TEXT NOT NULL, deleted_at INTEGER NOT NULL);
CREATE TABLE albums (_id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, created_at INTEGER);
CREATE TABLE album_items (album_id INTEGER NOT NULL, path TEXT NOT NULL, PRIMARY KEY (album_id, path));
"""
ROOTS = ("/sdcard/DCIM", "/sdcard/Pictures")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
TRASH_DAYS = 30
SEED_FAVORITES = ("/sdcard/DCIM/Camera/IMG_20240601_101245.jpg", "/sdcard/Pictures/猫咪.jpg")


@dataclass(frozen=True)
class Photo:
    path: str
    name: str
    folder: str  # the folder album's path
    mtime: int
    size: int


@dataclass(frozen=True)
class Album:
    key: str  # "favorites", "folder:<path>", "album:<id>", "trash"
    name: str
    photos: tuple[Photo, ...]


def scan(fs: VirtualFS) -> list[Photo]:
    """Every visible picture under the roots, newest first (what MediaStore.Images lists)."""
    found: list[Photo] = []
    stack = list(ROOTS)
    while stack:
        folder = stack.pop()
        try:
            names = fs.listdir(folder)
        except VfsError:
            continue
        for name in names:
            if name.startswith("."):
                continue
            path = posixpath.join(folder, name)
            try:
                st = fs.stat(path)
            except VfsError:
                continue
            if st.is_dir:
                stack.append(path)
            elif name.lower().endswith(IMAGE_SUFFIXES):
                found.append(Photo(path, name, folder, st.mtime, st.size))
    return sorted(found, key=lambda p: (p.mtime, p.name), reverse=True)


class GalleryStore(AppDatabase):
    def __init__(self, path: Callable[[], Path], fs: Callable[[], VirtualFS]) -> None:
        super().__init__(path)
        self._fs = fs

    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            for path in SEED_FAVORITES:
                conn.execute("INSERT INTO favorites VALUES (?, ?)", (path, 1719830000000))

    # -- reading ---------------------------------------------------------------------------------------
    def photos(self) -> list[Photo]:
        return scan(self._fs())

    def favorites(self) -> set[str]:
        with self.db() as conn:
            return {r["path"] for r in conn.execute("SELECT path FROM favorites")}

    def albums(self) -> list[Album]:
        """Favourites, the folder albums, then the user's albums (by name)."""
        photos = self.photos()
        favs = self.favorites()
        out = [Album("favorites", "", tuple(p for p in photos if p.path in favs))]
        folders: dict[str, list[Photo]] = {}
        for p in photos:
            folders.setdefault(p.folder, []).append(p)
        for folder in sorted(folders, key=lambda f: (-len(folders[f]), f)):
            out.append(Album(f"folder:{folder}", posixpath.basename(folder), tuple(folders[folder])))
        by_path = {p.path: p for p in photos}
        with self.db() as conn:
            albums = conn.execute("SELECT _id, name FROM albums ORDER BY name").fetchall()
            items = conn.execute("SELECT album_id, path FROM album_items").fetchall()
        for a in albums:
            members = {r["path"] for r in items if r["album_id"] == a["_id"]}
            out.append(
                Album(
                    f"album:{a['_id']}",
                    a["name"],
                    tuple(p for p in photos if p.path in members and p.path in by_path),
                )
            )
        return out

    def album(self, key: str) -> Album | None:
        if key == "trash":
            return Album("trash", "", tuple(self.trashed()))
        return next((a for a in self.albums() if a.key == key), None)

    def trashed(self) -> list[Photo]:
        fs = self._fs()
        out = []
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM trash ORDER BY deleted_at DESC, _id DESC").fetchall()
        for r in rows:
            try:
                st = fs.stat(r["trashed_path"])
            except VfsError:
                continue
            original = r["original_path"]
            out.append(
                Photo(
                    r["trashed_path"],
                    posixpath.basename(original),
                    posixpath.dirname(original),
                    st.mtime,
                    st.size,
                )
            )
        return out

    # -- changing --------------------------------------------------------------------------------------
    def set_favorite(self, path: str, on: bool, now_ms: int) -> None:
        with self.db() as conn:
            if on:
                conn.execute("INSERT OR REPLACE INTO favorites VALUES (?, ?)", (path, now_ms))
            else:
                conn.execute("DELETE FROM favorites WHERE path = ?", (path,))

    def trash_photo(self, path: str, now_ms: int) -> None:
        fs = self._fs()
        expiry = now_ms // 1000 + TRASH_DAYS * 86400
        target = posixpath.join(posixpath.dirname(path), f".trashed-{expiry}-{posixpath.basename(path)}")
        fs.move(path, target)
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute(
                "INSERT INTO trash (original_path, trashed_path, deleted_at) VALUES (?,?,?)",
                (path, target, now_ms),
            )
            conn.execute("DELETE FROM favorites WHERE path = ?", (path,))
            conn.execute("DELETE FROM album_items WHERE path = ?", (path,))
            conn.execute("COMMIT")

    def restore(self, trashed_path: str) -> str | None:
        """Move a trashed picture back where it was; its original path (None if it is not in the trash)."""
        with self.db() as conn:
            row = conn.execute("SELECT * FROM trash WHERE trashed_path = ?", (trashed_path,)).fetchone()
        if row is None:
            return None
        original = str(row["original_path"])
        fs = self._fs()
        fs.move(trashed_path, original)
        with self.db() as conn:
            conn.execute("DELETE FROM trash WHERE _id = ?", (row["_id"],))
        return original

    def delete_forever(self, trashed_path: str) -> None:
        fs = self._fs()
        try:
            fs.remove(trashed_path)
        except VfsError:
            pass
        with self.db() as conn:
            conn.execute("DELETE FROM trash WHERE trashed_path = ?", (trashed_path,))

    def create_album(self, name: str, now_ms: int) -> int:
        with self.db() as conn:
            row = conn.execute("SELECT _id FROM albums WHERE name = ?", (name,)).fetchone()
            if row is not None:
                return int(row["_id"])
            return int(
                conn.execute("INSERT INTO albums (name, created_at) VALUES (?, ?)", (name, now_ms)).lastrowid
                or 0
            )

    def add_to_album(self, album_id: int, path: str) -> None:
        with self.db() as conn:
            conn.execute("INSERT OR IGNORE INTO album_items VALUES (?, ?)", (album_id, path))

    def remove_from_album(self, album_id: int, path: str) -> None:
        with self.db() as conn:
            conn.execute("DELETE FROM album_items WHERE album_id = ? AND path = ?", (album_id, path))
