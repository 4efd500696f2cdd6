"""The cross-app suite (Shop, Chat, Calculator, Files with Keep Notes and Contacts) through the real
pipeline: the oracle passes every task, noop none."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import failures, run_suite

pytestmark = pytest.mark.usefixtures("adb_env")


def test_oracle_passes_noop_fails(tmp_path: Path) -> None:
    logs = run_suite(["cross_app"], tmp_path / "results", ["oracle", "noop"])
    assert len(logs) == 48
    assert failures(logs, "oracle", True) == []
    assert failures(logs, "noop", False) == []
