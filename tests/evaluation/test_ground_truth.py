"""The ground truth on canned device output in the real formats, without a phone: `content query` rows
(a capture from a real device), `sqlite3` output made by the real sqlite3 program with our separators and
NULLs, `settings get` values of a real device's settings (and AOSP's "null" for an unset key), answers
with units, commas and Chinese numerals, and the file validators on toybox's output. Each passes on the
right output and fails on a near miss."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest
from spa_bench.evaluators.validators import file_contains, file_exists

from spa_bench.device.content import ContentQueryFailed, parse_content_rows
from spa_bench.evaluation.capture import Output
from spa_bench.evaluation.state_checks import run_check, sqlite_command
from spa_bench.tasks.checks import AnswerCheck, ContentQueryCheck, FinishCheck, ShellCheck, SqliteCheck

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures" / "shell"


def capture(relative: str) -> str:
    path = CAPTURES / relative
    if not path.is_file():
        pytest.skip(f"reference capture {path} is absent (the shared/ folder beside the repository)")
    return path.read_text(encoding="utf-8")


class CannedDevice:
    """Answers exactly the commands it was given output for; any other command is a test failure."""

    def __init__(self, outputs: dict[str, str | tuple[str, int]]) -> None:
        self.outputs = outputs
        self.asked: list[str] = []

    def run(self, command: str) -> Output:
        self.asked.append(command)
        if command not in self.outputs:
            raise AssertionError(f"unexpected command {command!r}")
        value = self.outputs[command]
        return Output(*value) if isinstance(value, tuple) else Output(value, 0)

    def shell(self, command: str) -> str:
        return self.run(command).output


# -- content query -------------------------------------------------------------------------------------

NOTES_URI = "content://com.threebanana.notes.provider.NotePad/topnotes"


def notes_output() -> str:
    """The rows a real device printed for one URI (the capture holds two queries; the first is rows)."""
    text = capture("content_query/nixawk_hellobash_pr5_content_query_row_and_error.txt")
    first, _, _ = text.partition("\n\n")
    return first


def test_content_rows_of_a_real_device_parse_with_nulls_empties_and_spaces() -> None:
    [row] = parse_content_rows(notes_output())
    assert row["_id"] == "1" and row["owner"] == "Me"
    assert row["source"] == "NULL" and row["hashcodes"] == ""  # null and empty, as the device prints them
    assert row["text"] == "Password: helloworld"  # a value with ': ' and a space stays whole
    assert row["parent_nodeid"] == "-1" and len(row) == 35


@pytest.mark.parametrize(("expect", "passed"), [
    ({"_id": 1, "owner": "Me"}, True),
    ({"text": "Password: helloworld", "source": None}, True),  # None is compared as the device's NULL
    ({"_id": 2}, False),  # near miss: another row id
    ({"owner": "me"}, False),  # near miss: case differs
    ({"text": "Password: hello"}, False),  # near miss: a prefix of the value
    ({"source": ""}, False),  # near miss: NULL is not the empty string
])
def test_content_query_check_on_real_rows(expect: dict[str, object], passed: bool) -> None:
    check = ContentQueryCheck(uri=NOTES_URI, expect_rows=[expect])  # type: ignore[list-item]
    device = CannedDevice({f"content query --uri {NOTES_URI}": notes_output()})
    assert run_check(check, device, None).passed is passed


def test_a_provider_error_is_not_an_empty_result() -> None:
    """`content query` prints the provider's exception and exits 0; "no rows" must not pass on it."""
    text = capture("content_query/nixawk_hellobash_pr5_content_query_row_and_error.txt")
    _, _, error = text.partition("\n\n")
    assert "Error while accessing provider" in error
    with pytest.raises(ContentQueryFailed, match="Error while accessing provider"):
        parse_content_rows(error)
    uri = "content://com.threebanana.notes.provider.NotePad/notes_nodeid"
    check = ContentQueryCheck(uri=uri, expect_count=0)
    with pytest.raises(ContentQueryFailed):
        run_check(check, CannedDevice({f"content query --uri {uri}": error}), None)


def test_no_result_found_is_zero_rows() -> None:
    # AOSP Content.java QueryCommand prints "No result found." when the cursor is empty
    uri = "content://com.android.contacts/contacts"
    device = CannedDevice({f"content query --uri {uri}": "No result found.\n"})
    assert run_check(ContentQueryCheck(uri=uri, expect_count=0), device, None).passed
    assert not run_check(ContentQueryCheck(uri=uri, expect_count=1), device, None).passed


# -- sqlite3 -------------------------------------------------------------------------------------------

