"""`spa-bench tasks validate`: the shipped tasks pass; each kind of broken file fails with exit 1 and a
message that names the file, the task and the field."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cli_helpers import run_cli

GOOD = textwrap.dedent("""\
    id: {id}
    apps:
      - package: com.android.settings
        name: {{en: Settings, zh: 设置}}
    language: en
    difficulty: 1
    category: single_app
    instruction: Turn off Wi-Fi.
    golden_steps: 3
    key_components: [Wi-Fi]
    checks:
      - type: shell
        command: settings get global wifi_on
        expect: "0"
    """)


def test_shipped_tasks_are_valid(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "validate")
    assert result.code == 0, result.err
    assert "tasks valid" in result.out


def test_a_good_file_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "t.yaml").write_text(GOOD.format(id="good_1"), encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 0, result.err
    assert "1 tasks valid" in result.out


# (name, file text, task label expected in the message, field/words expected in the message)
BROKEN = [
    ("bad_yaml", GOOD.format(id="y_1").replace("language: en", "language: [en"), "", "invalid YAML"),
    ("unknown_field", GOOD.format(id="u_1") + "colour: blue\n", "'u_1'", "unknown field 'colour'"),
    ("wrong_type", GOOD.format(id="w_1").replace("golden_steps: 3", "golden_steps: three"), "'w_1'",
     "field 'golden_steps'"),
    ("bad_language", GOOD.format(id="l_1").replace("language: en", "language: fr"), "'l_1'",
     "field 'language'"),
    ("missing_field", GOOD.format(id="m_1").replace("instruction: Turn off Wi-Fi.\n", ""), "'m_1'",
     "field 'instruction': missing"),
    ("unknown_validator", GOOD.format(id="v_1") + "  - type: validator\n    name: no_such_check\n",
     "'v_1'", "field 'checks.1.name': unknown validator 'no_such_check'"),
    ("bad_check", GOOD.format(id="c_1").replace('expect: "0"', "regex: '(unclosed'"), "'c_1'",
     "field 'checks.0.regex'"),
    ("unknown_check_type", GOOD.format(id="k_1").replace("type: shell", "type: magic"), "'k_1'",
     "field 'checks.0'"),
    ("bad_id", GOOD.format(id="'has space'"), "'has space'", "field 'id'"),
    ("two_apps_single", GOOD.format(id="a_1").replace(
        "language: en", "  - package: com.android.chrome\n    name: {en: Chrome}\nlanguage: en"), "'a_1'",
     "exactly one app"),
    ("nothing_to_judge", GOOD.format(id="n_1").split("key_components")[0], "'n_1'", "key_components"),
    ("undefined_parameter", GOOD.format(id="p_1").replace("Turn off Wi-Fi.", "Set {level}."), "'p_1'",
     "undefined parameters: level"),
    ("bad_package", GOOD.format(id="b_1").replace("com.android.settings", "settings"), "'b_1'",
     "field 'apps.0.package'"),
    ("max_below_golden", GOOD.format(id="x_1") + "max_steps: 2\n", "'x_1'", "max_steps"),
    ("not_a_mapping", "- just a string\n", "", "expected a mapping"),
    ("empty_file", "", "", "empty file"),
]


@pytest.mark.parametrize(("name", "text", "task_label", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_names_file_task_and_field(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               name: str, text: str, task_label: str, field: str) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    (suite / "ok.yaml").write_text(GOOD.format(id="fine_task"), encoding="utf-8")
    bad = suite / f"{name}.yaml"
    bad.write_text(text, encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 1
    err = " ".join(result.err.split())
    assert str(bad) in err
    assert task_label in err
    assert field in err
    assert "fine_task" not in err  # the good file is not blamed


def test_duplicate_id_names_both_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "one.yaml").write_text(GOOD.format(id="same_id"), encoding="utf-8")
    (tmp_path / "b" / "two.yaml").write_text(GOOD.format(id="same_id"), encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 1
    err = " ".join(result.err.split())
    assert "duplicate id" in err and "'same_id'" in err and "field 'id'" in err
    assert "one.yaml" in err and "two.yaml" in err


def test_every_problem_is_reported_not_just_the_first(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.yaml").write_text(GOOD.format(id="a_1") + "colour: red\n", encoding="utf-8")
    (tmp_path / "s" / "b.yaml").write_text(GOOD.format(id="b_1").replace("difficulty: 1", "difficulty: 9"),
                                           encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 1
    assert "a.yaml" in result.err and "b.yaml" in result.err
    assert "2 problem(s)" in result.err


def test_missing_tasks_folder_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "validate", str(tmp_path / "nope"))
    assert result.code == 2
    assert "does not exist" in result.err
    assert "Traceback" not in result.err


def test_the_examples_in_tasks_readme_are_valid(tmp_path: Path) -> None:
    import re

    from spa_bench.tasks.repository import TaskRepository

    readme = Path(__file__).parents[1] / "tasks" / "README.md"
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
              if b.startswith("- id")]
    assert len(blocks) >= 3
    (tmp_path / "docs").mkdir()
    for i, block in enumerate(blocks):
        (tmp_path / "docs" / f"example_{i}.yaml").write_text(block, encoding="utf-8")
    valid, problems = TaskRepository(tmp_path).validate()
    assert problems == []
    assert valid == len(blocks)


def test_tree_under_a_hidden_folder_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tree inside e.g. .venv/site-packages is searched; hidden folders inside the tree are not."""
    root = tmp_path / ".venv" / "tasks"
    (root / "s").mkdir(parents=True)
    (root / "s" / "t.yaml").write_text(GOOD.format(id="hidden_ok"), encoding="utf-8")
    (root / ".cache").mkdir()
    (root / ".cache" / "junk.yaml").write_text("not: a task\n", encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(root))
    assert result.code == 0, result.err
    assert "1 tasks valid" in result.out


