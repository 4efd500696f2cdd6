"""The cross-app tasks of Eats and Phone (tasks/cross_app/eats_phone_*.yaml) through the real pipeline:
the oracle passes three instances of each, noop none."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _ids() -> list[str]:
    return [r.id for r in TaskRepository(TASKS).index() if r.file.name.startswith("eats_phone_")]


@pytest.mark.usefixtures("adb_env")
def test_oracle_passes_noop_fails_on_three_instances(tmp_path: Path) -> None:
    ids = _ids()
    assert len(ids) == 14
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], phones=2, ids=ids, repeats=3)
    assert failures(logs, "oracle", True) == []
    assert failures(logs, "noop", False) == []
    for log in logs.values():  # the oracle got to the end of every golden script, every step found
        if log.agent.name == "oracle":
            invalid = [step.invalid_reason for step in log.steps if not step.valid]
            assert log.termination in ("done", "infeasible") and not invalid, (log.episode_id, invalid)
    assert len(logs) == 2 * 3 * len(ids)
