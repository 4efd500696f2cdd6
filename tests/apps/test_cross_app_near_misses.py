"""Near misses of the Files tasks: a scripted agent (the oracle replaying a wrong script) does almost the
right thing - wrong file, wrong folder, one change too many - and the task's own state checks must fail.
The task files are copied with only the script replaced. (The Shop, Chat, Calculator, Notes and first
cross-app tasks keep their near misses in the task files: `near_misses:`, replayed by
tests/tasks/test_near_misses.py.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pim_runs import failures, run_suite

from spa_bench.tasks.repository import read_task_file

pytestmark = pytest.mark.usefixtures("adb_env")
TASKS = Path(__file__).resolve().parents[2] / "tasks"


def tap(**selector: Any) -> dict[str, Any]:
    return {"type": "tap", "selector": selector}


def typ(text: str, rid: str, enter: bool = False) -> dict[str, Any]:
    return {"type": "type", "text": text, "selector": {"resource_id": rid}, "enter": enter}


DONE = {"type": "finish"}
NEAR_MISSES: dict[str, list[dict[str, Any]]] = {
    # wrong file
    "files_delete_invoice_en": [
        tap(text="Download"),
        {"type": "long_press", "selector": {"text": "invoice_0423.pdf"}},
        tap(resource_id="action_menu_delete"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # one change too many: the folder is made, and a file is deleted as well
    "files_new_folder_en": [
        tap(text="Download"),
        tap(resource_id="action_menu_create_dir"),
        typ("Taxes 2024", "android:id/text1"),
        tap(resource_id="android:id/button1"),
        {"type": "long_press", "selector": {"text": "app-release.apk"}},
        tap(resource_id="action_menu_delete"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
    # wrong destination folder
    "files_move_lease_zh": [
        tap(text="Download"),
        {"type": "scroll", "direction": "down", "selector": {"resource_id": "dir_list"}},
        {"type": "long_press", "selector": {"text": "租房合同.pdf"}},
        tap(resource_id="action_menu_move_to"),
        tap(text="Music"),
        tap(resource_id="android:id/button1"),
        DONE,
    ],
}


def _near_miss_tree(root: Path) -> Path:
    """A task tree holding the chosen tasks with their scripts replaced by the near misses."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((TASKS / "files").glob("*.yaml")):  # every near miss left here is a Files task's
        for task in read_task_file(path):
            if isinstance(task, dict) and task.get("id") in NEAR_MISSES:
                found[task["id"]] = {**task, "golden_script": NEAR_MISSES[task["id"]]}
    assert sorted(found) == sorted(NEAR_MISSES)
    out = root / "tasks" / "near_misses"
    out.mkdir(parents=True)
    (out / "tasks.yaml").write_text(yaml.safe_dump(list(found.values()), allow_unicode=True, sort_keys=False))
    return root / "tasks"


def test_near_misses_fail_their_checks(tmp_path: Path) -> None:
    tree = _near_miss_tree(tmp_path)
    logs = run_suite([], tmp_path / "results", ["oracle"], ids=sorted(NEAR_MISSES), tasks_dir=tree)
    assert len(logs) == len(NEAR_MISSES)
    assert all(log.termination == "done" for log in logs.values()), {
        k: (log.termination, [e.message for e in log.errors]) for k, log in logs.items()
    }
    assert failures(logs, "oracle", False) == []
