"""Every near miss a task declares (`near_misses:`) must be rejected by the task's own state checks.

Each near miss becomes a copy of its task whose golden script is the near miss's script, in a private
task tree beside the shipped one; the oracle replays it on a virtual phone. The copy must run to the
end of its script (every action valid, the episode ended by finish) - a script that breaks off proves
nothing - and the state verdict must be a failure. One run per suite, so pytest-xdist spreads them."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from pim_runs import run_suite, state_success

from spa_bench.tasks.repository import TaskRepository, read_task_file

pytestmark = pytest.mark.usefixtures("adb_env")
# the shipped tasks, or a task author's own tree given as for `spa-bench` itself
TASKS = Path(os.environ.get("SPA_BENCH_TASKS") or Path(__file__).resolve().parents[2] / "tasks")
NEAR_MISS_ID = "{id}.near_miss{k}"


def _suites_with_near_misses() -> list[str]:
    return sorted({r.suite for r in TaskRepository(TASKS).index() if r.near_misses})


def near_miss_tree(root: Path, suite: str, out: Path) -> list[tuple[str, str]]:
    """Write the near-miss copies of `suite`'s tasks under `out`; (copy id, description) of each."""
    written: list[tuple[str, str]] = []
    copies: list[dict[str, Any]] = []
    for path in sorted((root / suite).rglob("*.yaml")):
        for raw in read_task_file(path):
            for k, near in enumerate(raw.get("near_misses") or []):
                copy = {key: value for key, value in raw.items() if key != "near_misses"}
                copy["id"] = NEAR_MISS_ID.format(id=raw["id"], k=k)
                copy["golden_script"] = near["script"]
                # room for the oracle's waits: the copy must get to the end of its script
                copy["max_steps"] = max(int(raw.get("max_steps") or 0), 3 * len(near["script"]) + 10)
                copies.append(copy)
                written.append((copy["id"], near["description"]))
    (out / suite).mkdir(parents=True, exist_ok=True)
    (out / suite / "near_misses.yaml").write_text(yaml.safe_dump(copies, allow_unicode=True), "utf-8")
    return written


@pytest.mark.slow
@pytest.mark.parametrize("suite", _suites_with_near_misses())
def test_near_misses_are_rejected(suite: str, tmp_path: Path) -> None:
    tree = tmp_path / "tasks"
    copies = near_miss_tree(TASKS, suite, tree)
    assert copies
    logs = run_suite([suite], tmp_path / "results", ["oracle"], phones=1, tasks_dir=tree)
    by_task = {log.task.id: log for log in logs.values()}
    assert set(by_task) == {copy_id for copy_id, _ in copies}
    problems = []
    for copy_id, description in copies:
        log = by_task[copy_id]
        invalid = [s.invalid_reason for s in log.steps if not s.valid]
        if log.termination not in ("done", "infeasible") or invalid:
            problems.append(f"{copy_id} ({description}): the script did not run to its end "
                            f"(termination {log.termination}, invalid steps {invalid}, "
                            f"errors {[e.message for e in log.errors]})")
        elif state_success(log):
            problems.append(f"{copy_id} ({description}): the checks accept this near miss")
    assert not problems, "\n".join(problems)


def test_near_miss_copies_keep_their_task(tmp_path: Path) -> None:
    """The copies are the task with only the script (and room for it) changed."""
    source = tmp_path / "src" / "demo"
    source.mkdir(parents=True)
    task = {"id": "demo_en", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
            "language": "en", "difficulty": 3, "category": "single_app", "instruction": "Turn Wi-Fi off.",
            "golden_steps": 2, "checks": [{"type": "shell", "command": "settings get global wifi_on",
                                           "expect": "0"}],
            "golden_script": [{"type": "finish"}],
            "near_misses": [{"description": "does nothing", "script": [{"type": "finish"}]},
                            {"description": "gives up", "script": [{"type": "finish",
                                                                    "status": "infeasible"}]}]}
    (source / "en.yaml").write_text(yaml.safe_dump([task]), "utf-8")
    copies = near_miss_tree(tmp_path / "src", "demo", tmp_path / "out")
    assert copies == [("demo_en.near_miss0", "does nothing"), ("demo_en.near_miss1", "gives up")]
    loaded = TaskRepository(tmp_path / "out").load()
    assert [t.id for t in loaded] == ["demo_en.near_miss0", "demo_en.near_miss1"]
    assert loaded[1].golden_script is not None and loaded[1].golden_script[0].type == "finish"
    assert loaded[1].checks == TaskRepository(tmp_path / "src").load()[0].checks
    assert not loaded[0].near_misses and loaded[0].max_steps == 13
