"""A re-score from the log alone (issue 39): every verdict records its evaluator's spec, and `spa-bench
evaluate RUN` with no evaluator named builds the evaluators again from those specs; with the run's
model-reply cache it reproduces the judge's verdicts offline (the judge's server is gone by then)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from cli_helpers import run_cli

from spa_bench.evaluation.judge_config import default_judge_config
from spa_bench.results.layout import RunLayout
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import default_tasks_root
from spa_bench.testing.openai_server import RecordedRequest, ScriptedOpenAIServer

pytestmark = pytest.mark.usefixtures("adb_env")


def judge_by_screenshots(request: RecordedRequest) -> str:
    """Success when the trajectory has 3 screenshots or more (the oracle's), else failure (noop's)."""
    shots = json.dumps(request.body).count("Screenshot ")
    return f"Reason: {shots} screenshots.\nResult: {1 if shots >= 3 else 0}"


def test_evaluate_rebuilds_the_judge_from_its_spec_and_replays_offline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = yaml.safe_load((default_tasks_root() / "settings" / "en.yaml").read_text())
    wifi = next(t for t in source if t["id"] == "settings_wifi_off_en")
    wifi.update(id="wifi_off_screen_only", checks=[])  # no ground truth: the judge decides
    (tmp_path / "tasks" / "screen").mkdir(parents=True)
    (tmp_path / "tasks" / "screen" / "en.yaml").write_text(yaml.safe_dump([wifi], allow_unicode=True))
    cache = tmp_path / "cache"
    with ScriptedOpenAIServer(when_empty=judge_by_screenshots) as server:
        judge = default_judge_config("gpt-4o", base_url=server.base_url, api_key_env=None)
        config = RunConfig(tasks_dir=tmp_path / "tasks", phones=1, out=tmp_path / "runs", judge=judge,
                           model_cache=cache, agents=[AgentConfig(agent="oracle"), AgentConfig(agent="noop")])
        result = run_benchmark(config)
        assert server.chat_requests()
        base_url = server.base_url
    first = {log.episode_id: [v for v in log.verdicts if v.evaluator.startswith("judge:")]
             for log in result.logs}
    assert sorted(v[0].success for v in first.values()) == [False, True], first
    spec = next(iter(first.values()))[0].spec
    assert spec is not None and spec.name == "judge"
    assert spec.args["action_mode"] == "annotated" and spec.args["split"] == "auto"
    assert spec.args["with_reason"] is True and spec.args["split_detail"] == "low"
    assert spec.args["model"]["model"] == "gpt-4o" and spec.args["model"]["temperature"] == 0.0
    assert spec.args["model"]["base_url"] == base_url and spec.args["prompt"]

    # the server is gone: every judge call is answered from the cache, or the re-score fails
    done = run_cli(capsys, "evaluate", str(result.run_dir), "--model-cache", str(cache),
                   "--model-cache-replay")
    assert done.code == 0, done.err + done.out
    assert "logged specs: key_components, judge" in done.out
    for log in RunLayout(result.run_dir).episodes():
        judged = [v for v in log.verdicts if v.evaluator.startswith("judge:")]
        assert len(judged) == 2, [v.evaluator for v in log.verdicts]
        old, new = judged
        assert new.error is None and new.success == old.success, (log.episode_id, new.error)
        assert new.spec == old.spec and new.evaluator == old.evaluator
        assert new.usage.calls == new.usage.cached_calls >= 1
        assert [v.spec.name for v in log.verdicts if v.spec] == ["key_components", "judge"] * 2