DB = "/data/data/com.example.notes/databases/notes.db"
QUERY = "SELECT title, folder, body FROM notes ORDER BY id"


@pytest.fixture(scope="module")
def sqlite_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What the real sqlite3 program prints for our command, on rows with NULLs, an empty string, and
    values holding '|', commas and a newline (the reason for the unit and record separators)."""
    if shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 program is not installed")
    db = tmp_path_factory.mktemp("sqlite") / "notes.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT, folder TEXT, body TEXT)")
        conn.executemany("INSERT INTO notes (title, folder, body) VALUES (?, ?, ?)", [
            ("Groceries", None, "milk, eggs | bread"), ("会议", "工作", "line one\nline two"),
            ("Empty", "", None)])
    command = sqlite_command(str(db), QUERY)
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=30, check=True)
    return done.stdout


def test_sqlite_rows_with_separators_and_nulls(sqlite_output: str) -> None:
    assert "\x1f" in sqlite_output and "\x1e" in sqlite_output and "NULL" in sqlite_output
    expected = [["Groceries", None, "milk, eggs | bread"], ["会议", "工作", "line one\nline two"],
                ["Empty", "", None]]
    check = SqliteCheck(db=DB, query=QUERY, expect_rows=expected, ordered=True)  # type: ignore[arg-type]
    device = CannedDevice({sqlite_command(DB, QUERY): sqlite_output})
    result = run_check(check, device, None)
    assert result.passed, result.evidence.summary
    assert run_check(SqliteCheck(db=DB, query=QUERY, expect_count=3), device, None).passed


GROCERIES = ["Groceries", None, "milk, eggs | bread"]
MEETING = ["会议", "工作", "line one\nline two"]
EMPTY = ["Empty", "", None]


@pytest.mark.parametrize("expected", [
    [["Groceries", "NULL ", "milk, eggs | bread"], MEETING, EMPTY],
    [GROCERIES, ["会议", "工作", "line one"], EMPTY],
    [GROCERIES, MEETING, ["Empty", None, None]],
    [GROCERIES, MEETING],
    [EMPTY, MEETING, GROCERIES],
], ids=["null-is-not-text", "newline-in-value", "empty-is-not-null", "missing-row", "order"])
def test_sqlite_near_misses_fail(sqlite_output: str, expected: list[list[object]]) -> None:
    check = SqliteCheck(db=DB, query=QUERY, expect_rows=expected, ordered=True)  # type: ignore[arg-type]
    assert not run_check(check, CannedDevice({sqlite_command(DB, QUERY): sqlite_output}), None).passed


def test_sqlite_unordered_rows_and_a_failing_program(sqlite_output: str) -> None:
    rows = [EMPTY, MEETING, GROCERIES]
    check = SqliteCheck(db=DB, query=QUERY, expect_rows=rows)  # type: ignore[arg-type]
    assert run_check(check, CannedDevice({sqlite_command(DB, QUERY): sqlite_output}), None).passed
    failing = CannedDevice({sqlite_command(DB, QUERY): ("Error: no such table: notes\n", 1)})
    result = run_check(SqliteCheck(db=DB, query=QUERY, expect_count=0), failing, None)
    assert not result.passed and "no such table" in result.evidence.summary


# -- settings get --------------------------------------------------------------------------------------

def real_setting(namespace: str, key: str) -> str:
    """A value from a real device's `settings list` (Redmi 9T, Android 12); `settings get` prints it."""
    text = capture(f"settings_list/redmi_9t_android12_settings_list_{namespace}.txt")
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name == key:
            return value
    raise AssertionError(f"{key} is not in the capture")


@pytest.mark.parametrize(("key", "expect", "passed"), [
    ("wifi_on", "1", True), ("wifi_on", "0", False), ("airplane_mode_on", "0", True),
    ("airplane_mode_on", "00", False), ("bluetooth_on", "0", True), ("adb_enabled", "1", True),
])
def test_settings_get_on_real_values(key: str, expect: str, passed: bool) -> None:
    command = f"settings get global {key}"
    device = CannedDevice({command: real_setting("global", key) + "\n"})
    assert run_check(ShellCheck(command=command, expect=expect), device, None).passed is passed


def test_settings_get_of_an_unset_key_is_null() -> None:
    # AOSP SettingsService prints the value of a missing key as "null"
    command = "settings get secure ui_night_mode"
    device = CannedDevice({command: "null\n"})
    assert run_check(ShellCheck(command=command, expect="null"), device, None).passed
    assert not run_check(ShellCheck(command=command, expect="2"), device, None).passed
    assert not run_check(ShellCheck(command=command, expect=""), device, None).passed
    assert not run_check(ShellCheck(command=command, regex=r"^\d+$"), device, None).passed


