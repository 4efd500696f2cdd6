"""Phones forked from a warm parent: the second and later phones of a process start in a seventh of the time
and share most of their memory.

A phone started as a new interpreter pays for its imports (0.3-0.5 s), its fonts, its first frame and its
first boot's seed pictures, and keeps its own copy of all of it. A zygote (Android's name for the same
trick) is one process that has done that work once, by booting a throwaway phone; each phone is then an
`os.fork()` of it. The children share the zygote's pages copy-on-write, and `gc.freeze()` keeps the
collector from writing to (and so copying) them.

Harness side, `Zygote`: `python -m spa_bench.phone.zygote` in its own session, with two pipes:
- requests: JSON lines on its stdin (data dir, locale, size, clock, and the harness's environment as it is
  then), one `{"pid": P}` or `{"error": ...}` line back on its stdout each;
- "alive": a pipe the harness never writes. Every child watches it, so the phones stop when the harness
  exits, however it ends (SIGKILL included), like `spa-bench phone start --exit-with-parent`. The zygote
  itself ends at end of file on its stdin.
The zygote ignores SIGCHLD, so the kernel reaps its children; the harness follows each phone through a
pidfd (Linux 5.3+), which, unlike a pid, cannot come to name another process later. Without os.fork or
os.pidfd_open (macOS, Windows) `zygote_supported()` is False and phones are started as new interpreters.

A forked phone keeps the zygote's command line; it runs in its data dir, so /proc/PID/cwd tells which
phone it is.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from spa_bench.errors import PhoneError

START_TIMEOUT_S = 120.0  # the zygote's own start: one phone's cold start, on a loaded machine


def zygote_supported() -> bool:
    return hasattr(os, "fork") and hasattr(os, "pidfd_open") and sys.platform == "linux"


class ForkedPhone:
    """A phone process forked by the zygote, followed through its pidfd. Its exit status is not known
    here (the kernel reaped it for the zygote): `poll()` says only whether it is gone."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        try:
            self._pidfd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # it has already exited
            self._pidfd = None

    def poll(self) -> int | None:
        """None while it runs, -1 once it has exited (status unknown)."""
        if self._pidfd is None:
            return -1
        ready, _, _ = select.select([self._pidfd], [], [], 0)
        return -1 if ready else None

    def wait(self, timeout: float | None = None) -> int:
        if self._pidfd is not None:
            ready, _, _ = select.select([self._pidfd], [], [], timeout)
            if not ready:
                raise subprocess.TimeoutExpired(f"phone pid {self.pid}", timeout or 0.0)
        return -1

    def send_signal(self, sig: int) -> None:
        if self._pidfd is not None and self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


