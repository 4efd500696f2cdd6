"""The `sync:` service (adb push/pull/ls, adbutils' sync) on the phone's jailed file system.

Requests are `[4-byte id][u32 length][data]`. Supported: STAT, STA2/LST2 (stat_v2), LIST, LIS2 (ls_v2),
SEND "path,mode" + DATA chunks + DONE(mtime) -> OKAY|FAIL (parent directories are created, as the
fixed_push_mkdir feature promises), RECV -> DATA chunks + DONE | FAIL, and QUIT. Like adbd, a failed
transfer reports FAIL and ends the service; the host then opens a new one.
"""

from __future__ import annotations

import errno
import os
import stat as stat_module
import struct
from collections.abc import Callable

from spa_bench.phone.adb.stream import Stream
from spa_bench.phone.vfs import VfsError, VirtualFS

SYNC_DATA_MAX = 64 * 1024
MAX_PATH = 1024
_REQ = struct.Struct("<4sI")
_STAT_V1 = struct.Struct("<4sIII")  # id, mode, size, mtime
_STAT_V2 = struct.Struct("<4sIQQIIIIQqqq")  # id, error, dev, ino, mode, nlink, uid, gid, size, a/m/ctime
_DENT_V1 = struct.Struct("<4sIIII")  # id, mode, size, mtime, namelen
_DENT_V2 = struct.Struct("<4sIQQIIIIQqqqI")  # stat_v2 fields + namelen


class _AbortError(Exception):
    """End the sync service after a FAIL was sent."""


def _errno_of(exc: OSError) -> int:
    if exc.errno:
        return exc.errno
    text = str(exc)
    if "No such file" in text:
        return errno.ENOENT
    if "Not a directory" in text:
        return errno.ENOTDIR
    if "Is a directory" in text:
        return errno.EISDIR
    return errno.EACCES


