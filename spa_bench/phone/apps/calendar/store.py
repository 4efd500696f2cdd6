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

from spa_bench.phone.api import ProviderError
from spa_bench.phone.apps.base import AppContext
from spa_bench.phone.apps.contacts.pim import provider_db
from spa_bench.phone.system.clock import epoch_ms
from spa_bench.phone.system.databases import Db, SeedFn
from spa_bench.phone.system.providers import RoutedProvider, Value

PROVIDER_PACKAGE = "com.android.providers.calendar"
AUTHORITY = "com.android.calendar"

# The phone's one calendar, a local (unsynced) one: CalendarContract.ACCOUNT_TYPE_LOCAL, the owner's
# access level CAL_ACCESS_OWNER (700), shown and synced.
LOCAL_CALENDAR: dict[str, str | int] = {
    "account_name": "user@example.com", "account_type": "LOCAL", "name": "local",
    "calendar_displayName": "My calendar", "ownerAccount": "user@example.com",
    "calendar_color": -16743537, "calendar_access_level": 700, "visible": 1, "sync_events": 1,
}

SCHEMA = """
CREATE TABLE calendars (
    _id INTEGER PRIMARY KEY,
    account_name TEXT,
    account_type TEXT,
    name TEXT,
    calendar_displayName TEXT,
    ownerAccount TEXT,
    calendar_color INTEGER,
    calendar_access_level INTEGER,
    visible INTEGER NOT NULL DEFAULT 1,
    sync_events INTEGER NOT NULL DEFAULT 0
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
-- CalendarDatabaseHelper's trigger: a calendar's events go with it
CREATE TRIGGER calendar_cleanup DELETE ON calendars BEGIN DELETE FROM events WHERE calendar_id = old._id; END;
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


@dataclass(frozen=True)
class SeedEvent:
    """One seeded event with CalendarContract.Events' columns (its calendar_id is the calendar's)."""

    title: str
    dtstart: int  # ms UTC
    dtend: int
    eventLocation: str  # noqa: N815 (CalendarContract's column name)
    description: str
    allDay: int  # noqa: N815

    def values(self) -> dict[str, str | int]:
        return {"title": self.title, "dtstart": self.dtstart, "dtend": self.dtend,
                "eventLocation": self.eventLocation, "description": self.description, "allDay": self.allDay,
                "eventTimezone": "UTC"}


def seed_events(today: date) -> list[SeedEvent]:
    """The seeded events laid out around `today` (UTC): the one source of this store's seed and of a real
    device's (spa_bench.device.seeding)."""
    found = []
    for offset, start, minutes, title, location, description in SEED_EVENTS:
        day = datetime.combine(today + timedelta(days=offset), datetime.min.time())
        if start:
            h, m = (int(x) for x in start.split(":"))
            begin = day + timedelta(hours=h, minutes=m)
            end, all_day = begin + timedelta(minutes=minutes), 0
        else:
            begin, end, all_day = day, day + timedelta(days=1), 1
        found.append(SeedEvent(title, epoch_ms(begin), epoch_ms(end), location, description, all_day))
    return found


def make_seed(ctx: AppContext) -> SeedFn:
    def seed(conn: sqlite3.Connection) -> None:
        names = list(LOCAL_CALENDAR)
        conn.execute(f"INSERT INTO calendars ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})",
                     list(LOCAL_CALENDAR.values()))
        for event in seed_events(ctx.clock.now().date()):
            row = event.values()
            conn.execute(
                f"INSERT INTO events (calendar_id, {', '.join(row)}) "
                f"VALUES ((SELECT min(_id) FROM calendars), {', '.join('?' for _ in row)})",
                list(row.values()),
            )

    return seed


class CalendarProvider(RoutedProvider):
    """As CalendarProvider2 validates a new event: it names its calendar, start, time zone, and an end
    (dtend or a duration), rather than landing in a calendar nobody chose."""

    def insert(self, path: list[str], values: dict[str, Value]) -> str:
        if tuple(path) == ("events",):
            missing = [c for c in ("calendar_id", "dtstart", "eventTimezone") if values.get(c) is None]
            if values.get("dtend") is None and values.get("duration") is None:
                missing.append("dtend or duration")
            if missing:
                raise ProviderError(f"new events must include {', '.join(missing)}")
        return super().insert(path, values)


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
        return CalendarProvider(
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
                "INSERT INTO events (calendar_id, title, dtstart, dtend, eventLocation, description) "
                "VALUES (coalesce((SELECT min(_id) FROM calendars), 1), ?, ?, ?, ?, ?)",
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
