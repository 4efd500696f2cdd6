"""What the shell user (uid 2000) may touch before `adb root`, as on an emulator image.

Other apps' private data is closed: everything under `/data/data/PKG/` (and `/data/user/0/PKG/`,
`/data/user_de/0/PKG/`) and
`/data/system` answers `Permission denied`; `/data`, `/data/data` and `/data/local` can be passed through
but not listed (mode rwxrwx--x); `/data/local/tmp`, `/sdcard` and `/system` stay open. After `adb root`
the shell is uid 0 and sees everything. The same rules apply to `adb pull`/`push` through the sync
service, which runs inside adbd with adbd's uid.
"""

from __future__ import annotations

import functools
from pathlib import Path

from spa_bench.phone.vfs import VfsError, VirtualFS

_UNLISTABLE = frozenset({"/data", "/data/data", "/data/local", "/data/user", "/data/user/0",
                         "/data/user_de", "/data/user_de/0", "/data/system"})
# credential-protected (/data/data = /data/user/0) and device-protected (/data/user_de/0) app storage
_PRIVATE_ROOTS = ("/data/data/", "/data/user/0/", "/data/user_de/0/")


def no_entry(virtual: str) -> bool:
    """Whether the shell user may not enter this directory (an app's data folder is drwx------)."""
    for root in _PRIVATE_ROOTS:
        if virtual.startswith(root) and virtual[len(root):].strip("/"):
            return True
    return denied(virtual)


def denied(virtual: str) -> bool:
    """Whether the shell user is refused this (normalised) path itself, not just its listing."""
    if virtual == "/data/system" or virtual.startswith("/data/system/"):
        return True
    for root in _PRIVATE_ROOTS:
        if virtual.startswith(root):
            inside = virtual[len(root):].strip("/")
            return "/" in inside  # the package folder can be stat'ed, nothing in it
    return False


class ShellUserFS(VirtualFS):
    """The phone's file system through the shell user's permissions (same files, same root)."""

    def host_path(self, path: str, cwd: str = "/") -> Path:
        if denied(self.normalize(path, cwd)):
            raise VfsError(f"{path}: Permission denied")
        return super().host_path(path, cwd)

    def can_enter(self, path: str, cwd: str = "/") -> bool:
        """False where `cd` meets EACCES: inside an app's folder that exists (ENOENT otherwise)."""
        virtual = self.normalize(path, cwd)
        if not no_entry(virtual):
            return True
        parts = virtual.strip("/").split("/")
        owner = "/" + "/".join(parts[: 3 if virtual.startswith("/data/data/") else 4])
        return not super().host_path(owner).exists()

    def listdir(self, path: str, cwd: str = "/") -> list[str]:
        virtual = self.normalize(path, cwd)
        if virtual in _UNLISTABLE or any(virtual.startswith(r) and virtual != r.rstrip("/")
                                         for r in _PRIVATE_ROOTS):
            raise VfsError(f"{path}: Permission denied")
        return super().listdir(path, cwd)


@functools.lru_cache(maxsize=64)
def _shell_view(root: Path) -> ShellUserFS:
    return ShellUserFS(root)


def fs_for(fs: VirtualFS, root_user: bool) -> VirtualFS:
    """The file system as root sees it, or through the shell user's permissions."""
    return fs if root_user else _shell_view(fs.root)
