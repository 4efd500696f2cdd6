"""`spa-bench device seed` (spa_bench.device.seeding): the commands it generates survive a POSIX shell
intact, and a virtual phone wiped through ADB and seeded through ADB answers every portable read as a
freshly booted phone does, and passes the portable suite's oracle.

The device shell is mksh; its quoting is POSIX's, so the generated commands are parsed here by the host's
/bin/sh (a real POSIX shell), not by a parser of our own."""

from __future__ import annotations

import difflib
import re
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pytest

from spa_bench.device.seeding import (
    CONTACTS,
    bind,
    content_delete_command,
    content_insert_command,
    seed_device,
    seed_plan,
    sql_insert,
    sqlite_command,
    sync_pusher,
)
from spa_bench.tasks.portable import DESKCLOCK_DB, STOCK_URIS

if TYPE_CHECKING:
    from spa_bench.device.device import Device
    from spa_bench.phone.server import VirtualPhone

    Phones = tuple[VirtualPhone, VirtualPhone]

TRICKY = ["Luigi's", '他说"你好"', "a  b", "$HOME `id` \\n", "12:30 at Luigi's?", "【顺丰速运】取件码 5521",
          "-x", ""]


def sh_words(command: str) -> list[str]:
    """The argv a POSIX shell makes of `command`."""
    out = subprocess.run(["sh", "-c", f"printf '%s\\0' {command}"], capture_output=True, check=True).stdout
    return out.decode("utf-8").split("\0")[:-1]


@pytest.mark.parametrize("text", TRICKY)
def test_an_insert_reaches_content_with_its_values_unchanged(text: str) -> None:
    command = content_insert_command("content://sms", {"body": text, "type": 1, "person": None})
    assert sh_words(command) == ["content", "insert", "--uri", "content://sms", "--bind", f"body:s:{text}",
                                 "--bind", "type:i:1", "--bind", "person:n:"]


def test_bindings_carry_aosp_types() -> None:
    """Content.java's types: b s i l f d n; it splits at the first two colons, so values keep theirs."""
    assert bind("starred", True) == "starred:b:true"
    assert bind("date", 1_721_000_000_000) == "date:l:1721000000000"
    assert bind("duration", 604) == "duration:i:604"
    assert bind("body", "12:30:00") == "body:s:12:30:00"
    assert bind("account_name", None) == "account_name:n:"
    with pytest.raises(ValueError, match="column"):
        bind("a:b", 1)


def test_a_delete_with_a_where_clause_is_one_argument() -> None:
    command = content_delete_command("content://sms", "address = '+1 650-555-0101'")
    assert sh_words(command) == ["content", "delete", "--uri", "content://sms", "--where",
                                 "address = '+1 650-555-0101'"]


def test_sqlite_statements_keep_quotes_and_chinese_text(tmp_path: Path) -> None:
    """The SQL the alarms go in with, parsed by sh and run by SQLite, stores the values as they were."""
    rows = [{"hour": 8, "label": label} for label in ("起床", "Mom's \"call\"", "a;b")]
    sql = "BEGIN; " + " ".join(sql_insert("t", row) for row in rows) + " COMMIT;"
    words = sh_words(sqlite_command("/data/x.db", sql))
    assert words[:2] == ["sqlite3", "/data/x.db"] and len(words) == 3
    conn = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    conn.execute("CREATE TABLE t (hour INTEGER, label TEXT)")
    conn.executescript(words[2])
    assert conn.execute("SELECT hour, label FROM t").fetchall() == [(r["hour"], r["label"]) for r in rows]


def test_the_plan_is_the_virtual_phones_seed() -> None:
    plan = seed_plan(datetime(2026, 1, 15, 9, 30))
    assert (len(plan.contacts), len(plan.sms), len(plan.events), len(plan.calls), len(plan.alarms)) == \
        (42, 23, 22, 15, 8)
    assert sum(row["enabled"] for row in plan.alarms) == 4
    assert any(path == "/sdcard/Download/租房合同.pdf" for path, _, _ in plan.files)


# -- a virtual phone wiped and seeded over ADB ----------------------------------------------------------
CLOCK = datetime(2026, 1, 15, 9, 30)
PROVIDER_IDS = ("_id", "raw_contact_id", "contact_id", "thread_id", "calendar_id")
SEEDED_FOLDERS = ("Documents", "Download", "DCIM", "Movies", "Music", "Pictures")
READ_URIS = sorted(u for u in STOCK_URIS if not u.startswith("content://settings"))


def _start(root: Path, name: str, locale: Literal["en", "zh"] = "en") -> VirtualPhone:
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import AUTO_PORT, VirtualPhone

    config = replace(PhoneConfig(), port=AUTO_PORT, data_dir=root / name, frozen_clock=CLOCK,
                     locale=locale)
    phone = VirtualPhone(config)  # console token in $HOME, the session's (adb_env), where Device reads it
    phone.start()
    return phone


