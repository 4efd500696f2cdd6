"""`tasks verify` says where a broken task's oracle went wrong (issue 35): the failing golden step, its action
and the cause, or, when every step ran, the checks that failed - through the real CLI on the shared phones."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from cli_helpers import run_cli
from pim_runs import TASKS_ROOT, on_shared_phones_args

from spa_bench.tasks.repository import TaskRepository, read_task_file

pytestmark = pytest.mark.usefixtures("adb_env")


def _raw(task_id: str) -> dict[str, object]:
    record = next(r for r in TaskRepository(TASKS_ROOT).index() if r.id == task_id)
    return dict(read_task_file(record.file)[record.position])


def test_a_broken_oracle_names_its_failing_step_action_and_cause(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    shipped = _raw("calculator_multiply_en")
    bad_selector = copy.deepcopy(shipped) | {"id": "calc_bad_selector_en"}
    script = bad_selector["golden_script"]
    assert isinstance(script, list)
    script[3] = {"type": "tap", "selector": {"resource_id": "op_times_nope"}}
    bad_check = copy.deepcopy(shipped) | {"id": "calc_bad_check_en"}
    checks = bad_check["checks"]
    assert isinstance(checks, list)
    checks[0]["expect_rows"] = [["-1"]]
    tree = tmp_path / "tasks"
    (tree / "calc").mkdir(parents=True)
    (tree / "calc" / "en.yaml").write_text(yaml.safe_dump([bad_selector, bad_check], allow_unicode=True),
                                           "utf-8")

    result = run_cli(capsys, "tasks", "verify", "--tasks-dir", str(tree), "--probe", "oracle", "--seeds", "1",
                     "--out", str(tmp_path / "out"), *on_shared_phones_args(1))
    assert result.code == 1, result.out + result.err
    lines = {line.split(":", 1)[0]: line for line in result.err.splitlines() if line.startswith("✗ ")}
    selector = lines["✗ calc_bad_selector_en"]
    n = len(script)  # the oracle's search for the selector (waits) comes before the failing tap
    assert (f"; failing step (golden step 4/{n}, episode step 5): tap {{'selector': {{'resource_id': "
            "'op_times_nope'}}: no element matches {'resource_id': 'op_times_nope'}") in selector
    check = lines["✗ calc_bad_check_en"]
    assert (f"; all {n} steps ran (termination done); failed: ✗ the last calculation in the history "
            "gave") in check
    assert "are not [['-1']]" in check
