"""The call history the phone comes with (written to the call-log provider's calllog.db at first boot,
as the seeded SMS are): calls with contacts of both languages and a few unknown numbers, in the same
week of July 2024 as the other apps' seeded history. Numbers are stored as Telecom stores them (the
caller id as received: +country code for the US contacts, 11 digits for the mainland Chinese ones)."""

from __future__ import annotations

from datetime import UTC, datetime

from spa_bench.phone.system.call_log import MISSED_TYPE

# number, cached name (None: not a contact), CallLog.Calls type, "YYYY-MM-DD HH:MM" UTC, seconds, read
SEED_CALLS: tuple[tuple[str, str | None, int, str, int, bool], ...] = (
    ("+16465550199", "Nina Patel", 1, "2024-07-15 19:10", 604, True),
    ("15188889999", "赵敏", 2, "2024-07-15 13:13", 902, True),
    ("4008123123", None, 3, "2024-07-16 15:00", 0, True),
    ("+16175550160", "Frank Miller", 2, "2024-07-16 08:45", 48, True),
    ("13544445555", "陈静", 1, "2024-07-19 15:30", 185, True),
    ("+18885550123", None, 3, "2024-07-17 14:22", 0, True),
    ("+13125550112", "Emily Davis", 1, "2024-07-19 11:30", 1260, True),
    ("15066667777", "杨磊", 3, "2024-07-19 11:50", 0, True),
    ("+12125550147", "Rachel Green", 3, "2024-07-18 20:31", 0, True),
    ("13600001111", "李娜", 2, "2024-07-19 11:20", 66, True),
    ("+16505550155", "David Kim", 2, "2024-07-19 12:05", 95, True),
    ("+14155550177", "Ben Carter", 1, "2024-07-19 18:40", 312, True),
    ("13987654321", "王芳", 1, "2024-07-19 21:05", 438, True),
    ("13812345678", "张伟", 3, "2024-07-20 08:30", 0, False),
    ("+16505550142", "Anna Li", 3, "2024-07-20 09:12", 0, False),
)


def _ms(text: str) -> int:
    return int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp() * 1000)


def seed_call_rows() -> list[dict[str, str | int | None]]:
    """The seeded rows of content://call_log/calls with CallLog.Calls' columns, as Telecom writes a call
    that ended (`new` 1 while unseen, `is_read` only for missed calls, `last_modified` when it ended):
    the one source of this seed for the virtual phone and for a real device (spa_bench.device.seeding)."""
    rows: list[dict[str, str | int | None]] = []
    for number, name, kind, when, duration, read in SEED_CALLS:
        date = _ms(when)
        rows.append({"number": number, "presentation": 1, "date": date, "duration": duration, "type": kind,
                     "new": 0 if read else 1, "name": name,
                     "is_read": (1 if read else 0) if kind == MISSED_TYPE else None,
                     "last_modified": date + duration * 1000})
    return rows
