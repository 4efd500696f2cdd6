"""Selecting tasks by suite: a folder of the tree is a suite, suites.yaml names others by a filter (and wins
over a folder of the same name), and a suite nobody has is an error naming the closest one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from spa_bench.errors import ConfigError
from spa_bench.tasks.repository import TaskFilter, TaskRepository


def _task(task_id: str, difficulty: int) -> dict[str, object]:
    return {"id": task_id, "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
            "language": "en", "difficulty": difficulty, "category": "single_app",
            "instruction": "Turn Wi-Fi off.", "golden_steps": 2,
            "checks": [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}]}


@pytest.fixture
def repo(tmp_path: Path) -> TaskRepository:
    for folder, tasks in {"alpha": [_task("a1", 1), _task("a2", 2)], "beta": [_task("b1", 1)],
                          "gamma": [_task("g1", 3)]}.items():
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "en.yaml").write_text(yaml.safe_dump(tasks), "utf-8")
    suites = {"easy": {"filter": {"difficulties": [1]}},
              "gamma": {"filter": {"ids": ["a2"]}},  # a named suite shadows the folder of its name
              "both": {"filter": {"suites": ["alpha", "easy"]}}}
    (tmp_path / "suites.yaml").write_text(yaml.safe_dump(suites), "utf-8")
    return TaskRepository(tmp_path)


def _ids(repo: TaskRepository, *suites: str) -> list[str]:
    return [r.id for r in repo.select(TaskFilter(suites=list(suites)))]


def test_folders_and_named_suites_select_their_tasks(repo: TaskRepository) -> None:
    assert _ids(repo, "alpha") == ["a1", "a2"]
    assert _ids(repo, "easy") == ["a1", "b1"]
    assert _ids(repo, "beta", "easy") == ["a1", "b1"]
    assert _ids(repo, "gamma") == ["a2"]
    assert _ids(repo, "both") == ["a1", "a2", "b1"]
    assert [r.id for r in repo.select(TaskFilter(suites=["alpha"], difficulties=[2]))] == ["a2"]


def test_an_unknown_suite_is_an_error_with_the_closest_name(repo: TaskRepository) -> None:
    with pytest.raises(ConfigError, match=r"unknown suite 'alpah'; did you mean 'alpha'\?"):
        repo.select(TaskFilter(suites=["alpah"]))
    with pytest.raises(ConfigError, match="unknown suite 'delta'"):  # even beside a known one
        repo.select(TaskFilter(suites=["alpha", "delta"]))


def test_a_named_suite_over_an_unknown_folder_is_an_error(repo: TaskRepository, tmp_path: Path) -> None:
    mine = {"mine": {"filter": {"suites": ["nowhere"]}}}
    (tmp_path / "suites.yaml").write_text(yaml.safe_dump(mine), "utf-8")
    with pytest.raises(ConfigError, match="unknown suite 'nowhere'"):
        TaskRepository(tmp_path).select(TaskFilter(suites=["mine"]))
