"""One CLI grammar (issue 35, requirement 3): the same option means the same thing in every command that
has it; flags show as flags; `--version` takes nothing; `--limit` and `--sample` narrow a selection."""

from __future__ import annotations

import json
from typing import Any

import pytest
import typer
from cli_helpers import run_cli

from spa_bench import __version__
from spa_bench.cli import app

FILTERS = {"--tasks-dir", "--suite", "--lang", "--app", "--difficulty", "--category", "--tag", "--task",
           "--portable", "--limit", "--sample", "--seed"}
# commands that select tasks, by their words after `spa-bench`
SELECTING = (("run",), ("tasks", "list"), ("tasks", "verify"))
# commands whose main product --out/-o names
PRODUCING = (("run",), ("report",), ("evaluate",), ("tasks", "verify"), ("tasks", "import-spa-bench"))


def _command(*words: str) -> Any:
    command: Any = typer.main.get_command(app)
    for word in words:
        command = command.commands[word]
    return command


def _options(*words: str) -> dict[str, Any]:
    """Each option string of the command -> its parameter."""
    return {opt: param for param in _command(*words).params for opt in (*param.opts, *param.secondary_opts)}


def _all_commands(command: Any, words: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [words]
    for name, sub in getattr(command, "commands", {}).items():
        found += _all_commands(sub, (*words, name))
    return found


@pytest.mark.parametrize("words", SELECTING)
def test_every_selecting_command_takes_every_filter(words: tuple[str, ...]) -> None:
    assert set(_options(*words)) >= FILTERS, FILTERS - set(_options(*words))


def test_repeats_and_seeds_are_one_option_and_phones_one_default() -> None:
    run, verify = _options("run"), _options("tasks", "verify")
    for options in (run, verify):
        assert options["--repeats"] is options["--seeds"]
    assert run["--phones"].default == verify["--phones"].default


@pytest.mark.parametrize("words", PRODUCING)
def test_out_and_o_are_one_option_that_names_the_product(words: tuple[str, ...]) -> None:
    options = _options(*words)
    assert options["--out"] is options["-o"]
    help_text = options["--out"].help or ""
    assert help_text.startswith("Where the product goes") or words == ("tasks", "import-spa-bench"), help_text


def test_no_command_help_shows_a_bool_placeholder(capsys: pytest.CaptureFixture[str]) -> None:
    commands = _all_commands(typer.main.get_command(app))
    assert len(commands) > 20
    for words in commands:
        result = run_cli(capsys, *words, "--help")
        assert result.code == 0, (words, result.err)
        assert "--help" in result.out and "<bool>" not in result.out, words


def test_version_is_a_flag(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "--version")
    assert (result.code, result.out.strip()) == (0, f"spa-bench {__version__}")
    result = run_cli(capsys, "--version", "true")
    assert result.code == 2 and "--version takes no value" in result.err and "'true'" in result.err
    assert __version__ not in result.out


def _listed(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    result = run_cli(capsys, "tasks", "list", "--json", *args)
    assert result.code == 0, result.err
    return [json.loads(line)["id"] for line in result.out.splitlines()]


def test_limit_and_sample_narrow_the_selection(capsys: pytest.CaptureFixture[str]) -> None:
    everything = _listed(capsys, "--lang", "en")
    assert _listed(capsys, "--lang", "en", "--limit", "3") == everything[:3]
    first = _listed(capsys, "--lang", "en", "--sample", "5", "--seed", "1")
    assert len(first) == 5 and set(first) <= set(everything)
    assert [i for i in everything if i in first] == first  # kept in list order
    assert _listed(capsys, "--lang", "en", "--sample", "5", "--seed", "1") == first
    assert _listed(capsys, "--lang", "en", "--sample", "5", "--seed", "2") != first
    assert _listed(capsys, "--lang", "en", "--sample", "5", "--seed", "1", "--limit", "2") == first[:2]
    assert _listed(capsys, "--task", "clock_*", "--sample", "10000") == _listed(capsys, "--task", "clock_*")


def test_validate_takes_tasks_dir_as_the_other_commands_do(capsys: pytest.CaptureFixture[str]) -> None:
    from spa_bench.tasks.repository import default_tasks_root

    folder = default_tasks_root() / "clock"
    by_option = run_cli(capsys, "tasks", "validate", "--tasks-dir", str(folder))
    by_path = run_cli(capsys, "tasks", "validate", str(folder))
    assert by_option.code == by_path.code == 0
    assert by_option.out == by_path.out and "tasks valid" in by_option.out
