"""The phone's log daemon: bounded ring buffers of log entries, per buffer, as logd keeps them.

Entries carry what liblog's `logger_entry` does (time, pid, tid, uid, priority, tag, message) and go to
one of logd's buffers (main, radio, events, system, crash, ...; `log` writes to main). Each buffer is
a ring of RING_BYTES (logd's default `ro.logd.size` of 256 KiB): the oldest entries are pruned when a
new one does not fit. An entry's size is counted as logd counts it, header plus payload, and a payload
over LOGGER_ENTRY_MAX_PAYLOAD is cut, as liblog cuts it. Readers that follow the log (`logcat` without
-d) wait on `wait_newer`. Thread-safe: writers are shell commands on several ADB streams at once.
The log is memory only, as logd's is: it is not part of snapshots.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

# log_id_t order (system/logging/liblog/include/android/log.h)
BUFFERS = ("main", "radio", "events", "system", "crash", "stats", "security", "kernel")
RING_BYTES = 256 * 1024
LOGGER_ENTRY_MAX_LEN = 5 * 1024
LOGGER_ENTRY_MAX_PAYLOAD = 4068
# sizeof(struct logger_entry) on Android 14: len, hdr_size (u16), pid, tid, sec, nsec, lid, uid (u32)
ENTRY_HEADER_BYTES = 28
# android_LogPriority
VERBOSE, DEBUG, INFO, WARN, ERROR, FATAL, SILENT = 2, 3, 4, 5, 6, 7, 8
PRIORITY_LETTERS = {VERBOSE: "V", DEBUG: "D", INFO: "I", WARN: "W", ERROR: "E", FATAL: "F", SILENT: "S"}


@dataclass(frozen=True)
class LogEntry:
    seq: int  # order of arrival over all buffers
    buffer: str
    when: datetime  # the phone's wall clock (naive UTC, as the phone runs on UTC)
    pid: int
    tid: int
    uid: int
    priority: int
    tag: str
    message: str

    @property
    def size(self) -> int:
        """Bytes the entry takes in logd's ring: header, priority byte, tag and message with NULs."""
        return ENTRY_HEADER_BYTES + 1 + len(self.tag.encode()) + 1 + len(self.message.encode()) + 1


def _cut_payload(tag: str, message: str) -> str:
    """liblog's cut: priority, tag and message (with their NULs) fit in LOGGER_ENTRY_MAX_PAYLOAD."""
    room = LOGGER_ENTRY_MAX_PAYLOAD - 1 - len(tag.encode()) - 1 - 1
    data = message.encode()
    if len(data) <= room:
        return message
    return data[:max(0, room)].decode("utf-8", errors="ignore")


class LogBuffer:
    """logd's buffers of one phone."""

    def __init__(self, clock: Callable[[], datetime], ring_bytes: int = RING_BYTES) -> None:
        self._clock = clock
        self.ring_bytes = ring_bytes
        self._rings: dict[str, deque[LogEntry]] = {name: deque() for name in BUFFERS}
        self._used: dict[str, int] = dict.fromkeys(BUFFERS, 0)
        self._seq = 0
        self._cond = threading.Condition()
        self.started = clock()  # logd starts with the phone: `logcat -v monotonic` counts from here

    def write(self, priority: int, tag: str, message: str, pid: int, uid: int, tid: int | None = None,
              buffer: str = "main") -> LogEntry:
        """Append one entry (the oldest ones of its buffer make room); KeyError for an unknown buffer."""
        if buffer not in self._rings:
            raise KeyError(f"unknown log buffer {buffer!r}")
        with self._cond:
            self._seq += 1
            entry = LogEntry(self._seq, buffer, self._clock(), pid, pid if tid is None else tid, uid,
                             priority, tag, _cut_payload(tag, message))
            ring = self._rings[buffer]
            ring.append(entry)
            self._used[buffer] += entry.size
            while self._used[buffer] > self.ring_bytes and len(ring) > 1:
                self._used[buffer] -= ring.popleft().size
            self._cond.notify_all()
            return entry

    def entries(self, buffers: Iterable[str], after: int = 0) -> list[LogEntry]:
        """Entries of these buffers newer than sequence number `after`, oldest first."""
        with self._cond:
            found = [e for name in buffers for e in self._rings.get(name, ()) if e.seq > after]
        return sorted(found, key=lambda e: e.seq)

    def clear(self, buffers: Iterable[str]) -> None:
        with self._cond:
            for name in buffers:
                if name in self._rings:
                    self._rings[name].clear()
                    self._used[name] = 0

    def last_seq(self) -> int:
        with self._cond:
            return self._seq

    def wait_newer(self, seq: int, timeout: float) -> bool:
        """Wait up to `timeout` seconds for an entry after `seq`; True when one came."""
        with self._cond:
            return self._cond.wait_for(lambda: self._seq > seq, timeout)

    def usage(self, buffer: str) -> tuple[int, int]:
        """(ring size, bytes consumed) of one buffer, as `logcat -g` reports them."""
        with self._cond:
            return self.ring_bytes, self._used[buffer]
