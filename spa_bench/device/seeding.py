"""Put the virtual phone's seed data on any device over ADB, so a stock emulator holds what the portable
suite's checks expect (docker/emulator/provision.sh runs this before saving each golden snapshot).

The rows come from the virtual phone's own seed functions (contacts, SMS, calendar, call log, DeskClock
alarms, shared storage): one source of truth. They are written with the commands a stock rooted
Android 14 image has, the way AOSP's providers take them:

- `content insert --uri URI --bind COLUMN:TYPE:VALUE ...` (frameworks/base cmds/content, Content.java:
  "<COLUMN_NAME>:<TYPE>:<COLUMN_VALUE> ... b - boolean, s - string, i - integer, l - long, f - float,
  d - double, n - null"). It prints nothing on success and, when the provider throws, prints "Error while
  accessing provider:..." with exit code 0, so any output of an insert or delete is taken as its failure.
  It does not print the new row's URI either: a raw contact's id is read back with `content query`.
- contacts: a raw contact (no account: a phone-local contact), then its StructuredName, Phone and Email
  data rows; the provider builds the aggregate contact and its display_name from the name row.
- SMS into content://sms (the provider files each message in its correspondent's thread), call-log rows
  into content://call_log/calls, one LOCAL calendar inserted as its sync adapter
  (`?caller_is_syncadapter=true&account_name=...&account_type=LOCAL`, as CalendarContract requires for
  creating calendars), then its events with calendar_id and eventTimezone.
- DeskClock's alarms with `sqlite3` on its alarms.db as root (ClockProvider is not exported), with
  DeskClock stopped; the two alarms DeskClock creates on first start are deleted first.
- /sdcard files with `adb push` (the sync protocol) of the same bytes, then `touch -d @SECONDS` for the
  seed's modification times.

Before writing, each source is cleared (content delete of every raw contact, SMS and call and of the local
calendar, DELETE FROM on DeskClock's tables, rm -rf of the seeded /sdcard folders), so seeding twice gives
the same device; it is meant for emulators, whose data it replaces. Any failure raises DeviceCommandFailed
naming the serial, the command and what it printed. Dates of SMS and events are relative to the device's
clock when seeding runs, as on the virtual phone they are relative to its first boot.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from spa_bench.device.content import ContentQueryFailed, content_query_command, parse_content_rows
from spa_bench.device.device import Device
from spa_bench.device.packages import AOSP_DESKCLOCK, alarms_db, resolve_package
from spa_bench.device.transport import AdbTransport
from spa_bench.errors import DeviceCommandFailed, DeviceError

__all__ = ["DESKCLOCK_PACKAGE", "SeedPlan", "SeedReport", "bind", "content_delete_command",
           "content_insert_command", "seed_device", "seed_plan", "sql_literal", "sqlite_command",
           "sync_pusher"]

Value = str | int | float | bool | None
Row = Mapping[str, Value]
Pusher = Callable[[str, bytes], None]

DESKCLOCK_PACKAGE = AOSP_DESKCLOCK
CONTACTS = "content://com.android.contacts/raw_contacts"
# Deleting as the sync adapter removes the rows; a plain delete only marks raw contacts deleted = 1.
CONTACTS_DELETE = CONTACTS + "?caller_is_syncadapter=true"
CONTACT_DATA = "content://com.android.contacts/data"
SMS = "content://sms"
CALL_LOG = "content://call_log/calls"
CALENDARS = "content://com.android.calendar/calendars"
EVENTS = "content://com.android.calendar/events"
LANGUAGES = ("en", "zh")
_PROVIDER_ERRORS = ("Error while accessing provider", "[ERROR]", "Exception")


# -- the commands ------------------------------------------------------------------------------------
def bind(column: str, value: Value) -> str:
    """One `--bind` argument, `COLUMN:TYPE:VALUE`. Content.java splits at the first two colons only, so
    the value may hold colons; booleans are b, whole numbers i (Content parses i and l alike, as a long),
    other numbers d, None n (null) and text s."""
    if not column or ":" in column:
        raise ValueError(f"invalid column name {column!r}")
    if value is None:
        return f"{column}:n:"
    if isinstance(value, bool):
        return f"{column}:b:{'true' if value else 'false'}"
    if isinstance(value, int):
        return f"{column}:{'i' if -(2**31) <= value < 2**31 else 'l'}:{value}"
    if isinstance(value, float):
        return f"{column}:d:{value!r}"
    return f"{column}:s:{value}"


def content_insert_command(uri: str, values: Row) -> str:
    """`content insert` for one row, every argument quoted for the device's shell (mksh: POSIX single
    quotes, so Chinese text, spaces, quotes and `$` reach Content.java as they are)."""
    if not values:
        raise ValueError(f"no values to insert into {uri}")
    binds = " ".join(f"--bind {shlex.quote(bind(column, value))}" for column, value in values.items())
    return f"content insert --uri {shlex.quote(uri)} {binds}"


def content_delete_command(uri: str, where: str | None = None) -> str:
    return f"content delete --uri {shlex.quote(uri)}" + (f" --where {shlex.quote(where)}" if where else "")


def sql_literal(value: Value) -> str:
    """An SQLite literal: NULL, a number, or a string in single quotes with quotes doubled."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return repr(value)
    return "'" + value.replace("'", "''") + "'"


