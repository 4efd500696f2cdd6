"""Processes started through the shell that keep running: what `ps`, `pidof` and `kill` see of them.

A command that ends at once needs no entry here; one that keeps running while its adb stream is open
(uiautomator2's server, started as `app_process / com.wetest.uia2.Main`; `logcat` following the log)
registers a `Process` for its lifetime and ends when its client hangs up or when it is killed (`kill
PID`, `am force-stop`). The phone's built-in uiautomator2 server (spa_bench.phone.u2rpc) is one of them:
it runs from boot as the shell user's `app_process`, as it would after a client had started it, so that
`kill` stops it (its port then refuses connections) and a client's `app_process` starts it again.
Pids are handed out from FIRST_PID upwards, above the range of the apps' stable pids (2000-29999).
Thread-safe. Not part of snapshots: processes are not state an app keeps.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

FIRST_PID = 30000
SHELL_UID = 2000
U2_SERVER_CLASS = "com.wetest.uia2.Main"
U2_SERVER_ARGV = ("app_process", "/", U2_SERVER_CLASS, "-p", "9008")
SIGKILL, SIGTERM = 9, 15


@dataclass
class Process:
    pid: int
    ppid: int
    uid: int
    user: str
    argv: tuple[str, ...]
    ended: threading.Event = field(default_factory=threading.Event)
    exit_signal: int = 0  # the signal that ended it, 0 while it runs or when it exited by itself

    @property
    def name(self) -> str:
        """toybox's NAME: argv[0] without its directory."""
        return self.argv[0].rsplit("/", 1)[-1] if self.argv else ""

    @property
    def running(self) -> bool:
        return not self.ended.is_set()


class ProcessTable:
    """The long-running processes of one phone, the uiautomator2 server first."""

    def __init__(self, u2_server_running: bool = True) -> None:
        self._lock = threading.Lock()
        self._next_pid = FIRST_PID
        self._procs: dict[int, Process] = {}
        if u2_server_running:
            self.spawn(U2_SERVER_ARGV, ppid=1)

    def new_pid(self) -> int:
        """A fresh pid for a short-lived process (each shell command is one)."""
        with self._lock:
            pid = self._next_pid
            self._next_pid += 1
            return pid

    def spawn(self, argv: tuple[str, ...], ppid: int, uid: int = SHELL_UID, user: str = "shell") -> Process:
        proc = Process(self.new_pid(), ppid, uid, user, tuple(argv))
        with self._lock:
            self._procs[proc.pid] = proc
        return proc

    def end(self, proc: Process, signal: int = 0) -> None:
        """The process is gone (exited, or killed by `signal`)."""
        with self._lock:
            if self._procs.get(proc.pid) is proc:
                del self._procs[proc.pid]
                if signal:
                    proc.exit_signal = signal
        proc.ended.set()

    def get(self, pid: int) -> Process | None:
        with self._lock:
            return self._procs.get(pid)

    def running(self) -> list[Process]:
        with self._lock:
            return sorted(self._procs.values(), key=lambda p: p.pid)

    def u2_server(self) -> Process | None:
        """The uiautomator2 server when one runs (its port answers only then)."""
        return next((p for p in self.running() if U2_SERVER_CLASS in p.argv), None)