@pytest.fixture(scope="module")
def phones(adb_env: dict[str, str],
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phones]:
    root = tmp_path_factory.mktemp("seeding")
    fresh, seeded = _start(root, "fresh"), _start(root, "seeded")
    try:
        yield fresh, seeded
    finally:
        for phone in (fresh, seeded):
            phone.stop()


@pytest.fixture(scope="module")
def zh_phones(adb_env: dict[str, str],
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Phones]:
    """As `phones`, booted in Chinese: the Chinese seed (its own names, messages and files) over ADB."""
    root = tmp_path_factory.mktemp("seeding-zh")
    fresh, seeded = _start(root, "fresh", "zh"), _start(root, "seeded", "zh")
    try:
        yield fresh, seeded
    finally:
        for phone in (fresh, seeded):
            phone.stop()


def _device(phone: VirtualPhone) -> Device:
    from spa_bench.device.device import Device

    device = Device(phone.serial, console_port=phone.config.console_port)
    device.connect()
    device.become_root()  # as a run and provisioning do
    return device


def _rows(device: Device, uri: str) -> list[dict[str, str]]:
    """`content query` rows, provider-assigned ids replaced by their order of first appearance, so two
    phones whose providers numbered the same rows differently compare equal (and rows that share a
    thread or a contact still share it)."""
    from spa_bench.device.content import parse_content_rows

    rows = parse_content_rows(device.shell(f"content query --uri {uri}"))
    ranks: dict[str, dict[str, str]] = {}
    for row in rows:
        for column in PROVIDER_IDS:
            if column in row:
                seen = ranks.setdefault(column, {})
                row[column] = seen.setdefault(row[column], f"#{len(seen)}")
    return rows


def _snapshot(device: Device) -> dict[str, object]:
    run = device.check
    state: dict[str, object] = {uri: _rows(device, uri) for uri in READ_URIS}
    state["alarms.db"] = run(f"sqlite3 {DESKCLOCK_DB} 'SELECT hour, minutes, enabled, daysofweek, vibrate, "
                             "label, ringtone, delete_after_use FROM alarm_templates ORDER BY _id'")
    state["/sdcard"] = run("ls -lR /sdcard")
    return state


def _wipe(device: Device) -> None:
    check = device.check
    for uri in (CONTACTS, "content://sms", "content://call_log/calls",
                "content://com.android.calendar/calendars"):
        check(f"content delete --uri {uri}")
    check(f"sqlite3 {DESKCLOCK_DB} 'DELETE FROM alarm_templates'")
    check("rm -rf " + " ".join(f"/sdcard/{f}" for f in SEEDED_FOLDERS))


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_wiped_phone_seeded_over_adb_reads_as_a_fresh_one(language: Literal["en", "zh"],
                                                            request: pytest.FixtureRequest) -> None:
    pair: Phones = request.getfixturevalue("phones" if language == "en" else "zh_phones")
    fresh, seeded = (_device(p) for p in pair)
    expected = _snapshot(fresh)
    _wipe(seeded)
    wiped = _snapshot(seeded)
    emptied = [k for k in expected if k.startswith("content://") and expected[k] and not wiped[k]]
    assert len(emptied) >= 8 and wiped["alarms.db"].strip() == ""  # the seeder has everything to do
    report = seed_device(seeded, sync_pusher(seeded), language)
    assert report.counts == {"contacts": 42, "messages": 23, "calls": 15, "events": 22, "alarms": 8,
                             "files": len(seed_plan(CLOCK).files)}
    again = _snapshot(seeded)
    for key, value in expected.items():
        assert again[key] == value, "\n".join(difflib.unified_diff(
            str(value).splitlines(), str(again[key]).splitlines(), f"fresh {key}", f"seeded {key}",
            lineterm=""))
    # seeding is idempotent: a second run clears what the first wrote
    seed_device(seeded, sync_pusher(seeded), language)
    assert _snapshot(seeded) == expected


def test_seeding_refuses_a_device_in_the_other_language(phones: Phones) -> None:
    from spa_bench.errors import DeviceCommandFailed

    device = _device(phones[1])
    device.check("setprop persist.sys.locale en-US")
    with pytest.raises(DeviceCommandFailed, match=re.escape(phones[1].serial) + ".*locale"):
        seed_device(device, sync_pusher(device), "zh")


