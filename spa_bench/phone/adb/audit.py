"""What reached the phone over ADB and its console: every shell command (each line of an interactive
session), exec, file push and console command, in order, numbered.

An agent program that holds an adb connection can change state behind the screen (`settings put`,
`content insert`, `adb push` of a database). The phone cannot tell the harness's commands from the
agent's (both come through the same adb server), so it records them all; the harness reads the
entries of an episode (the console's `spa audit` command) and takes its own commands out
(spa_bench.device.audit). Only command lines and pushed paths are kept, never stdin or file contents.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Literal

Channel = Literal["shell", "exec", "push", "service", "console"]
KEEP = 20_000  # entries kept; an episode's commands are read long before this many more arrive


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    channel: Channel
    command: str


class CommandAudit:
    """An append-only, numbered record of commands; thread-safe (every ADB stream has its thread)."""

    def __init__(self, keep: int = KEEP) -> None:
        self._entries: deque[AuditEntry] = deque(maxlen=keep)
        self._next = 1
        self._lock = threading.Lock()

    def record(self, channel: Channel, command: str) -> None:
        with self._lock:
            self._entries.append(AuditEntry(self._next, channel, command))
            self._next += 1

    def mark(self) -> int:
        """The number the next entry will get: `since(mark())` is what arrives from now on."""
        with self._lock:
            return self._next

    def since(self, mark: int) -> tuple[list[AuditEntry], bool]:
        """The entries numbered `mark` or later, and whether some of them were already dropped."""
        with self._lock:
            entries = [e for e in self._entries if e.seq >= mark]
            first = self._entries[0].seq if self._entries else self._next
            return entries, first > mark
