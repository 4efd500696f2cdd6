"""The state digest of "infeasible means untouched", read through a real shell: sh, find, stat, cat and the
sqlite3 CLI on the host stand in for the phone's (same commands, same output formats), over a folder laid
out as a phone's /data and /sdcard. What volatile declarations leave out, and what the diff names; every
package's data is read, not only the task's apps'."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from spa_bench.device.state_digest import RawState, StateDigest, describe, digest, read_state
from spa_bench.evaluation.untouched import differences, untouched

pytestmark = pytest.mark.skipif(shutil.which("sqlite3") is None, reason="needs the sqlite3 CLI")
APP = "com.spa.chat"
SETTINGS = """#!/bin/sh
cat "$(dirname "$0")/../settings_$2"
"""


class HostShell:
    """Runs the digest's commands with /data, /sdcard under `root` (paths mapped in and back out)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def shell(self, command: str) -> str:
        mapped = command.replace("/data/", f"{self.root}/data/").replace("/sdcard", f"{self.root}/sdcard")
        env = {"PATH": f"{self.root}/bin:/usr/bin:/bin", "LC_ALL": "C.UTF-8"}
        done = subprocess.run(["sh", "-c", mapped], capture_output=True, text=True, env=env, check=False)
        return (done.stdout + done.stderr).replace(str(self.root), "")


@pytest.fixture
def phone(tmp_path: Path) -> Path:
    app = tmp_path / "data/data" / APP
    (app / "databases").mkdir(parents=True)
    (app / "shared_prefs").mkdir()
    (app / "cache").mkdir()
    (app / "shared_prefs/chat.xml").write_text('<map><boolean name="sound" value="true" /></map>\n')
    (app / "cache/thumb.bin").write_bytes(b"\x00\x01")
    (tmp_path / "sdcard/Download").mkdir(parents=True)
    (tmp_path / "sdcard/Download/notes.txt").write_text("buy milk\n")
    (tmp_path / "sdcard/window_dump.xml").write_text("<hierarchy/>")  # an agent's capture: not app state
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin/settings").write_text(SETTINGS)
    (tmp_path / "bin/settings").chmod(0o755)
    (tmp_path / "settings_system").write_text("font_scale=1.0\nscreen_brightness=102\n")
    (tmp_path / "settings_secure").write_text("default_input_method=com.android.inputmethod.latin/.LatinIME")
    (tmp_path / "settings_global").write_text("wifi_on=1\nairplane_mode_on=0\n")
    with sqlite3.connect(app / "databases/chat.db") as db:
        db.executescript("""
            CREATE TABLE conversations (_id INTEGER PRIMARY KEY, contact_id INTEGER, unread INTEGER,
                                        updated_at INTEGER);
            CREATE TABLE messages (_id INTEGER PRIMARY KEY, conversation_id INTEGER, body TEXT, photo BLOB);
            CREATE TABLE tags (name TEXT, n REAL);
            INSERT INTO conversations VALUES (1, 10, 1, 1000), (2, 11, 0, 2000);
            INSERT INTO messages VALUES (1, 1, 'hi
            there', NULL), (2, 2, 'lunch?', x'ff00');
            INSERT INTO tags VALUES ('work', 1.5), ('home', 2.0), ('work', 1.5);
        """)
    return tmp_path


def sql(phone: Path, script: str) -> None:
    with sqlite3.connect(phone / "data/data" / APP / "databases/chat.db") as db:
        db.executescript(script)


def read(phone: Path, names: dict[str, str] | None = None) -> tuple[RawState, StateDigest]:
    raw = read_state(HostShell(phone), names)
    return raw, digest(raw)


def test_every_part_is_read_and_captures_and_caches_are_not(phone: Path) -> None:
    raw, result = read(phone)
    db = f"{APP}/databases/chat.db"
    assert {f"{db}#conversations", f"{db}#messages", f"{db}#tags", f"{APP}/shared_prefs/chat.xml",
            "sdcard/Download/notes.txt", "settings:system", "settings:secure", "settings:global"} == set(raw)
    assert result.parts[f"{db}#tags"].rows == 3  # a table without a key keeps its twin rows
    assert result.parts[f"{db}#messages"].rows == 2  # a body with a newline is one row
    assert raw[f"{db}#messages"].rows['[2]'] == '[2,2,"lunch?","FF00"]'  # blobs as hex
    assert raw[f"{APP}/shared_prefs/chat.xml"].rows["text"].startswith("<map>")
    assert raw["settings:global"].rows == {"wifi_on": "1", "airplane_mode_on": "0"}


def test_volatile_parts_and_a_new_empty_table_are_no_change(phone: Path) -> None:
    before, start = read(phone)
    sql(phone, "UPDATE conversations SET unread = 0; CREATE TABLE drafts (_id INTEGER PRIMARY KEY);"
               "DELETE FROM tags WHERE name = 'home'; INSERT INTO tags VALUES ('home', 2.0);")  # same rows
    (phone / "data/data" / APP / "cache/thumb.bin").write_bytes(b"\x02")
    (phone / "settings_secure").write_text("default_input_method=com.android.adbkeyboard/.AdbIME\n")
    (phone / "sdcard/window_dump.xml").write_text("<hierarchy rotation='0'/>")
    after, end = read(phone)
    assert describe(before, after) == []
    assert differences(start, end) == []
    assert untouched(start, end).untouched is True