def test_shell_exit_code_is_compared() -> None:
    command = "ls /sdcard/Download/report.pdf"
    missing = CannedDevice({command: ("ls: /sdcard/Download/report.pdf: No such file or directory\n", 1)})
    assert not run_check(ShellCheck(command=command, regex="report"), missing, None).passed
    present = CannedDevice({command: ("/sdcard/Download/report.pdf\n", 0)})
    assert run_check(ShellCheck(command=command, regex="report"), present, None).passed


# -- answers -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("expect", "answer", "passed"), [
    ("58213", "There are 58,213 files.", True),
    ("58213", "58213", True),
    ("58213", "5,821 files", False),  # near miss: a digit short
    ("58213", "58.213", False),  # near miss: a decimal point is not a thousands separator
    ("34.99", "It costs $34.99.", True),
    ("34.99", "¥34.9", False),
    ("76.5", "结果是76.5元", True),
    ("76.5", "结果是 765", False),
    ("14", "Android 版本是 14", True),
    ("14", "Android 141", False),
    ("35", "三十五", True),
    ("35", "共三十五个", True),
    ("35", "三十", False),
    ("35", "三百五", False),
    ("12000", "一万二千步", True),
    ("105", "一百零五", True),
    ("3.5", "三点五公里", True),
    ("3.5", "3,5 km", False),  # "3,5" is 3 and 5, never 3.5
    ("35", "－３５", False),  # full-width minus and digits: -35, not 35
    ("35", "３５℃", True),
])
def test_number_answers(expect: str, answer: str, passed: bool) -> None:
    check = AnswerCheck(kind="number", expect=[expect])
    # the answer's words asked for (the question's words may frame a value): only the reading of numbers
    # counts here
    assert run_check(check, CannedDevice({}), answer, question=answer).passed is passed


@pytest.mark.parametrize(("check", "answer", "passed"), [
    (AnswerCheck(kind="text", expect=["Paris"]), "paris.", True),
    (AnswerCheck(kind="text", expect=["Paris"]), "Paris, France", False),
    (AnswerCheck(kind="text", expect=["北京"]), "北京。", True),
    (AnswerCheck(kind="text", expect=["北京"]), "答案是北京市", True),
    (AnswerCheck(kind="text", expect=["北京"]), "南京", False),
    (AnswerCheck(kind="text", expect=["ＡＢＣ"]), "abc", True),  # full-width folds to half-width
    (AnswerCheck(kind="time", expect=["07:30"]), "07:30", True),
    (AnswerCheck(kind="time", expect=["07:30"]), "7:30", True),
    (AnswerCheck(kind="time", expect=["07:30"]), "17:30", False),
    (AnswerCheck(kind="text", expect=[r"^7:30$"], match="regex"), "17:30", False),
])
def test_text_answers(check: AnswerCheck, answer: str, passed: bool) -> None:
    assert run_check(check, CannedDevice({}), answer, question=answer).passed is passed


def test_no_answer_fails() -> None:
    check = AnswerCheck(kind="number", expect=["14"])
    assert not run_check(check, CannedDevice({}), None).passed
    assert not run_check(check, CannedDevice({}), "  ").passed


# -- validators on toybox output -----------------------------------------------------------------------

PATH = "/sdcard/Documents/notes.txt"
EXISTS = f"ls -d {PATH} >/dev/null 2>&1 && echo yes || echo no"


def test_file_validators() -> None:
    there = CannedDevice({EXISTS: "yes\n", f"cat {PATH} 2>/dev/null": "buy milk\nsee you at 7:30\n"})
    assert file_exists(there, {"path": PATH}).passed
    assert file_contains(there, {"path": PATH, "text": "7:30"}).passed
    assert not file_contains(there, {"path": PATH, "text": "8:30"}).passed
    gone = CannedDevice({EXISTS: "no\n"})
    assert not file_exists(gone, {"path": PATH}).passed
    # near miss: cat's error text of a missing file must not pass for its content
    assert not file_contains(gone, {"path": PATH, "text": "No such file"}).passed
    with pytest.raises(ValueError, match="path"):
        file_exists(there, {"path": ""})


@pytest.mark.parametrize(("status", "passed"), [("infeasible", True), ("done", False), ("max_steps", False),
                                                (None, False)])
def test_finish_check_reads_how_the_agent_ended(status: str | None, passed: bool) -> None:
    result = run_check(FinishCheck(status="infeasible"), CannedDevice({}), None, status)
    assert result.passed is passed
    assert (result.evidence.details or {})["status"] == status
