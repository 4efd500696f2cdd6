"""The Chat app's state in SQLite: `/data/data/com.spa.chat/databases/chat.db`.

- `contacts(_id, name, phone, hue)`;
- `conversations(_id, contact_id, unread, updated_at)`: one per contact that has messages;
- `messages(_id, conversation_id, outgoing, type, body, product_sku, product_price, timestamp)`:
  `type` is `text` or `product` (a shared Shop product: `body` is its title in the language it was
  shared in, `product_sku` its sku), or another kind a share sent (`image`: a Gallery picture, `body`
  its file name and `product_sku` its path). The seeded history has ids below 1000; the first message
  sent on the phone gets 1001, so `WHERE _id > 1000` selects what the user sent.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from spa_bench.phone.apps.chat.seed import CONTACTS, HISTORY
from spa_bench.phone.apps.db import AppDatabase

SCHEMA = """
CREATE TABLE contacts (_id INTEGER PRIMARY KEY, name TEXT NOT NULL, phone TEXT, hue TEXT);
CREATE TABLE conversations (_id INTEGER PRIMARY KEY AUTOINCREMENT, contact_id INTEGER UNIQUE NOT NULL,
    unread INTEGER NOT NULL DEFAULT 0, updated_at INTEGER);
CREATE TABLE messages (_id INTEGER PRIMARY KEY AUTOINCREMENT, conversation_id INTEGER NOT NULL,
    outgoing INTEGER NOT NULL, type TEXT NOT NULL DEFAULT 'text', body TEXT, product_sku TEXT,
    product_price REAL, timestamp INTEGER NOT NULL);
"""
FIRST_NEW_MESSAGE = 1001


@dataclass(frozen=True)
class Contact:
    id: int
    name: str
    phone: str
    hue: str


@dataclass(frozen=True)
class Message:
    id: int
    outgoing: bool
    type: str
    body: str
    sku: str
    price: float
    timestamp: int


@dataclass(frozen=True)
class Chat:
    contact: Contact
    last: Message
    unread: int


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def _message(r: sqlite3.Row) -> Message:
    return Message(
        int(r["_id"]),
        bool(r["outgoing"]),
        r["type"],
        r["body"] or "",
        r["product_sku"] or "",
        float(r["product_price"] or 0),
        int(r["timestamp"]),
    )


class ChatStore(AppDatabase):
    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            ids = {}
            for i, (name, phone, hue) in enumerate(CONTACTS, start=1):
                conn.execute("INSERT INTO contacts VALUES (?,?,?,?)", (i, name, phone, hue))
                ids[name] = i
            for name, lines in HISTORY.items():
                last = _ms(lines[-1][2])
                unread = sum(1 for out, _t, _w in lines[-2:] if not out) if name in ("王芳", "妈妈") else 0
                cur = conn.execute(
                    "INSERT INTO conversations (contact_id, unread, updated_at) VALUES (?,?,?)",
                    (ids[name], unread, last),
                )
                for outgoing, text, when in lines:
                    conn.execute(
                        "INSERT INTO messages (conversation_id, outgoing, type, body, timestamp) "
                        "VALUES (?,?,?,?,?)",
                        (cur.lastrowid, int(outgoing), "text", text, _ms(when)),
                    )
            conn.execute(
                "UPDATE sqlite_sequence SET seq = ? WHERE name = 'messages'", (FIRST_NEW_MESSAGE - 1,)
            )
            conn.execute("COMMIT")

    def contacts(self) -> list[Contact]:
        with self.db() as conn:
            rows = conn.execute("SELECT * FROM contacts").fetchall()
        return sorted(
            (Contact(int(r["_id"]), r["name"], r["phone"], r["hue"]) for r in rows),
            key=lambda c: c.name.casefold(),
        )

    def contact(self, contact_id: int) -> Contact | None:
        return next((c for c in self.contacts() if c.id == contact_id), None)

    def chats(self) -> list[Chat]:
        """Conversations with their last message, most recent first."""
        contacts = {c.id: c for c in self.contacts()}
        with self.db() as conn:
            rows = conn.execute(
                "SELECT c.contact_id, c.unread, m.* FROM conversations c JOIN messages m ON m._id = "
                "(SELECT _id FROM messages WHERE conversation_id = c._id "
                "ORDER BY timestamp DESC, _id DESC LIMIT 1) "
                "ORDER BY m.timestamp DESC, m._id DESC"
            ).fetchall()
        return [
            Chat(contacts[r["contact_id"]], _message(r), int(r["unread"]))
            for r in rows
            if r["contact_id"] in contacts
        ]

    def messages(self, contact_id: int) -> list[Message]:
        with self.db() as conn:
            rows = conn.execute(
                "SELECT m.* FROM messages m JOIN conversations c ON m.conversation_id = c._id "
                "WHERE c.contact_id = ? ORDER BY m.timestamp, m._id",
                (contact_id,),
            ).fetchall()
        return [_message(r) for r in rows]

    def mark_read(self, contact_id: int) -> None:
        with self.db() as conn:
            conn.execute(
                "UPDATE conversations SET unread = 0 WHERE contact_id = ? AND unread != 0", (contact_id,)
            )

    def send(
        self,
        contact_id: int,
        now_ms: int,
        body: str,
        kind: str = "text",
        sku: str = "",
        price: float | None = None,
    ) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            row = conn.execute("SELECT _id FROM conversations WHERE contact_id = ?", (contact_id,)).fetchone()
            if row is None:
                conv = conn.execute(
                    "INSERT INTO conversations (contact_id, unread, updated_at) VALUES (?,?,?)",
                    (contact_id, 0, now_ms),
                ).lastrowid
            else:
                conv = row["_id"]
                conn.execute("UPDATE conversations SET updated_at = ? WHERE _id = ?", (now_ms, conv))
            conn.execute(
                "INSERT INTO messages (conversation_id, outgoing, type, body, product_sku, product_price, "
                "timestamp) VALUES (?,?,?,?,?,?,?)",
                (conv, 1, kind, body, sku or None, price, now_ms),
            )
            conn.execute("COMMIT")
