"""SQLite's date and time functions on the phone's clock, for every SQLite connection the phone opens
for a reader (the `sqlite3` command and the content providers' `--where` clauses).

'now' must be the phone's clock (frozen with --phone-clock, or moved by a task), not the host's: apps
write dates from the phone's clock, and checks compare with date('now', ...).
"""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Callable

TIME_FUNCTIONS = ("date", "time", "datetime", "julianday", "strftime", "unixepoch")


def use_clock(conn: sqlite3.Connection, moment: datetime.datetime) -> None:
    """Override the date and time functions of `conn` so that 'now' reads `moment` (naive = UTC); every
    other argument goes to SQLite's own function (through a private in-memory connection), so modifiers
    and formats behave exactly as SQLite's."""
    when = moment.astimezone(datetime.UTC) if moment.tzinfo else moment
    text = when.strftime("%Y-%m-%d %H:%M:%S.%f")[:-3]
    builtin = sqlite3.connect(":memory:", check_same_thread=False)

    def phone_time(name: str) -> Callable[..., str | int | float | None]:
        def call(*args: object) -> str | int | float | None:
            args = tuple(text if isinstance(a, str) and a.lower() == "now" else a for a in args)
            if name != "strftime" and not args:
                args = (text,)  # date() with no argument means date('now')
            row = builtin.execute(f"SELECT {name}({', '.join('?' * len(args))})", args).fetchone()
            value: str | int | float | None = row[0]
            return value
        return call

    for name in TIME_FUNCTIONS:
        conn.create_function(name, -1, phone_time(name))
