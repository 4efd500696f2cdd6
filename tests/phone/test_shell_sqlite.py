"""sqlite3 on the phone's databases: CLI-compatible output modes, errors and writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.commands.sqlite import format_real, split_statements
from spa_bench.phone.shell.testing import FakePhone

DB = "/data/data/com.example.notes/databases/notes.db"


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    p = FakePhone(tmp_path / "fs")
    p.adb_root = True  # app databases are root's to read, as after `adb root` on an emulator
    host = p.fs.host_path(DB)
    host.parent.mkdir(parents=True)
    with sqlite3.connect(host) as conn:
        conn.executescript("""
            CREATE TABLE notes(_id INTEGER PRIMARY KEY, title TEXT, body TEXT, score REAL, data BLOB);
            INSERT INTO notes VALUES (1, 'Shopping', 'milk, eggs', 1.5, NULL);
            INSERT INTO notes VALUES (2, '会议', 'a|b', 2.0, x'0102');
            CREATE VIEW titles AS SELECT title FROM notes;
        """)
    conn.close()
    return p


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def run(sh: Shell, line: str) -> tuple[str, str, int]:
    r = sh.run(line)
    return r.stdout.decode("utf-8", "replace"), r.stderr.decode(), r.exit_code


def test_default_list_mode(sh: Shell) -> None:
    assert run(sh, f"sqlite3 {DB} 'select _id, title, score from notes order by _id'") == \
        ("1|Shopping|1.5\n2|会议|2.0\n", "", 0)
    assert run(sh, f"sqlite3 {DB} 'select data is null, body from notes'")[0] == "1|milk, eggs\n0|a|b\n"
    assert run(sh, f"sqlite3 {DB} 'select count(*) from notes; select max(_id) from notes;'")[0] == "2\n2\n"
    assert run(sh, f"sqlite3 {DB} \"select title from notes where title = 'nope'\"") == ("", "", 0)


def test_header_separator_json_csv_line(sh: Shell) -> None:
    q = "'select _id, title from notes order by _id'"
    assert run(sh, f"sqlite3 -header {DB} {q}")[0] == "_id|title\n1|Shopping\n2|会议\n"
    assert run(sh, f"sqlite3 -separator , {DB} {q}")[0] == "1,Shopping\n2,会议\n"
    assert run(sh, f"sqlite3 -json {DB} {q}")[0] == \
        '[{"_id":1,"title":"Shopping"},\n{"_id":2,"title":"会议"}]\n'
    assert run(sh, f"sqlite3 -csv {DB} 'select body from notes order by _id'")[0] == '"milk, eggs"\r\na|b\r\n'
    assert run(sh, f"sqlite3 -line {DB} 'select _id, title from notes where _id = 1'")[0] == \
        "  _id = 1\ntitle = Shopping\n"
    assert run(sh, f"sqlite3 -nullvalue NULL {DB} 'select data from notes where _id = 1'")[0] == "NULL\n"


def test_writes_persist(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, f"sqlite3 {DB} \"insert into notes(title) values ('new'); update notes set score = 9 "
                   "where _id = 1\"") == ("", "", 0)
    with sqlite3.connect(phone.fs.host_path(DB)) as conn:
        assert conn.execute("select count(*), sum(score) from notes").fetchone() == (3, 11.0)
    conn.close()


def test_stdin_and_dot_commands(sh: Shell) -> None:
    script = b".headers on\n.mode list\nselect title from notes where _id = 1;\n.tables\n.schema notes\n"
    out = sh.run(f"sqlite3 {DB}", stdin=script).stdout.decode()
    assert out.startswith("title\nShopping\nnotes   titles\nCREATE TABLE notes(")
    assert run(sh, f"cat /dev/null | sqlite3 {DB} .bogus")[1].startswith("Error: unknown command")


def test_errors(sh: Shell) -> None:
    assert run(sh, f"sqlite3 {DB} 'select * from nope'") == ("", "Parse error: no such table: nope\n", 1)
    assert run(sh, f"sqlite3 {DB} 'selec 1'")[1].startswith("Parse error: near \"selec\": syntax error")
    assert run(sh, f"sqlite3 {DB} 'select 1; select * from nope; select 2'")[0] == "1\n"
    assert run(sh, "sqlite3 /no/such/dir/x.db 'select 1'") == \
        ("", 'Error: unable to open database "/no/such/dir/x.db": unable to open database file\n', 1)
    assert run(sh, "sqlite3 -bogus x.db")[2] == 1
    err = run(sh, f"sqlite3 -readonly {DB} 'delete from notes'")[1]
    assert err.startswith("Runtime error: attempt to write")


def test_relative_paths_and_memory(sh: Shell) -> None:
    assert run(sh, "cd /data/data/com.example.notes/databases && sqlite3 notes.db 'select 1+1'")[0] == "2\n"
    assert run(sh, "sqlite3 :memory: 'select 2*3'")[0] == "6\n"
    assert run(sh, "sqlite3 -version")[0].startswith(sqlite3.sqlite_version)


def test_helpers() -> None:
    assert [format_real(v) for v in (1.5, 2.0, 1e20, 0.1, -3.0)] == ["1.5", "2.0", "1.0e+20", "0.1", "-3.0"]
    assert split_statements("select 1; select ';' ;\n.tables\nselect 2") == \
        ["select 1;", "select ';' ;", ".tables", "select 2"]


def test_the_shell_user_cannot_open_app_databases(sh: Shell, phone: FakePhone) -> None:
    """Before `adb root`, sqlite3 meets the app's private folder as on an emulator image."""
    phone.adb_root = False
    assert run(sh, f"sqlite3 {DB} 'select 1'") == \
        ("", f'Error: unable to open database "{DB}": unable to open database file\n', 1)



def test_now_is_the_phones_clock(phone: FakePhone) -> None:
    """date('now') and friends read the phone's clock (frozen by --phone-clock, or set by a task), as the
    apps that wrote the rows do; other arguments and modifiers behave as SQLite's own functions."""
    import datetime

    phone.now = lambda: datetime.datetime(2026, 1, 15, 9, 30, 5)  # type: ignore[attr-defined]
    sh = Shell(phone)
    query = ("select date('now'), datetime('NOW', '+1 day', 'start of day'), date(), "
             "strftime('%H:%M', 'now'), date('2020-02-29', '+1 year'), "
             "unixepoch('now') - unixepoch('2026-01-15')")
    out, err, code = run(sh, f'sqlite3 :memory: "{query}"')
    assert (out, err, code) == ("2026-01-15|2026-01-16 00:00:00|2026-01-15|09:30|2021-03-01|34205\n", "", 0)
