"""Content providers: `content://<authority>/<path>` URIs routed to the app that serves them.

`SqliteTableProvider` serves the tables of an app's SQLite file directly (`content://auth/table[/id]`),
which is all most apps need; the settings provider is one of them with an extra `/name` form.
`where` is an SQL expression, as with Android's `content --where`; its date('now', ...) reads the phone's
clock (the registry hands its clock to the SQLite providers registered with it).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Protocol

from spa_bench.phone.api import ProviderError, ProviderRow
from spa_bench.phone.system.sqlite_clock import use_clock

Value = str | int | float | None


class ContentProvider(Protocol):
    def query(
        self, path: list[str], projection: list[str] | None, where: str | None, sort: str | None
    ) -> list[ProviderRow]: ...

    def insert(self, path: list[str], values: dict[str, Value]) -> str: ...

    def update(self, path: list[str], values: dict[str, Value], where: str | None) -> int: ...

    def delete(self, path: list[str], where: str | None) -> int: ...


def parse_uri(uri: str) -> tuple[str, list[str]]:
    if not uri.startswith("content://"):
        raise ProviderError(f"Invalid URI: {uri}")
    rest = uri[len("content://") :].split("?")[0]
    authority, _, path = rest.partition("/")
    return authority, [p for p in path.split("/") if p]


def database_schemas(data_dir: Path) -> dict[Path, list[str]]:
    """The CREATE statements of every SQLite file under `data_dir/databases`, in creation order.

    `pm clear` of a provider package (contacts, telephony, calendar, blocked numbers) deletes its files;
    the provider then starts on an empty database of the same schema, never on the phone's seed data,
    which our `Db` would write into a missing file. So the schema is read before the wipe and the empty
    files are made again after it (`recreate_empty`)."""
    found: dict[Path, list[str]] = {}
    folder = data_dir / "databases"
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.db")):
        conn = sqlite3.connect(path, timeout=5.0)
        try:
            found[path] = [str(sql) for (sql,) in conn.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                "ORDER BY rowid")]
        except sqlite3.Error:
            continue  # not a database after all: the wipe removes it and nothing comes back
        finally:
            conn.close()
    return found


def recreate_empty(schemas: dict[Path, list[str]]) -> None:
    for path, statements in schemas.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
        try:
            for sql in statements:
                conn.execute(sql)
        finally:
            conn.close()


class ProviderRegistry:
    def __init__(self, clock: Callable[[], datetime] | None = None) -> None:
        self._providers: dict[str, ContentProvider] = {}
        self._clock = clock

    def register(self, authority: str, provider: ContentProvider) -> None:
        if isinstance(provider, SqliteTableProvider) and self._clock is not None:
            provider.clock = self._clock
        self._providers[authority] = provider

    def unregister_all(self) -> None:
        self._providers.clear()

    def authorities(self) -> list[str]:
        return sorted(self._providers)

    def resolve(self, uri: str) -> tuple[ContentProvider, list[str]]:
        authority, path = parse_uri(uri)
        provider = self._providers.get(authority)
        if provider is None:
            raise ProviderError(f"Could not find provider: {authority}")
        return provider, path


def _column(name: str) -> str:
    """A quoted column name; quotes inside names are refused rather than escaped."""
    if not name or '"' in name:
        raise ProviderError(f"invalid column name {name!r}")
    return f'"{name}"'


def _where(extra: str | None, where: str | None) -> str:
    parts = [f"({w})" for w in (extra, where) if w]
    return f" WHERE {' AND '.join(parts)}" if parts else ""


class SqliteTableProvider:
    """Serves `content://<authority>/<table>[/<_id>]` from one SQLite file."""

    def __init__(
        self,
        authority: str,
        db: Callable[[], Path],
        tables: Sequence[str],
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.authority = authority
        self.db = db
        self.tables = tuple(tables)
        self.on_change = on_change
        self.clock: Callable[[], datetime] | None = None  # the phone's, set by ProviderRegistry.register

    def _target(self, path: list[str]) -> tuple[str, str | None]:
        if not path or path[0] not in self.tables:
            raise ProviderError(f"Unknown URI content://{self.authority}/{'/'.join(path)}")
        extra = None
        if len(path) > 1:
            extra = self.row_filter(path[0], path[1])
        return path[0], extra

    def _write_target(self, path: list[str]) -> tuple[str, str | None]:
        """Where inserts, updates and deletes of `path` go: where its reads come from, unless a provider
        reads a view and writes the table under it."""
        return self._target(path)

    def row_filter(self, table: str, segment: str) -> str:
        if not segment.isdigit():
            raise ProviderError(f"Unknown URI content://{self.authority}/{table}/{segment}")
        return f"_id = {int(segment)}"

    def _connect(self) -> sqlite3.Connection:
        path = self.db()
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path, timeout=5.0, isolation_level=None)
        if self.clock is not None:
            use_clock(conn, self.clock())
        return conn

    def query(
        self, path: list[str], projection: list[str] | None, where: str | None, sort: str | None
    ) -> list[ProviderRow]:
        table, extra = self._target(path)
        cols = ", ".join(_column(c) for c in projection) if projection else "*"
        sql = f"SELECT {cols} FROM {table}{_where(extra, where)}" + (f" ORDER BY {sort}" if sort else "")
        conn = self._connect()
        try:
            cur = conn.execute(sql)
            names = [d[0] for d in cur.description or ()]
            return [ProviderRow(dict(zip(names, row, strict=True))) for row in cur.fetchall()]
        except sqlite3.Error as exc:
            raise ProviderError(str(exc)) from exc
        finally:
            conn.close()

    def insert(self, path: list[str], values: dict[str, Value]) -> str:
        table, _ = self._write_target(path)
        names = [_column(n) for n in values]
        sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' for _ in names)})"
        conn = self._connect()
        try:
            cur = conn.execute(sql, list(values.values()))
            row_id = cur.lastrowid
        except sqlite3.Error as exc:
            raise ProviderError(str(exc)) from exc
        finally:
            conn.close()
        self.on_change()
        return f"content://{self.authority}/{table}/{row_id}"

    def update(self, path: list[str], values: dict[str, Value], where: str | None) -> int:
        table, extra = self._write_target(path)
        sets = ", ".join(f"{_column(n)} = ?" for n in values)
        conn = self._connect()
        try:
            count = conn.execute(
                f"UPDATE {table} SET {sets}{_where(extra, where)}", list(values.values())
            ).rowcount
        except sqlite3.Error as exc:
            raise ProviderError(str(exc)) from exc
        finally:
            conn.close()
        self.on_change()
        return count

    def delete(self, path: list[str], where: str | None) -> int:
        table, extra = self._write_target(path)
        conn = self._connect()
        try:
            count = conn.execute(f"DELETE FROM {table}{_where(extra, where)}").rowcount
        except sqlite3.Error as exc:
            raise ProviderError(str(exc)) from exc
        finally:
            conn.close()
        self.on_change()
        return count


class SettingsProvider(SqliteTableProvider):
    """`content://settings/<system|secure|global>[/<name>]`, rows (_id, name, value)."""

    def __init__(self, db: Callable[[], Path], on_change: Callable[[], None]) -> None:
        super().__init__("settings", db, ("system", "secure", "global"), on_change)

    def row_filter(self, table: str, segment: str) -> str:
        return "name = '" + segment.replace("'", "''") + "'"

    def insert(self, path: list[str], values: dict[str, Value]) -> str:
        table, _ = self._target(path[:1])
        name = values.get("name")
        if name is None:
            raise ProviderError("name is required")
        super().insert(
            [table],
            {"name": str(name), "value": None if values.get("value") is None else str(values.get("value"))},
        )
        return f"content://settings/{table}/{name}"


class RoutedProvider(SqliteTableProvider):
    """`content://<authority>/<route>[/<_id>]` where each route is a table or view plus a filter.
    `writes` maps a view that routes read to the table its writes go to (a view cannot be written)."""

    def __init__(
        self,
        authority: str,
        db: Callable[[], Path],
        routes: dict[tuple[str, ...], tuple[str, str | None]],
        on_change: Callable[[], None] = lambda: None,
        prepare: Callable[[], None] = lambda: None,
        writes: dict[str, str] | None = None,
    ) -> None:
        super().__init__(authority, db, sorted({t for t, _ in routes.values()}), on_change)
        self.routes = routes
        self.prepare = prepare
        self.writes = writes or {}

    def _write_target(self, path: list[str]) -> tuple[str, str | None]:
        table, where = self._target(path)
        return self.writes.get(table, table), where

    def _target(self, path: list[str]) -> tuple[str, str | None]:
        self.prepare()
        row_id = path[-1] if path and path[-1].isdigit() else None
        key = tuple(path[:-1] if row_id is not None else path)
        if key not in self.routes:
            raise ProviderError(f"Unknown URI content://{self.authority}/{'/'.join(path)}")
        table, where = self.routes[key]
        if row_id is not None:
            where = f"({where}) AND _id = {int(row_id)}" if where else f"_id = {int(row_id)}"
        return table, where