def sql_insert(table: str, row: Row) -> str:
    return (f"INSERT INTO {table} ({', '.join(row)}) "
            f"VALUES ({', '.join(sql_literal(v) for v in row.values())});")


def sqlite_command(db: str, sql: str) -> str:
    return f"sqlite3 {shlex.quote(db)} {shlex.quote(sql)}"


# -- what to write ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeedContact:
    starred: int
    data: tuple[Mapping[str, str], ...]  # name, phone, email rows without raw_contact_id


@dataclass(frozen=True)
class SeedPlan:
    """Every row the virtual phone seeds into the stock sources, computed for one moment."""

    contacts: tuple[SeedContact, ...]
    sms: tuple[Row, ...]
    calendar: Row
    events: tuple[Row, ...]
    calls: tuple[Row, ...]
    alarms: tuple[Row, ...]
    files: tuple[tuple[str, bytes, float], ...]  # device path, bytes, mtime (s)


def seed_plan(now: datetime) -> SeedPlan:
    """The seed for a device whose clock reads `now` (naive UTC), from the virtual phone's seed modules."""
    # The phone's OS first: importing an app's store before it runs into the OS's import of the stores.
    import spa_bench.phone.system  # noqa: F401
    from spa_bench.phone.apps.calendar.store import LOCAL_CALENDAR, seed_events
    from spa_bench.phone.apps.clock.store import seed_alarm_rows
    from spa_bench.phone.apps.contacts.store import SEED as CONTACT_SEED
    from spa_bench.phone.apps.contacts.store import contact_data_rows
    from spa_bench.phone.apps.dialer.seed import seed_call_rows
    from spa_bench.phone.apps.gallery import shared_storage_seed
    from spa_bench.phone.apps.messages.store import seed_messages
    from spa_bench.phone.system.clock import epoch_ms

    contacts = tuple(SeedContact(starred, tuple(contact_data_rows(given, family, phone, email)))
                     for given, family, phone, email, starred in CONTACT_SEED)
    return SeedPlan(
        contacts=contacts,
        sms=tuple(m.values() for m in seed_messages(epoch_ms(now))),
        calendar=dict(LOCAL_CALENDAR),
        events=tuple(e.values() for e in seed_events(now.date())),
        calls=tuple(seed_call_rows()),
        alarms=tuple(seed_alarm_rows()),
        files=tuple(shared_storage_seed()),
    )


@dataclass
class SeedReport:
    """How many rows of each source were written."""

    serial: str
    counts: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        return ", ".join(f"{n} {what}" for what, n in self.counts.items())


# -- writing it ---------------------------------------------------------------------------------------
class _Writer:
    def __init__(self, device: Device, push: Pusher) -> None:
        self.device = device
        self.push = push

    def fail(self, what: str, command: str, output: str) -> DeviceCommandFailed:
        return DeviceCommandFailed(f"seeding failed at {what}: `{command[:200]}` printed "
                                   f"{output.strip()[:400]!r}", self.device.serial)

    def run(self, what: str, command: str) -> str:
        result = self.device.run(command, timeout=60)
        if result.exit_code != 0:
            raise self.fail(what, command, f"exit {result.exit_code}: {result.output}")
        return result.output

    def silent(self, what: str, command: str) -> None:
        """A content insert/delete: success prints nothing (Content.java), anything printed is an error."""
        output = self.run(what, command)
        if output.strip():
            raise self.fail(what, command, output)

    def query_ids(self, what: str, uri: str, where: str | None = None) -> list[int]:
        output = self.run(what, content_query_command(uri, ["_id"], where, "_id ASC"))
        if any(marker in output for marker in _PROVIDER_ERRORS):
            raise self.fail(what, uri, output)
        try:
            rows = parse_content_rows(output)
        except ContentQueryFailed:
            raise self.fail(what, uri, output) from None
        return [int(row["_id"]) for row in rows if "_id" in row]


