"""The contacts database: `/data/data/com.android.providers.contacts/databases/contacts2.db`.

A simplified but faithful layout of Android's ContactsProvider2: `raw_contacts` (one row per person,
`starred`, account_name/account_type NULL for a phone-local contact), `data` rows typed by `mimetype`
(StructuredName: data1 display name, data2 given name, data3 family name; Phone: data1 number, data2
type; Email: data1 address, data2 type), and views that
the provider serves as `content://com.android.contacts/contacts`, `.../data`, `.../data/phones` and
`.../data/emails` with Android's column names (display_name, starred, contact_id, mimetype, data1...;
the number of a phone row and the address of an e-mail row are `data1`, as ContactsContract's
Phone.NUMBER and Email.ADDRESS are). The views also carry `number` and `address` copies of data1, which
a stock ContactsProvider does not have: older checks read them, and spa_bench.tasks.portable refuses
them in portable tasks.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from spa_bench.phone.api import ProviderError
from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.apps.contacts.pim import provider_db
from spa_bench.phone.apps.db import connect
from spa_bench.phone.system.databases import Db
from spa_bench.phone.system.providers import RoutedProvider, Value

PROVIDER_PACKAGE = "com.android.providers.contacts"
AUTHORITY = "com.android.contacts"
NAME, PHONE, EMAIL = (
    "vnd.android.cursor.item/name",
    "vnd.android.cursor.item/phone_v2",
    "vnd.android.cursor.item/email_v2",
)
# ContactsContract's Phone.TYPE_MOBILE and Email.TYPE_HOME, the types of every seeded number and address
PHONE_TYPE_MOBILE, EMAIL_TYPE_HOME = "2", "1"

SCHEMA = f"""
CREATE TABLE raw_contacts (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_name TEXT,
    account_type TEXT,
    display_name TEXT,
    starred INTEGER NOT NULL DEFAULT 0,
    deleted INTEGER NOT NULL DEFAULT 0,
    times_contacted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE data (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    raw_contact_id INTEGER NOT NULL REFERENCES raw_contacts(_id),
    mimetype TEXT NOT NULL,
    data1 TEXT, data2 TEXT, data3 TEXT
);
CREATE INDEX data_raw_contact_id ON data (raw_contact_id);
CREATE VIEW view_contacts AS
    SELECT r._id AS _id, r.display_name AS display_name, r.starred AS starred,
           r.times_contacted AS times_contacted,
           EXISTS (SELECT 1 FROM data d WHERE d.raw_contact_id = r._id AND d.mimetype = '{PHONE}')
               AS has_phone_number
    FROM raw_contacts r WHERE r.deleted = 0;
CREATE VIEW view_data AS
    SELECT d._id AS _id, d.raw_contact_id AS raw_contact_id, d.raw_contact_id AS contact_id,
           d.mimetype AS mimetype, d.data1 AS data1, d.data2 AS data2, d.data3 AS data3,
           r.display_name AS display_name, r.starred AS starred
    FROM data d JOIN raw_contacts r ON r._id = d.raw_contact_id WHERE r.deleted = 0;
CREATE VIEW view_phones AS
    SELECT _id, raw_contact_id, contact_id, display_name, starred, mimetype, data1, data2, data3,
           data1 AS number, data2 AS type
    FROM view_data WHERE mimetype = '{PHONE}';
CREATE VIEW view_emails AS
    SELECT _id, raw_contact_id, contact_id, display_name, starred, mimetype, data1, data2, data3,
           data1 AS address, data2 AS type
    FROM view_data WHERE mimetype = '{EMAIL}';
"""

# (given, family, phone, email, starred). Same people in both locales; near-duplicates on purpose.
SEED: tuple[tuple[str, str, str, str, int], ...] = (
    ("Alice", "Chen", "+1 650-555-0101", "alice.chen@example.com", 1),
    ("Anna", "Li", "+1 650-555-0142", "anna.li@example.com", 0),
    ("Anna", "Lin", "+1 650-555-0143", "anna.lin@example.org", 0),
    ("Ben", "Carter", "+1 415-555-0177", "ben.carter@example.com", 0),
    ("Bob", "Li", "+1 650-555-0102", "", 0),
    ("Carlos", "Garcia", "+1 212-555-0190", "carlos.g@example.com", 0),
    ("Chloe", "Martin", "+44 20 7946 0321", "chloe.martin@example.co.uk", 0),
    ("Daniel", "Wong", "+852 5555 0123", "daniel.wong@example.hk", 0),
    ("David", "Kim", "+1 650-555-0155", "david.kim@example.com", 1),
    ("Emily", "Davis", "+1 312-555-0112", "emily.davis@example.com", 0),
    ("Emma", "Wilson", "+1 312-555-0113", "", 0),
    ("Frank", "Miller", "+1 617-555-0160", "frank.miller@example.com", 0),
    ("Grace", "Lee", "+1 650-555-0188", "grace.lee@example.com", 0),
    ("Henry", "Zhao", "+86 139 1000 2233", "henry.zhao@example.cn", 0),
    ("Isabella", "Rossi", "+39 06 5555 0134", "", 0),
    ("Jack", "Thompson", "+1 206-555-0119", "jack.t@example.com", 0),
    ("James", "Brown", "+1 206-555-0120", "james.brown@example.com", 0),
    ("Kevin", "Liu", "+1 408-555-0166", "kevin.liu@example.com", 0),
    ("Laura", "Scott", "+1 503-555-0171", "", 0),
    ("Michael", "Chang", "+1 408-555-0135", "m.chang@example.com", 0),
    ("Mia", "Johnson", "+1 503-555-0172", "mia.j@example.com", 0),
    ("Nina", "Patel", "+1 646-555-0199", "nina.patel@example.com", 0),
    ("Olivia", "Taylor", "+1 646-555-0128", "", 0),
    ("Peter", "Wang", "+86 138 0013 8000", "peter.wang@example.cn", 0),
    ("Rachel", "Green", "+1 212-555-0147", "rachel.green@example.com", 0),
    ("Sophia", "Nguyen", "+1 714-555-0131", "sophia.n@example.com", 0),
    ("Tom", "Harris", "+1 617-555-0108", "", 0),
    ("Zoe", "Adams", "+1 415-555-0186", "zoe.adams@example.com", 0),
    ("伟", "张", "138 1234 5678", "zhangwei@example.cn", 0),
    ("薇", "张", "138 1234 5687", "zhangwei2@example.cn", 0),
    ("芳", "王", "139 8765 4321", "wangfang@example.cn", 1),
    ("方", "王", "139 8765 4312", "", 0),
    ("娜", "李", "136 0000 1111", "lina@example.cn", 0),
    ("洋", "刘", "137 2222 3333", "liuyang@example.cn", 0),
    ("静", "陈", "135 4444 5555", "chenjing@example.cn", 0),
    ("磊", "杨", "150 6666 7777", "", 0),
    ("敏", "赵", "151 8888 9999", "zhaomin@example.cn", 0),
    ("磊", "黄", "152 1111 2222", "huanglei@example.cn", 0),
    ("杰", "周", "158 3333 4444", "", 0),
    ("婷", "吴", "159 5555 6666", "wuting@example.cn", 0),
    ("悦", "孙", "186 7777 8888", "sunyue@example.cn", 0),
    ("晓", "林", "187 9999 0000", "", 0),
)


def is_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def display_name(given: str, family: str) -> str:
    """Chinese names are family name first without a space; others "Given Family"."""
    given, family = given.strip(), family.strip()
    if is_cjk(given + family):
        return family + given
    return " ".join(p for p in (given, family) if p)


def contact_data_rows(given: str, family: str, phone: str, email: str) -> list[dict[str, str]]:
    """The data rows of one contact (name, then phone and e-mail when it has them), as `content insert
    --uri content://com.android.contacts/data` writes them: what this store writes for a seeded or saved
    contact, and what seeding a real device writes (spa_bench.device.seeding)."""
    rows = [{"mimetype": NAME, "data1": display_name(given, family), "data2": given, "data3": family}]
    if phone:
        rows.append({"mimetype": PHONE, "data1": phone, "data2": PHONE_TYPE_MOBILE})
    if email:
        rows.append({"mimetype": EMAIL, "data1": email, "data2": EMAIL_TYPE_HOME})
    return rows


def _insert_data(conn: sqlite3.Connection, raw_id: int, rows: list[dict[str, str]]) -> None:
    for row in rows:
        columns = ["raw_contact_id", *row]
        conn.execute(f"INSERT INTO data ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                     (raw_id, *row.values()))


def insert_contact(
    conn: sqlite3.Connection, given: str, family: str, phone: str, email: str, starred: int = 0
) -> int:
    cur = conn.execute("INSERT INTO raw_contacts (display_name, starred) VALUES (?, ?)",
                       (display_name(given, family), starred))
    rid = int(cur.lastrowid or 0)
    _insert_data(conn, rid, contact_data_rows(given, family, phone, email))
    return rid


def seed(conn: sqlite3.Connection) -> None:
    for given, family, phone, email, starred in SEED:
        insert_contact(conn, given, family, phone, email, starred)


@dataclass(frozen=True)
class Contact:
    id: int
    name: str
    given: str
    family: str
    phone: str
    email: str
    starred: bool


# Initials of the seeded family names, so Chinese names sort into pinyin sections as on a zh phone.
PINYIN = dict(zip("张王李刘陈杨赵黄周吴孙林郑马何高徐胡朱郭罗", "ZWLLCYZHZWSLZMHGXHZGL", strict=True))


def section(name: str) -> str:
    first = name[:1]
    if first.isascii() and first.isalpha():
        return first.upper()
    return PINYIN.get(first, "#")


class ContactsStore:
    """Reads and writes contacts2.db for the Contacts app (and Messages, for names of numbers)."""

    def __init__(self, ctx: AppContext) -> None:
        self.db = Db(lambda: provider_db(ctx, PROVIDER_PACKAGE, "contacts2.db"), SCHEMA, seed)

    def provider(self) -> RoutedProvider:
        return ContactsProvider(
            AUTHORITY,
            self.db.path,
            {
                ("contacts",): ("view_contacts", None),
                ("raw_contacts",): ("raw_contacts", None),
                ("data",): ("view_data", None),
                ("data", "phones"): ("view_phones", None),
                ("data", "emails"): ("view_emails", None),
            },
            prepare=self.db.ensure,
            writes={"view_data": "data"},
        )

    def all(self) -> list[Contact]:
        rows = self.db.rows(
            f"""SELECT r._id, r.display_name, n.data2, n.data3,
                   (SELECT data1 FROM data WHERE raw_contact_id = r._id AND mimetype = '{PHONE}'
                    ORDER BY _id LIMIT 1),
                   (SELECT data1 FROM data WHERE raw_contact_id = r._id AND mimetype = '{EMAIL}'
                    ORDER BY _id LIMIT 1),
                   r.starred
            FROM raw_contacts r LEFT JOIN data n ON n.raw_contact_id = r._id AND n.mimetype = '{NAME}'
            WHERE r.deleted = 0"""
        )
        found = [
            Contact(int(r[0]), r[1] or "", r[2] or "", r[3] or "", r[4] or "", r[5] or "", bool(r[6]))
            for r in rows
        ]
        return sorted(found, key=lambda c: (section(c.name), is_cjk(c.name), c.name.casefold()))

    def get(self, contact_id: int) -> Contact | None:
        return next((c for c in self.all() if c.id == contact_id), None)

    def save(self, contact_id: int | None, given: str, family: str, phone: str, email: str) -> int:
        """Create (id None) or update a contact; returns its id."""
        conn = self.db.connect()
        try:
            conn.execute("BEGIN")
            if contact_id is None:
                contact_id = insert_contact(conn, given, family, phone, email)
            else:
                conn.execute("UPDATE raw_contacts SET display_name = ? WHERE _id = ?",
                             (display_name(given, family), contact_id))
                conn.execute("DELETE FROM data WHERE raw_contact_id = ?", (contact_id,))
                _insert_data(conn, contact_id, contact_data_rows(given, family, phone, email))
            conn.execute("COMMIT")
        finally:
            conn.close()
        return contact_id

    def set_starred(self, contact_id: int, starred: bool) -> None:
        self.db.run("UPDATE raw_contacts SET starred = ? WHERE _id = ?", int(starred), contact_id)

    def delete(self, contact_id: int) -> None:
        self.db.run("DELETE FROM data WHERE raw_contact_id = ?", contact_id)
        self.db.run("DELETE FROM raw_contacts WHERE _id = ?", contact_id)

    def name_for_number(self, number: str) -> str | None:
        """The contact whose phone number matches `number` ignoring spaces, dashes and brackets."""
        want = _digits(number)
        if not want:
            return None
        for name, value in self.db.rows("SELECT display_name, data1 FROM view_phones"):
            if _digits(value) == want or (len(want) >= 7 and _digits(value).endswith(want)):
                return str(name)
        return None


class ContactsProvider(RoutedProvider):
    """Writes go where ContactsProvider2 puts them: `data` inserts, updates and deletes reach the data
    table (reads go through the view with the contact's name and star), a StructuredName row sets its raw
    contact's display_name (built from given and family name when data1 is not given, as the name
    splitter does), and deleting raw contacts deletes their data rows, as a sync adapter's delete does."""

    def insert(self, path: list[str], values: dict[str, Value]) -> str:
        row = dict(values)
        name_row = tuple(path) == ("data",) and row.get("mimetype") == NAME
        if name_row and not row.get("data1"):
            row["data1"] = display_name(str(row.get("data2") or ""), str(row.get("data3") or ""))
        uri = super().insert(path, row)
        if name_row:
            self._run("UPDATE raw_contacts SET display_name = ? WHERE _id = ?", row["data1"],
                      row.get("raw_contact_id"))
        return uri

    def delete(self, path: list[str], where: str | None) -> int:
        count = super().delete(path, where)
        if tuple(path[:1]) == ("raw_contacts",):
            self._run("DELETE FROM data WHERE raw_contact_id NOT IN (SELECT _id FROM raw_contacts)")
        return count

    def _run(self, sql: str, *params: Value) -> None:
        conn = connect(self.db())
        try:
            conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise ProviderError(str(exc)) from exc
        finally:
            conn.close()


def _digits(number: str | None) -> str:
    return "".join(ch for ch in number or "" if ch.isdigit() or ch == "+").lstrip("+")
