"""The Browser and Maps suites and the cross-app tasks built on them, through the real pipeline: the
oracle passes every task and noop none, on three instances of every parameterised task, in one run.
(The Browser's and Maps' own behaviour is tested in test_browser_app.py and test_maps_app.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"
MINE = ("browser", "maps")
CROSS_FILES = ("web_maps_en.yaml", "web_maps_zh.yaml")


def my_task_ids() -> tuple[list[str], list[str]]:
    """(fixed, parameterised) ids of the Browser, Maps and their cross-app tasks."""
    records = [r for r in TaskRepository(TASKS).index() if r.suite in MINE or r.file.name in CROSS_FILES]
    return ([r.id for r in records if not r.parameterised], [r.id for r in records if r.parameterised])


@pytest.mark.usefixtures("adb_env")
def test_oracle_passes_noop_fails_on_three_instances(tmp_path: Path) -> None:
    fixed, drawn = my_task_ids()
    assert len(fixed) + len(drawn) >= 50 and len(drawn) >= 0.9 * (len(fixed) + len(drawn))
    logs = run_suite([], tmp_path / "run", ["oracle", "noop"], phones=2, ids=drawn + fixed, repeats=3)
    assert failures(logs, "oracle", True) == []
    assert failures(logs, "noop", False) == []
    for log in logs.values():
        if log.agent.name == "oracle":  # every golden step found its target; infeasible ones said so
            infeasible = any(c.type == "finish" for c in log.task.checks)
            assert log.termination == ("infeasible" if infeasible else "done"), log.episode_id
            assert all(s.valid for s in log.steps), log.episode_id
    for task_id in drawn:  # three instances, not one drawn three times
        values = {repr(log.instance.parameters) for log in logs.values()
                  if log.agent.name == "oracle" and log.task.id == task_id}
        assert len(values) > 1, task_id
