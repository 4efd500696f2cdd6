"""The run, evaluate, calibrate, report, `agents list` and `tasks list` tables in an 80-column terminal
(COLUMNS=80): every header whole, figures on one line; `--wide` (or a wider terminal) shows every
column. The run summary counts success with the one policy, so a run of judged tasks shows a rate (not
n/a), and every rate carries its 95% interval."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from eval_builders import episode, task, verdict
from rich.console import Console
from rich.table import Table

from spa_bench.cli.common import Column
from spa_bench.cli.evaluate import CALIBRATION_COLUMNS, METRICS_COLUMNS, calibration_table_view, metrics_table
from spa_bench.cli.run import SUMMARY_COLUMNS, summary_table
from spa_bench.evaluation.calibration import calibration_table
from spa_bench.evaluation.metrics import compute_metrics
from spa_bench.results.schema import EpisodeLog, RunManifest, RunSummary
from spa_bench.runner.run import RunResult

CHECK = [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}]
JUDGE = "judge:gpt-4o@api.openai.com"
KC = "key_components:rapidocr"


def logs() -> list[EpisodeLog]:
    out = []
    for agent in ("oracle", "a-rather-long-agent-name-v2"):
        for i, ok in enumerate((True, False, True)):
            checked = task(f"wifi_{i}", checks=CHECK, key_components=["Wi-Fi"])
            out.append(episode(checked, agent=agent, steps=3, total_s=12.5, repeat=i, verdicts=[
                verdict("state", ok), verdict(KC, True), verdict(JUDGE, ok, cost=0.01)]))
        judged = task("free", key_components=["x"])
        out.append(episode(judged, agent=agent, steps=2, verdicts=[verdict(KC, True), verdict(JUDGE, True)]))
    return out


def render(table: Table, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, legacy_windows=False)
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


def headers_whole(text: str, columns: tuple[Column, ...], wide: bool) -> None:
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines) or wide, "\n" + text
    header_text = " ".join(lines[:6])
    for column in columns:
        if wide or not column.wide_only:
            assert column.header in header_text, f"{column.header!r} cut in\n{text}"
    assert "…" not in header_text, text


def run_result() -> RunResult:
    now = datetime(2025, 1, 6, tzinfo=UTC)
    manifest = RunManifest(run_id="20250106-090000-abcdef", created_at=now, spa_bench_version="test",
                           python="3.11", platform="test", tasks_root="tasks")
    return RunResult(Path("results/x"), manifest, RunSummary(run_id=manifest.run_id, started_at=now,
                                                             finished_at=now), logs())


def test_run_summary_at_80_columns_counts_success_by_the_policy() -> None:
    text = render(summary_table(run_result()))
    headers_whole(text, SUMMARY_COLUMNS, wide=False)
    row = next(line for line in text.splitlines() if "oracle" in line)
    cells = row.replace("│", " ").split()
    assert cells[1:4] == ["4", "3/4", "75.0%"]  # 2 of 3 by state checks + 1 judged task without checks
    assert "75.0% [30.1, 95.4]" in row  # the 95% Wilson interval of 3/4
    wide = render(summary_table(run_result(), wide=True), width=120)
    assert "said done" in wide and "undecided" in wide


@pytest.mark.parametrize("wide", [False, True])
def test_metrics_and_calibration_tables(wide: bool) -> None:
    report = compute_metrics(logs())
    text = render(metrics_table(report.agents, "run 20250106-090000-abcdef", wide), 80 if not wide else 160)
    headers_whole(text, METRICS_COLUMNS, wide)
    assert "a-rather-long-agent" in text.replace("│", "").replace("\n", "") or "a-rather" in text
    frame = calibration_table(logs())
    text = render(calibration_table_view(frame, "evaluators vs state checks, run 20250106-090000-abcdef",
                                         wide), 80 if not wide else 160)
    headers_whole(text, CALIBRATION_COLUMNS, wide)
    assert ("TP" in text) is wide


def test_evaluate_in_an_80_column_terminal(tmp_path: Path) -> None:
    """The real command in a terminal of COLUMNS=80: headers whole, lines within 80 characters."""
    import os
    import subprocess
    import sys

    from spa_bench.results.layout import RunLayout

    layout = RunLayout(tmp_path / "run-80")
    now = datetime(2025, 1, 6, tzinfo=UTC)
    layout.write_manifest(RunManifest(run_id="20250106-090000-abcdef", created_at=now,
                                      spa_bench_version="test", python="3.11", platform="test",
                                      tasks_root=str(tmp_path / "none")))
    for log in logs():
        layout.write_episode(log)
    env = dict(os.environ, COLUMNS="80", NO_COLOR="1", TERM="dumb")
    done = subprocess.run([sys.executable, "-m", "spa_bench", "evaluate", str(layout.root), "-e", "state"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    table = done.stdout[done.stdout.index("run 20250106"):]
    headers_whole(table, METRICS_COLUMNS, wide=False)
    assert all(len(line) <= 80 for line in done.stdout.splitlines()), done.stdout


def test_reference_agents_are_marked_in_the_terminal_tables() -> None:
    """An agent the full task was revealed to (the oracle) is never read as an agent under test."""
    marked = [log.model_copy(update={"agent": log.agent.model_copy(update={"reference": True})})
              if log.agent.name == "oracle" else log for log in logs()]
    result = run_result()
    summary = render(summary_table(RunResult(result.run_dir, result.manifest, result.summary, marked)), 120)
    assert "oracle (reference)" in summary and "a-rather-long-agent-name-v2 (reference)" not in summary
    table = render(metrics_table(compute_metrics(marked).agents, "run x", True, frozenset({"oracle"})), 250)
    assert "oracle (reference)" in table and "v2 (reference)" not in table
    assert "(reference)" not in render(summary_table(result), 120)
    narrow = render(summary_table(RunResult(result.run_dir, result.manifest, result.summary, marked)))
    assert "│ oracle " in narrow and "│ (reference) " in narrow, narrow  # whole words at 80 columns


def test_report_leaderboard_at_80_columns_keeps_the_interval_and_names_what_it_leaves_out() -> None:
    from spa_bench.report.terminal import ALWAYS_SHOWN, LEADERBOARD_HEADERS, leaderboard_table

    agents = compute_metrics(logs()).agents
    text = render(leaderboard_table(agents, "leaderboard: x", width=80))
    assert all(len(line) <= 80 for line in text.splitlines()), text
    header_text = " ".join(text.splitlines()[:4])
    assert all(h in header_text for h in ALWAYS_SHOWN) and "…" not in header_text, text
    row = next(line for line in text.splitlines() if "oracle" in line)
    assert "75.0%" in row and "30.1%–95.4%" in row
    left_out = [h for h in LEADERBOARD_HEADERS if h not in header_text]
    assert left_out and ("left out at this width: " + ", ".join(left_out)) in " ".join(text.split())
    wide = render(leaderboard_table(agents, "leaderboard: x", width=250), 250)
    assert all(h in wide for h in LEADERBOARD_HEADERS) and "left out" not in wide
    from spa_bench.evaluation.metrics import wilson_interval

    low, high = wilson_interval(4, 4)  # every episode of the oracle said done: completion 4/4
    completion = f"100.0% [{100 * low:.1f}, {100 * high:.1f}]"
    assert completion in next(line for line in wide.splitlines() if "oracle" in line)


@pytest.mark.parametrize("command", [["agents", "list"], ["tasks", "list", "--suite", "starter"]])
def test_lists_in_an_80_column_terminal(command: list[str]) -> None:
    """`agents list` and `tasks list` as a user runs them: no line past 80 characters, headers whole,
    and a caption saying which columns a wider terminal shows."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, COLUMNS="80", NO_COLOR="1", TERM="dumb")
    done = subprocess.run([sys.executable, "-m", "spa_bench", *command], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), done.stdout
    header = next(line for line in lines if "┃" in line)
    expected = ("name", "registered", "family", "frame", "calls/step") if command[0] == "agents" else \
        ("id", "lang", "diff", "instruction")
    assert all(f" {h} " in header for h in expected), header
    assert "left out at this width" in done.stdout
    wide = subprocess.run([sys.executable, "-m", "spa_bench", *command], capture_output=True, text=True,
                          timeout=120, env=dict(env, COLUMNS="200"))
    assert "left out" not in wide.stdout and ("code" in wide.stdout or "suite" in wide.stdout)
