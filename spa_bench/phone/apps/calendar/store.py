"""The calendar database: `/data/data/com.android.providers.calendar/databases/calendar.db`.

`events` keeps CalendarContract's column names: _id, calendar_id, title, dtstart and dtend (ms since the
epoch, UTC: the phone's time zone), eventLocation, description, allDay, eventTimezone, deleted (the app
marks a deleted event with deleted = 1, as the provider does before a sync removes it). It is served as
content://com.android.calendar/events. The seed is laid out around the day the phone first boots, so
"today" and "tomorrow" always have events; checks compute dates with SQLite's date('now', ...).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.apps.contacts.pim import Db, RoutedProvider, SeedFn, provider_db
from spa_bench.phone.apps.messages.store import epoch_ms

PROVIDER_PACKAGE = "com.android.providers.calendar"
AUTHORITY = "com.android.calendar"

SCHEMA = """
CREATE TABLE calendars (
    _id INTEGER PRIMARY KEY,
    name TEXT,
    calendar_displayName TEXT,
    ownerAccount TEXT
);
CREATE TABLE events (
    _id INTEGER PRIMARY KEY AUTOINCREMENT,
    calendar_id INTEGER NOT NULL DEFAULT 1,
    title TEXT,
    dtstart INTEGER,
    dtend INTEGER,
    eventLocation TEXT,
    description TEXT,
    allDay INTEGER NOT NULL DEFAULT 0,
    eventTimezone TEXT DEFAULT 'UTC',
    deleted INTEGER NOT NULL DEFAULT 0
);
INSERT INTO calendars (_id, name, calendar_displayName, ownerAccount)
    VALUES (1, 'local', 'My calendar', 'user@example.com');
"""

# (day offset from the boot day, "HH:MM" or "" for all day, minutes, title, location, description)
SEED_EVENTS: tuple[tuple[int, str, int, str, str, str], ...] = (
    (-5, "15:00", 60, "Doctor appointment", "City Clinic", ""),
    (-2, "19:00", 120, "电影：流浪地球", "万达影城", ""),
    (-1, "10:00", 60, "Weekly planning", "Room 301", ""),
    (0, "09:00", 30, "Team standup", "Room 301", ""),
    (0, "12:30", 60, "Lunch with Alice", "Luigi's", ""),
    (0, "15:00", 60, "项目评审会", "3号会议室", "带上周报"),
    (1, "10:00", 60, "Dentist appointment", "Bright Smile Dental", "Cleaning"),
    (1, "19:00", 120, "读书会", "中关村图书大厦", ""),
    (2, "09:00", 30, "Team standup", "Room 301", ""),
    (2, "14:00", 90, "Design review", "Room 502", "New onboarding flow"),
    (3, "18:30", 90, "Yoga class", "Lotus Studio", ""),
    (4, "08:00", 60, "健身", "奥森公园", ""),
    (5, "11:00", 120, "Brunch with David", "Sunny Cafe", ""),
    (6, "14:00", 180, "张伟生日聚会", "海底捞（望京店）", "准备礼物"),
    (7, "09:00", 30, "Team standup", "Room 301", ""),
    (8, "16:00", 60, "Parent-teacher meeting", "Lincoln Elementary", ""),
    (9, "10:00", 60, "Car service", "AutoFix Garage", "Oil change"),
    (10, "20:00", 60, "和妈妈视频", "", ""),
    (12, "13:00", 60, "Interview with candidate", "Room 301", "Senior engineer"),
    (14, "", 0, "Anna Lin's wedding", "Grand Hyatt", ""),
    (16, "09:30", 60, "Dentist follow-up", "Bright Smile Dental", ""),
    (20, "18:00", 120, "公司年会", "国贸大酒店", ""),
)


def make_seed(ctx: AppContext) -> SeedFn:
    def seed(conn: sqlite3.Connection) -> None:
        today = ctx.clock.now().date()
        for offset, start, minutes, title, location, description in SEED_EVENTS:
            day = datetime.combine(today + timedelta(days=offset), datetime.min.time())
            if start:
                h, m = (int(x) for x in start.split(":"))
                begin = day + timedelta(hours=h, minutes=m)
                end, all_day = begin + timedelta(minutes=minutes), 0
            else:
                begin, end, all_day = day, day + timedelta(days=1), 1
            conn.execute(
                "INSERT INTO events (title, dtstart, dtend, eventLocation, description, allDay) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (title, epoch_ms(begin), epoch_ms(end), location, description, all_day),
            )

    return seed


@dataclass(frozen=True)
class Event:
    id: int
    title: str
    start: datetime
    end: datetime
    location: str
    description: str
    all_day: bool


def from_ms(ms: int) -> datetime:
    return datetime(1970, 1, 1) + timedelta(milliseconds=ms)


class CalendarStore:
    def __init__(self, ctx: AppContext) -> None:
        self.db = Db(lambda: provider_db(ctx, PROVIDER_PACKAGE, "calendar.db"), SCHEMA, make_seed(ctx))

    def provider(self) -> RoutedProvider:
        return RoutedProvider(
            AUTHORITY,
            self.db.path,
            {("events",): ("events", None), ("calendars",): ("calendars", None)},
            prepare=self.db.ensure,
        )

    def _events(self, where: str, *params: object) -> list[Event]:
        rows = self.db.rows(
            "SELECT _id, title, dtstart, dtend, eventLocation, description, allDay FROM events "
            f"WHERE deleted = 0 AND {where} ORDER BY allDay DESC, dtstart, _id",
            *params,
        )
        return [
            Event(
                int(r[0]),
                r[1] or "",
                from_ms(int(r[2] or 0)),
                from_ms(int(r[3] or 0)),
                r[4] or "",
                r[5] or "",
                bool(r[6]),
            )
            for r in rows
        ]

    def on_day(self, day: date) -> list[Event]:
        start = epoch_ms(datetime.combine(day, datetime.min.time()))
        return self._events("dtstart < ? AND dtend > ?", start + 86_400_000, start)

    def between(self, first: date, last: date) -> list[Event]:
        start = epoch_ms(datetime.combine(first, datetime.min.time()))
        end = epoch_ms(datetime.combine(last, datetime.min.time())) + 86_400_000
        return self._events("dtstart < ? AND dtend > ?", end, start)

    def get(self, event_id: int) -> Event | None:
        found = self._events("_id = ?", event_id)
        return found[0] if found else None

    def save(
        self,
        event_id: int | None,
        title: str,
        start: datetime,
        end: datetime,
        location: str,
        description: str,
    ) -> int:
        values = (title, epoch_ms(start), epoch_ms(end), location, description)
        if event_id is None:
            return self.db.run(
                "INSERT INTO events (title, dtstart, dtend, eventLocation, description) "
                "VALUES (?, ?, ?, ?, ?)",
                *values,
            )
        self.db.run(
            "UPDATE events SET title = ?, dtstart = ?, dtend = ?, eventLocation = ?, description = ? "
            "WHERE _id = ?",
            *values,
            event_id,
        )
        return event_id

    def delete(self, event_id: int) -> None:
        self.db.run("UPDATE events SET deleted = 1 WHERE _id = ?", event_id)