@pytest.mark.slow
def test_the_portable_oracle_passes_on_the_seeded_phone(phones: Phones,
                                                        tmp_path: Path) -> None:
    """The farm's flow on a virtual phone: seeded over ADB, base snapshots saved (as provision.sh does),
    then the portable suite's oracle through the runner, which resets each task by snapshot: 100%."""
    from pim_runs import failures

    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.pool import prepare_virtual_phone
    from spa_bench.runner.run import run_benchmark
    from spa_bench.tasks.repository import TaskFilter, TaskRepository

    phone = phones[1]
    device = _device(phone)
    _wipe(device)
    seed_device(device, sync_pusher(device), "en")
    prepare_virtual_phone(device)
    serial = phone.serial
    tasks = Path(__file__).resolve().parents[2] / "tasks"
    # English only: the phone was seeded over ADB in English, and its Chinese base snapshot is the phone's
    # own seed, which tests/tasks/test_portable.py already runs the suite on
    portable_en = TaskFilter(suites=["portable"], languages=["en"])
    result = run_benchmark(RunConfig(filter=portable_en, tasks_dir=tasks,
                                     agents=[AgentConfig(agent="oracle")], devices=[serial],
                                     console_ports={serial: phone.config.console_port},
                                     out=tmp_path / "results"))
    logs = {log.episode_id: log for log in result.logs}
    repo = TaskRepository(tasks)
    assert result.summary.undone == [] and len(logs) == len(repo.select(portable_en))
    bad = failures(logs, "oracle", True)
    assert not bad, "\n".join(bad)


# -- refusals, on a scripted device (Content.java's failure: "Error while accessing provider:" and exit 0)
def _scripted(answers: dict[str, str]) -> Device:
    from spa_bench.device.device import Device
    from spa_bench.device.transport import Request, ScriptedTransport

    def handler(request: Request) -> str:
        if request.service == "service":
            return answers.get("root:", "adbd is already running as root\n")
        for prefix, answer in answers.items():
            if request.command.startswith(prefix):
                return answer
        if request.command.startswith("content query --uri content://com.android.contacts/raw_contacts"):
            return "".join(f"Row: {i} _id={i + 1}\n" for i in range(42))
        return ""

    return Device("emulator-5554", transport=ScriptedTransport(handler))


BOOTED = {"id -u": "0\n", "getprop persist.sys.locale": "en-US\n", "date +%s": "1768469400\n",
          "pm list packages": "package:com.android.deskclock\npackage:com.android.settings\n",
          "content query --uri content://com.android.calendar/calendars": "Row: 0 _id=1\n"}


def test_a_provider_error_stops_seeding_naming_the_device_and_the_step() -> None:
    from spa_bench.errors import DeviceCommandFailed

    refused = "Error while accessing provider:sms\njava.lang.SecurityException: not allowed\n"
    device = _scripted({**BOOTED, "content insert --uri content://sms": refused})
    with pytest.raises(DeviceCommandFailed, match=r"emulator-5554: .*inserting messages.*SecurityException"):
        seed_device(device, lambda path, data: None, "en")


def test_a_device_without_root_is_refused_before_anything_is_written() -> None:
    from spa_bench.errors import DeviceCommandFailed

    device = _scripted({**BOOTED, "root:": "adbd cannot run as root in production builds\n",
                        "id -u": "2000\n"})
    with pytest.raises(DeviceCommandFailed, match=r"emulator-5554: seeding needs adb root"):
        seed_device(device, lambda path, data: None, "en")
    assert not [c for c in device.transport.commands() if c.startswith(("content", "sqlite3", "rm"))]


def test_the_cli_seeds_a_phone_and_refuses_an_unknown_language(phones: Phones,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from cli_helpers import run_cli

    _device(phones[1]).check("setprop persist.sys.locale en-US")  # whatever the tests before left
    bad = run_cli(capsys, "device", "seed", "--serial", phones[1].serial, "--language", "fr")
    assert bad.code == 2 and "--language must be one of en, zh" in bad.err  # a usage error
    done = run_cli(capsys, "device", "seed", "--serial", phones[1].serial, "--language", "en")
    assert done.code == 0, done.err
    assert (f"seeded {phones[1].serial} (en): 42 contacts, 23 messages, 15 calls, 22 events, 8 alarms"
            in done.out)


def test_the_alarms_go_to_the_clock_installed_in_deskclocks_place() -> None:
    """A google_apis image has Google's Clock instead of AOSP's DeskClock (spa_bench.device.packages): its
    alarms.db, the file the runs' checks read through the same package map, gets the alarms."""
    google = "package:com.google.android.deskclock\npackage:com.android.settings\n"
    device = _scripted({**BOOTED, "pm list packages": google})
    report = seed_device(device, lambda path, data: None, "en")
    assert report.counts["alarms"] == 8
    sqlite = [c for c in device.transport.commands() if c.startswith("sqlite3 ")]
    assert len(sqlite) == 1
    assert sqlite[0].startswith("sqlite3 /data/user_de/0/com.google.android.deskclock/databases/alarms.db ")
