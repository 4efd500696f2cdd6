"""logcat's filters and print formats: liblog's logprint.cpp (android_log_addFilterRule and
android_log_shouldPrintLine; android_log_formatLogLine's formats and adverbs) and logcat's binary records.
"""

from __future__ import annotations

import re
import struct
from datetime import datetime

from spa_bench.phone.system.logd import (
    BUFFERS,
    DEBUG,
    ENTRY_HEADER_BYTES,
    ERROR,
    FATAL,
    INFO,
    PRIORITY_LETTERS,
    SILENT,
    VERBOSE,
    WARN,
    LogEntry,
)

_FILTER_PRIORITIES = {"v": VERBOSE, "d": DEBUG, "i": INFO, "w": WARN, "e": ERROR, "f": FATAL, "s": SILENT}
_COLORS = {VERBOSE: 39, DEBUG: 34, INFO: 32, WARN: 33, ERROR: 31, FATAL: 31, SILENT: 39}
FORMATS = ("brief", "process", "tag", "thread", "raw", "time", "threadtime", "long")
MODIFIERS = ("color", "colour", "usec", "nsec", "printable", "year", "zone", "epoch", "monotonic", "uid",
             "descriptive", "UTC")
_UID_NAMES = {0: "root", 1000: "system", 2000: "shell", 1036: "logd"}


class LogcatError(Exception):
    """logcat's error(EXIT_FAILURE, ...): printed as `logcat: MESSAGE`."""


class Filter:
    """android_log_addFilterRule / shouldPrintLine: the last rule for a tag wins, else the global one."""

    def __init__(self, specs: list[str], silent_default: bool) -> None:
        self.global_pri = SILENT if silent_default else VERBOSE
        self.tags: dict[str, int] = {}
        for spec in specs:
            for rule in (r for r in re.split(r"[ \t,]+", spec) if r):
                tag, colon, letter = rule.partition(":")
                if not tag:
                    raise LogcatError(f"Invalid filter expression '{spec}'.")
                pri = None
                if colon:
                    pri = _FILTER_PRIORITIES.get(letter[:1].lower()) if letter else None
                    if letter[:1].isdigit():
                        pri = min(int(letter[0]), VERBOSE) if int(letter[0]) < SILENT else VERBOSE
                    if pri is None and letter[:1] != "*":
                        raise LogcatError(f"Invalid filter expression '{spec}'.")
                if tag == "*":
                    self.global_pri = pri if pri is not None else DEBUG
                else:
                    self.tags[tag] = pri if pri is not None else VERBOSE

    def allows(self, entry: LogEntry) -> bool:
        return entry.priority >= self.tags.get(entry.tag, self.global_pri)


class Formatter:
    def __init__(self, items: list[str], boot: datetime) -> None:
        verbs = [f for f in items if f in FORMATS]
        self.format = verbs[-1] if verbs else "threadtime"
        self.mods = {m for m in items if m in MODIFIERS}
        self.boot = boot

    def _time(self, entry: LogEntry) -> str:
        when = entry.when
        if "monotonic" in self.mods or "epoch" in self.mods:
            seconds = (when - self.boot if "monotonic" in self.mods else when - datetime(1970, 1, 1))
            whole = int(seconds.total_seconds())
            text = f"{whole:6d}" if "monotonic" in self.mods else f"{whole:19d}"
        else:
            text = when.strftime("%Y-%m-%d %H:%M:%S" if "year" in self.mods else "%m-%d %H:%M:%S")
        nsec = when.microsecond * 1000
        if "nsec" in self.mods:
            text += f".{nsec:09d}"
        elif "usec" in self.mods:
            text += f".{nsec // 1000:06d}"
        else:
            text += f".{nsec // 1000000:03d}"
        if "zone" in self.mods and "epoch" not in self.mods and "monotonic" not in self.mods:
            text += " +0000"
        return text

    def line(self, entry: LogEntry) -> str:
        pri = PRIORITY_LETTERS.get(entry.priority, "?")
        tag = f"{entry.tag:<8}"
        uid = ""
        if "uid" in self.mods:
            name = _UID_NAMES.get(entry.uid)
            uid = f"{name:>5}:" if name and len(name) <= 5 else f"{entry.uid:5d}:"
        fmt = self.format
        time = self._time(entry) if fmt in ("time", "threadtime", "long") else ""
        suffix = "\n"
        if fmt == "tag":
            prefix = f"{pri}/{tag}: "
        elif fmt == "process":
            prefix, suffix = f"{pri}({uid}{entry.pid:5d}) ", f"  ({entry.tag})\n"
        elif fmt == "thread":
            prefix = f"{pri}({uid}{entry.pid:5d}:{entry.tid:5d}) "
        elif fmt == "raw":
            prefix = ""
        elif fmt == "time":
            prefix = f"{time} {pri}/{tag}({uid}{entry.pid:5d}): "
        elif fmt == "threadtime":
            prefix = f"{time} {uid.replace(':', ' ')}{entry.pid:5d} {entry.tid:5d} {pri} {tag}: "
        elif fmt == "long":
            text = (f"[ {time} {uid}{entry.pid:5d}:{entry.tid:5d} {pri}/{tag} ]\n{entry.message}\n\n")
            return self._color(entry, text)
        else:  # brief
            prefix = f"{pri}/{tag}({uid}{entry.pid:5d}): "
        message = entry.message
        if "printable" in self.mods:
            message = "".join(c if c.isprintable() or c == "\n" else f"\\x{ord(c):02X}" for c in message)
        lines = message.split("\n")
        if message.endswith("\n"):
            lines.pop()
        return "".join(self._color(entry, prefix + part + suffix) for part in lines or [""])

    def _color(self, entry: LogEntry, text: str) -> str:
        if "color" not in self.mods and "colour" not in self.mods:
            return text
        body, newline = (text[:-1], "\n") if text.endswith("\n") else (text, "")
        return f"\x1b[{_COLORS.get(entry.priority, 39)}m{body}\x1b[0m{newline}"


def binary_record(entry: LogEntry) -> bytes:
    """struct log_msg as logd hands it out: logger_entry header then priority, tag and message."""
    payload = bytes([entry.priority]) + entry.tag.encode() + b"\0" + entry.message.encode() + b"\0"
    sec = int((entry.when - datetime(1970, 1, 1)).total_seconds())
    nsec = entry.when.microsecond * 1000
    header = struct.pack("<HHiIIIII", len(payload), ENTRY_HEADER_BYTES, entry.pid, entry.tid, sec, nsec,
                         BUFFERS.index(entry.buffer), entry.uid)
    return header + payload