def test_what_changed_is_named_row_by_row(phone: Path) -> None:
    before, start = read(phone)
    sql(phone, "INSERT INTO messages VALUES (3, 1, 'on my way', NULL); "
               "UPDATE messages SET body = 'dinner?' WHERE _id = 2; DELETE FROM tags WHERE name = 'home'; "
               "UPDATE conversations SET contact_id = 12 WHERE _id = 2")
    (phone / "settings_global").write_text("wifi_on=0\nairplane_mode_on=0\n")
    (phone / "sdcard/Download/ticket.pdf").write_bytes(b"%PDF")
    after, end = read(phone)
    lines = describe(before, after)
    db = f"{APP}/databases/chat.db"
    assert f'{db}#conversations: 1 row changed ([2]: contact_id: 11 -> 12)' in lines
    assert f'{db}#messages: 1 row added ([3,1,"on my way",null]), 1 row changed ([2]: body: "lunch?" -> ' \
           '"dinner?")' in lines
    assert f'{db}#tags: 1 row removed (["home",2.0])' in lines
    assert "settings:global: 1 row changed (wifi_on: 1 -> 0)" in lines
    assert "sdcard/Download/ticket.pdf: appeared (1 row(s))" in lines
    assert len(lines) == 5
    end.changes = lines
    verdict = untouched(start, end)
    assert verdict.untouched is False and verdict.changes == lines
    assert verdict.reason.startswith("changed the state: ") and "(+2 more)" in verdict.reason


def test_the_decision_needs_only_the_digests(phone: Path) -> None:
    _, start = read(phone)
    sql(phone, "UPDATE messages SET photo = x'00' WHERE _id = 1")
    _, end = read(phone)  # no `changes`: as a log whose end digest listed none
    start, end = (StateDigest.model_validate_json(d.model_dump_json()) for d in (start, end))
    assert differences(start, end) == [f"{APP}/databases/chat.db#messages: changed (2 -> 2 row(s))"]
    assert untouched(start, end).untouched is False
    assert untouched(start, None).untouched is None and untouched(None, end).untouched is None
    other = end.model_copy(update={"volatile_sha256": "0" * 64})
    assert untouched(start, other).untouched is None  # compared under other declarations: rerun


CLOCK = "com.android.deskclock"
ALARMS = f"{CLOCK}(de)/databases/alarms.db#alarm_templates"
SMS = "com.android.providers.telephony/databases/mmssms.db#sms"


def other_apps(phone: Path) -> None:
    """Clock's alarms in device-protected storage, the telephony provider's SMS, the settings provider's
    database (read through `settings list` instead)."""
    for folder, script in (
            (f"data/user_de/0/{CLOCK}/databases/alarms.db",
             "CREATE TABLE alarm_templates (_id INTEGER PRIMARY KEY, hour INTEGER, minutes INTEGER, "
             "enabled INTEGER); INSERT INTO alarm_templates VALUES (1, 7, 30, 1);"),
            ("data/data/com.android.providers.telephony/databases/mmssms.db",
             "CREATE TABLE sms (_id INTEGER PRIMARY KEY, address TEXT, body TEXT, type INTEGER);"),
            ("data/data/com.android.providers.settings/databases/settings.db",
             "CREATE TABLE secure (_id INTEGER PRIMARY KEY, name TEXT UNIQUE, value TEXT);")):
        (phone / folder).parent.mkdir(parents=True)
        with sqlite3.connect(phone / folder) as db:
            db.executescript(script)


def test_every_package_is_read_and_a_change_in_another_app_is_named(phone: Path) -> None:
    other_apps(phone)
    before, start = read(phone)
    assert start.packages == sorted([CLOCK, APP, "com.android.providers.telephony"])
    assert ALARMS in before
    assert not any("providers.settings" in part for part in before)  # settings: through `settings list`
    with sqlite3.connect(phone / "data/data/com.android.providers.telephony/databases/mmssms.db") as db:
        db.execute("INSERT INTO sms VALUES (1, '+1 650-555-0101', 'hello', 2)")
    with sqlite3.connect(phone / f"data/user_de/0/{CLOCK}/databases/alarms.db") as db:
        db.execute("INSERT INTO alarm_templates VALUES (2, 6, 0, 1)")
    with sqlite3.connect(phone / "data/data/com.android.providers.settings/databases/settings.db") as db:
        db.execute("INSERT INTO secure VALUES (1, 'default_input_method', 'com.android.adbkeyboard/.AdbIME')")
    after, end = read(phone)
    assert describe(before, after) == [f"{ALARMS}: 1 row added ([2,6,0,1])",
                                       f'{SMS}: 1 row added ([1, "+1 650-555-0101", "hello", 2])']
    assert [line.split(":")[0] for line in differences(start, end)] == [ALARMS, SMS]
    assert untouched(start, end).untouched is False


def test_a_package_under_another_name_on_the_device_keeps_the_tasks_name(phone: Path) -> None:
    (phone / "data/data/com.google.android.deskclock/databases").mkdir(parents=True)
    (phone / "data/data/com.google.android.deskclock/databases/x.txt").write_text("1")
    raw, result = read(phone, {CLOCK: "com.google.android.deskclock", APP: APP})
    assert f"{CLOCK}/databases/x.txt" in raw and CLOCK in result.packages
