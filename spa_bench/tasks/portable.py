"""What a `portable` task may read and run: only what a stock Android 14 emulator image has.

A task tagged `portable` is meant to run unchanged on the virtual phone and on a `google_apis` x86_64
emulator (docker/). `portability_problems` is the audit that keeps the tag honest: every check reads a
stock source, by the names AOSP gives it, and every setup command writes one.

- `settings get|put|delete system|secure|global NAME` (the settings provider) and `getprop NAME`;
- `content query` on the AOSP providers below, naming only their documented columns (in the projection
  and in the where clause): ContactsContract (`com.android.contacts`: contacts, raw_contacts, data,
  data/phones, data/emails; a phone row's number and an e-mail row's address are `data1`), Telephony.Sms
  (`sms`, `sms/inbox|sent|draft|outbox`), CalendarContract (`com.android.calendar`: events, calendars),
  CallLog.Calls (`call_log/calls`) and Settings (`settings/system|secure|global`);
- `sqlite3` only on AOSP DeskClock's database, `/data/user_de/0/com.android.deskclock/databases/alarms.db`
  (ClockProvider opens ClockDatabaseHelper's "alarms.db" in device-protected storage), tables
  `alarm_templates` and `alarm_instances` with ClockContract's columns (on a stock image Google's Clock,
  the same code under com.google.android.deskclock, keeps it in its own folder: the run maps the path,
  spa_bench.device.packages);
- `ls`, `cat`, `stat` of paths under /sdcard (optionally piped to `wc -l`), and the validators
  `file_exists`, `file_absent`, `file_contains` on /sdcard paths;
- answer and finish checks, which read nothing from the device.
"""

from __future__ import annotations

import re
import shlex

from spa_bench.device.packages import AOSP_DESKCLOCK, alarms_db
from spa_bench.tasks.checks import Check
from spa_bench.tasks.model import Task

PORTABLE_TAG = "portable"
DESKCLOCK_DB = alarms_db(AOSP_DESKCLOCK)

_CONTACT_DATA = frozenset({"_id", "raw_contact_id", "contact_id", "mimetype", "display_name", "starred",
                           "is_primary", "is_super_primary", *(f"data{i}" for i in range(1, 16))})
_SMS = frozenset({"_id", "thread_id", "address", "person", "date", "date_sent", "protocol", "read",
                  "status", "type", "subject", "body", "service_center", "locked", "error_code", "seen",
                  "creator"})
_SETTINGS = frozenset({"_id", "name", "value"})
# content URI -> the columns AOSP documents for it (ContactsContract, Telephony.Sms, CalendarContract,
# CallLog.Calls, Settings)
STOCK_URIS: dict[str, frozenset[str]] = {
    "content://com.android.contacts/contacts": frozenset({
        "_id", "display_name", "display_name_alt", "starred", "times_contacted", "last_time_contacted",
        "has_phone_number", "lookup", "photo_id", "in_visible_group", "custom_ringtone",
        "send_to_voicemail", "contact_last_updated_timestamp", "pinned"}),
    "content://com.android.contacts/raw_contacts": frozenset({
        "_id", "contact_id", "display_name", "starred", "deleted", "times_contacted", "account_name",
        "account_type", "sourceid", "version", "dirty"}),
    "content://com.android.contacts/data": _CONTACT_DATA,
    "content://com.android.contacts/data/phones": _CONTACT_DATA,
    "content://com.android.contacts/data/emails": _CONTACT_DATA,
    "content://sms": _SMS,
    **{f"content://sms/{box}": _SMS for box in ("inbox", "sent", "draft", "outbox")},
    "content://com.android.calendar/events": frozenset({
        "_id", "calendar_id", "title", "dtstart", "dtend", "eventLocation", "description", "allDay",
        "eventTimezone", "deleted", "rrule", "duration", "eventStatus", "organizer", "hasAlarm"}),
    "content://com.android.calendar/calendars": frozenset({
        "_id", "name", "calendar_displayName", "ownerAccount", "account_name", "account_type", "visible"}),
    "content://call_log/calls": frozenset({
        "_id", "number", "date", "duration", "type", "new", "name", "numbertype", "numberlabel", "is_read",
        "countryiso", "geocoded_location", "presentation"}),
    **{f"content://settings/{ns}": _SETTINGS for ns in ("system", "secure", "global")},
}
# ClockContract's columns of the two tables ClockDatabaseHelper creates
DESKCLOCK_TABLES: dict[str, frozenset[str]] = {
    "alarm_templates": frozenset({"_id", "hour", "minutes", "daysofweek", "enabled", "vibrate", "label",
                                  "ringtone", "delete_after_use"}),
    "alarm_instances": frozenset({"_id", "year", "month", "day", "hour", "minutes", "vibrate", "label",
                                  "ringtone", "alarm_state", "alarm_id"}),
}
FILE_VALIDATORS = frozenset({"file_exists", "file_absent", "file_contains"})

