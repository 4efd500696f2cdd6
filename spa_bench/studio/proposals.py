"""Checks proposed from what a recorded demonstration changed: the state before and after, as the untouched
digest reads it (spa_bench.device.state_digest.read_state: every app's tables row by row, the settings,
/sdcard's files).

Each change becomes a check the task format knows, for the author to keep, edit or drop:
- rows added to a table: `sqlite` - the new rows' values (`WHERE pk > the largest key before`, when the
  table has one integer key), and the table's row count, so that one extra row fails;
- rows changed: `sqlite` - the changed columns of that row, by its key;
- rows removed: `sqlite` - the count of that key is 0;
- a setting changed: `shell` - `settings get NAMESPACE KEY` gives the new value;
- a file added under /sdcard: `shell` - `ls` finds it.
Left out, on purpose: columns the digest declares volatile, and integer columns that hold a moment (an
epoch time in seconds or milliseconds: a check must not depend on when it runs); parts the digest keeps
for files it cannot read row by row (an app's preferences), and call state. The description of each check
says what it saw, so the author can tell a goal from a side effect.
"""

from __future__ import annotations

import json
from typing import Any

from spa_bench.device.state_digest import DATA_ROOTS, RawPart, RawState, kept_columns, kept_rows
from spa_bench.device.volatile import whole_part_volatile

EPOCH_SECONDS = 10**9  # 2001-09-09: an integer above it in a table is a moment, not a value


def database_path(part: str) -> tuple[str, str] | None:
    """(device path of the database, table) of a table part `PKG[(de)]/databases/x.db#table`."""
    location, sep, table = part.partition("#")
    if not sep:
        return None
    package, _, rest = location.partition("/")
    root = DATA_ROOTS[1] if package.endswith("(de)") else DATA_ROOTS[0]
    return f"{root}/{package.removesuffix('(de)')}/{rest}", table


def _ident(name: str) -> str:
    return name if name.isidentifier() else '"' + name.replace('"', '""') + '"'


def _values(line: str) -> list[Any] | None:
    try:
        values = json.loads(line)
    except ValueError:
        return None
    return values if isinstance(values, list) else None


def _is_moment(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= EPOCH_SECONDS


def _scalar(value: object) -> str | int | float | None:
    if value is None or isinstance(value, str | int | float):
        return value
    return json.dumps(value, ensure_ascii=False)


def _integer_key(raw: RawPart) -> int | None:
    """The largest key of a table whose key is one integer column, or None for any other table."""
    keys = [json.loads(k) for k in raw.rows] if raw.keyed else []
    if not keys or not all(isinstance(k, list) and len(k) == 1 and isinstance(k[0], int) for k in keys):
        return None
    return int(max(k[0] for k in keys))


def _table_checks(part: str, before: RawPart | None, after: RawPart) -> list[dict[str, Any]]:
    where = database_path(part)
    if where is None:
        return []
    db, table = where
    old = kept_rows(part, before) if before is not None else {}
    new = kept_rows(part, after)
    columns = kept_columns(part, after)
    all_columns = after.columns
    pk_index = _key_columns(after)
    checks: list[dict[str, Any]] = []
    added = [k for k in new if k not in old]
    if added:
        rows = [v for v in (_values(new[k]) for k in added) if v is not None and len(v) == len(columns)]
        shown = [i for i, c in enumerate(columns) if all_columns.index(c) not in pk_index
                 and not any(_is_moment(row[i]) for row in rows)]
        largest = _integer_key(before) if before is not None else None
        key_column = all_columns[pk_index[0]] if len(pk_index) == 1 else None
        if rows and shown and key_column is not None and (largest is not None or before is None):
            condition = f" WHERE {_ident(key_column)} > {largest}" if largest is not None else ""
            checks.append({
                "type": "sqlite", "description": f"{len(added)} row(s) added to {table}",
                "db": db,
                "query": f"SELECT {', '.join(_ident(columns[i]) for i in shown)} FROM {_ident(table)}"
                         + condition,
                "expect_rows": [[_scalar(row[i]) for i in shown] for row in rows]})
        checks.append({"type": "sqlite", "description": f"{table} holds {len(new)} rows (no other was added)",
                       "db": db, "query": f"SELECT count(*) FROM {_ident(table)}",
                       "expect_rows": [[len(after.rows)]]})
    for key in [k for k in new if k in old and new[k] != old[k]]:
        a, b = _values(old[key]), _values(new[key])
        if a is None or b is None or len(a) != len(b) or len(pk_index) == 0:
            continue
        changed = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y and not _is_moment(y)]
        if not changed:
            continue
        key_values = json.loads(key)
        condition = _key_condition(all_columns, pk_index, key_values)
        names = ", ".join(_ident(columns[i]) for i in changed)
        checks.append({
            "type": "sqlite",
            "description": f"{table} row {key_values}: " + ", ".join(
                f"{columns[i]} {a[i]!r} -> {b[i]!r}" for i in changed),
            "db": db, "query": f"SELECT {names} FROM {_ident(table)} WHERE {condition}",
            "expect_rows": [[_scalar(b[i]) for i in changed]]})
    for key in [k for k in old if k not in new]:
        if not pk_index:
            continue
        key_values = json.loads(key)
        condition = _key_condition(all_columns, pk_index, key_values)
        checks.append({"type": "sqlite", "description": f"{table} row {key_values} was removed",
                       "db": db, "query": f"SELECT count(*) FROM {_ident(table)} WHERE {condition}",
                       "expect_rows": [[0]]})
    return checks


