"""The call log: `/data/data/com.android.providers.contacts/databases/calllog.db`, served as
content://call_log/calls[/<_id>].

The `calls` table has AOSP's columns in AOSP's order (CallLogDatabaseHelper.onCreate in
packages/providers/ContactsProvider), so `content query --uri content://call_log/calls` prints the rows a
real phone prints: `type` is CallLog.Calls.INCOMING_TYPE 1 / OUTGOING_TYPE 2 / MISSED_TYPE 3, `date` in
ms UTC (when the call started ringing), `duration` in seconds of talk, `new` = 1 as CallLog.addCall
writes it, `is_read` 0 for a missed call (NULL otherwise), `name` the contact's name when the number
is a contact, `last_modified` when the row was written. Columns whose values we do not model (phone
account, cached photo, voicemail) stay NULL or at their schema default, never filled with made-up ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spa_bench.phone.api import ProviderRow
from spa_bench.phone.system.databases import Db
from spa_bench.phone.system.providers import RoutedProvider

PROVIDER_PACKAGE = "com.android.providers.contacts"
DB_PATH = f"/data/data/{PROVIDER_PACKAGE}/databases/calllog.db"
INCOMING_TYPE, OUTGOING_TYPE, MISSED_TYPE = 1, 2, 3
REJECTED_TYPE, BLOCKED_TYPE = 5, 6  # CallLog.Calls: declined by the user; refused by the blocked-number list
PRESENTATION_ALLOWED = 1
DEFAULT_SORT_ORDER = "date DESC"

SCHEMA = """
CREATE TABLE calls (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    number TEXT,
    presentation INTEGER NOT NULL DEFAULT 1,
    post_dial_digits TEXT NOT NULL DEFAULT '',
    via_number TEXT NOT NULL DEFAULT '',
    date INTEGER,
    duration INTEGER,
    data_usage INTEGER,
    type INTEGER,
    features INTEGER NOT NULL DEFAULT 0,
    subscription_component_name TEXT,
    subscription_id TEXT,
    phone_account_address TEXT,
    phone_account_hidden INTEGER NOT NULL DEFAULT 0,
    sub_id INTEGER DEFAULT -1,
    new INTEGER,
    name TEXT,
    numbertype INTEGER,
    numberlabel TEXT,
    countryiso TEXT,
    voicemail_uri TEXT,
    is_read INTEGER,
    geocoded_location TEXT,
    lookup_uri TEXT,
    matched_number TEXT,
    normalized_number TEXT,
    photo_id INTEGER NOT NULL DEFAULT 0,
    photo_uri TEXT,
    formatted_number TEXT,
    add_for_all_users INTEGER NOT NULL DEFAULT 1,
    last_modified INTEGER DEFAULT 0,
    _data TEXT,
    has_content INTEGER,
    mime_type TEXT,
    source_data TEXT,
    source_package TEXT,
    transcription TEXT,
    state INTEGER,
    dirty INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    backed_up INTEGER NOT NULL DEFAULT 0,
    restored INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    is_omtp_voicemail INTEGER NOT NULL DEFAULT 0
);
"""


@dataclass(frozen=True)
class CallEntry:
    """What Telecom writes when a call ends (CallLog.Calls.addCall)."""

    number: str
    date_ms: int
    duration_s: int
    type: int
    logged_ms: int
    name: str | None = None


class CallLogProvider(RoutedProvider):
    """CallLogProvider sorts by CallLog.Calls.DEFAULT_SORT_ORDER (`date DESC`) when the query gives no
    order, so `content query --uri content://call_log/calls` lists the newest call first."""

    def query(self, path: list[str], projection: list[str] | None, where: str | None, sort: str | None
              ) -> list[ProviderRow]:
        return super().query(path, projection, where, sort or DEFAULT_SORT_ORDER)


class CallLog:
    """The call log database of one phone; empty until the first call ends."""

    def __init__(self, host_path: Callable[[], Path]) -> None:
        self.db = Db(host_path, SCHEMA)

    def provider(self) -> RoutedProvider:
        routes: dict[tuple[str, ...], tuple[str, str | None]] = {("calls",): ("calls", None)}
        return CallLogProvider("call_log", self.db.path, routes, prepare=self.db.ensure)

    def add(self, entry: CallEntry) -> int:
        """Log one call; returns its _id."""
        return self.db.run(
            "INSERT INTO calls (number, presentation, date, duration, type, new, name, is_read, "
            "last_modified) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)",
            entry.number, PRESENTATION_ALLOWED, entry.date_ms, entry.duration_s, entry.type, entry.name,
            0 if entry.type == MISSED_TYPE else None, entry.logged_ms,
        )
