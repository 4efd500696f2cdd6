"""The clock database: `/data/user_de/0/com.android.deskclock/databases/alarms.db`.

Where AOSP DeskClock keeps it: `ClockProvider.onCreate` opens `ClockDatabaseHelper` (DATABASE_NAME
"alarms.db") in `createDeviceProtectedStorageContext()`, i.e. /data/user_de/0/PKG, on Android N and later.

`alarm_templates` and `alarm_instances` (the next ring of each enabled alarm; never filled here)
are AOSP DeskClock's tables; alarm_templates (_id, hour, minutes, enabled, daysofweek with Mon=1 ...
Sun=64, vibrate, label, ringtone, delete_after_use). DeskClock keeps timers, the stopwatch and the
world-clock cities in shared preferences; here they are three documented tables of the same file:
`timers(_id, length_ms, remaining_ms, state (1 running, 2 paused), start_time (ms UTC), label)`,
`stopwatch(_id = 1, state (0 reset, 1 running, 2 paused), start_time, accumulated_ms, laps)` and
`cities(_id, city_id)` (the ids of `CITIES` shown on the Clock tab).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.system.databases import Db

DB_NAME = "alarms.db"
MON, TUE, WED, THU, FRI, SAT, SUN = 1, 2, 4, 8, 16, 32, 64
WEEKDAYS, WEEKEND, EVERY_DAY = 31, 96, 127

SCHEMA = """
CREATE TABLE alarm_templates (
    _id INTEGER PRIMARY KEY,
    hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    enabled INTEGER NOT NULL,
    daysofweek INTEGER NOT NULL,
    vibrate INTEGER NOT NULL,
    label TEXT NOT NULL,
    ringtone TEXT,
    delete_after_use INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE alarm_instances (
    _id INTEGER PRIMARY KEY,
    year INTEGER NOT NULL,
    month INTEGER NOT NULL,
    day INTEGER NOT NULL,
    hour INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    vibrate INTEGER NOT NULL,
    label TEXT NOT NULL,
    ringtone TEXT,
    alarm_state INTEGER NOT NULL,
    alarm_id INTEGER REFERENCES alarm_templates(_id) ON UPDATE CASCADE ON DELETE CASCADE
);
CREATE TABLE timers (
    _id INTEGER PRIMARY KEY,
    length_ms INTEGER NOT NULL,
    remaining_ms INTEGER NOT NULL,
    state INTEGER NOT NULL,
    start_time INTEGER NOT NULL,
    label TEXT NOT NULL DEFAULT ''
);
CREATE TABLE stopwatch (
    _id INTEGER PRIMARY KEY,
    state INTEGER NOT NULL,
    start_time INTEGER NOT NULL,
    accumulated_ms INTEGER NOT NULL,
    laps INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE cities (
    _id INTEGER PRIMARY KEY,
    city_id TEXT NOT NULL UNIQUE
);
"""

RINGTONE = "content://settings/system/alarm_alert"
# (hour, minutes, enabled, daysofweek, label): near-duplicates on purpose (6:30 and 6:45, two labels).
SEED_ALARMS = (
    (6, 30, 1, WEEKDAYS, "Wake up"),
    (6, 45, 0, WEEKDAYS, ""),
    (7, 15, 0, WEEKEND, "Gym"),
    (8, 0, 1, MON | WED | FRI, "起床"),
    (12, 30, 0, EVERY_DAY, "Lunch"),
    (17, 30, 1, TUE | THU, "接孩子"),
    (21, 0, 0, 0, "Call Mom"),
    (22, 30, 1, EVERY_DAY, "吃药"),
)

# id -> (English name, Chinese name, UTC offset in minutes; standard time, no DST on this phone)
CITIES: dict[str, tuple[str, str, int]] = {
    "amsterdam": ("Amsterdam", "阿姆斯特丹", 60),
    "bangkok": ("Bangkok", "曼谷", 420),
    "beijing": ("Beijing", "北京", 480),
    "berlin": ("Berlin", "柏林", 60),
    "cairo": ("Cairo", "开罗", 120),
    "chicago": ("Chicago", "芝加哥", -360),
    "dubai": ("Dubai", "迪拜", 240),
    "hong_kong": ("Hong Kong", "香港", 480),
    "istanbul": ("Istanbul", "伊斯坦布尔", 180),
    "london": ("London", "伦敦", 0),
    "los_angeles": ("Los Angeles", "洛杉矶", -480),
    "madrid": ("Madrid", "马德里", 60),
    "mexico_city": ("Mexico City", "墨西哥城", -360),
    "moscow": ("Moscow", "莫斯科", 180),
    "mumbai": ("Mumbai", "孟买", 330),
    "new_york": ("New York", "纽约", -300),
    "paris": ("Paris", "巴黎", 60),
    "rome": ("Rome", "罗马", 60),
    "san_francisco": ("San Francisco", "旧金山", -480),
    "sao_paulo": ("São Paulo", "圣保罗", -180),
    "seoul": ("Seoul", "首尔", 540),
    "shanghai": ("Shanghai", "上海", 480),
    "singapore": ("Singapore", "新加坡", 480),
    "sydney": ("Sydney", "悉尼", 600),
    "taipei": ("Taipei", "台北", 480),
    "tokyo": ("Tokyo", "东京", 540),
    "toronto": ("Toronto", "多伦多", -300),
    "vancouver": ("Vancouver", "温哥华", -480),
}
SEED_CITIES = ("london", "new_york", "tokyo")


def seed_alarm_rows() -> list[dict[str, int | str]]:
    """The seeded alarm_templates rows (ClockContract's columns; ids left to SQLite): the one source of
    this store's seed and of a real device's DeskClock database (spa_bench.device.seeding)."""
    return [
        {"hour": hour, "minutes": minutes, "enabled": enabled, "daysofweek": days, "vibrate": 1,
         "label": label, "ringtone": RINGTONE, "delete_after_use": 0}
        for hour, minutes, enabled, days, label in SEED_ALARMS
    ]


def seed(conn: sqlite3.Connection) -> None:
    for row in seed_alarm_rows():
        conn.execute(f"INSERT INTO alarm_templates ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                     list(row.values()))
    for city in SEED_CITIES:
        conn.execute("INSERT INTO cities (city_id) VALUES (?)", (city,))
    conn.execute("INSERT INTO stopwatch (_id, state, start_time, accumulated_ms) VALUES (1, 0, 0, 0)")


@dataclass(frozen=True)
class Alarm:
    id: int
    hour: int
    minutes: int
    enabled: bool
    days: int
    vibrate: bool
    label: str


@dataclass(frozen=True)
class Timer:
    id: int
    length_ms: int
    remaining_ms: int
    state: int
    start_time: int
    label: str


class ClockStore:
    def __init__(self, ctx: AppContext) -> None:
        self.db = Db(lambda: ctx.device_protected_dir() / "databases" / DB_NAME, SCHEMA, seed)

    def alarms(self) -> list[Alarm]:
        rows = self.db.rows(
            "SELECT _id, hour, minutes, enabled, daysofweek, vibrate, label "
            "FROM alarm_templates ORDER BY hour, minutes, _id"
        )
        return [
            Alarm(int(r[0]), int(r[1]), int(r[2]), bool(r[3]), int(r[4]), bool(r[5]), r[6] or "")
            for r in rows
        ]

    def add_alarm(self, hour: int, minutes: int) -> int:
        return self.db.run(
            "INSERT INTO alarm_templates (hour, minutes, enabled, daysofweek, vibrate, label, ringtone, "
            "delete_after_use) VALUES (?, ?, 1, 0, 1, '', ?, 0)",
            hour,
            minutes,
            RINGTONE,
        )

    def update_alarm(self, alarm_id: int, **values: int | str) -> None:
        allowed = {"hour", "minutes", "enabled", "daysofweek", "vibrate", "label"}
        sets = ", ".join(f"{k} = ?" for k in values if k in allowed)
        self.db.run(f"UPDATE alarm_templates SET {sets} WHERE _id = ?", *values.values(), alarm_id)

    def delete_alarm(self, alarm_id: int) -> None:
        self.db.run("DELETE FROM alarm_templates WHERE _id = ?", alarm_id)

    def cities(self) -> list[str]:
        return [str(r[0]) for r in self.db.rows("SELECT city_id FROM cities ORDER BY _id")]

    def toggle_city(self, city_id: str) -> None:
        if city_id in self.cities():
            self.db.run("DELETE FROM cities WHERE city_id = ?", city_id)
        else:
            self.db.run("INSERT INTO cities (city_id) VALUES (?)", city_id)

    def timers(self) -> list[Timer]:
        rows = self.db.rows(
            "SELECT _id, length_ms, remaining_ms, state, start_time, label FROM timers ORDER BY _id"
        )
        return [Timer(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), r[5] or "") for r in rows]

    def stopwatch(self) -> tuple[int, int, int, int]:
        """(state, start_time, accumulated_ms, laps)."""
        row = self.db.one("SELECT state, start_time, accumulated_ms, laps FROM stopwatch WHERE _id = 1")
        if row is None:
            self.db.run("INSERT INTO stopwatch (_id, state, start_time, accumulated_ms) VALUES (1, 0, 0, 0)")
            return 0, 0, 0, 0
        return int(row[0]), int(row[1]), int(row[2]), int(row[3])
