"""The tasks that need the system UI through the real pipeline: the quick-settings tasks (tasks/systemui;
Keep's long-press menu tasks are tested with the notes, their near misses in the task files). The oracle
passes, noop fails, and a near miss of each (a golden script with one target changed) runs to its end
and is rejected by the state check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pim_runs import TASKS_ROOT, run_suite, state_success

pytestmark = pytest.mark.usefixtures("adb_env")

TASKS = {  # task id -> (its file, what the near miss does wrong, the changed golden step)
    "systemui_dnd_on_en": ("systemui/en.yaml", "taps Flashlight, the tile beside DND",
                           (1, {"content_desc": "Flashlight"})),
    "systemui_auto_rotate_zh": ("systemui/zh.yaml", "taps 飞行模式 instead of 自动旋转",
                                (2, {"content_desc": "飞行模式"})),
}


def _near_miss_tree(out: Path) -> list[str]:
    ids = []
    for task_id, (file, _, (step, selector)) in TASKS.items():
        task: dict[str, Any] = next(t for t in yaml.safe_load((TASKS_ROOT / file).read_text())
                                    if t["id"] == task_id)
        task["golden_script"][step]["selector"].update(selector)
        task["id"] += "__near"
        (out / "near").mkdir(parents=True, exist_ok=True)
        (out / "near" / f"{task['id']}.yaml").write_text(yaml.safe_dump(task, allow_unicode=True))
        ids.append(task["id"])
    return ids


def test_near_misses_fail(tmp_path: Path) -> None:
    tree = tmp_path / "tasks"
    logs = run_suite([], tmp_path / "results", ["oracle"], ids=_near_miss_tree(tree), tasks_dir=tree)
    assert len(logs) == len(TASKS)
    for log in logs.values():
        assert log.termination == "done" and all(s.valid for s in log.steps), log.episode_id
        assert not state_success(log), (log.episode_id, TASKS[log.task.id.removesuffix("__near")][1])