def test_folder_without_tasks_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 2
    assert "no task files" in result.err


def test_named_suite_with_unknown_id_is_invalid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "t.yaml").write_text(GOOD.format(id="real_task"), encoding="utf-8")
    (tmp_path / "suites.yaml").write_text("mine:\n  filter:\n    ids: [real_task, ghost_task, 'real_*']\n",
                                          encoding="utf-8")
    result = run_cli(capsys, "tasks", "validate", str(tmp_path))
    assert result.code == 1
    err = " ".join(result.err.split())
    assert "suite 'mine': field 'filter.ids': unknown task id 'ghost_task'" in err
    assert "real_task'" not in err.split("ghost_task")[1]


def test_shipped_task_files_read_the_same_without_libyaml() -> None:
    """The index prefers libyaml's loader; PyYAML's own parser (used where libyaml is missing) must
    read every shipped file the same way (they differ on e.g. an unquoted '?' in a flow list)."""
    import yaml

    root = Path(__file__).resolve().parents[1] / "tasks"
    for path in sorted(root.rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        pure = yaml.load(text, Loader=yaml.SafeLoader)
        if hasattr(yaml, "CSafeLoader"):
            assert pure == yaml.load(text, Loader=yaml.CSafeLoader), path


def test_an_edited_file_is_read_again_and_callers_get_their_own_copy(tmp_path: Path) -> None:
    """Task files are parsed once per content (spa_bench.tasks.repository caches them by path and bytes):
    an edit between two reads is seen even within one tick of the file system's clock, and what
    read_task_file returns can be changed."""
    import os

    from spa_bench.tasks.repository import TaskRepository, read_task_file

    path = tmp_path / "suite" / "t.yaml"
    path.parent.mkdir()
    path.write_text(GOOD.format(id="first_1"), encoding="utf-8")
    repo = TaskRepository(tmp_path)
    assert [r.id for r in repo.index()] == ["first_1"]
    read_task_file(path)[0]["id"] = "changed_by_a_caller"
    assert [r.id for r in repo.index()] == ["first_1"]
    stat = path.stat()
    path.write_text(GOOD.format(id="other_1"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same time, other content
    assert [r.id for r in repo.index()] == ["other_1"]
    assert [t.id for t in repo.load()] == ["other_1"]
