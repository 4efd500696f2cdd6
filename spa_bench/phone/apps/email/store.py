"""The Email app's state in SQLite: `/data/data/com.android.email/databases/email.db`.

- `threads(_id, account, subject, starred)`: a conversation; starring is per conversation, as in Gmail;
- `messages(_id, thread_id, account, folder, from_name, from_addr, to_addrs, cc_addrs, subject, body,
  timestamp, read)`: `folder` is `inbox`, `sent`, `drafts`, `archive` or `trash`; `to_addrs` and
  `cc_addrs` are comma-separated addresses; `timestamp` is in ms;
- `thread_labels(thread_id, label)`: the user labels on a conversation;
- `labels(account, name)`: the labels the account has;
- `attachments(_id, message_id, name, path, size)`: `path` is the file on /sdcard a sent mail attached
  (empty for what a received mail carried).

`account` is the address of the mailbox: the phone shows the account of its content language
(`ctx.content_locale`, the SIM's country; the UI language only changes the labels). Seeded rows have
ids below 1000; the first thread and message made on the phone get 1001, so `_id > 1000` is what the
user did.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from spa_bench.phone.apps.db import AppDatabase
from spa_bench.phone.apps.email.seed import ACCOUNTS, LABELS, THREADS

SCHEMA = """
CREATE TABLE threads (_id INTEGER PRIMARY KEY AUTOINCREMENT, account TEXT NOT NULL, subject TEXT,
    starred INTEGER NOT NULL DEFAULT 0);
CREATE TABLE messages (_id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id INTEGER NOT NULL,
    account TEXT NOT NULL, folder TEXT NOT NULL, from_name TEXT, from_addr TEXT, to_addrs TEXT,
    cc_addrs TEXT, subject TEXT, body TEXT, timestamp INTEGER NOT NULL, read INTEGER NOT NULL DEFAULT 1);
CREATE TABLE thread_labels (thread_id INTEGER NOT NULL, label TEXT NOT NULL, PRIMARY KEY (thread_id, label));
CREATE TABLE labels (account TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (account, name));
CREATE TABLE attachments (_id INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER NOT NULL,
    name TEXT NOT NULL, path TEXT, size INTEGER);
