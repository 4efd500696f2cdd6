"""Blocked numbers: `/data/data/com.android.providers.blockednumber/databases/blockednumbers.db`, served as
content://com.android.blockednumber/blocked[/<_id>].

The `blocked` table is AOSP's (BlockedNumberDatabaseHelper in packages/providers/BlockedNumberProvider):
`_id`, `original_number` (as the user typed it, unique) and `e164_number`. Telecom consults it before an
incoming call rings (BlockedNumberContract.SystemContract.shouldSystemBlockNumber): a blocked caller never
rings and the call is logged as CallLog.Calls.BLOCKED_TYPE.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from spa_bench.phone.system.databases import Db
from spa_bench.phone.system.providers import RoutedProvider

PROVIDER_PACKAGE = "com.android.providers.blockednumber"
AUTHORITY = "com.android.blockednumber"
DB_PATH = f"/data/data/{PROVIDER_PACKAGE}/databases/blockednumbers.db"
SCHEMA = """
CREATE TABLE blocked (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    original_number TEXT NOT NULL UNIQUE,
    e164_number TEXT
);
"""


def digits(number: str | None) -> str:
    """The dialable digits of a number (spaces, dashes, brackets and a leading + dropped)."""
    return "".join(ch for ch in number or "" if ch.isdigit())


def e164(number: str) -> str | None:
    """PhoneNumberUtils.formatNumberToE164 for numbers written with their country code (+...); None for
    a national number, whose country we would have to guess."""
    text = number.strip()
    return "+" + digits(text) if text.startswith("+") and digits(text) else None


def same_number(a: str, b: str) -> bool:
    """PhoneNumberUtils.compare, loosely: equal digits, or one ends with the other's last 7+ digits."""
    da, db = digits(a), digits(b)
    if not da or not db:
        return False
    if da == db:
        return True
    short, long_ = sorted((da, db), key=len)
    return len(short) >= 7 and long_.endswith(short)


class BlockedNumbers:
    """The blocked-number list of one phone."""

    def __init__(self, host_path: Callable[[], Path]) -> None:
        self.db = Db(host_path, SCHEMA)

    def provider(self) -> RoutedProvider:
        return RoutedProvider(
            AUTHORITY, self.db.path, {("blocked",): ("blocked", None)}, prepare=self.db.ensure
        )

    def numbers(self) -> list[tuple[int, str]]:
        return [
            (int(r[0]), str(r[1]))
            for r in self.db.rows("SELECT _id, original_number FROM blocked ORDER BY _id")
        ]

    def is_blocked(self, number: str) -> bool:
        return any(same_number(number, n) for _id, n in self.numbers())

    def block(self, number: str) -> None:
        if number.strip() and not self.is_blocked(number):
            self.db.run(
                "INSERT INTO blocked (original_number, e164_number) VALUES (?, ?)",
                number.strip(),
                e164(number),
            )

    def unblock(self, number: str) -> None:
        for row_id, n in self.numbers():
            if same_number(number, n):
                self.db.run("DELETE FROM blocked WHERE _id = ?", row_id)
