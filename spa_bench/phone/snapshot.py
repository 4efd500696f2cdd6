"""Phone snapshots: the whole file system plus the OS's in-memory state, saved and restored by name.

Layout under the phone's data dir:
    fs/                      the live file system (VirtualFS root)
    snapshots/NAME/fs/       the saved tree (never touched after the save)
    snapshots/NAME/state.json  PhoneSystem.save_state() and a little metadata
    snapshots/NAME/.spare/   a ready-made copy of fs/, swapped in by the next load
Loading must be fast (a task reset happens before every episode), so it never copies on the critical
path when it can help it: it renames the live tree away, renames the spare copy into place, restores
the OS state, and only then makes a new spare and deletes the old tree in a background thread. A load
that finds no spare (e.g. two loads in a row faster than a copy) copies synchronously instead.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from spa_bench.errors import PhoneError
from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.vfs import tree_size

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
STATE_FILE = "state.json"
SPARE = ".spare"


class SnapshotError(PhoneError):
    """A snapshot name is invalid or unknown, or saving/loading failed."""


@dataclass(frozen=True)
class SnapshotInfo:
    name: str
    created: str  # ISO 8601, UTC
    size_bytes: int


def _copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst, symlinks=True)


class SnapshotStore:
    """Save/load/list/delete snapshots of one phone. Thread-safe; holds the phone's lock while working."""

    def __init__(self, data_dir: Path, system: PhoneSystem) -> None:
        self.data_dir = Path(data_dir)
        self.fs_root = self.data_dir / "fs"
        self.root = self.data_dir / "snapshots"
        self.system = system
        self._lock = threading.RLock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="snapshot-bg")
        self._spares: dict[str, Future[None]] = {}

    def recover(self) -> None:
        """Remove what an interrupted run left behind (trash, half-made copies); spares are rebuilt."""
        trash = list(self.data_dir.glob(".trash-*"))

        def purge() -> None:
            for path in trash:
                shutil.rmtree(path, ignore_errors=True)

        if trash:
            self._submit(purge)
        if self.root.is_dir():
            for leftover in [*self.root.glob(".staging-*"), *self.root.glob("*/.spare-*")]:
                shutil.rmtree(leftover, ignore_errors=True)
            for info in self.list():
                self._prepare_spare(info.name)

    # -- names ----------------------------------------------------------------------------------------
    def _dir(self, name: str) -> Path:
        if not _NAME.fullmatch(name or ""):
            raise SnapshotError(f"invalid snapshot name {name!r}: use 1-64 letters, digits, '_', '-' or '.'")
        return self.root / name

    def exists(self, name: str) -> bool:
        return (self._dir(name) / STATE_FILE).is_file()

    # -- operations -----------------------------------------------------------------------------------
    def save(self, name: str) -> SnapshotInfo:
        """Copy the live tree and the OS state under `name` (replacing an older snapshot of that name)."""
        target = self._dir(name)
        self.root.mkdir(parents=True, exist_ok=True)
        staging = self.root / f".staging-{name}-{uuid.uuid4().hex[:8]}"
        with self._lock, self.system.lock:
            try:
                _copy_tree(self.fs_root, staging / "fs")
                state = self.system.save_state()
                created = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
                meta = {"name": name, "created": created, "state": state}
                (staging / STATE_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
            except (OSError, TypeError, ValueError) as exc:
                shutil.rmtree(staging, ignore_errors=True)
                raise SnapshotError(f"cannot save snapshot {name!r}: {exc}") from exc
            self._wait_spare(name)
            if target.exists():
                self._trash(target)
            os.rename(staging, target)
        self._prepare_spare(name)
        return SnapshotInfo(name, created, tree_size(target / "fs"))

    def load(self, name: str) -> None:
        """Make the phone exactly as it was when `name` was saved: files, databases, settings, activities."""
        target = self._dir(name)
        with self._lock:
            if not (target / STATE_FILE).is_file():
                raise SnapshotError(f"snapshot {name!r} does not exist")
            try:
                meta = json.loads((target / STATE_FILE).read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise SnapshotError(f"snapshot {name!r} is unreadable: {exc}") from exc
            self._wait_spare(name)
            spare = target / SPARE
            with self.system.lock:
                if not spare.is_dir():
                    _copy_tree(target / "fs", spare)
                try:
                    if self.fs_root.exists():
                        self._trash(self.fs_root)
                    os.rename(spare, self.fs_root)
                except OSError as exc:
                    raise SnapshotError(f"cannot load snapshot {name!r}: {exc}") from exc
                self.system.load_state(meta.get("state", {}))
        self._prepare_spare(name)

    def delete(self, name: str) -> None:
        target = self._dir(name)
        with self._lock:
            if not target.exists():
                raise SnapshotError(f"snapshot {name!r} does not exist")
            self._wait_spare(name)
            self._trash(target)

    def list(self) -> list[SnapshotInfo]:
        out: list[SnapshotInfo] = []
        if not self.root.is_dir():
            return out
        for entry in sorted(self.root.iterdir()):
            if entry.name.startswith(".") or not (entry / STATE_FILE).is_file():
                continue
            try:
                created = str(json.loads((entry / STATE_FILE).read_text(encoding="utf-8")).get("created", ""))
            except (OSError, ValueError):
                created = ""
            out.append(SnapshotInfo(entry.name, created, tree_size(entry / "fs")))
        return out

    def close(self) -> None:
        """Finish background copies and deletions (called when the phone stops)."""
        self._worker.shutdown(wait=True)

    # -- background work ------------------------------------------------------------------------------
    def _trash(self, path: Path) -> None:
        """Move a tree out of the way at once; delete it in the background."""
        trash = self.data_dir / f".trash-{uuid.uuid4().hex}"
        os.rename(path, trash)
        self._submit(lambda: shutil.rmtree(trash, ignore_errors=True))

    def _prepare_spare(self, name: str) -> None:
        target = self.root / name

        def make() -> None:
            spare = target / SPARE
            if spare.exists() or not (target / "fs").is_dir():
                return
            staging = target / f".spare-{uuid.uuid4().hex[:8]}"
            try:
                _copy_tree(target / "fs", staging)
                os.rename(staging, spare)
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)

        future = self._submit(make)
        if future is not None:
            self._spares[name] = future

    def _wait_spare(self, name: str) -> None:
        future = self._spares.pop(name, None)
        if future is not None:
            future.exception()  # waits; errors only mean "no spare", handled by the caller

    def _submit(self, fn: Callable[[], None]) -> Future[None] | None:
        try:
            return self._worker.submit(fn)
        except RuntimeError:  # shut down: do it inline
            fn()
            return None