"""
FIRST_NEW_ID = 1001
FOLDERS = ("inbox", "sent", "drafts", "archive", "trash")


@dataclass(frozen=True)
class Attachment:
    name: str
    path: str
    size: int


@dataclass(frozen=True)
class Message:
    id: int
    thread_id: int
    folder: str
    from_name: str
    from_addr: str
    to: str
    cc: str
    subject: str
    body: str
    timestamp: int
    read: bool
    attachments: tuple[Attachment, ...]


@dataclass(frozen=True)
class Thread:
    id: int
    subject: str
    starred: bool
    labels: tuple[str, ...]
    messages: tuple[Message, ...]  # oldest first: what the list and the thread screen show

    @property
    def last(self) -> Message:
        return self.messages[-1]

    @property
    def unread(self) -> bool:
        return any(not m.read for m in self.messages)


@dataclass(frozen=True)
class Draft:
    """What the compose screen sends or saves."""

    to: str
    cc: str
    subject: str
    body: str
    attachments: tuple[Attachment, ...] = ()
    thread_id: int | None = None  # a reply stays in its conversation


def ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def split_address(text: str) -> tuple[str, str]:
    """ "Lisa Park <lisa@x.com>" -> ("Lisa Park", "lisa@x.com"); a bare address is its own name."""
    if "<" in text and text.endswith(">"):
        name, addr = text[:-1].split("<", 1)
        return name.strip(), addr.strip()
    return text.strip(), text.strip()


def addresses(text: str) -> list[str]:
    return [a.strip() for a in text.replace(";", ",").split(",") if a.strip()]


class EmailStore(AppDatabase):
    def ensure(self) -> None:
        if self._path().exists():
            return
        with self.db() as conn:
            conn.executescript("BEGIN;" + SCHEMA + "COMMIT;")
            conn.execute("BEGIN")
            for locale, threads in THREADS.items():
                me_name, me_addr = ACCOUNTS[locale]
                for name in LABELS[locale]:
                    conn.execute("INSERT INTO labels VALUES (?,?)", (me_addr, name))
                for t in threads:
                    tid = conn.execute(
                        "INSERT INTO threads (account, subject, starred) VALUES (?,?,?)",
                        (me_addr, t.subject, int(t.starred)),
                    ).lastrowid
                    for label in t.labels:
                        conn.execute("INSERT INTO thread_labels VALUES (?,?)", (tid, label))
                    for i, m in enumerate(t.messages):
                        mine = not m.sender
                        name, addr = (me_name, me_addr) if mine else split_address(m.sender)
                        if mine:
                            folder = "drafts" if t.folder == "drafts" else "sent"
                        else:
                            folder = t.folder if t.folder in ("inbox", "archive", "trash") else "inbox"
                        last = i == len(t.messages) - 1
                        mid = conn.execute(
                            "INSERT INTO messages (thread_id, account, folder, from_name, from_addr, "
                            "to_addrs, cc_addrs, subject, body, timestamp, read) "
                            "VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                            (
                                tid,
                                me_addr,
                                folder,
                                name,
                                addr,
                                m.to or me_addr,
                                m.cc,
                                t.subject if i == 0 else "Re: " + t.subject,
                                m.body,
                                ms(m.date),
                                int(t.read or not last),
                            ),
                        ).lastrowid
                        for fname, size in m.attachments:
                            conn.execute(
                                "INSERT INTO attachments (message_id, name, path, size) VALUES (?,?,?,?)",
                                (mid, fname, "", size),
                            )
            for table in ("threads", "messages", "attachments"):
                conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", (FIRST_NEW_ID - 1, table))
            conn.execute("COMMIT")

    # -- reading --------------------------------------------------------------------------------------
    def labels(self, account: str) -> list[str]:
        with self.db() as conn:
            rows = conn.execute("SELECT name FROM labels WHERE account = ? ORDER BY rowid", (account,))
            return [r["name"] for r in rows]

    def _messages(self, conn: sqlite3.Connection, where: str, args: Sequence[object]) -> list[Message]:
        rows = conn.execute(f"SELECT * FROM messages WHERE {where} ORDER BY timestamp, _id", args).fetchall()
        files: dict[int, list[Attachment]] = {}
        ids = [int(r["_id"]) for r in rows]
        if ids:
            marks = ",".join("?" * len(ids))
            for a in conn.execute(
                f"SELECT * FROM attachments WHERE message_id IN ({marks}) ORDER BY _id", ids
            ):
                files.setdefault(int(a["message_id"]), []).append(
                    Attachment(a["name"], a["path"] or "", int(a["size"] or 0))
                )
        return [
            Message(
                int(r["_id"]),
                int(r["thread_id"]),
                r["folder"],
                r["from_name"] or "",
                r["from_addr"] or "",
                r["to_addrs"] or "",
                r["cc_addrs"] or "",
                r["subject"] or "",
                r["body"] or "",
                int(r["timestamp"]),
                bool(r["read"]),
                tuple(files.get(int(r["_id"]), ())),
            )
            for r in rows
        ]

    def _threads(
        self, conn: sqlite3.Connection, account: str, ids: Iterable[int] | None = None
    ) -> dict[int, tuple[sqlite3.Row, list[str], list[Message]]]:
        rows = conn.execute("SELECT * FROM threads WHERE account = ?", (account,)).fetchall()
        wanted = None if ids is None else set(ids)
        labels: dict[int, list[str]] = {}
        for r in conn.execute("SELECT thread_id, label FROM thread_labels ORDER BY label"):
            labels.setdefault(int(r["thread_id"]), []).append(r["label"])
        messages: dict[int, list[Message]] = {}
        for m in self._messages(conn, "account = ?", (account,)):
            messages.setdefault(m.thread_id, []).append(m)
        return {
            int(r["_id"]): (r, labels.get(int(r["_id"]), []), messages.get(int(r["_id"]), []))
            for r in rows
            if wanted is None or int(r["_id"]) in wanted
        }

    def threads(self, account: str, folder: str = "inbox", label: str = "", query: str = "") -> list[Thread]:
        """The conversations a list shows, newest first. `folder` is one of FOLDERS or `starred`; a
        `label` or a search `query` lists every conversation outside Trash that matches."""
        with self.db() as conn:
            found = self._threads(conn, account)
        needle = query.strip().casefold()
        out: list[Thread] = []
        for tid, (row, labels, messages) in found.items():
            if folder == "trash" and not (label or needle):
                shown = [m for m in messages if m.folder == "trash"]
            else:
                shown = [m for m in messages if m.folder not in ("trash", "drafts")]
            if not shown:
                continue
            if label:
                keep = label in labels
            elif needle:
                keep = any(
                    needle in f"{m.subject}\n{m.body}\n{m.from_name}\n{m.from_addr}\n{m.to}".casefold()
                    for m in shown
                )
            elif folder == "starred":
                keep = bool(row["starred"])
            elif folder == "trash":
                keep = True
            else:
                keep = any(m.folder == folder for m in shown)
            if keep:
                out.append(
                    Thread(tid, row["subject"] or "", bool(row["starred"]), tuple(labels), tuple(shown))
                )
        return sorted(out, key=lambda t: (t.last.timestamp, t.id), reverse=True)

    def drafts(self, account: str) -> list[Message]:
        with self.db() as conn:
            found = self._messages(conn, "account = ? AND folder = 'drafts'", (account,))
        return sorted(found, key=lambda m: (m.timestamp, m.id), reverse=True)

    def thread(self, account: str, thread_id: int) -> Thread | None:
        with self.db() as conn:
            found = self._threads(conn, account, [thread_id])
        if thread_id not in found:
            return None
        row, labels, messages = found[thread_id]
        outside = [m for m in messages if m.folder not in ("trash", "drafts")]
        shown = outside or [m for m in messages if m.folder == "trash"]
        return Thread(thread_id, row["subject"] or "", bool(row["starred"]), tuple(labels), tuple(shown))

    def message(self, message_id: int) -> Message | None:
        with self.db() as conn:
            found = self._messages(conn, "_id = ?", (message_id,))
        return found[0] if found else None

    # -- changing conversations -------------------------------------------------------------------------
    def set_starred(self, thread_id: int, starred: bool) -> None:
        with self.db() as conn:
            conn.execute("UPDATE threads SET starred = ? WHERE _id = ?", (int(starred), thread_id))

    def mark_read(self, thread_id: int, read: bool = True) -> None:
        with self.db() as conn:
            if read:
                conn.execute("UPDATE messages SET read = 1 WHERE thread_id = ? AND read = 0", (thread_id,))
            else:
                conn.execute(
                    "UPDATE messages SET read = 0 WHERE _id = (SELECT _id FROM messages WHERE thread_id = ? "
                    "AND folder = 'inbox' ORDER BY timestamp DESC LIMIT 1)",
                    (thread_id,),
                )

    def archive(self, thread_id: int) -> None:
        with self.db() as conn:
            conn.execute(
                "UPDATE messages SET folder = 'archive' WHERE thread_id = ? AND folder = 'inbox'",
                (thread_id,),
            )

    def trash(self, thread_id: int) -> None:
        with self.db() as conn:
            conn.execute(
                "UPDATE messages SET folder = 'trash' WHERE thread_id = ? AND folder IN "
                "('inbox', 'archive', 'sent')",
                (thread_id,),
            )

    def restore(self, thread_id: int, account: str) -> None:
        """Move a conversation back to the Inbox: received mail to `inbox`, the user's own to `sent`."""
        with self.db() as conn:
            conn.execute(
                "UPDATE messages SET folder = CASE WHEN from_addr = ? THEN 'sent' ELSE 'inbox' END "
                "WHERE thread_id = ? AND folder IN ('trash', 'archive')",
                (account, thread_id),
            )

    def delete_forever(self, thread_id: int) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute(
                "DELETE FROM attachments WHERE message_id IN (SELECT _id FROM messages WHERE "
                "thread_id = ? AND folder = 'trash')",
                (thread_id,),
            )
            conn.execute("DELETE FROM messages WHERE thread_id = ? AND folder = 'trash'", (thread_id,))
            if (
                conn.execute("SELECT COUNT(*) FROM messages WHERE thread_id = ?", (thread_id,)).fetchone()[0]
                == 0
            ):
                conn.execute("DELETE FROM thread_labels WHERE thread_id = ?", (thread_id,))
                conn.execute("DELETE FROM threads WHERE _id = ?", (thread_id,))
            conn.execute("COMMIT")

    def set_labels(self, thread_id: int, labels: Iterable[str]) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            conn.execute("DELETE FROM thread_labels WHERE thread_id = ?", (thread_id,))
            for label in sorted(set(labels)):
                conn.execute("INSERT INTO thread_labels VALUES (?,?)", (thread_id, label))
            conn.execute("COMMIT")

    # -- writing mail ------------------------------------------------------------------------------------
    def save(
        self, account: str, me: str, draft: Draft, now_ms: int, folder: str, draft_id: int | None = None
    ) -> int:
        """Store `draft` as a draft (`folder="drafts"`) or send it (`"sent"`): an edited draft keeps its
        row; a new mail gets a new conversation unless it replies in one. Returns the message id."""
        with self.db() as conn:
            conn.execute("BEGIN")
            thread_id = draft.thread_id
            if draft_id is not None:
                row = conn.execute("SELECT thread_id FROM messages WHERE _id = ?", (draft_id,)).fetchone()
                if row is None:
                    draft_id = None
                else:
                    thread_id = int(row["thread_id"])
            if thread_id is None:
                thread_id = int(
                    conn.execute(
                        "INSERT INTO threads (account, subject) VALUES (?,?)", (account, draft.subject)
                    ).lastrowid
                    or 0
                )
            elif folder == "sent" and draft.thread_id is None:
                conn.execute("UPDATE threads SET subject = ? WHERE _id = ?", (draft.subject, thread_id))
            values = (
                thread_id,
                account,
                folder,
                me,
                account,
                ", ".join(addresses(draft.to)),
                ", ".join(addresses(draft.cc)),
                draft.subject,
                draft.body,
                now_ms,
            )
            if draft_id is None:
                message_id = int(
                    conn.execute(
                        "INSERT INTO messages (thread_id, account, folder, from_name, from_addr, to_addrs, "
                        "cc_addrs, subject, body, timestamp, read) VALUES (?,?,?,?,?,?,?,?,?,?,1)",
                        values,
                    ).lastrowid
                    or 0
                )
            else:
                message_id = draft_id
                conn.execute(
                    "UPDATE messages SET thread_id=?, account=?, folder=?, from_name=?, from_addr=?, "
                    "to_addrs=?, cc_addrs=?, subject=?, body=?, timestamp=? WHERE _id = ?",
                    (*values, draft_id),
                )
                conn.execute("DELETE FROM attachments WHERE message_id = ?", (draft_id,))
            for a in draft.attachments:
                conn.execute(
                    "INSERT INTO attachments (message_id, name, path, size) VALUES (?,?,?,?)",
                    (message_id, a.name, a.path, a.size),
                )
            conn.execute("COMMIT")
        return message_id

    def discard_draft(self, draft_id: int) -> None:
        with self.db() as conn:
            conn.execute("BEGIN")
            row = conn.execute(
                "SELECT thread_id FROM messages WHERE _id = ? AND folder = 'drafts'", (draft_id,)
            ).fetchone()
            if row is not None:
                conn.execute("DELETE FROM attachments WHERE message_id = ?", (draft_id,))
                conn.execute("DELETE FROM messages WHERE _id = ?", (draft_id,))
                tid = int(row["thread_id"])
                if (
                    conn.execute("SELECT COUNT(*) FROM messages WHERE thread_id = ?", (tid,)).fetchone()[0]
                    == 0
                ):
                    conn.execute("DELETE FROM threads WHERE _id = ?", (tid,))
            conn.execute("COMMIT")
