"""Errors that name the file, field or value and list what is allowed, with "did you mean" (issue 35,
requirement 3); an unreachable device fails at once with the OS's reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import free_port, run_cli

from spa_bench.tasks.repository import default_tasks_root

CHECK_TYPES = "shell, sqlite, content_query, answer, finish, ask_user, validator"


def _tree_with(tmp_path: Path, old: str, new: str) -> Path:
    """A task tree of the shipped clock tasks with `old` replaced by `new` once."""
    source = (default_tasks_root() / "clock" / "en.yaml").read_text()
    assert old in source
    (tmp_path / "clock").mkdir(parents=True)
    (tmp_path / "clock" / "en.yaml").write_text(source.replace(old, new, 1))
    return tmp_path


def test_a_check_without_type_lists_the_check_types(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    tree = _tree_with(tmp_path, "    - type: sqlite\n", "    - kind: sqlite\n")
    result = run_cli(capsys, "tasks", "validate", "--tasks-dir", str(tree))
    assert result.code == 1
    assert (f"en.yaml: task 'clock_alarm_off_en': field 'checks.0': a check needs 'type', one of: "
            f"{CHECK_TYPES}") in result.err
    assert "discriminator" not in result.err


def test_a_misspelt_tag_field_or_value_gets_did_you_mean(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    tree = _tree_with(tmp_path, "    - type: sqlite\n", "    - types: sqlite\n")
    result = run_cli(capsys, "tasks", "validate", str(tree))
    assert "did you mean 'type' for 'types'?" in result.err
    other = _tree_with(tmp_path / "b", "    - type: sqlite\n", "    - type: sqllite\n")
    result = run_cli(capsys, "tasks", "validate", str(other))
    assert (f"field 'checks.0': unknown check type 'sqllite'; did you mean 'sqlite'? (one of: "
            f"{CHECK_TYPES})") in result.err
    action = _tree_with(tmp_path / "c", "{type: scroll, direction: down}", "{type: scrol, direction: down}")
    result = run_cli(capsys, "tasks", "validate", str(action))
    assert "field 'golden_script.0': unknown action type 'scrol'; did you mean 'scroll'?" in result.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--lang", "fr"), "--lang 'fr': not one of en, zh"),
        (("--category", "single"), "--category 'single': not one of single_app, cross_app; did you mean "
                                   "'single_app'?"),
        (("--suite", "startr"), "unknown suite 'startr'; did you mean 'starter'?"),
        (("--app", "clok"), "--app 'clok': no task in"),
        (("--app", "clok"), "did you mean 'Clock'?"),
        (("--tag", "retrival"), "did you mean 'retrieval'?"),
        (("--difficulty", "4"), "--difficulty '4': no task in"),
        (("--task", "clock_alarm_of_en"), "did you mean 'clock_alarm_off_en'?"),
    ],
)
def test_a_filter_value_no_task_has_is_named(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                             message: str) -> None:
    for command in (("tasks", "list"), ("run", "--out", "/nonexistent/never-written")):
        result = run_cli(capsys, *command, *args)
        assert result.code == 2 and message in result.err, (command, result.err)


def test_a_misspelt_probe_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "verify", "--probe", "orcle")
    assert result.code == 2 and "--probe 'orcle': not a probe; did you mean 'oracle'?" in result.err


@pytest.mark.usefixtures("adb_env")
def test_an_unreachable_device_says_why(results_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    serial = f"127.0.0.1:{free_port()}"  # nothing listens there
    result = run_cli(capsys, "run", "--device", serial, "--task", "clock_alarm_off_en", "--agent", "noop",
                     "--out", str(results_dir))
    assert result.code == 1
    assert f"{serial}: cannot connect: failed to connect to '{serial}'" in result.err
    assert "Connection refused" in result.err and "not online" not in result.err


def test_a_run_option_value_is_named_as_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", "--executor", "rey", "--agent", "noop", "--out", "/nonexistent/never")
    assert result.code == 2
    assert "--executor 'rey': not one of local, ray; did you mean 'ray'?" in result.err


def test_a_misspelt_task_id_gets_did_you_mean(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "show", "clock_alarm_of_en")
    assert result.code == 2 and "no task with id 'clock_alarm_of_en'" in result.err
    assert "did you mean 'clock_alarm_off_en'?" in result.err
