"""--budget-usd: no new episode starts once finished episodes cost more than the budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args

from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import RunSummary
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

pytestmark = pytest.mark.usefixtures("adb_env")

# 1M prompt tokens of gpt-4o = 2.50 USD per episode
EXPENSIVE_FINISH = TextReply('Action: {"type": "finish", "status": "done"}', 1_000_000, 0)


def test_a_tiny_budget_stops_the_run_early(results_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedOpenAIServer(when_empty=EXPENSIVE_FINISH) as server:
        out = run_cli(capsys, "run", "--task", "settings_*_en", "--agent", "text", *on_shared_phones_args(1),
                      "--agent-arg", f"base_url={server.base_url}", "--agent-arg", "model=gpt-4o",
                      "--agent-arg", "api_key_env=none", "--budget-usd", "1", "--out", str(results_dir))
        calls = len(server.chat_requests())
    assert out.code == 0, out.err
    assert "stopped by the budget" in out.out and "$2.5000 of budget $1.0000" in out.out
    (run_dir,) = [p for p in results_dir.iterdir() if p.is_dir()]
    summary = RunSummary.model_validate(json.loads((run_dir / "summary.json").read_text()))
    assert summary.stopped_by_budget and summary.budget_usd == 1.0
    assert summary.spent_usd == pytest.approx(2.5) and summary.cost_unknown == 0
    assert summary.finished == 1 and len(summary.undone) == summary.planned - 1 >= 2
    assert calls == 1 and not summary.interrupted
    assert len(list(RunLayout(run_dir).episodes())) == 1


def test_unknown_costs_are_reported_not_counted(results_dir: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with ScriptedOpenAIServer(when_empty=EXPENSIVE_FINISH) as server:
        out = run_cli(capsys, "run", "--task", "settings_wifi_off_en", "--task", "settings_dark_theme_en",
                      "--agent", "text", *on_shared_phones_args(1),
                      "--agent-arg", f"base_url={server.base_url}",
                      "--agent-arg", "model=some-local-model", "--agent-arg", "api_key_env=none",
                      "--budget-usd", "1", "--out", str(results_dir))
    assert out.code == 0, out.err
    assert "2 episode(s) of unknown cost not counted" in out.out and "within budget" in out.out
    (run_dir,) = [p for p in results_dir.iterdir() if p.is_dir()]
    summary = RunSummary.model_validate(json.loads((run_dir / "summary.json").read_text()))
    assert summary.finished == 2 and not summary.stopped_by_budget
    assert summary.spent_usd == 0 and summary.cost_unknown == 2
