"""The phone's file system: a jail under the phone's data dir on the host.

Every virtual path ("/sdcard/x.png", "../../etc/passwd", "/data/data/pkg/databases/a.db") is normalised
as a POSIX path from "/" first, so `..` can never climb above the virtual root, and the host path it maps
to is then checked with `realpath` to be inside the root, so a symbolic link planted in the data dir
cannot lead out either. Nothing here ever runs a host program.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import stat as stat_module
from dataclasses import dataclass
from pathlib import Path

# Android mounts /sdcard as a view of /storage/emulated/0; we keep one copy and alias the other.
_ALIASES = {"/storage/emulated/0": "/sdcard", "/storage/self/primary": "/sdcard", "/mnt/sdcard": "/sdcard"}

STANDARD_DIRS = (
    "/sdcard/DCIM/Camera",
    "/sdcard/Download",
    "/sdcard/Documents",
    "/sdcard/Pictures",
    "/sdcard/Music",
    "/sdcard/Movies",
    "/data/local/tmp",
    "/data/data",
    "/data/user_de/0",
    "/data/system",
    "/system/bin",
    "/system/app",
    "/system/priv-app",
)


def tree_size(root: Path) -> int:
    """Bytes in the files under a host folder (links counted as themselves, unreadable entries skipped)."""
    total = 0
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


class VfsError(OSError):
    """A file operation failed; `str()` is what toybox would print after the command name."""


@dataclass(frozen=True)
class VStat:
    mode: int  # full st_mode (type bits + permissions)
    size: int
    mtime: int  # seconds

    @property
    def is_dir(self) -> bool:
        return stat_module.S_ISDIR(self.mode)


class VirtualFS:
    """Maps virtual absolute paths to files under `root`. Thread-safe as far as the host FS is."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root).resolve()

    def ensure_layout(self) -> None:
        for d in STANDARD_DIRS:
            self.host_path(d).mkdir(parents=True, exist_ok=True)

    # -- paths ----------------------------------------------------------------------------------------
    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        """Absolute, `..`-free virtual path; aliases (/storage/emulated/0) folded into /sdcard."""
        joined = posixpath.join(cwd or "/", path) if not path.startswith("/") else path
        norm = posixpath.normpath("/" + joined.lstrip("/"))
        if norm.startswith("//"):
            norm = "/" + norm.lstrip("/")
        for alias, target in _ALIASES.items():
            if norm == alias or norm.startswith(alias + "/"):
                norm = target + norm[len(alias):]
        return norm

    def host_path(self, path: str, cwd: str = "/") -> Path:
        """The host path of a virtual path; raises VfsError if it would leave the jail."""
        if "\x00" in path or "\x00" in cwd:
            raise VfsError(f"{path!r}: Invalid argument")
        virtual = self.normalize(path, cwd)
        host = self.root / virtual.lstrip("/") if virtual != "/" else self.root
        real = Path(os.path.realpath(host))
        if real != self.root and self.root not in real.parents:
            raise VfsError(f"{path}: Permission denied")
        return host

    def to_virtual(self, host: Path) -> str:
        rel = Path(host).resolve().relative_to(self.root)
        return "/" + rel.as_posix() if str(rel) != "." else "/"

    # -- queries --------------------------------------------------------------------------------------
    def exists(self, path: str, cwd: str = "/") -> bool:
        try:
            return self.host_path(path, cwd).exists()
        except VfsError:
            return False

    def can_enter(self, path: str, cwd: str = "/") -> bool:
        """Whether `cd` may enter it (the jail's own rule: anything; permission views narrow it)."""
        return True

    def is_dir(self, path: str, cwd: str = "/") -> bool:
        try:
            return self.host_path(path, cwd).is_dir()
        except VfsError:
            return False

    def stat(self, path: str, cwd: str = "/") -> VStat:
        host = self.host_path(path, cwd)
        try:
            st = host.lstat()
        except FileNotFoundError:
            raise VfsError(f"{path}: No such file or directory") from None
        if stat_module.S_ISLNK(st.st_mode):
            raise VfsError(f"{path}: Permission denied")
        return VStat(mode=st.st_mode, size=st.st_size, mtime=int(st.st_mtime))

    def listdir(self, path: str, cwd: str = "/") -> list[str]:
        host = self.host_path(path, cwd)
        if not host.exists():
            raise VfsError(f"{path}: No such file or directory")
        if not host.is_dir():
            raise VfsError(f"{path}: Not a directory")
        return sorted(p.name for p in host.iterdir() if not p.is_symlink())

    # -- contents -------------------------------------------------------------------------------------
    def read_bytes(self, path: str, cwd: str = "/") -> bytes:
        host = self.host_path(path, cwd)
        if host.is_dir():
            raise VfsError(f"{path}: Is a directory")
        try:
            return host.read_bytes()
        except FileNotFoundError:
            raise VfsError(f"{path}: No such file or directory") from None

    def write_bytes(self, path: str, data: bytes, cwd: str = "/", append: bool = False,
                    make_parents: bool = False) -> None:
        host = self.host_path(path, cwd)
        if host.is_dir():
            raise VfsError(f"{path}: Is a directory")
        if make_parents:
            host.parent.mkdir(parents=True, exist_ok=True)
        elif not host.parent.is_dir():
            raise VfsError(f"{path}: No such file or directory")
        with open(host, "ab" if append else "wb") as f:
            f.write(data)

    def mkdir(self, path: str, cwd: str = "/", parents: bool = False) -> None:
        host = self.host_path(path, cwd)
        try:
            host.mkdir(parents=parents, exist_ok=parents)
        except FileExistsError:
            raise VfsError(f"{path}: File exists") from None
        except FileNotFoundError:
            raise VfsError(f"{path}: No such file or directory") from None

    def remove(self, path: str, cwd: str = "/", recursive: bool = False) -> None:
        host = self.host_path(path, cwd)
        if host.is_symlink():
            host.unlink()
            return
        if not host.exists():
            raise VfsError(f"{path}: No such file or directory")
        if host.is_dir():
            if not recursive:
                raise VfsError(f"{path}: Is a directory")
            shutil.rmtree(host)
        else:
            host.unlink()

    def move(self, src: str, dst: str, cwd: str = "/") -> None:
        src_host = self.host_path(src, cwd)
        dst_host = self.host_path(dst, cwd)
        if not src_host.exists():
            raise VfsError(f"{src}: No such file or directory")
        if dst_host.is_dir():
            # the final name is checked again: a symlink planted there must not lead out of the jail
            dst_host = self.host_path(posixpath.join(self.normalize(dst, cwd), src_host.name))
        os.replace(src_host, dst_host)

    def copy(self, src: str, dst: str, cwd: str = "/", recursive: bool = False) -> None:
        src_host = self.host_path(src, cwd)
        dst_host = self.host_path(dst, cwd)
        if not src_host.exists():
            raise VfsError(f"{src}: No such file or directory")
        dst_virtual = self.normalize(dst, cwd)
        if dst_host.is_dir():
            dst_virtual = posixpath.join(dst_virtual, src_host.name)
        if src_host.is_dir():
            if not recursive:
                raise VfsError(f"{src}: Is a directory (not copied)")
            self._copy_tree(self.normalize(src, cwd), dst_virtual)
        else:
            shutil.copyfile(src_host, self.host_path(dst_virtual))

    def _copy_tree(self, src: str, dst: str) -> None:
        """Copy a directory entry by entry, checking every destination against the jail (a symlink
        planted in the destination must not be written through) and skipping symlinks in the source."""
        if dst == src or dst.startswith(src.rstrip("/") + "/"):
            raise VfsError(f"{src}: cannot copy a directory into itself")
        self.host_path(dst).mkdir(exist_ok=True)
        for name in self.listdir(src):
            child_src, child_dst = posixpath.join(src, name), posixpath.join(dst, name)
            if self.is_dir(child_src):
                self._copy_tree(child_src, child_dst)
            else:
                shutil.copyfile(self.host_path(child_src), self.host_path(child_dst))