# words of SQL itself and the functions a check may call; any other identifier must be a column
_SQL_WORDS = frozenset({
    "select", "from", "where", "and", "or", "not", "like", "glob", "in", "is", "null", "between", "as",
    "distinct", "case", "when", "then", "else", "end", "order", "by", "asc", "desc", "limit", "count",
    "sum", "min", "max", "avg", "total", "abs", "round", "length", "lower", "upper", "substr", "instr",
    "trim", "replace", "coalesce", "ifnull", "strftime", "date", "time", "datetime", "julianday",
    "unixepoch", "collate", "nocase",
})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = re.compile(r"'(?:[^']|'')*'")
_SETTING = re.compile(r"settings (get|put|delete) (system|secure|global) [A-Za-z0-9_.]+( \S+)?")
_GETPROP = re.compile(r"getprop [A-Za-z0-9_.]+")
_READERS = frozenset({"ls", "cat", "stat"})
_OPTIONS_WITH_VALUE = frozenset({"-c", "--format"})


def _identifiers(sql: str) -> set[str]:
    """The bare identifiers of an SQL fragment: string literals and numbers left out."""
    return {w for w in _IDENTIFIER.findall(_QUOTED.sub("''", sql)) if w.lower() not in _SQL_WORDS}


def _on_sdcard(path: str) -> bool:
    return (path == "/sdcard" or path.startswith("/sdcard/")) and ".." not in path.split("/")


def _file_read_problem(command: str) -> str | None:
    """None when `command` is `ls|cat|stat [-flags] PATH... [| wc -l]` on /sdcard paths."""
    body = command.strip()
    if body.endswith("| wc -l"):
        body = body[: -len("| wc -l")].strip()
    if any(ch in body for ch in "|;&<>`$()"):
        return f"shell command {command!r}: only one ls/cat/stat, optionally piped to `wc -l`"
    try:
        words = shlex.split(body)
    except ValueError as exc:
        return f"shell command {command!r}: {exc}"
    if not words or words[0] not in _READERS:
        return (f"shell command {command!r}: only `settings get`, `getprop` and ls/cat/stat of /sdcard "
                "paths read a stock image")
    paths, args = [], iter(words[1:])
    for word in args:
        if word in _OPTIONS_WITH_VALUE:
            next(args, None)  # stat -c FORMAT
        elif not word.startswith("-"):
            paths.append(word)
    outside = [p for p in paths if not _on_sdcard(p)]
    if not paths or outside:
        return f"shell command {command!r}: reads {outside or 'no path'}, not a path under /sdcard"
    return None


def _shell_problem(command: str) -> str | None:
    text = command.strip()
    if (_SETTING.fullmatch(text) and text.split()[1] == "get") or _GETPROP.fullmatch(text):
        return None
    return _file_read_problem(command)


