"""The cross-app suite (Shop, Chat, Calculator, Files with Keep Notes and Contacts) through the real
pipeline: the oracle passes every task, noop none. Only the tasks of `cross_app/en.yaml` and `zh.yaml`:
the newer apps' cross-app files (`cross_app/<topic>_<lang>.yaml`) are run by their own app tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import read_task_file

pytestmark = pytest.mark.usefixtures("adb_env")
CROSS_APP = Path(__file__).resolve().parents[2] / "tasks" / "cross_app"
FILES = [CROSS_APP / "en.yaml", CROSS_APP / "zh.yaml"]


def test_oracle_passes_noop_fails(tmp_path: Path) -> None:
    ids = [str(task["id"]) for path in FILES for task in read_task_file(path)]
    assert len(ids) == 24
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], ids=ids)
    assert len(logs) == 48
    assert failures(logs, "oracle", True) == []
    assert failures(logs, "noop", False) == []
