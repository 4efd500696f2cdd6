"""The cross-app suite's first files (Shop, Chat, Calculator, Files with Keep Notes and Contacts:
tasks/cross_app/en.yaml and zh.yaml) through the real pipeline: the oracle passes every task, noop none.
The cross-app tasks of newer apps live in their own files there and are run by those apps' test modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import read_task_file

pytestmark = pytest.mark.usefixtures("adb_env")
CROSS_APP = Path(__file__).resolve().parents[2] / "tasks" / "cross_app"


def test_oracle_passes_noop_fails(tmp_path: Path) -> None:
    ids = [raw["id"] for name in ("en.yaml", "zh.yaml") for raw in read_task_file(CROSS_APP / name)]
    assert len(ids) == 24
    logs = run_suite([], tmp_path / "results", ["oracle", "noop"], ids=ids)
    assert len(logs) == 48
    assert failures(logs, "oracle", True) == []
    assert failures(logs, "noop", False) == []
