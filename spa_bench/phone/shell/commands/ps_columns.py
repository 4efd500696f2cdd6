"""ps's rows and columns as toybox prints them on Android.

The default columns are toybox's Android default, USER PID PPID VSZ RSS WCHAN ADDR S NAME; `-o` picks
others (with `:WIDTH` and `=TITLE`). Widths follow toybox's show_ps: a field that overflows its width
pushes the line right and the next fields with room to spare take the overflow back; the last
left-aligned field is not padded (its header title is).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.phone.shell.context import UsageError


@dataclass(frozen=True)
class PsRow:
    user: str
    uid: int
    pid: int
    ppid: int
    vsz: int
    rss: int
    wchan: str
    state: str
    argv: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.argv[0].rsplit("/", 1)[-1] if self.argv else ""


# (title, width: negative = left-aligned, value)
_FIELDS: dict[str, tuple[int, Callable[[PsRow], str]]] = {
    "USER": (-12, lambda r: r.user), "UID": (5, lambda r: str(r.uid)), "PID": (5, lambda r: str(r.pid)),
    "PPID": (5, lambda r: str(r.ppid)), "VSZ": (7, lambda r: str(r.vsz)), "RSS": (6, lambda r: str(r.rss)),
    "WCHAN": (-16, lambda r: r.wchan), "ADDR": (4, lambda r: "0"), "S": (-1, lambda r: r.state),
    "NAME": (-27, lambda r: r.name), "COMM": (-15, lambda r: r.name[:15]),
    "CMD": (-27, lambda r: r.name), "ARGS": (-27, lambda r: " ".join([r.name, *r.argv[1:]])),
    "CMDLINE": (-27, lambda r: " ".join(r.argv)), "COMMAND": (-27, lambda r: r.argv[0] if r.argv else ""),
    "TIME": (8, lambda r: "00:00:00"), "PRI": (3, lambda r: "19"), "NI": (3, lambda r: "0"),
    "LABEL": (-30, lambda r: "u:r:shell:s0" if r.user == "shell" else "u:r:untrusted_app:s0"),
}
_ALIASES = {"VSIZE": "VSZ", "UNAME": "USER", "NICE": "NI"}
DEFAULT_FIELDS = "USER,PID,PPID,VSZ,RSS,WCHAN,ADDR,S,NAME"


def columns(spec: str) -> list[tuple[str, int, Callable[[PsRow], str]]]:
    cols = []
    for item in (s for s in re.split(r"[,\s]+", spec) if s):
        name, _, title = item.partition("=")
        name, _, width_text = name.partition(":")
        key = _ALIASES.get(name.upper(), name.upper())
        if key not in _FIELDS:
            raise UsageError(f"bad -o {item}")
        width, value = _FIELDS[key]
        if width_text:
            if not width_text.isdigit():
                raise UsageError(f"bad -o {item}")
            width = int(width_text) * (-1 if width < 0 else 1)
        cols.append((title or key, width, value))
    return cols


def format_table(cols: list[tuple[str, int, Callable[[PsRow], str]]], rows: list[PsRow],
                 header: bool = True) -> str:
    """toybox's show_ps: overflow carried right and taken back by fields with room to spare."""
    lines = []
    if header:
        lines.append(" ".join(f"{t:<{-w}}" if w < 0 else f"{t:>{w}}" for t, w, _ in cols))
    for row in rows:
        out, extra = [], 0
        for n, (_t, w, value) in enumerate(cols):
            text = value(row)
            width = abs(w)
            if len(text) > width:
                extra += len(text) - width
                width = len(text)
            elif extra and len(text) < width:
                give = min(width - len(text), extra)
                width -= give
                extra -= give
            if n == len(cols) - 1 and w < 0:
                out.append(text)  # the last left-aligned field is not padded
            else:
                out.append(f"{text:<{width}}" if w < 0 else f"{text:>{width}}")
        lines.append(" ".join(out))
    return "".join(line + "\n" for line in lines)
