"""Reference agents in the report: the oracle (the full task was revealed to it) is marked, listed below the
ranked agents and never given a rank, in the page's data and in the terminal leaderboard."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import RealRun
from rich.console import Console

from spa_bench.report import build_report
from spa_bench.report.terminal import leaderboard_table
from spa_bench.results.layout import RunLayout

pytestmark = pytest.mark.usefixtures("adb_env")


def _rows(agents: pd.DataFrame) -> list[str]:
    console = Console(width=400, record=True)
    console.print(leaderboard_table(agents))
    text = console.export_text()
    return [line for line in text.splitlines() if line.startswith("│")]  # the body, not the ┃ header


def test_the_oracle_is_a_reference_and_is_not_ranked(real_run: RealRun, tmp_path: Path) -> None:
    layout = RunLayout(real_run.run_dir)
    logs = [layout.read_episode(e) for e in layout.episode_ids()]
    assert {log.agent.name for log in logs if log.agent.reference} == {"oracle"}  # the runner marked it
    assert [a.name for a in layout.read_manifest().agents if a.reference] == ["oracle"]  # known up front

    result = build_report([real_run.run_dir], tmp_path / "r.html")
    html = result.html
    match = re.search(r'<script type="application/json" id="spa-data">(.*?)</script>', html, re.S)
    assert match is not None
    document = json.loads(match.group(1))
    assert [document["agents"][i] for i in document["references"]] == ["oracle"]
    marked = dict(zip(result.metrics.agents["agent"], result.metrics.agents["reference"], strict=True))
    assert marked == {"oracle": True, "noop": False, "evil <b>agent</b>": False}

    rows = _rows(result.metrics.agents)
    assert "oracle (reference)" in rows[-1]  # best success rate, yet below the ranked agents
    ranks = [line.split("│")[1].strip() for line in rows]
    assert ranks == ["1", "2", ""]


def test_a_reference_row_has_no_rank_whatever_its_rate() -> None:
    """Without any run: the terminal table ranks only agents under test, references last."""
    nan = float("nan")
    base = {"episodes": 2, "decided": 2, "success_ci_low": 0.0, "success_ci_high": 1.0,
            "completion_rate": 1.0, "premature_rate": 0.0, "overdue_rate": 0.0, "mean_step_ratio": nan,
            "mean_time_s": 1.0, "mean_tokens": 0.0, "mean_cost_usd": 0.0, "cost_usd": 0.0, "tampered": 0,
            "infrastructure_failures": 0}
    agents = pd.DataFrame([{**base, "agent": "ref", "success_rate": 1.0, "reference": True},
                           {**base, "agent": "mine", "success_rate": 0.5, "reference": False},
                           {**base, "agent": "other", "success_rate": 0.0, "reference": False}])
    rows = _rows(agents)
    assert [line.split("│")[1].strip() for line in rows] == ["1", "2", ""]
    assert "mine" in rows[0] and "other" in rows[1] and "ref (reference)" in rows[2]
