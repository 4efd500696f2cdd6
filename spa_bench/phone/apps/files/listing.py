"""Reading shared storage for the Files screens: entries of a folder, search, names and labels."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from datetime import UTC, datetime

from spa_bench.phone.api import Locale
from spa_bench.phone.apps.files.strings import MONTHS_EN
from spa_bench.phone.vfs import VfsError, VirtualFS

ROOT = "/sdcard"
_KINDS = {
    "image": (".jpg", ".jpeg", ".png", ".gif", ".webp"),
    "audio": (".mp3", ".m4a", ".flac", ".ogg"),
    "video": (".mp4", ".mkv", ".webm"),
}
TEXT_SUFFIXES = (".txt", ".md", ".csv", ".log", ".json")


@dataclass(frozen=True)
class Entry:
    path: str  # virtual path
    name: str
    is_dir: bool
    size: int
    mtime: int
    children: int = 0

    @property
    def kind(self) -> str:
        if self.is_dir:
            return "folder"
        lower = self.name.lower()
        for kind, suffixes in _KINDS.items():
            if lower.endswith(suffixes):
                return kind
        return "file"


def _entry(fs: VirtualFS, path: str) -> Entry:
    st = fs.stat(path)
    children = len([n for n in fs.listdir(path) if not n.startswith(".")]) if st.is_dir else 0
    return Entry(path, posixpath.basename(path), st.is_dir, st.size, st.mtime, children)


def _order(entry: Entry) -> tuple[bool, str]:
    return (not entry.is_dir, entry.name.casefold())


def list_folder(fs: VirtualFS, path: str) -> list[Entry]:
    """Folders first, then files, each by name; hidden (dot) entries are not shown."""
    try:
        names = fs.listdir(path)
    except VfsError:
        return []
    entries = []
    for name in names:
        if name.startswith("."):
            continue
        try:
            entries.append(_entry(fs, posixpath.join(path, name)))
        except VfsError:
            continue
    return sorted(entries, key=_order)


def search(fs: VirtualFS, query: str, root: str = ROOT) -> list[Entry]:
    """Everything under `root` whose name contains `query` (case-insensitive)."""
    needle = query.strip().casefold()
    if not needle:
        return []
    found: list[Entry] = []
    stack = [root]
    while stack:
        folder = stack.pop()
        for entry in list_folder(fs, folder):
            if needle in entry.name.casefold():
                found.append(entry)
            if entry.is_dir:
                stack.append(entry.path)
    return sorted(found, key=_order)


def valid_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\x00" not in name


def format_date(mtime: int, locale: Locale) -> str:
    when = datetime.fromtimestamp(mtime, UTC)
    if locale == "zh":
        return f"{when.year}年{when.month}月{when.day}日"
    return f"{MONTHS_EN[when.month - 1]} {when.day}, {when.year}"


def format_size(size: int) -> str:
    """Android's Formatter.formatShortFileSize: decimal units."""
    if size < 1000:
        return f"{size} B"
    value = size / 1000
    for unit in ("kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}".replace(".0 ", " ")
        value /= 1000
    return f"{size} B"


def breadcrumb(path: str) -> list[str]:
    """Folder names below the storage root: /sdcard/Documents/Work -> [Documents, Work]."""
    rel = posixpath.relpath(path, ROOT)
    return [] if rel == "." else rel.split("/")
