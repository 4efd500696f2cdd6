"""A report of several runs never mixes them silently (issue 35): the same agent in two runs is two rows
(`agent @ run`), or one pooled row with --merge that says what it pooled; agents evaluated on different
task sets are flagged and scored on the tasks they share unless --all-tasks. Real runs on the shared
phones, the report built from their folders, through the library and the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones

from spa_bench.report import write_report
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")
TWO = ["settings_wifi_off_en", "settings_dark_theme_en"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    out = tmp_path_factory.mktemp("runs")

    def one(ids: list[str], agents: list[str], run_id: str) -> Path:
        config = RunConfig(filter=TaskFilter(ids=ids), agents=[AgentConfig(agent=a) for a in agents],
                           **on_shared_phones(1), out=out, run_id=run_id)
        return run_benchmark(config).run_dir

    return (one(TWO, ["oracle", "noop"], "first"), one(TWO, ["oracle", "noop"], "again"),
            one(TWO[:1], ["noop"], "small"))


def test_the_same_agent_in_two_runs_is_two_rows_unless_merged(runs: tuple[Path, Path, Path],
                                                              tmp_path: Path) -> None:
    first, again, _ = runs
    apart = write_report([first, again], tmp_path / "apart.html")
    rows = apart.metrics.agents.set_index("agent")
    assert sorted(rows.index) == ["noop @ again", "noop @ first", "oracle @ again", "oracle @ first"]
    # each row's interval is its own run's: 2 decided episodes, not 4
    assert rows.loc["oracle @ first", "decided"] == 2
    alone = write_report([first], tmp_path / "alone.html").metrics.agents.set_index("agent")
    assert rows.loc["oracle @ first", "success_ci_low"] == alone.loc["oracle", "success_ci_low"]
    assert apart.notes == ["noop, oracle ran in several runs: one row per run ('agent @ run'), each with its "
                           "own interval; --merge pools them"]
    assert 'id="lb-notes"' in apart.html  # the page lists them above its leaderboard

    merged = write_report([first, again], tmp_path / "merged.html", merge=True)
    pooled = merged.metrics.agents.set_index("agent")
    assert sorted(pooled.index) == ["noop", "oracle"] and pooled.loc["oracle", "decided"] == 4
    assert merged.notes is not None and merged.notes[0].startswith(
        "--merge pools noop (first, again), oracle (first, again) into one row each; its interval counts")


def test_agents_on_different_task_sets_are_flagged_and_scored_on_shared_tasks(
        runs: tuple[Path, Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, _, small = runs
    result = run_cli(capsys, "report", str(first), str(small), "-o", str(tmp_path / "r.html"))
    assert result.code == 0, result.err
    assert ("note: agents evaluated on different task sets (tasks per agent: noop @ first 2, noop @ small 1)"
            in result.out)
    assert ("note: every figure is computed on the 1 task(s) they all share; 2 episode(s) on other tasks "
            "left out (--all-tasks keeps them)") in result.out
    shared = write_report([first, small], tmp_path / "shared.html")
    assert set(shared.metrics.episodes["task_id"]) == {TWO[0]}
    assert shared.episodes == 3  # noop and the oracle of the first run, noop of the small one, on TWO[0]
    everything = write_report([first, small], tmp_path / "all.html", all_tasks=True)
    assert set(everything.metrics.episodes["task_id"]) == set(TWO) and everything.episodes == 5
    assert everything.notes is not None and everything.notes[-1].startswith("--all-tasks: each is scored")
