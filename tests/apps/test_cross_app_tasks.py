"""The cross-app suite's first files (Shop, Chat, Calculator, Files with Keep Notes and Contacts:
tasks/cross_app/en.yaml and zh.yaml) through the real pipeline: the oracle passes every task - three
instances of each parameterised one - and noop none. The cross-app tasks of newer apps live in their own
files there and are run by those apps' test modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import assert_oracle_and_noop_instances, task_ids

pytestmark = pytest.mark.usefixtures("adb_env")


def test_oracle_passes_noop_fails(tmp_path: Path) -> None:
    ids = task_ids("cross_app/en.yaml", "cross_app/zh.yaml")
    assert len(ids) == 24
    assert_oracle_and_noop_instances(ids, tmp_path / "results")