def _device_now(writer: _Writer) -> datetime:
    out = writer.run("reading the device clock", "date +%s").strip()
    if not out.isdigit():
        raise writer.fail("reading the device clock", "date +%s", out)
    return datetime.fromtimestamp(int(out), UTC).replace(tzinfo=None)


def _check_root(writer: _Writer) -> None:
    writer.device.become_root()
    uid = writer.run("checking root", "id -u").strip()
    if uid != "0":
        raise DeviceCommandFailed("seeding needs adb root (DeskClock's database and the providers' "
                                  f"deletes): `id -u` says {uid!r}; use a userdebug/google_apis image, not "
                                  "a retail phone or a google_play image", writer.device.serial)


def _check_locale(writer: _Writer, language: str) -> None:
    locale = writer.run("reading the locale", "getprop persist.sys.locale").strip()
    if locale and not locale.lower().startswith(language):
        raise DeviceCommandFailed(f"device locale is {locale!r}, not a {language!r} locale: set it "
                                  "(setprop persist.sys.locale) before seeding the snapshot of that "
                                  "language", writer.device.serial)


def _seed_contacts(writer: _Writer, plan: SeedPlan) -> int:
    writer.silent("clearing contacts", content_delete_command(CONTACTS_DELETE))
    for contact in plan.contacts:
        writer.silent("inserting a raw contact", content_insert_command(
            CONTACTS, {"account_type": None, "account_name": None, "starred": contact.starred}))
    ids = writer.query_ids("reading the new raw contacts' ids", CONTACTS)
    if len(ids) != len(plan.contacts):
        raise DeviceCommandFailed(f"expected {len(plan.contacts)} raw contacts after inserting them, found "
                                  f"{len(ids)}", writer.device.serial)
    for raw_id, contact in zip(ids, plan.contacts, strict=True):
        for row in contact.data:
            writer.silent("inserting contact data",
                          content_insert_command(CONTACT_DATA, {"raw_contact_id": raw_id, **row}))
    return len(plan.contacts)


def _seed_rows(writer: _Writer, what: str, uri: str, rows: Sequence[Row]) -> int:
    writer.silent(f"clearing {what}", content_delete_command(uri))
    for row in rows:
        writer.silent(f"inserting {what}", content_insert_command(uri, row))
    return len(rows)


def _seed_calendar(writer: _Writer, plan: SeedPlan) -> int:
    """The local calendar, as its sync adapter (CalendarContract: only sync adapters create calendars, and
    name their account in the URI), then its events. Clearing deletes that account's calendars, which
    deletes their events (CalendarDatabaseHelper's calendar_cleanup trigger); other accounts' are kept."""
    account = f"account_name={plan.calendar['account_name']}&account_type={plan.calendar['account_type']}"
    as_adapter = f"{CALENDARS}?caller_is_syncadapter=true&{account}"
    mine = (f"account_name = {sql_literal(plan.calendar['account_name'])} AND "
            f"account_type = {sql_literal(plan.calendar['account_type'])}")
    writer.silent("clearing the local calendar", content_delete_command(as_adapter, mine))
    writer.silent("inserting the local calendar", content_insert_command(as_adapter, plan.calendar))
    ids = writer.query_ids("reading the calendar's id", CALENDARS, mine)
    if len(ids) != 1:
        raise DeviceCommandFailed(f"expected 1 local calendar after inserting it, found {len(ids)}",
                                  writer.device.serial)
    for event in plan.events:
        writer.silent("inserting an event", content_insert_command(EVENTS, {"calendar_id": ids[0], **event}))
    return len(plan.events)