class Zygote:
    """The harness's handle on one zygote process; `spawn` is thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        alive_r, self._alive_w = os.pipe()  # the write end stays here, never written, never inherited
        self._log = tempfile.NamedTemporaryFile(prefix="spa-zygote-", suffix=".log", delete=False)  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "spa_bench.phone.zygote", str(alive_r)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, pass_fds=(alive_r,),
                start_new_session=True)
        finally:
            os.close(alive_r)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._requests: IO[bytes] = self.process.stdin
        self._replies: IO[bytes] = self.process.stdout
        ready = self._reply(START_TIMEOUT_S)
        if ready.get("ready") is not True:
            raise PhoneError(f"the phone zygote did not start: {ready.get('error') or self.log_tail()}")

    def log_tail(self, limit: int = 2000) -> str:
        try:
            return Path(self._log.name).read_text(encoding="utf-8", errors="replace")[-limit:]
        except OSError:
            return ""

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _reply(self, timeout: float) -> dict[str, Any]:
        ready, _, _ = select.select([self._replies], [], [], timeout)
        line = self._replies.readline() if ready else b""
        if not line:
            self.close()
            raise PhoneError(f"the phone zygote did not answer: {self.log_tail()}")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def spawn(self, data_dir: Path, locale: str, size: str, clock: str | None) -> ForkedPhone:
        """Fork a phone that serves on a free port pair and names it in data_dir/ready.json."""
        # the environment as it is now, not as it was when the zygote started: a phone reads $HOME (its
        # console token) and $SPA_BENCH_PHONE_CLOCK, which callers (and tests) may have changed since
        request = {"data_dir": str(data_dir.resolve()), "locale": locale, "size": size, "clock": clock,
                   "environ": dict(os.environ)}
        with self._lock:
            try:
                self._requests.write(json.dumps(request).encode("utf-8") + b"\n")
                self._requests.flush()
            except OSError:
                raise PhoneError(f"the phone zygote has exited: {self.log_tail()}") from None
            reply = self._reply(START_TIMEOUT_S)
        if "pid" not in reply:
            raise PhoneError(f"the phone zygote could not fork a phone: {reply.get('error')}")
        return ForkedPhone(int(reply["pid"]))

    def close(self) -> None:
        """End the zygote (its phones stop when this process exits, or one by one)."""
        with contextlib.suppress(OSError):
            self._requests.close()
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        with contextlib.suppress(OSError):
            self._replies.close()
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)
        self._log.close()


_shared: Zygote | None = None
_shared_lock = threading.Lock()


def shared_zygote() -> Zygote:
    """This process's zygote, started on first use (a cold phone start) and kept until the process
    exits."""
    global _shared
    with _shared_lock:
        if _shared is None or not _shared.alive:
            _shared = Zygote()
        return _shared


# -- the zygote process ----------------------------------------------------------------------------------

def _warm_up() -> None:
    """Boot a throwaway phone, draw its first frame and dump its UI through its shell, as a harness
    observes: the imports (the shell's commands among them), fonts, icons, seed pictures and code paths
    every phone needs are then in this process, to be shared by its children."""
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import VirtualPhone  # noqa: F401  (what a child runs)
    from spa_bench.phone.shell import Shell
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    root = Path(tempfile.mkdtemp(prefix="spa-zygote-warm-"))
    try:
        fs = VirtualFS(root / "fs")
        fs.ensure_layout()
        system = PhoneOS(replace(PhoneConfig(), data_dir=root), fs)
        try:
            Shell(system).run("input tap 1 1; screencap -p; uiautomator dump /sdcard/window_dump.xml; "
                              "dumpsys window windows")
        finally:
            system.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _child(request: dict[str, Any], alive_fd: int) -> int:
    """In the forked child: become a phone (own session, own log, cwd in its data dir) and serve."""
    from spa_bench.phone.foreground import phone_config, run_phone
    from spa_bench.phone.process import READY_FILE

    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    os.environ.clear()
    os.environ.update(request.get("environ", {}))
    data_dir = Path(request["data_dir"])
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chdir(data_dir)
    log = os.open(data_dir / "phone.log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(devnull)
    config = phone_config(port=0, locale=request["locale"], size=request["size"], data_dir=data_dir,
                          clock=request.get("clock"))
    run_phone(config, ready_file=data_dir / READY_FILE, parent_fd=alive_fd,
              say=lambda line: print(line, flush=True))
    return 0


def serve(alive_fd: int) -> int:
    """The zygote's loop: warm up, then fork one phone per request line until stdin ends."""
    replies = os.fdopen(os.dup(1), "wb", buffering=0)
    os.dup2(2, 1)  # print() in this process or a child never lands in the reply pipe
    try:
        _warm_up()
    except Exception:
        traceback.print_exc()
        replies.write(json.dumps({"error": traceback.format_exc(limit=3)}).encode() + b"\n")
        return 1
    if threading.active_count() != 1:  # a thread would be missing in every child, holding what it held
        replies.write(json.dumps({"error": f"threads left after warm-up: {threading.enumerate()}"})
                      .encode() + b"\n")
        return 1
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    from spa_bench.phone import malloc
    from spa_bench.phone.ui import fonts

    fonts.close_faces()
    gc.collect()
    gc.freeze()
    # A child maps every page this process holds when it forks (they count in its RSS, shared or not): hand
    # back what the warm-up freed, the faces above included, instead of passing it on to every phone.
    malloc.trim()
    replies.write(b'{"ready": true}\n')
    requests = os.fdopen(0, "rb", buffering=0)
    for line in iter(requests.readline, b""):
        try:
            request = json.loads(line)
            pid = os.fork()
        except (ValueError, OSError) as exc:
            replies.write(json.dumps({"error": f"{type(exc).__name__}: {exc}"}).encode() + b"\n")
            continue
        if pid == 0:
            code = 1
            try:
                replies.close()  # fd 0, the requests, is replaced in _child
                code = _child(request, alive_fd)
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        replies.write(json.dumps({"pid": pid}).encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(serve(int(sys.argv[1])))