def _content_problem(uri: str, projection: list[str] | None, where: str | None) -> str | None:
    base = uri.split("?")[0].rstrip("/")
    columns = STOCK_URIS.get(base)
    if columns is None:
        base = re.sub(r"/\d+$", "", base)  # content://sms/12: one row of a stock table
        columns = STOCK_URIS.get(base)
    if columns is None:
        return f"content URI {uri!r} is not one of the stock providers' ({', '.join(sorted(STOCK_URIS))})"
    used = set(projection or []) | _identifiers(where or "")
    unknown = sorted(used - columns)
    if unknown:
        return (f"content URI {uri!r}: column(s) {unknown} are not the provider's "
                f"({', '.join(sorted(columns))})")
    return None


def _sqlite_problem(db: str, query: str) -> str | None:
    if db != DESKCLOCK_DB:
        return f"sqlite on {db!r}: the only stock database a portable check may read is {DESKCLOCK_DB}"
    tables = set(re.findall(r"\b(?:from|join)\s+([A-Za-z_]\w*)", query, flags=re.IGNORECASE))
    if not tables or tables - set(DESKCLOCK_TABLES):
        return (f"sqlite query {query!r}: reads tables {sorted(tables)}; DeskClock has "
                f"{sorted(DESKCLOCK_TABLES)}")
    columns = frozenset().union(*(DESKCLOCK_TABLES[t] for t in tables))
    unknown = sorted(_identifiers(query) - columns - tables)
    if unknown:
        return (f"sqlite query {query!r}: column(s) {unknown} are not DeskClock's "
                f"({', '.join(sorted(columns))})")
    return None


def check_problem(check: Check) -> str | None:
    """Why this check would not read the same thing on a stock emulator image, or None."""
    if check.type in ("answer", "finish"):
        return None
    if check.type == "shell":
        return _shell_problem(check.command)
    if check.type == "content_query":
        return _content_problem(check.uri, check.projection, check.where)
    if check.type == "sqlite":
        return _sqlite_problem(check.db, check.query)
    if check.type == "validator":
        path = check.args.get("path")
        if check.name not in FILE_VALIDATORS:
            return f"validator {check.name!r}: only {sorted(FILE_VALIDATORS)} are known to read stock state"
        if not isinstance(path, str) or not _on_sdcard(path):
            return f"validator {check.name!r}: path {path!r} is not under /sdcard"
        return None
    return f"check type {check.type!r} is not known to be portable"


def setup_problem(command: str) -> str | None:
    """Why this setup command would not run the same way on a stock image, or None: settings writes,
    content insert/update/delete on the stock providers, file commands on /sdcard and the locale property
    are stock."""
    text = command.strip()
    if _SETTING.fullmatch(text):
        return None
    words = text.split()
    if words[:2] == ["setprop", "persist.sys.locale"] and len(words) == 3:
        return None  # what the pool's base snapshots are made with on emulators (userdebug, adb root)
    if words[:1] == ["content"] and len(words) > 3 and words[1] in ("insert", "update", "delete"):
        uri = words[words.index("--uri") + 1] if "--uri" in words[:-1] else ""
        if uri.split("?")[0].rstrip("/") in STOCK_URIS:
            return None
        return f"setup command {command!r}: {uri!r} is not a stock provider"
    if words[:1] in (["mkdir"], ["rm"], ["touch"], ["cp"], ["mv"]) and all(
            _on_sdcard(w) for w in words[1:] if not w.startswith("-")):
        return None
    return f"setup command {command!r} is not known to run on a stock image"


def portability_problems(task: Task) -> list[str]:
    """Everything in `task` (an instance: parameters filled) that a stock emulator image lacks."""
    problems = [f"check {i}: {p}" for i, check in enumerate(task.checks)
                if (p := check_problem(check)) is not None]
    problems += [f"setup: {p}" for command in task.setup.shell if (p := setup_problem(command)) is not None]
    return problems
