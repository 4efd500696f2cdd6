"""The cross-app tasks of Email, Gallery and Camera (tasks/cross_app/mail_gallery_*.yaml) through the
real pipeline: the oracle passes every one on three instances, noop none."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"


def _ids() -> list[str]:
    return [r.id for r in TaskRepository(TASKS).index() if r.file.name.startswith("mail_gallery_")]


def test_the_files_hold_seven_or_more_tasks_per_language() -> None:
    records = [r for r in TaskRepository(TASKS).index() if r.file.name.startswith("mail_gallery_")]
    for lang in ("en", "zh"):
        mine = [r for r in records if r.language == lang]
        assert len(mine) >= 7 and all(r.category == "cross_app" and len(r.packages) >= 2 for r in mine)


@pytest.mark.usefixtures("adb_env")
def test_oracle_passes_noop_fails(tmp_path: Path) -> None:
    ids = _ids()
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], ids=ids, repeats=3)
    assert len(logs) == 2 * 3 * len(ids)
    bad = failures(logs, "oracle", True) + failures(logs, "noop", False)
    assert not bad, "\n".join(bad)
    for log in logs.values():
        if log.agent.name == "oracle":  # every golden step found its target
            assert log.termination in ("done", "infeasible") and all(s.valid for s in log.steps), (
                log.episode_id
            )