def _seed_alarms(writer: _Writer, plan: SeedPlan, package: str) -> int:
    db = alarms_db(package)
    writer.run(f"finding {package}", f"pm path {shlex.quote(package)}")
    probe = writer.device.run(f"ls {shlex.quote(db)}")
    if probe.exit_code != 0:
        # The database is made by DeskClock's provider the first time the app starts.
        writer.run(f"starting {package} once", f"monkey -p {shlex.quote(package)} 1")
        for _ in range(20):
            if writer.device.run(f"ls {shlex.quote(db)}").exit_code == 0:
                break
            writer.run("waiting for DeskClock", "sleep 1")
        else:
            raise DeviceCommandFailed(f"{db} did not appear after starting {package}", writer.device.serial)
    writer.run(f"stopping {package}", f"am force-stop {shlex.quote(package)}")
    sql = "BEGIN; DELETE FROM alarm_instances; DELETE FROM alarm_templates; " + " ".join(
        sql_insert("alarm_templates", row) for row in plan.alarms) + " COMMIT;"
    output = writer.run("writing DeskClock's alarms", sqlite_command(db, sql))
    if output.strip():
        raise writer.fail("writing DeskClock's alarms", "sqlite3 " + db, output)
    # A journal sqlite3 made as root must carry the app's SELinux label, or DeskClock cannot open it.
    writer.run("restoring the database's labels", f"restorecon -R {shlex.quote(posixpath.dirname(db))}")
    return len(plan.alarms)


def _seed_files(writer: _Writer, plan: SeedPlan) -> int:
    tops = sorted({"/".join(path.split("/")[:3]) for path, _, _ in plan.files})  # /sdcard/Download ...
    writer.run("clearing the seeded folders", "rm -rf " + " ".join(shlex.quote(t) for t in tops))
    folders: dict[str, float] = {}
    for path, data, mtime in plan.files:
        writer.push(path, data)
        writer.run("setting a file's time", f"touch -d @{int(mtime)} {shlex.quote(path)}")
        parent = posixpath.dirname(path)
        while parent not in ("/sdcard", "/"):
            folders[parent] = max(folders.get(parent, 0.0), mtime)
            parent = posixpath.dirname(parent)
    for folder, mtime in sorted(folders.items(), key=lambda item: -item[0].count("/")):
        writer.run("setting a folder's time", f"touch -d @{int(mtime)} {shlex.quote(folder)}")
    return len(plan.files)


def seed_device(device: Device, push: Pusher, language: str,
                deskclock_package: str | None = None) -> SeedReport:
    """Clear the stock sources of `device` and write the virtual phone's seed into them. `push(path,
    data)` copies a file onto the device (adb sync); `language` (en/zh) must match the device's locale,
    so that a snapshot named for one language is not seeded on the other's locale (the rows themselves
    are the same in both languages, as on the virtual phone). `deskclock_package`: the clock app whose
    alarms.db gets the alarms; by default AOSP's DeskClock or the build installed in its place (Google's
    Clock on a google_apis image, spa_bench.device.packages), which the checks read through the same map."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    writer = _Writer(device, push)
    _check_root(writer)
    _check_locale(writer, language)
    if deskclock_package is None:
        deskclock_package = resolve_package(DESKCLOCK_PACKAGE, device.packages())
        if deskclock_package is None:
            raise DeviceCommandFailed(f"no clock app: neither {DESKCLOCK_PACKAGE} nor a known build of it is "
                                      "installed (pass --deskclock-package)", device.serial)
    plan = seed_plan(_device_now(writer))
    report = SeedReport(device.serial)
    report.counts["contacts"] = _seed_contacts(writer, plan)
    report.counts["messages"] = _seed_rows(writer, "messages", SMS, plan.sms)
    report.counts["calls"] = _seed_rows(writer, "calls", CALL_LOG, plan.calls)
    report.counts["events"] = _seed_calendar(writer, plan)
    report.counts["alarms"] = _seed_alarms(writer, plan, deskclock_package)
    report.counts["files"] = _seed_files(writer, plan)
    return report


def sync_pusher(device: Device) -> Pusher:
    """`adb push` of bytes through the adb server that `device`'s transport talks to (adbutils' sync)."""
    if not isinstance(device.transport, AdbTransport):
        raise TypeError(f"{device.serial}: pushing files needs an adb server transport")
    client = device.transport.client

    def push(path: str, data: bytes) -> None:
        try:
            client.device(device.serial).sync.push(data, path, mode=0o644, check=True)
        except Exception as exc:  # adbutils raises its own AdbError family and OSError
            raise DeviceError(f"adb push to {path} failed: {exc}", device.serial) from exc

    return push
