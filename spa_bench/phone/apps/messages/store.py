"""The SMS database: `/data/data/com.android.providers.telephony/databases/mmssms.db`.

Tables as Android's TelephonyProvider names them: `threads` (one per correspondent) and `sms` (_id,
thread_id, address, person, date (ms UTC), date_sent, read, seen, status, type: 1 inbox / 2 sent /
3 draft / 4 outbox, body),
served as content://sms and its boxes content://sms/inbox, /sent, /draft and /outbox.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import ClassVar

from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.apps.contacts.pim import provider_db
from spa_bench.phone.system.clock import epoch_ms
from spa_bench.phone.system.databases import Db, SeedFn
from spa_bench.phone.system.providers import RoutedProvider, Value

PROVIDER_PACKAGE = "com.android.providers.telephony"
INBOX, SENT, DRAFT, OUTBOX = 1, 2, 3, 4  # Telephony.TextBasedSmsColumns.MESSAGE_TYPE_*

SCHEMA = """
CREATE TABLE threads (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    address TEXT NOT NULL,
    date INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sms (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    thread_id INTEGER,
    address TEXT,
    person INTEGER,
    date INTEGER,
    date_sent INTEGER DEFAULT 0,
    read INTEGER DEFAULT 0,
    seen INTEGER DEFAULT 0,
    status INTEGER DEFAULT -1,
    type INTEGER,
    body TEXT
);
CREATE INDEX sms_thread ON sms (thread_id);
"""

# (address, [(minutes ago, type, body)], unread). The same threads in both locales.
SEED: tuple[tuple[str, tuple[tuple[int, int, str], ...], bool], ...] = (
    (
        "+1 650-555-0101",
        (
            (95, INBOX, "Are we still on for lunch tomorrow?"),
            (90, SENT, "Yes! 12:30 at Luigi's?"),
            (88, INBOX, "Perfect, see you there"),
        ),
        False,
    ),
    ("138 1234 5678", ((130, INBOX, "周六下午三点在星巴克见？"), (125, SENT, "好的，不见不散")), False),
    (
        "72345",
        ((180, INBOX, "BankOne: your verification code is 482913. Do not share it with anyone."),),
        True,
    ),
    ("95338", ((240, INBOX, "【顺丰速运】您的快递已到达小区南门丰巢柜，取件码 5521，请尽快取件。"),), True),
    ("+1 650-555-0142", ((300, INBOX, "Can you send me the slides from today's meeting?"),), True),
    (
        "139 8765 4321",
        ((420, INBOX, "明天的部门会议改到上午10点了，地点不变。"), (410, SENT, "收到，谢谢提醒")),
        False,
    ),
    ("22000", ((600, INBOX, "G-771204 is your Google verification code."),), False),
    (
        "+1 650-555-0155",
        (
            (1500, INBOX, "Flight lands at 6:40 PM, can you pick me up?"),
            (1490, SENT, "Sure, see you at arrivals"),
        ),
        False,
    ),
    (
        "95588",
        ((1700, INBOX, "【工商银行】您尾号8823的账户11月28日支出人民币356.00元，余额12,480.50元。"),),
        False,
    ),
    (
        "+1 650-555-0143",
        ((2000, INBOX, "Happy birthday! Hope you have a great day"), (1990, SENT, "Thank you Anna!")),
        False,
    ),
    ("137 2222 3333", ((2900, INBOX, "周末一起去爬山吗？香山还是八达岭？"),), False),
    (
        "+1 650-555-0199",
        (
            (
                3100,
                INBOX,
                "Hi, this is Sarah from Bright Smile Dental. Your cleaning is "
                "confirmed for Friday at 3:00 PM.",
            ),
        ),
        False,
    ),
    (
        "+1 408-555-0166",
        ((4400, SENT, "Thanks for dinner last night!"), (4380, INBOX, "Anytime! Next time is on you")),
        False,
    ),
    ("135 4444 5555", ((5800, INBOX, "文件我已经发到你邮箱了，记得查收。"),), False),
    (
        "10086",
        ((7300, INBOX, "【中国移动】尊敬的客户，您本月套餐剩余国内流量3.2GB，剩余通话156分钟。"),),
        False,
    ),
    ("+1 212-555-0190", ((8700, INBOX, "The book club meets at 7 PM on Wednesday, bring snacks!"),), False),
)


@dataclass(frozen=True)
class SeedSms:
    """One seeded message as content://sms holds it (thread_id is the provider's to assign)."""

    address: str
    date: int  # ms UTC; date_sent is the same
    read: int
    type: int
    body: str

    def values(self) -> dict[str, str | int]:
        """The columns a `content insert --uri content://sms` writes (seen = 1: the phone showed it)."""
        return {"address": self.address, "date": self.date, "date_sent": self.date, "read": self.read,
                "seen": 1, "type": self.type, "body": self.body}


def seed_messages(now_ms: int) -> list[SeedSms]:
    """The seeded messages, thread by thread and oldest first within a thread, dated back from `now_ms`:
    the one source of the SMS seed, for this store and for seeding a real device (spa_bench.device)."""
    found = []
    for address, messages, unread in SEED:
        for i, (ago, kind, body) in enumerate(messages):
            read = 0 if unread and i == len(messages) - 1 and kind == INBOX else 1
            found.append(SeedSms(address, now_ms - ago * 60000, read, kind, body))
    return found


def make_seed(ctx: AppContext) -> SeedFn:
    def seed(conn: sqlite3.Connection) -> None:
        threads: dict[str, int] = {}
        for sms in seed_messages(epoch_ms(ctx.clock.now())):
            if sms.address not in threads:
                threads[sms.address] = int(conn.execute(
                    "INSERT INTO threads (address, date) VALUES (?, ?)", (sms.address, sms.date)
                ).lastrowid or 0)
            conn.execute("UPDATE threads SET date = max(date, ?) WHERE _id = ?",
                         (sms.date, threads[sms.address]))
            conn.execute(
                "INSERT INTO sms (thread_id, address, date, date_sent, read, seen, type, body) "
                "VALUES (?, ?, ?, ?, ?, 1, ?, ?)",
                (threads[sms.address], sms.address, sms.date, sms.date, sms.read, sms.type, sms.body),
            )

    return seed


@dataclass(frozen=True)
class Message:
    id: int
    thread_id: int
    address: str
    date: int
    read: bool
    type: int
    body: str


@dataclass(frozen=True)
class Thread:
    id: int
    address: str
    date: int
    snippet: str
    unread: int


class SmsStore:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.db = Db(lambda: provider_db(ctx, PROVIDER_PACKAGE, "mmssms.db"), SCHEMA, make_seed(ctx))

    def provider(self) -> RoutedProvider:
        return SmsProvider(self)

    def threads(self) -> list[Thread]:
        rows = self.db.rows(
            """SELECT t._id, t.address, max(s.date),
                      (SELECT body FROM sms WHERE thread_id = t._id ORDER BY date DESC, _id DESC LIMIT 1),
                      sum(s.read = 0)
               FROM threads t JOIN sms s ON s.thread_id = t._id GROUP BY t._id ORDER BY max(s.date) DESC"""
        )
        return [Thread(int(r[0]), r[1], int(r[2] or 0), r[3] or "", int(r[4] or 0)) for r in rows]

    def messages(self, thread_id: int) -> list[Message]:
        rows = self.db.rows(
            "SELECT _id, thread_id, address, date, read, type, body FROM sms "
            "WHERE thread_id = ? ORDER BY date, _id",
            thread_id,
        )
        return [
            Message(int(r[0]), int(r[1]), r[2] or "", int(r[3] or 0), bool(r[4]), int(r[5] or 0), r[6] or "")
            for r in rows
        ]

    def search(self, query: str) -> list[Message]:
        rows = self.db.rows(
            "SELECT _id, thread_id, address, date, read, type, body FROM sms "
            "WHERE body LIKE ? ORDER BY date DESC",
            f"%{query}%",
        )
        return [
            Message(int(r[0]), int(r[1]), r[2] or "", int(r[3] or 0), bool(r[4]), int(r[5] or 0), r[6] or "")
            for r in rows
        ]

    def thread_for(self, address: str) -> int:
        """The thread of `address` (ignoring formatting), created when there is none."""
        want = _digits(address) or address
        for tid, addr in self.db.rows("SELECT _id, address FROM threads"):
            if (_digits(addr) or addr) == want:
                return int(tid)
        return self.db.run(
            "INSERT INTO threads (address, date) VALUES (?, ?)",
            address.strip(),
            epoch_ms(self.ctx.clock.now()),
        )

    def address(self, thread_id: int) -> str:
        row = self.db.one("SELECT address FROM threads WHERE _id = ?", thread_id)
        return str(row[0]) if row else ""

    def mark_read(self, thread_id: int) -> None:
        if self.db.one("SELECT 1 FROM sms WHERE thread_id = ? AND read = 0", thread_id):
            self.db.run("UPDATE sms SET read = 1, seen = 1 WHERE thread_id = ? AND read = 0", thread_id)

    def mark_unread(self, thread_id: int) -> None:
        """Google Messages' "Mark as unread": the latest received message becomes unread again."""
        self.db.run(
            "UPDATE sms SET read = 0 WHERE _id = (SELECT _id FROM sms WHERE thread_id = ? AND type = 1 "
            "ORDER BY date DESC, _id DESC LIMIT 1)",
            thread_id,
        )

    def delete_thread(self, thread_id: int) -> None:
        self.db.run("DELETE FROM sms WHERE thread_id = ?", thread_id)
        self.db.run("DELETE FROM threads WHERE _id = ?", thread_id)

    def delete_message(self, message_id: int) -> None:
        self.db.run("DELETE FROM sms WHERE _id = ?", message_id)

    def send(self, thread_id: int, body: str) -> None:
        now = epoch_ms(self.ctx.clock.now())
        self.db.run(
            "INSERT INTO sms (thread_id, address, date, date_sent, read, seen, status, type, body) "
            "VALUES (?, ?, ?, ?, 1, 1, 0, 2, ?)",
            thread_id,
            self.address(thread_id),
            now,
            now,
            body,
        )
        self.db.run("UPDATE threads SET date = ? WHERE _id = ?", now, thread_id)


class SmsProvider(RoutedProvider):
    """content://sms[/inbox|/sent]. As TelephonyProvider's SmsProvider, an insert files the message in
    its correspondent's thread (Threads.getOrCreateThreadId) when it names none, and an insert into a
    box gives the message that box's type."""

    BOXES: ClassVar[dict[tuple[str, ...], int | None]] = {
        (): None, ("inbox",): INBOX, ("sent",): SENT, ("draft",): DRAFT, ("outbox",): OUTBOX}

    def __init__(self, store: SmsStore) -> None:
        super().__init__(
            "sms",
            store.db.path,
            {box: ("sms", None if kind is None else f"type = {kind}") for box, kind in self.BOXES.items()},
            prepare=store.db.ensure,
        )
        self.store = store

    def insert(self, path: list[str], values: dict[str, Value]) -> str:
        box = self.BOXES.get(tuple(path))
        if box is None and tuple(path) not in self.BOXES:
            return super().insert(path, values)
        row = dict(values)
        if box is not None:
            row["type"] = box
        now = epoch_ms(self.store.ctx.clock.now())
        row.setdefault("date", now)
        if row.get("thread_id") is None:
            row["thread_id"] = self.store.thread_for(str(row.get("address") or ""))
        uri = super().insert([], row)
        self.store.db.run("UPDATE threads SET date = (SELECT max(date) FROM sms WHERE thread_id = "
                          "threads._id) WHERE _id = ?", row["thread_id"])
        return uri

    def delete(self, path: list[str], where: str | None) -> int:
        """As MmsSmsDatabaseHelper's triggers do, a thread left with no message goes too."""
        count = super().delete(path, where)
        self.store.db.run("DELETE FROM threads WHERE _id NOT IN (SELECT thread_id FROM sms WHERE thread_id "
                          "IS NOT NULL)")
        return count


def _digits(number: str) -> str:
    return "".join(ch for ch in number if ch.isdigit())
