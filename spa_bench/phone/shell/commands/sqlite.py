"""`sqlite3 DB "SQL"`: the sqlite3 command-line shell on the phone's databases (read-write).

Output follows the real CLI: list mode (`|`-separated, no header) by default, `-header`, `-separator`,
`-csv`, `-json`, `-line`, `-nullvalue`, and the dot commands `.tables`, `.schema`, `.headers`, `.mode`.
The database path is a virtual path resolved through the VFS jail; an authorizer refuses ATTACH and
VACUUM INTO, the two ways SQL could open or write a file outside the phone's data dir.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from dataclasses import dataclass

from spa_bench.phone.shell.commands.misc import now
from spa_bench.phone.shell.context import CommandContext, CommandTable
from spa_bench.phone.system.sqlite_clock import use_clock
from spa_bench.phone.vfs import VfsError

TABLE = CommandTable()
command = TABLE.command

SQLITE_VERSION_LINE = f"{sqlite3.sqlite_version} 2023-01-01 00:00:00 spa-bench-vphone"
Value = str | int | float | bytes | None


@dataclass
class _Mode:
    mode: str = "list"
    header: bool = False
    separator: str = "|"
    newline: str = "\n"
    null: str = ""


def _deny_attach(action: int, arg1: str | None, arg2: str | None, db: str | None,
                 trigger: str | None) -> int:
    return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_ATTACH else sqlite3.SQLITE_OK


def format_real(value: float) -> str:
    """SQLite prints REAL with `%!.15g`: always a decimal point (1.0, 1.0e+20)."""
    text = f"{value:.15g}"
    if text in ("inf", "-inf", "nan"):
        return {"inf": "Inf", "-inf": "-Inf", "nan": ""}[text]
    if "e" in text:
        mantissa, exp = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        return f"{mantissa}e{exp}"
    return text if "." in text else text + ".0"


def _text(value: Value, null: str) -> bytes:
    if value is None:
        return null.encode()
    if isinstance(value, bytes):
        return value
    if isinstance(value, float):
        return format_real(value).encode()
    return str(value).encode("utf-8")


def _render(names: list[str], rows: list[tuple[Value, ...]], mode: _Mode, first: bool) -> bytes:
    out = io.BytesIO()
    nl = mode.newline.encode()
    if mode.mode == "json":
        def conv(v: Value) -> object:
            return v.hex() if isinstance(v, bytes) else v
        items = [json.dumps(dict(zip(names, map(conv, r), strict=True)), ensure_ascii=False,
                            separators=(",", ":")) for r in rows]
        return ("[" + ",\n".join(items) + "]\n").encode("utf-8") if items else b""
    if mode.mode == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")  # the CLI ends CSV rows with CRLF
        if mode.header and first:
            writer.writerow(names)
        for r in rows:
            writer.writerow(["" if v is None else _text(v, mode.null).decode("utf-8", "replace") for v in r])
        return buf.getvalue().encode("utf-8")
    if mode.mode == "line":
        width = max((len(n) for n in names), default=0)
        for n, r in enumerate(rows):
            if n or not first:
                out.write(b"\n")
            for name, v in zip(names, r, strict=True):
                out.write(f"{name:>{width}} = ".encode() + _text(v, mode.null) + b"\n")
        return out.getvalue()
    sep = mode.separator.encode()
    if mode.header and first and rows:
        out.write(sep.join(n.encode() for n in names) + nl)
    for r in rows:
        out.write(sep.join(_text(v, mode.null) for v in r) + nl)
    return out.getvalue()


def split_statements(sql: str) -> list[str]:
    """Complete statements (and dot commands at line starts) in order."""
    items: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        if not buf.strip() and line.lstrip().startswith("."):
            items.append(line.strip())
            continue
        for ch in line:
            buf += ch
            if ch == ";" and sqlite3.complete_statement(buf):
                items.append(buf.strip())
                buf = ""
    if buf.strip():
        items.append(buf.strip())
    return items


def _tables(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute(
        "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' "
        "ORDER BY 1")]


def _dot(command_line: str, conn: sqlite3.Connection, mode: _Mode, ctx: CommandContext) -> bool:
    """Run a dot command; False ends the session (.quit)."""
    parts = command_line.split()
    name, args = parts[0], parts[1:]
    if name in (".quit", ".exit"):
        return False
    if name == ".tables":
        names = _tables(conn)
        if names:
            width = max(len(n) for n in names) + 2
            per_line = max(1, 80 // width)
            for i in range(0, len(names), per_line):
                ctx.out("".join(n.ljust(width) for n in names[i:i + per_line]).rstrip() + "\n")
    elif name == ".schema":
        query = "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'"
        params: tuple[str, ...] = ()
        if args:
            query += " AND tbl_name LIKE ?"
            params = (args[0],)
        for (sql,) in conn.execute(query + " ORDER BY rowid", params):
            ctx.out(f"{sql};\n")
    elif name == ".headers" and args:
        mode.header = args[0].lower() in ("on", "1", "yes", "true")
    elif name == ".mode" and args and args[0] in ("list", "csv", "json", "line"):
        mode.mode = args[0]
        mode.separator = "," if args[0] == "csv" else "|"
    elif name == ".separator" and args:
        mode.separator = args[0]
    elif name == ".nullvalue" and args:
        mode.null = args[0]
    else:
        ctx.err(f'Error: unknown command or invalid arguments:  "{name[1:]}". Enter ".help" for help\n')
    return True


def _run(conn: sqlite3.Connection, sql: str, mode: _Mode, ctx: CommandContext) -> int:
    for stmt in split_statements(sql):
        if stmt.startswith("."):
            if not _dot(stmt, conn, mode, ctx):
                return 0
            continue
        try:
            cur = conn.execute(stmt)
            rows = cur.fetchall()
        except sqlite3.Warning as exc:  # e.g. "You can only execute one statement at a time."
            ctx.err(f"Parse error: {exc}\n")
            return 1
        except sqlite3.DatabaseError as exc:
            msg = str(exc)
            kind = "Parse error" if msg.startswith(("no such", "near", "incomplete", "not authorized")) \
                or "syntax error" in msg else "Runtime error"
            ctx.err(f"{kind}: {msg}\n")
            return 1
        if cur.description:
            names = [d[0] for d in cur.description]
            ctx.out(_render(names, rows, mode, first=True))
    return 0


@command("sqlite3")
def sqlite3_(args: list[str], ctx: CommandContext) -> int:
    mode = _Mode()
    readonly = False
    positional: list[str] = []
    pre: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        opt = a.lstrip("-") if a.startswith("-") and not positional else None
        if opt is None:
            positional.append(a)
        elif opt in ("header", "headers"):
            mode.header = True
        elif opt == "noheader":
            mode.header = False
        elif opt in ("separator", "newline", "nullvalue", "cmd") and i < len(args):
            value = args[i]
            i += 1
            if opt == "separator":
                mode.separator = value
            elif opt == "newline":
                mode.newline = value
            elif opt == "nullvalue":
                mode.null = value
            else:
                pre.append(value)
        elif opt in ("list", "csv", "json", "line"):
            mode.mode = opt
            mode.separator = "," if opt == "csv" else mode.separator
        elif opt == "readonly":
            readonly = True
        elif opt == "version":
            ctx.out(SQLITE_VERSION_LINE + "\n")
            return 0
        elif opt in ("batch", "bail", "interactive", "echo"):
            continue
        else:
            ctx.err(f"sqlite3: Error: unknown option: -{opt}\nUse -help for a list of options.\n")
            return 1
    db = positional[0] if positional else ":memory:"
    try:
        if db == ":memory:":
            conn = sqlite3.connect(":memory:", isolation_level=None)
        else:
            host = ctx.fs.host_path(db, ctx.cwd)
            if host.is_dir() or not host.parent.is_dir():
                raise sqlite3.OperationalError("unable to open database file")
            target = host.as_uri() + ("?mode=ro" if readonly else "")
            conn = sqlite3.connect(target, uri=True, isolation_level=None, timeout=5.0,
                                   check_same_thread=False)
    except (VfsError, sqlite3.Error) as exc:
        reason = "unable to open database file" if isinstance(exc, VfsError) else str(exc)
        ctx.err(f'Error: unable to open database "{db}": {reason}\n')
        return 1
    try:
        conn.set_authorizer(_deny_attach)
        use_clock(conn, now(ctx))  # date('now') is the phone's clock
        code = 0
        for sql in [*pre, *positional[1:]] or [ctx.stdin.decode("utf-8", errors="replace")]:
            code = _run(conn, sql, mode, ctx)
            if code:
                break
        return code
    finally:
        conn.close()
