"""Every shipped task, both languages: the oracle succeeds and noop fails - on one drawn instance of every
parameterised task, whose second instance is checked to draw other values - and the random agent
succeeds on at most 2% of a seeded sample of them (the whole sweep, every task, is `scripts/random-sweep`:
minutes, too slow for the suite). Three instances of every task under every probe, near misses, answer
spam and shell tampering included, is `spa-bench tasks verify --seeds 3` (half an hour on 2 cores). Of the
hard suite, whose tasks are long, a seeded sample of two tasks per file (pim_runs.hard_sample); `spa-bench
tasks verify --suite hard --seeds 3` runs them all.

One module for the whole tree, one test per task file (a file holds one language) so pytest-xdist spreads
the runs; the runs share each test process's phones (pim_runs.shared_devices). The oracle's golden scripts
and the checks both follow the drawn parameters. The suite ran two instances of each parameterised task
until its every-task runs took a third of its time on 2 cores; the instances' values differ by the draw
alone (checked here without a phone), and `tasks verify --seeds N` plays N of them."""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest
from pim_runs import failures, hard_sample, run_suite, state_success

from spa_bench.tasks.params import combinations, draw_instance
from spa_bench.tasks.repository import TaskRecord, TaskRepository

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]
TASKS = Path(os.environ.get("SPA_BENCH_TASKS") or Path(__file__).resolve().parents[2] / "tasks")
INSTANCES = 1  # played, of every parameterised task (tasks verify --seeds 3 runs three, outside the suite)
DRAWN = 2  # instances whose values must differ (as far as the parameters allow)
RUN_SEED = 11  # pim_runs.run_suite's
RANDOM_CEILING = 0.02
RANDOM_SAMPLE_PER_APP, RANDOM_SAMPLE_SEED = 3, 2026


def _records() -> list[TaskRecord]:
    return TaskRepository(TASKS).index()


def _files() -> list[str]:
    return sorted({r.file.relative_to(TASKS).as_posix() for r in _records()})


@pytest.mark.parametrize("file", _files())
def test_oracle_succeeds_and_noop_fails(file: str, tmp_path: Path) -> None:
    records = hard_sample([r for r in _records() if r.file.relative_to(TASKS).as_posix() == file])
    fixed = [r.id for r in records if not r.parameterised]
    drawn = [r.id for r in records if r.parameterised]
    logs = {}
    if fixed:
        logs.update(run_suite([], tmp_path / "fixed", ["oracle", "noop"], phones=2, ids=fixed,
                              tasks_dir=TASKS))
    if drawn:
        logs.update(run_suite([], tmp_path / "drawn", ["oracle", "noop"], phones=2, ids=drawn,
                              tasks_dir=TASKS, repeats=INSTANCES))
    assert len(logs) == 2 * (len(fixed) + INSTANCES * len(drawn))
    bad = failures(logs, "oracle", True) + failures(logs, "noop", False)
    assert not bad, "\n".join(bad)
    for log in logs.values():  # the oracle got there by its script: every golden step found its target
        assert log.status == "finished" and not log.errors, (log.episode_id, log.errors)
        if log.agent.name == "oracle":
            assert log.termination in ("done", "infeasible"), (log.episode_id, log.termination)
            assert all(step.valid for step in log.steps), \
                (log.episode_id, [s.invalid_reason for s in log.steps if not s.valid])
    tasks = {t.id: t for t in TaskRepository(TASKS).load([r for r in records if r.parameterised])}
    for task_id in drawn:  # the instance played is the run's instance 0; the next ones draw other values
        played = [log.instance.parameters for log in logs.values()
                  if log.agent.name == "oracle" and log.task.id == task_id]
        specs = dict(tasks[task_id].parameters)
        draws = [draw_instance(specs, RUN_SEED, task_id, index)[1] for index in range(DRAWN)]
        assert played == [draws[0]], (task_id, played, draws[0])
        distinct = min(DRAWN, combinations(specs))
        assert len({repr(v) for v in draws}) == distinct, f"{task_id}: instances repeat: {draws}"

def random_sample(per_app: int = RANDOM_SAMPLE_PER_APP, seed: int = RANDOM_SAMPLE_SEED) -> list[str]:
    """`per_app` tasks of each app's suite (and of the cross-app suite), drawn with a fixed seed."""
    by_app: dict[str, list[str]] = {}
    for record in _records():
        by_app.setdefault(record.suite, []).append(record.id)
    rng = random.Random(seed)
    return sorted(task for app in sorted(by_app) for task in rng.sample(sorted(by_app[app]),
                                                                          min(per_app, len(by_app[app]))))


def test_random_agent_rarely_succeeds_on_a_sample(tmp_path: Path) -> None:
    ids = random_sample()
    assert len(ids) >= 60 and len({task.split("_")[0] for task in ids}) >= 20  # every app's tasks in it
    logs = run_suite([], tmp_path / "random", ["random"], phones=2, ids=ids, tasks_dir=TASKS)
    won = sorted(log.task.id for log in logs.values() if state_success(log))
    assert len(logs) == len(ids)
    assert len(won) <= math.ceil(RANDOM_CEILING * len(ids)), won
