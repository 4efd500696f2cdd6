"""The portable suite: at least 40 tasks per language, every one audited to read only what a stock
Android 14 emulator image has (spa_bench.tasks.portable), and on a real emulator (opt-in:
SPA_BENCH_DEVICE=SERIAL, `-m device`): every check's read answered by the stock providers, and the oracle
at 100%. On the virtual phone its tasks run with all the others (oracle 100%, noop 0%, three instances
of each parameterised one) in tests/tasks/test_every_task.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pim_runs import failures

from spa_bench.tasks.checks import (
    AnswerCheck,
    Check,
    ContentQueryCheck,
    ShellCheck,
    SqliteCheck,
    ValidatorCheck,
)
from spa_bench.tasks.model import Task
from spa_bench.tasks.portable import DESKCLOCK_DB, PORTABLE_TAG, check_problem, portability_problems
from spa_bench.tasks.repository import TaskFilter, TaskRepository

TASKS = Path(os.environ.get("SPA_BENCH_TASKS") or Path(__file__).resolve().parents[2] / "tasks")
PER_LANGUAGE = 40
INSTANCES = 3  # audited per parameterised task: parameters may reach a check's query


def _portable_tasks() -> list[Task]:
    repo = TaskRepository(TASKS)
    return repo.load(repo.select(TaskFilter(suites=["portable"])))


def test_the_portable_suite_is_the_tag_and_has_40_tasks_per_language() -> None:
    repo = TaskRepository(TASKS)
    suite = {r.id for r in repo.select(TaskFilter(suites=["portable"]))}
    tagged = {r.id for r in repo.index() if PORTABLE_TAG in r.tags}
    assert suite == tagged
    for language in ("en", "zh"):
        count = len(repo.select(TaskFilter(suites=["portable"], languages=[language])))
        assert count >= PER_LANGUAGE, f"{count} portable {language} tasks"


def test_every_portable_task_reads_only_stock_sources() -> None:
    """The guard of the tag: each check of each instance passes the audit."""
    problems = []
    for task in _portable_tasks():
        for i in range(INSTANCES if task.parameters else 1):
            instance = task.instantiate(7, i)[0]
            problems += [f"{task.id} (instance {i}): {p}" for p in portability_problems(instance)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("check", "reason"), [
    (SqliteCheck(db="/data/data/com.android.providers.calendar/databases/calendar.db",
                 query="SELECT count(*) FROM events", expect_count=1), "only stock database"),
    (SqliteCheck(db="/data/data/com.android.deskclock/databases/alarms.db",  # credential storage
                 query="SELECT count(*) FROM alarm_templates", expect_count=1), "only stock database"),
    (SqliteCheck(db=DESKCLOCK_DB, query="SELECT length_ms FROM timers", expect_count=1), "tables"),
    (SqliteCheck(db=DESKCLOCK_DB, query="SELECT city FROM alarm_templates", expect_count=1), "['city']"),
    (ContentQueryCheck(uri="content://com.android.contacts/data/phones", projection=["number"],
                       expect_count=1), "['number']"),  # Phone.NUMBER is data1
    (ContentQueryCheck(uri="content://com.android.contacts/contacts", where="nickname = 'x'",
                       expect_count=0), "['nickname']"),
    (ContentQueryCheck(uri="content://com.example.notes/notes", expect_count=0), "not one of the stock"),
    (ShellCheck(command="cat /data/data/com.android.deskclock/shared_prefs/x.xml", expect="1"), "/sdcard"),
    (ShellCheck(command="ls /sdcard/../data", expect="1"), "/sdcard"),
    (ShellCheck(command="ls /sdcard/Download; rm -r /sdcard", expect="1"), "only one ls/cat/stat"),
    (ShellCheck(command="dumpsys notification", regex="x"), "settings get"),
    (ShellCheck(command="settings put global wifi_on 0", expect=""), "settings get"),
    (ValidatorCheck(name="file_exists", args={"path": "/data/local/tmp/x"}), "not under /sdcard"),
])
def test_the_audit_refuses_what_a_stock_image_lacks(check: Check, reason: str) -> None:
    problem = check_problem(check)
    assert problem is not None and reason in problem, problem


@pytest.mark.parametrize("check", [
    ShellCheck(command="settings get secure ui_night_mode", expect="2"),
    ShellCheck(command="getprop persist.sys.locale", regex="^zh"),
    ShellCheck(command="ls /sdcard/Download | wc -l", expect="19"),
    ShellCheck(command="stat -c %s /sdcard/Documents/a.txt", expect="3"),
    SqliteCheck(db=DESKCLOCK_DB, query="SELECT count(*), sum(enabled) FROM alarm_templates WHERE "
                                       "hour = 7 AND label = 'Gym'", expect_count=1),
    ContentQueryCheck(uri="content://com.android.calendar/events", projection=["title"],
                      where="deleted = 0 AND dtstart = (strftime('%s', date('now', '+1 day')) + 3600) * 1000",
                      expect_count=1),
    ContentQueryCheck(uri="content://sms/sent", projection=["address", "body"],
                      where="body LIKE '%gate%'", expect_count=1),
    ContentQueryCheck(uri="content://call_log/calls", projection=["number", "type"], expect_count=0),
    ValidatorCheck(name="file_absent", args={"path": "/sdcard/Download/invoice.pdf"}),
    AnswerCheck(kind="number", expect="42"),
])
def test_the_audit_accepts_stock_reads(check: Check) -> None:
    assert check_problem(check) is None


@pytest.mark.device
def test_portable_suite_oracle_on_a_real_emulator(tmp_path: Path) -> None:
    """On an emulator (SPA_BENCH_DEVICE=SERIAL, e.g. 127.0.0.1:15555 from docker/'s farm.json, with
    SPA_BENCH_CONSOLE_PORT=15554 for its snapshot resets; emulator-N serials name their own): the oracle's
    golden scripts and the checks of every portable task, expected 100% as on the virtual phone. Not run
    on an emulator where this was written (none there); docker/README.md says what the image must hold."""
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import run_benchmark

    serial = os.environ["SPA_BENCH_DEVICE"]
    console = os.environ.get("SPA_BENCH_CONSOLE_PORT")
    result = run_benchmark(RunConfig(filter=TaskFilter(suites=["portable"]), tasks_dir=TASKS,
                                     agents=[AgentConfig(agent="oracle")], devices=[serial],
                                     console_ports={serial: int(console)} if console else {},
                                     out=tmp_path / "results"))
    logs = {log.episode_id: log for log in result.logs}
    assert len(logs) == len(_portable_tasks()), result.summary.undone
    errored = [f"{log.episode_id}: {[e.message for e in log.errors]}" for log in logs.values() if log.errors]
    assert not errored, "\n".join(errored)
    bad = failures(logs, "oracle", True)
    assert not bad, "\n".join(bad)


@pytest.mark.device
def test_portable_checks_are_answered_by_a_real_emulator() -> None:
    """Each read a portable check makes, run on the emulator as root: the provider knows the URI and the
    columns (`content query` prints rows or "No result found.", not "Error while accessing provider"),
    sqlite3 exists and finds DeskClock's tables, `settings get` and `getprop` answer. This needs no seeded
    data and no app UI, so it tells a schema mismatch apart from everything else. Package names in the
    reads are the emulator's (Google's Clock keeps alarms.db under its own package), as in a run."""
    from spa_bench.device.content import ContentQueryFailed, content_query_command, parse_content_rows
    from spa_bench.evaluation.capture import mapped
    from spa_bench.evaluation.state_checks import sqlite_command
    from spa_bench.runner.pool import connect_devices

    emulator = connect_devices([os.environ["SPA_BENCH_DEVICE"]]).devices[0]  # as a run does: adb root
    assert emulator.run("id -u").output.strip() == "0", "adb root refused: a userdebug image is needed"
    device = mapped(emulator, emulator.package_map())
    problems: list[str] = []
    for task in _portable_tasks():
        for check in task.instantiate(7)[0].checks:
            if check.type == "content_query":
                command = content_query_command(check.uri, check.projection, check.where)
                try:
                    parse_content_rows(device.shell(command))
                except ContentQueryFailed as exc:
                    problems.append(f"{task.id}: {command}: {exc}")
            elif check.type == "sqlite":
                result = device.run(sqlite_command(check.db, check.query))
                if result.exit_code != 0:
                    problems.append(f"{task.id}: sqlite3 {check.db}: {result.output.strip()[:200]}")
            elif check.type == "shell" and check.command.split()[0] in ("settings", "getprop"):
                result = device.run(check.command)
                if result.exit_code != 0:
                    problems.append(f"{task.id}: {check.command}: exit {result.exit_code}")
    assert not problems, "\n".join(problems)
