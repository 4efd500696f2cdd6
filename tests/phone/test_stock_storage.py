"""Where the phone keeps what portable checks read, as a stock image does: DeskClock's alarms.db in
device-protected storage (AOSP's ClockProvider opens it in createDeviceProtectedStorageContext(), i.e.
/data/user_de/0/PKG), closed to the shell user until `adb root`; phone rows' numbers as ContactsContract's
data1; and content providers whose where clauses compute dates on the phone's clock."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.vfs import VirtualFS
from spa_bench.tasks.portable import DESKCLOCK_DB

ALARM_COUNT = f'sqlite3 {DESKCLOCK_DB} "SELECT count(*) FROM alarm_templates"'


@pytest.fixture
def system(tmp_path: Path) -> Iterator[PhoneOS]:
    os_ = PhoneOS(PhoneConfig(data_dir=tmp_path), VirtualFS(tmp_path / "fs"))
    try:
        yield os_
    finally:
        os_.close()


def run(sh: Shell, line: str) -> tuple[str, str, int]:
    r = sh.run(line)
    return r.stdout.decode(), r.stderr.decode(), r.exit_code


def test_deskclock_db_is_device_protected_and_closed_before_root(system: PhoneOS) -> None:
    sh = Shell(system)
    out, err, code = run(sh, ALARM_COUNT)
    assert code != 0 and out == "" and "unable to open database" in err  # shell user, as on an emulator
    _, err, code = run(sh, "ls /data/user_de/0/com.android.deskclock")
    assert code == 1 and "Permission denied" in err
    system.adb_root = True
    assert run(sh, ALARM_COUNT) == ("8\n", "", 0)
    assert run(sh, "ls /data/user_de/0/com.android.deskclock/databases")[0].split() == ["alarms.db"]
    assert run(sh, "ls /data/data/com.android.deskclock/databases")[2] != 0  # not in credential storage


def test_pm_clear_empties_device_protected_storage_too(system: PhoneOS) -> None:
    system.adb_root = True
    sh = Shell(system)
    assert run(sh, f'sqlite3 {DESKCLOCK_DB} "DELETE FROM alarm_templates"')[2] == 0
    assert run(sh, ALARM_COUNT)[0] == "0\n"
    assert run(sh, "pm clear com.android.deskclock") == ("Success\n", "", 0)
    assert run(sh, ALARM_COUNT)[0] == "8\n"  # the app seeds its database again, as after a fresh install


def test_phone_rows_carry_the_number_in_data1(system: PhoneOS) -> None:
    sh = Shell(system)
    out, _, code = run(sh, "content query --uri content://com.android.contacts/data/phones "
                           "--projection display_name:data1:mimetype --where \"display_name = 'Grace Lee'\"")
    assert code == 0
    assert out == ("Row: 0 display_name=Grace Lee, data1=+1 650-555-0188, "
                   "mimetype=vnd.android.cursor.item/phone_v2\n")


def test_provider_where_clauses_use_the_phones_clock(tmp_path: Path) -> None:
    """A frozen phone clock on another day: date('now') in a content query's where clause is that day."""
    frozen = datetime.datetime(2030, 6, 1, 9, 30)
    os_ = PhoneOS(PhoneConfig(data_dir=tmp_path), VirtualFS(tmp_path / "fs"), clock=PhoneClock.frozen(frozen))
    try:
        sh = Shell(os_)
        out, _, code = run(sh, "content query --uri content://settings/global --projection name "
                               "--where \"name = 'wifi_on' AND date('now') = '2030-06-01'\"")
        assert code == 0 and out == "Row: 0 name=wifi_on\n"
    finally:
        os_.close()
