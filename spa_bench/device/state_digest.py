"""A digest of what an infeasible task must leave untouched: every app's data, the settings, the shared files.

"Infeasible" passes only when the agent said so and changed nothing (spa_bench.evaluation.untouched);
an agent that acts through the GUI and then declares the task infeasible must fail. The episode reads
the state twice - after setup and before the final capture - and keeps both digests in its log, so
that the decision is made again from the log alone, with no device.

Every package's data is read, not only the task's apps': an agent that sends an SMS from Messages or
adds an alarm in Clock and then declares a social-app task infeasible changed the phone as much as one
that acted in the task's own app. What is read (`read_state`), in three adb round-trips whatever the
number of apps:
1. the files under every package's data folders (all of /data/data and /data/user_de/0: the apps, their
   providers' databases, the system's) and under /sdcard, and `settings list system|secure|global`;
2. each database's tables and columns (sqlite3, `pragma_table_info`), the size and time of every other
   file, the text of shared preferences;
3. every table's rows, one JSON array per row (blobs as hex).
A part is one table, one file or one settings namespace. Its rows are sorted and hashed (sha256); the
digest keeps per part the hash and the number of rows, and `describe` turns two raw reads into lines a
reader understands ("com.spa.social/databases/social.db#likes: 1 row added (...)").
Files an agent program writes at the top of /sdcard (its screenshots and UI dumps, as the tamper audit
allows: spa_bench.evaluation.tamper) are not app state and are not read. Volatile parts are declared in
spa_bench.device.volatile.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from spa_bench.device.volatile import VOLATILE, volatile_columns, whole_part_volatile

SETTINGS_NAMESPACES = ("system", "secure", "global")
DATA_ROOTS = ("/data/data", "/data/user_de/0")  # every package's folder under them
SDCARD = "/sdcard"
_MARK = "@@spa-digest "  # starts the marker lines between the outputs of one round-trip's commands
_TEXT_FILES = (".xml", ".json", ".txt", ".properties")
_DB_SUFFIXES = (".db", ".sqlite", ".sqlite3")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DigestPart(_Model):
    """One table, file or settings namespace."""

    sha256: str = Field(description="of its rows, sorted (volatile columns left out)")
    rows: int = Field(ge=0, description="rows of a table, keys of a settings namespace, 1 for a file")
    volatile: bool = Field(False, description="declared volatile: recorded, never compared")


class StateDigest(_Model):
    """The phone's apps, settings and shared files at one moment (spa_bench.device.state_digest)."""

    packages: list[str] = Field(description="the packages whose data was read: every package of the phone "
                                "with data that is not all volatile (a task's package under the task's name)")
    parts: dict[str, DigestPart] = Field(default_factory=dict, description="part name -> digest")
    volatile_sha256: str = Field(description="of the volatile declarations applied "
                                             "(spa_bench.device.volatile)")
    changes: list[str] = Field(default_factory=list, description="at the end: what differs from the start, "
                                                                 "row by row (volatile parts left out)")
    seconds: float = Field(0.0, description="time the reads took")
    round_trips: int = Field(0, description="adb shell commands sent")


class Reader(Protocol):
    """A device's shell (spa_bench.evaluation.capture.DeviceReader has this shape)."""

    def shell(self, command: str) -> str: ...


@dataclass
class RawPart:
    """A part's rows as read: key -> row text (a table's key is its primary key where it has one)."""

    columns: list[str] = field(default_factory=list)
    rows: dict[str, str] = field(default_factory=dict)
    keyed: bool = True  # False: a table without a primary key, whose rows are their own keys


RawState = dict[str, RawPart]