def _key_columns(raw: RawPart) -> list[int]:
    """Positions of the key columns, read back from a row's key (the digest keys rows by their pk)."""
    if not raw.keyed or not raw.rows:
        return []
    key, line = next(iter(raw.rows.items()))
    values, key_values = _values(line), json.loads(key)
    if values is None or not isinstance(key_values, list):
        return []
    positions: list[int] = []
    for value in key_values:
        position = next((i for i, v in enumerate(values) if v == value and i not in positions), None)
        if position is None:
            return []
        positions.append(position)
    return positions


def _key_condition(columns: list[str], key_positions: list[int], key_values: list[Any]) -> str:
    """`_id = 3` (`a = 1 AND b = 'x'` for a composite key): the WHERE that names one row by its key."""
    return " AND ".join(f"{_ident(columns[key_positions[j]])} = {_literal(v)}"
                        for j, v in enumerate(key_values))


def _literal(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


def _settings_checks(part: str, before: RawPart | None, after: RawPart) -> list[dict[str, Any]]:
    namespace = part.split(":", 1)[1]
    old = kept_rows(part, before) if before is not None else {}
    new = kept_rows(part, after)
    checks = []
    for key in sorted(k for k in new if old.get(k) != new[k]):
        checks.append({"type": "shell", "description": f"{namespace} setting {key}: {old.get(key)!r} -> "
                                                       f"{new[key]!r}",
                       "command": f"settings get {namespace} {key}", "expect": new[key]})
    return checks


def propose_checks(before: RawState, after: RawState) -> list[dict[str, Any]]:
    """The checks (as task YAML dicts) that hold after the demonstration and did not before."""
    checks: list[dict[str, Any]] = []
    for part in sorted(set(after) | set(before)):
        if whole_part_volatile(part) is not None:
            continue
        old, new = before.get(part), after.get(part)
        if new is None:
            if part.startswith("sdcard/") and old is not None:
                checks.append({"type": "shell", "description": f"/{part} was deleted",
                               "command": f"ls /{part}", "regex": "No such file", "exit_code": None})
            continue
        if old is not None and kept_rows(part, old) == kept_rows(part, new):
            continue
        if part.startswith("settings:"):
            checks += _settings_checks(part, old, new)
        elif part.startswith("sdcard/"):
            if old is None:
                checks.append({"type": "shell", "description": f"/{part} was created",
                               "command": f"ls /{part}", "exit_code": 0})
        elif "#" in part:
            checks += _table_checks(part, old, new)
    return checks