class SyncService:
    """One `sync:` session on a stream; `on_push` hears the path of every SEND (a file written)."""

    def __init__(self, stream: Stream, fs: VirtualFS, on_push: Callable[[str], None] | None = None) -> None:
        self.stream = stream
        self.fs = fs
        self.on_push = on_push

    def serve(self) -> None:
        try:
            while True:
                try:
                    header = self.stream.read_exact(_REQ.size)
                except EOFError:
                    return
                ident, length = _REQ.unpack(header)
                if ident == b"QUIT":
                    return
                if length > MAX_PATH:
                    self._fail(f"path too long ({length} bytes)")
                    return
                path = self.stream.read_exact(length).decode("utf-8", errors="surrogateescape")
                handler = {b"STAT": self._stat_v1, b"STA2": self._stat_v2, b"LST2": self._stat_v2,
                           b"LIST": self._list_v1, b"LIS2": self._list_v2, b"SEND": self._send,
                           b"RECV": self._recv}.get(ident)
                if handler is None:
                    self._fail(f"unknown sync command {ident!r}")
                    return
                handler(path)
        except _AbortError:
            return

    # -- helpers --------------------------------------------------------------------------------------
    def _fail(self, message: str) -> None:
        data = message.encode()
        self.stream.write(_REQ.pack(b"FAIL", len(data)) + data)

    def _host_stat(self, path: str) -> os.stat_result:
        """lstat of a virtual path; symbolic links are reported as missing (they may point outside)."""
        host = self.fs.host_path(path)
        st = os.lstat(host)
        if stat_module.S_ISLNK(st.st_mode):
            raise VfsError(errno.EACCES, f"{path}: Permission denied")
        return st

    @staticmethod
    def _v2_fields(st: os.stat_result) -> tuple[int, ...]:
        return (0, st.st_dev, st.st_ino, st.st_mode, 1, 0, 0, st.st_size,
                int(st.st_atime), int(st.st_mtime), int(st.st_ctime))

    # -- stat -----------------------------------------------------------------------------------------
    def _stat_v1(self, path: str) -> None:
        try:
            st = self._host_stat(path)
            reply = _STAT_V1.pack(b"STAT", st.st_mode, st.st_size & 0xFFFFFFFF, int(st.st_mtime))
        except OSError:
            reply = _STAT_V1.pack(b"STAT", 0, 0, 0)
        self.stream.write(reply)

    def _stat_v2(self, path: str) -> None:
        # STA2 follows links and LST2 does not; the jail hides links either way.
        try:
            st = self._host_stat(path)
            reply = _STAT_V2.pack(b"STA2", *self._v2_fields(st))
        except OSError as exc:
            reply = _STAT_V2.pack(b"STA2", _errno_of(exc), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        self.stream.write(reply)

    # -- list -----------------------------------------------------------------------------------------
    def _entries(self, path: str) -> list[tuple[str, os.stat_result]]:
        try:
            base = self._host_stat(path)
            names = self.fs.listdir(path) if stat_module.S_ISDIR(base.st_mode) else []
        except OSError:
            return []
        entries = [(".", base)]
        parent = self.fs.normalize(path).rsplit("/", 1)[0] or "/"
        try:
            entries.append(("..", self._host_stat(parent)))
        except OSError:
            pass
        prefix = self.fs.normalize(path).rstrip("/")
        for name in names:
            try:
                entries.append((name, self._host_stat(f"{prefix}/{name}")))
            except OSError:
                continue
        return entries

    def _list_v1(self, path: str) -> None:
        out = bytearray()
        for name, st in self._entries(path):
            raw = name.encode("utf-8", errors="surrogateescape")
            size = st.st_size & 0xFFFFFFFF
            out += _DENT_V1.pack(b"DENT", st.st_mode, size, int(st.st_mtime), len(raw)) + raw
        out += _DENT_V1.pack(b"DONE", 0, 0, 0, 0)
        self.stream.write(bytes(out))

    def _list_v2(self, path: str) -> None:
        out = bytearray()
        for name, st in self._entries(path):
            raw = name.encode("utf-8", errors="surrogateescape")
            out += _DENT_V2.pack(b"DNT2", *self._v2_fields(st), len(raw)) + raw
        out += _DENT_V2.pack(b"DONE", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        self.stream.write(bytes(out))

    # -- transfer -------------------------------------------------------------------------------------
    def _recv(self, path: str) -> None:
        try:
            host = self.fs.host_path(path)
            self._host_stat(path)
            f = open(host, "rb")  # noqa: SIM115 - closed below, streamed chunk by chunk
        except OSError as exc:
            self._fail(f"open failed: {os.strerror(_errno_of(exc))}")
            raise _AbortError from None
        with f:
            out = bytearray()
            while chunk := f.read(SYNC_DATA_MAX):
                out += _REQ.pack(b"DATA", len(chunk)) + chunk
                if len(out) >= 4 * SYNC_DATA_MAX:
                    self.stream.write(bytes(out))
                    out.clear()
        out += _REQ.pack(b"DONE", 0)
        self.stream.write(bytes(out))

    def _send(self, spec: str) -> None:
        path, sep, mode_text = spec.rpartition(",")
        if not sep:
            path, mode_text = spec, "33188"
        if self.on_push is not None:
            self.on_push(path)
        try:
            mode = int(mode_text)
        except ValueError:
            mode = 0o100644
        error: str | None = None
        f = None
        host = None
        if stat_module.S_ISLNK(mode):
            error = "symlinks are not supported on this device"
        else:
            try:
                host = self.fs.host_path(path)
                host.parent.mkdir(parents=True, exist_ok=True)
                if host.is_dir():
                    raise IsADirectoryError(errno.EISDIR, "Is a directory")
                f = open(host, "wb")  # noqa: SIM115 - closed below after the DATA chunks
            except OSError as exc:
                error = f"couldn't create file: {os.strerror(_errno_of(exc))}"
        mtime = 0
        try:
            while True:
                ident, length = _REQ.unpack(self.stream.read_exact(_REQ.size))
                if ident == b"DONE":
                    mtime = length
                    break
                if ident != b"DATA" or length > SYNC_DATA_MAX:
                    error = error or f"invalid data message {ident!r}"
                    break
                data = self.stream.read_exact(length)
                if f is not None:
                    f.write(data)
        finally:
            if f is not None:
                f.close()
        if error is not None or host is None:
            self._fail(error or "push failed")
            raise _AbortError
        try:
            os.chmod(host, (mode & 0o777) or 0o644)
            if mtime:
                os.utime(host, (mtime, mtime))
        except OSError:
            pass
        self.stream.write(_REQ.pack(b"OKAY", 0))
