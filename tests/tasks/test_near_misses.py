"""Every near miss a task declares (`near_misses:`) must be rejected by the task's own state checks.

Each near miss becomes a copy of its task whose golden script is the near miss's script, in a private
task tree beside the shipped one; the oracle replays it on the test process's shared virtual phones. The
copy must run to the end of its script (every action valid, the episode ended by finish) - a script that
breaks off proves nothing - and the state verdict must be a failure. One run per suite and language, so
pytest-xdist spreads them. Of the hard suite, whose tasks are long, the near misses of one task per file
(pim_runs.hard_sample); `spa-bench tasks verify --suite hard` replays them all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml
from pim_runs import hard_sample, run_suite

from spa_bench.tasks.near_misses import NearMissCopy, near_miss_problems, write_near_miss_tree
from spa_bench.tasks.params import combinations
from spa_bench.tasks.repository import TaskRepository

pytestmark = pytest.mark.usefixtures("adb_env")
# the shipped tasks, or a task author's own tree given as for `spa-bench` itself
TASKS = Path(os.environ.get("SPA_BENCH_TASKS") or Path(__file__).resolve().parents[2] / "tasks")


def _suites_with_near_misses() -> list[tuple[str, str]]:
    return sorted({(r.suite, r.language) for r in TaskRepository(TASKS).index() if r.near_misses})


@pytest.mark.slow
@pytest.mark.parametrize(("suite", "language"), _suites_with_near_misses())
def test_near_misses_are_rejected(suite: str, language: str, tmp_path: Path) -> None:
    tree = tmp_path / "tasks"
    records = TaskRepository(TASKS).index()
    languages = {r.id: r.language for r in records}
    sampled = {r.id for r in hard_sample(records, per_file=1)}  # all but the hard suite's: see there
    copies = [c for c in write_near_miss_tree(TASKS, suite, tree)
              if languages[c.copy_id.rpartition(".near_miss")[0]] == language
              and c.copy_id.rpartition(".near_miss")[0] in sampled]
    assert copies
    logs = run_suite([], tmp_path / "results", ["oracle"], phones=2, tasks_dir=tree,
                     ids=[c.copy_id for c in copies])
    assert {log.task.id for log in logs.values()} == {c.copy_id for c in copies}
    problems = near_miss_problems(copies, list(logs.values()))
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
    copies = write_near_miss_tree(tmp_path / "src", "demo", tmp_path / "out")
    assert copies == [NearMissCopy("demo_en.near_miss0", "does nothing"),
                      NearMissCopy("demo_en.near_miss1", "gives up")]
    loaded = TaskRepository(tmp_path / "out").load()
    assert [t.id for t in loaded] == ["demo_en.near_miss0", "demo_en.near_miss1"]
    assert loaded[1].golden_script is not None and loaded[1].golden_script[0].type == "finish"
    assert loaded[1].checks == TaskRepository(tmp_path / "src").load()[0].checks
    assert not loaded[0].near_misses and loaded[0].max_steps == 13


def test_no_near_miss_becomes_the_golden_script_for_some_instance() -> None:
    """The replay above draws one instance of each task; a near miss that names a fixed value (a file, a
    person) can be the right answer in another instance - the golden script itself - and then no check
    could reject it. Every drawable instance (up to 40 per task) is compared here, with no phone."""
    records = [r for r in TaskRepository(TASKS).index() if r.near_misses and r.parameterised]
    same = []
    for task in TaskRepository(TASKS).load(records):
        for index in range(min(40, combinations(dict(task.parameters)))):
            filled, _, values = task.instantiate(0, index)
            same += [f"{task.id} near miss {k} ({near.description}) with {values}"
                     for k, near in enumerate(filled.near_misses) if near.script == filled.golden_script]
    assert records and not same, "near misses equal to the golden script:\n" + "\n".join(same)