def volatile_sha256() -> str:
    text = json.dumps([[v.part, v.column, v.why] for v in VOLATILE], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- reading ---------------------------------------------------------------------------------------

def _sections(output: str) -> list[tuple[str, str]]:
    """(marker argument, text after it) for each marker line in a round-trip's output."""
    out: list[tuple[str, str]] = []
    for chunk in ("\n" + output).split("\n" + _MARK)[1:]:
        head, _, body = chunk.partition("\n")
        out.append((head, body))
    return out


def _echo(label: str) -> str:
    return f"echo; echo {shlex.quote(_MARK + label)}"


def _part_name(path: str, owners: dict[str, str]) -> str | None:
    """`PKG/<path in its folder>` (`PKG(de)/...` in device-protected storage), `sdcard/<path>`; None for
    what is not app state (an agent's captures at the top of /sdcard). `owners`: a package's name on the
    device -> the task's name for it, where they differ."""
    for root, suffix in ((DATA_ROOTS[0], ""), (DATA_ROOTS[1], "(de)")):
        if path.startswith(root + "/"):
            package, sep, rest = path[len(root) + 1:].partition("/")
            return f"{owners.get(package, package)}{suffix}/{rest}" if sep else None
    if path.startswith(SDCARD + "/"):
        rest = path[len(SDCARD) + 1:]
        return f"sdcard/{rest}" if "/" in rest else None
    return None


def read_state(device: Reader, device_names: Mapping[str, str] | None = None) -> RawState:
    """Read every package's data (all of /data/data and /data/user_de/0: the apps, their providers, the
    system's), the settings and /sdcard. `device_names` maps a task's package to the name it has on this
    device, where it differs: its parts are named by the task's name."""
    owners = {device: task for task, device in (device_names or {}).items() if device != task}
    state: RawState = {}
    first = [_echo("files"), "find " + " ".join((*DATA_ROOTS, SDCARD)) + " -type f 2>/dev/null"]
    for namespace in SETTINGS_NAMESPACES:
        first += [_echo(f"settings {namespace}"), f"settings list {namespace}"]
    # a call in progress leaves no call-log row until it ends: its state is part of the phone's state
    first += [_echo("telephony"), "dumpsys telephony.registry 2>/dev/null"]
    files: dict[str, str] = {}  # part name -> path on the device
    for label, body in _sections(device.shell("; ".join(first))):
        if label == "files":
            for path in sorted(line.strip() for line in body.splitlines() if line.strip().startswith("/")):
                part = _part_name(path, owners)
                if part is not None and whole_part_volatile(part) is None:
                    files[part] = path
        elif label == "telephony":
            calls = parse_call_state(body)
            if calls.rows:  # a device whose dumpsys says nothing of calls has no such part
                state["telephony:calls"] = calls
        else:
            state[f"settings:{label.split()[1]}"] = parse_settings(body)
    databases = {p: f for p, f in files.items() if f.endswith(_DB_SUFFIXES)}
    others = {p: f for p, f in files.items() if p not in databases}
    second = [f"{_echo('db ' + part)}; sqlite3 {shlex.quote(path)} {shlex.quote(SCHEMA_SQL)}"
              for part, path in databases.items()]
    if others:
        paths = " ".join(shlex.quote(f) for f in others.values())
        second.append(_echo("stat") + "; stat -c '%s %Y %n' " + paths)
    second += [f"{_echo('cat ' + part)}; cat {shlex.quote(path)}" for part, path in others.items()
               if path.endswith(_TEXT_FILES)]
    schemas: dict[str, dict[str, list[tuple[str, bool]]]] = {}
    sizes: dict[str, str] = {}
    for label, body in _sections(device.shell("; ".join(second))) if second else []:
        kind, _, part = label.partition(" ")
        if kind == "db":
            schemas[part] = parse_schema(body)
        elif kind == "stat":
            sizes.update(parse_stat(body))
        elif kind == "cat":
            state[part] = RawPart(["text"], {"text": body.rstrip("\n")})
    for part, path in others.items():
        if part not in state:
            state[part] = RawPart(["size mtime"], {"file": sizes.get(path, "missing")})
    third = [f"{_echo('db ' + part)}; sqlite3 {shlex.quote(databases[part])} {shlex.quote(rows_sql(tables))}"
             for part, tables in schemas.items() if tables]
    if third:
        state.update(parse_rows(device.shell("; ".join(third)), schemas))
    return state


SCHEMA_SQL = ("SELECT m.name, p.name, p.pk FROM sqlite_schema m, pragma_table_info(m.name) p "
              "WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' ORDER BY m.name, p.cid")
"""A database's tables and their columns, one `table|column|pk` line each."""


def parse_schema(output: str) -> dict[str, list[tuple[str, bool]]]:
    """table -> [(column, in the primary key)] from SCHEMA_SQL's output."""
    tables: dict[str, list[tuple[str, bool]]] = {}
    for line in output.splitlines():
        parts = line.split("|")
        if len(parts) == 3:
            tables.setdefault(parts[0], []).append((parts[1], parts[2] not in ("", "0")))
    return tables


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def rows_sql(tables: dict[str, list[tuple[str, bool]]]) -> str:
    """One statement pair per table: a marker row, then every row as a JSON array (blobs as hex)."""
    statements = []
    for table, columns in tables.items():
        values = ", ".join(f"CASE typeof({_ident(c)}) WHEN 'blob' THEN hex({_ident(c)}) ELSE {_ident(c)} END"
                           for c, _ in columns)
        label = (_MARK + "table " + table).replace("'", "''")
        statements.append(f"SELECT '{label}'; SELECT json_array({values}) FROM {_ident(table)};")
    return " ".join(statements)


def parse_rows(output: str, schemas: dict[str, dict[str, list[tuple[str, bool]]]]) -> RawState:
    """Parts `<database part>#<table>` from the output of `db PART` markers each followed by sqlite3 over
    rows_sql; a row's key is its primary key, else the row itself."""
    out: RawState = {}
    database = ""
    for label, body in _sections(output):
        kind, _, name = label.partition(" ")
        if kind == "db":
            database = name
            continue
        columns = schemas.get(database, {}).get(name)
        if kind != "table" or columns is None:
            continue
        keys = [i for i, (_, pk) in enumerate(columns) if pk]
        raw = RawPart([c for c, _ in columns], keyed=bool(keys))
        for line in body.splitlines():
            if not line.startswith("["):
                continue
            try:
                values = json.loads(line)
            except ValueError:
                values = [line]
            key = json.dumps([values[i] for i in keys], ensure_ascii=False) if keys and \
                len(values) == len(columns) else line
            while key in raw.rows:  # the same row twice in a table without a key
                key += "+"
            raw.rows[key] = line
        out[f"{database}#{name}"] = raw
    return out


def parse_settings(output: str) -> RawPart:
    """`settings list NAMESPACE`: one `key=value` line per setting."""
    raw = RawPart(["key", "value"])
    for line in output.splitlines():
        key, sep, value = line.partition("=")
        if sep:
            raw.rows[key] = value
    return raw


_CALL_STATES = ("mCallState", "mRingingCallState", "mForegroundCallState", "mBackgroundCallState")


def parse_call_state(output: str) -> RawPart:
    """`dumpsys telephony.registry`: the call states (idle, ringing, offhook; each call's precise state).
    The incoming number is left out: the state says whether a call is in progress."""
    raw = RawPart(["key", "value"])
    for line in output.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key in _CALL_STATES and key not in raw.rows:
            raw.rows[key] = value.strip()
    return raw


def parse_stat(output: str) -> dict[str, str]:
    """path -> 'size mtime' from `stat -c '%s %Y %n'`."""
    out = {}
    for line in output.splitlines():
        size, _, rest = line.partition(" ")
        mtime, _, path = rest.partition(" ")
        if size.isdigit() and path:
            out[path] = f"{size} {mtime}"
    return out


# -- digesting and describing ---------------------------------------------------------------------

def kept_rows(part: str, raw: RawPart) -> dict[str, str]:
    """The part's rows without its volatile columns (settings: without its volatile keys)."""
    dropped = volatile_columns(part)
    if not dropped:
        return raw.rows
    if part.startswith("settings:"):
        return {k: v for k, v in raw.rows.items() if not any(_glob(k, d.column) for d in dropped)}
    drop = {i for i, c in enumerate(raw.columns) if any(_glob(c, d.column) for d in dropped)}
    kept: dict[str, str] = {}
    for key, line in raw.rows.items():
        try:
            values = json.loads(line)
            line = json.dumps([v for i, v in enumerate(values) if i not in drop], ensure_ascii=False)
        except ValueError:
            pass
        if not raw.keyed:  # the row is its own key: without the volatile columns
            key = line
            while key in kept:
                key += "+"
        kept[key] = line
    return kept


def kept_columns(part: str, raw: RawPart) -> list[str]:
    dropped = volatile_columns(part)
    return [c for c in raw.columns if not any(_glob(c, d.column) for d in dropped)]


def _glob(name: str, pattern: str | None) -> bool:
    return pattern is not None and fnmatch.fnmatchcase(name, pattern)


def _package(part: str) -> str | None:
    if part.startswith(("settings:", "sdcard/", "telephony:")):
        return None
    return part.split("/", 1)[0].removesuffix("(de)")


def digest(state: RawState) -> StateDigest:
    parts = {}
    for name in sorted(state):
        rows = kept_rows(name, state[name])
        text = "\n".join(f"{k}\t{v}" for k, v in sorted(rows.items()))
        parts[name] = DigestPart(sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(), rows=len(rows),
                                 volatile=whole_part_volatile(name) is not None)
    packages = sorted({p for p in map(_package, state) if p is not None})
    return StateDigest(packages=packages, parts=parts, volatile_sha256=volatile_sha256())


def _clip(text: str, n: int = 160) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def describe(before: RawState, after: RawState, limit: int = 3) -> list[str]:
    """What differs between two reads, one line per part that is not volatile (rows quoted, clipped)."""
    lines = []
    for name in sorted(set(before) | set(after)):
        if whole_part_volatile(name) is not None:
            continue
        if name not in before or name not in after:
            held = len((after.get(name) or before[name]).rows)
            if held:  # an empty table that an app creates on first use is no change
                lines.append(f"{name}: {'appeared' if name in after else 'disappeared'} ({held} row(s))")
            continue
        old, new = kept_rows(name, before[name]), kept_rows(name, after[name])
        added = [k for k in new if k not in old]
        removed = [k for k in old if k not in new]
        changed = [k for k in new if k in old and new[k] != old[k]]
        if not (added or removed or changed):
            continue
        columns = kept_columns(name, after[name])
        bits = []
        for count, what, keys, rows in ((len(added), "added", added, new),
                                        (len(removed), "removed", removed, old),
                                        (len(changed), "changed", changed, new)):
            if count:
                shown = "; ".join(_row_change(k, old.get(k), rows[k], columns)
                                  if what == "changed" else _clip(rows[k]) for k in keys[:limit])
                bits.append(f"{count} row{'s' if count > 1 else ''} {what} ({shown}"
                            f"{'; ...' if count > limit else ''})")
        lines.append(f"{name}: " + ", ".join(bits))
    return lines


def _value(value: object) -> str:
    return _clip(json.dumps(value, ensure_ascii=False), 40)


def _row_change(key: str, old: str | None, new: str, columns: list[str]) -> str:
    """`key: column old -> new, ...` for a row of a table or a settings key."""
    try:
        a, b = json.loads(old or "null"), json.loads(new)
    except ValueError:
        a = b = None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) == len(columns):
        diffs = [f"{c}: {_value(x)} -> {_value(y)}" for c, x, y in zip(columns, a, b, strict=True) if x != y]
        return f"{_clip(key, 40)}: " + ", ".join(diffs)
    return f"{_clip(key, 40)}: {_clip(str(old), 60)} -> {_clip(new, 60)}"
