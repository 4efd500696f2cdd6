"""The dialer's view of the call-log provider (calllog.db, owned by com.android.providers.contacts):
rows newest first, delete, mark missed calls read; and the seeded history written at first boot."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.apps.contacts.pim import provider_db
from spa_bench.phone.apps.dialer.seed import seed_call_rows
from spa_bench.phone.system.blocked_numbers import same_number
from spa_bench.phone.system.call_log import MISSED_TYPE, PROVIDER_PACKAGE, CallLog


@dataclass(frozen=True)
class CallRow:
    id: int
    number: str
    name: str | None
    type: int
    date_ms: int
    duration_s: int
    is_read: bool

    @property
    def when(self) -> datetime:
        return datetime.fromtimestamp(self.date_ms / 1000, UTC).replace(tzinfo=None)


class CallHistory:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.log = CallLog(self._path)

    def _path(self) -> Path:
        return provider_db(self.ctx, PROVIDER_PACKAGE, "calllog.db")

    def ensure_seeded(self) -> None:
        """Write the seeded history once, when the provider's database does not exist yet."""
        if self._path().exists():
            return
        conn = self.log.db.connect()
        try:
            conn.execute("BEGIN")
            for row in seed_call_rows():
                conn.execute(f"INSERT INTO calls ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                             list(row.values()))
            conn.execute("COMMIT")
        finally:
            conn.close()

    def rows(self) -> list[CallRow]:
        """Newest first (CallLog.Calls.DEFAULT_SORT_ORDER is `date DESC`)."""
        found = self.log.db.rows(
            "SELECT _id, number, name, type, date, duration, is_read FROM calls WHERE deleted = 0 "
            "ORDER BY date DESC, _id DESC"
        )
        return [
            CallRow(
                int(r[0]), str(r[1] or ""), r[2], int(r[3] or 0), int(r[4] or 0), int(r[5] or 0), bool(r[6])
            )
            for r in found
        ]

    def of_number(self, number: str) -> list[CallRow]:
        return [r for r in self.rows() if same_number(r.number, number) or r.number == number]

    def get(self, row_id: int) -> CallRow | None:
        return next((r for r in self.rows() if r.id == row_id), None)

    def unread_missed(self) -> int:
        found = self.log.db.one(
            "SELECT COUNT(*) FROM calls WHERE type = ? AND is_read = 0 AND deleted = 0", MISSED_TYPE
        )
        return int(found[0]) if found else 0

    def mark_missed_read(self) -> None:
        """What the Dialer does when the call log is shown (CallLogNotificationsService)."""
        self.log.db.run("UPDATE calls SET is_read = 1, new = 0 WHERE type = ? AND is_read = 0", MISSED_TYPE)

    def delete(self, row_ids: list[int]) -> None:
        for row_id in row_ids:
            self.log.db.run("DELETE FROM calls WHERE _id = ?", row_id)

    def clear(self) -> None:
        self.log.db.run("DELETE FROM calls")
