"""Phone snapshots: the whole file system plus the OS's in-memory state, saved and restored by name.

Layout under the phone's data dir:
    fs/                      the live file system (VirtualFS root)
    snapshots/NAME/fs/       the saved tree (never touched after the save)
    snapshots/NAME/state.json  PhoneSystem.save_state() and a little metadata
    snapshots/NAME/.spares/ID/  ready-made copies of fs/, each swapped in by one load
Loading must be fast (a task reset happens before every episode), so it never copies on the critical
path when it can help it: it renames the live tree away, renames a spare copy into place, restores
the OS state, and only then has a background thread delete the old tree and copy a new spare. It keeps
SPARES copies ready, not one: a reset loop (an RL environment resets every few tens of milliseconds)
would otherwise catch the one copy half made and wait for it. A load that finds no spare ready and none
being made copies synchronously instead.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spa_bench.errors import PhoneError
from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.vfs import tree_size

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}")
STATE_FILE = "state.json"
SPARES_DIR = ".spares"
SPARES = 2  # ready copies kept per snapshot


class SnapshotError(PhoneError):
    """A snapshot name is invalid or unknown, or saving/loading failed."""


@dataclass(frozen=True)
class SnapshotInfo:
    name: str
    created: str  # ISO 8601, UTC
    size_bytes: int


def _copy_tree(src: Path, dst: Path) -> None:
    """Copy `src` to a new `dst`, times and links kept: with cp(1) where there is one, which is 3x faster
    than shutil.copytree here and, in its own process, leaves the GIL to the phone's screens while the
    background thread copies a spare."""
    cp = shutil.which("cp")
    if cp is None:
        shutil.copytree(src, dst, symlinks=True)
        return
    dst.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([cp, "-a", str(src), str(dst)], capture_output=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(dst, ignore_errors=True)
        raise OSError(f"cp -a {src} {dst}: {done.stderr.decode(errors='replace').strip()[:300]}")


def _remove_tree(path: Path) -> None:
    """Delete a tree, with rm(1) where there is one (in its own process, as _copy_tree)."""
    rm = shutil.which("rm")
    if rm is None or subprocess.run([rm, "-rf", str(path)], capture_output=True, check=False).returncode:
        shutil.rmtree(path, ignore_errors=True)


class SnapshotStore:
    """Save/load/list/delete snapshots of one phone. Thread-safe; holds the phone's lock while working."""

    def __init__(self, data_dir: Path, system: PhoneSystem) -> None:
        self.data_dir = Path(data_dir)
        self.fs_root = self.data_dir / "fs"
        self.root = self.data_dir / "snapshots"
        self.system = system
        self._lock = threading.RLock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="snapshot-bg")
        self._pending: dict[str, list[Future[None]]] = {}  # spares being made, per snapshot

    def recover(self) -> None:
        """Remove what an interrupted run left behind (trash, half-made copies); spares are rebuilt."""
        trash = list(self.data_dir.glob(".trash-*"))

        def purge() -> None:
            for path in trash:
                _remove_tree(path)

        if trash:
            self._submit(purge)
        if self.root.is_dir():
            leftovers = [*self.root.glob(".staging-*"), *self.root.glob(f"*/{SPARES_DIR}/.staging-*"),
                         *self.root.glob("*/.spare"), *self.root.glob("*/.spare-*")]  # .spare*: older layout
            for leftover in leftovers:
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
                # a new id at every save: the harness tells its own base from one saved over it (ident)
                meta = {"name": name, "created": created, "id": uuid.uuid4().hex, "state": state}
                (staging / STATE_FILE).write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
            except (OSError, TypeError, ValueError) as exc:
                shutil.rmtree(staging, ignore_errors=True)
                raise SnapshotError(f"cannot save snapshot {name!r}: {exc}") from exc
            self._wait_spares(name)
            if target.exists():
                self._trash(target)
            os.rename(staging, target)
        self._prepare_spare(name)
        return SnapshotInfo(name, created, tree_size(target / "fs"))

    def ident(self, name: str) -> str:
        """The id the save of `name` drew ("" for a snapshot saved before ids existed): it changes with
        every save, so whoever saved a snapshot can tell whether it was saved over since."""
        with self._lock:
            meta = self._read_meta(name, self._dir(name))
        return str(meta.get("id", "")) if isinstance(meta, dict) else ""

    @staticmethod
    def _read_meta(name: str, target: Path) -> Any:
        """The saved state file of snapshot `name` (folder `target`), parsed; SnapshotError if it is
        missing or unreadable."""
        if not (target / STATE_FILE).is_file():
            raise SnapshotError(f"snapshot {name!r} does not exist")
        try:
            return json.loads((target / STATE_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SnapshotError(f"snapshot {name!r} is unreadable: {exc}") from exc

    def load(self, name: str) -> None:
        """Make the phone exactly as it was when `name` was saved: files, databases, settings, activities."""
        target = self._dir(name)
        with self._lock:
            meta = self._read_meta(name, target)
            spare = self._take_spare(name)
            with self.system.lock:
                try:
                    if spare is None:
                        spare = target / SPARES_DIR / f".staging-{uuid.uuid4().hex[:8]}"
                        _copy_tree(target / "fs", spare)
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
            self._wait_spares(name)
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
        self._submit(lambda: _remove_tree(trash))

    def _ready_spares(self, name: str) -> tuple[Path, ...]:
        spares = self.root / name / SPARES_DIR
        if not spares.is_dir():
            return ()
        return tuple(sorted(p for p in spares.iterdir() if not p.name.startswith(".")))

    def _take_spare(self, name: str) -> Path | None:
        """A finished spare copy of `name`, waiting for one being made if none is ready; None if none."""
        pending = self._pending.get(name, [])
        while True:
            pending[:] = [f for f in pending if not f.done()]
            ready = self._ready_spares(name)
            if ready:
                return ready[0]
            if not pending:
                return None
            pending[0].exception()  # waits; a failed copy only means one spare fewer

    def _prepare_spare(self, name: str) -> None:
        """Top the ready (and being made) spares of `name` up to SPARES, in the background."""
        target = self.root / name
        pending = self._pending.setdefault(name, [])
        pending[:] = [f for f in pending if not f.done()]

        def make() -> None:
            if not (target / "fs").is_dir():
                return
            staging = target / SPARES_DIR / f".staging-{uuid.uuid4().hex[:8]}"
            try:
                _copy_tree(target / "fs", staging)
                os.rename(staging, staging.with_name(uuid.uuid4().hex))
            except OSError:
                shutil.rmtree(staging, ignore_errors=True)

        for _ in range(SPARES - len(self._ready_spares(name)) - len(pending)):
            future = self._submit(make)
            if future is not None:
                pending.append(future)

    def _wait_spares(self, name: str) -> None:
        """Let the copies being made of `name` finish (before its folder is replaced or deleted)."""
        for future in self._pending.pop(name, []):
            future.exception()  # waits; errors only mean a spare fewer

    def _submit(self, fn: Callable[[], None]) -> Future[None] | None:
        try:
            return self._worker.submit(fn)
        except RuntimeError:  # shut down: do it inline
            fn()
            return None
