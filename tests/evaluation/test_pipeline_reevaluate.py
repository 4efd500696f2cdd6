"""Re-evaluating a real run: one produced by the pipeline (oracle + noop on Settings tasks, virtual
phones), scored again with key components and the judge (scripted server) from the library and from
`spa-bench evaluate`, which leaves the original verdicts intact, adds the new ones, prints the metrics
and writes them; `--calibrate` prints the agreement with the state checks. Also: a run whose task has
no checks is scored right after each episode."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from cli_helpers import run_cli
from pim_runs import on_shared_phones

from spa_bench.evaluation.pipeline import make_evaluators, reevaluate_run
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, default_tasks_root
from spa_bench.testing.openai_server import RecordedRequest, ScriptedOpenAIServer

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]
TASKS = ["settings_wifi_off_en", "settings_bluetooth_on_zh"]
YES = "Reason: I believe this task is successful.\nResult: 1"


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    config = RunConfig(filter=TaskFilter(ids=TASKS), **on_shared_phones(2), out=out, seed=3,
                       agents=[AgentConfig(agent="oracle"), AgentConfig(agent="noop")])
    result = run_benchmark(config)
    assert result.summary.finished == 4
    return result.run_dir


@pytest.fixture
def run_copy(finished_run: Path, tmp_path: Path) -> Path:
    """Each test re-scores its own copy (the run's OCR cache included, so only the first test reads)."""
    target = tmp_path / finished_run.name
    shutil.copytree(finished_run, target)
    return target


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer(when_empty=TextReplyAlways()) as srv:
        yield srv


class TextReplyAlways:
    """The judge that always says "done": a biased judge whose agreement the calibration must expose."""

    def __call__(self, request: RecordedRequest) -> str:
        return YES


def _state_verdicts(layout: RunLayout) -> dict[str, str]:
    return {log.episode_id: log.verdicts[0].model_dump_json() for log in layout.episodes()}


def test_reevaluation_adds_verdicts_and_keeps_the_originals(run_copy: Path,
                                                              server: ScriptedOpenAIServer) -> None:
    layout = RunLayout(run_copy)
    before = _state_verdicts(layout)
    assert all(json.loads(v)["evaluator"] == "state" for v in before.values())
    from spa_bench.evaluation.judge_config import default_judge_config

    judge_model = default_judge_config("gpt-4o", base_url=server.base_url, api_key_env=None)
    evaluators = make_evaluators(["judge", "key_components"], {"judge": {"model": judge_model}})
    skipped = reevaluate_run(run_copy, evaluators, workers=2)
    assert skipped.evaluated == 4 and skipped.verdicts == 0, "state checks decide: no OCR, no judge call"
    assert not server.chat_requests()
    result = reevaluate_run(run_copy, evaluators, workers=2, calibrate=True)
    assert result.evaluated == 4 and result.verdicts == 8 and result.errors == 0
    assert _state_verdicts(layout) == before, "the original verdicts are untouched"
    identity = f"judge:gpt-4o@127.0.0.1:{server.port}"
    for log in layout.episodes():
        names = [v.evaluator for v in log.verdicts]
        assert names == ["state", "key_components:rapidocr", identity], "key components run first"
        judge = log.verdicts[2]
        assert judge.success is True and judge.usage.calls == 1 and judge.usage.cost_usd is not None
        assert len(log.steps) + 1 == judge.evidence[0].details["screenshots"]
    requests = server.chat_requests()
    assert len(requests) == 4 and all(len(r.image_urls()) >= 2 for r in requests)
    oracle = layout.read_episode("oracle__settings_wifi_off_en__r0")
    assert oracle.verdicts[1].success is True, oracle.verdicts[1].evidence  # "Wi-Fi" is on its screens
    # a second re-evaluation appends again; the policy still reads the state verdict for these tasks
    reevaluate_run(run_copy, evaluators[:1], workers=1, calibrate=True)
    log = layout.read_episode("noop__settings_wifi_off_en__r0")
    assert [v.evaluator for v in log.verdicts].count(identity) == 2
    from spa_bench.evaluation.policy import decide_success

    assert decide_success(log).source == "state" and decide_success(log).success is False


def test_cli_evaluate_prints_metrics_and_calibration(run_copy: Path, server: ScriptedOpenAIServer,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    layout = RunLayout(run_copy)
    before = _state_verdicts(layout)
    result = run_cli(capsys, "evaluate", str(run_copy), "--wide", "--judge-model", "gpt-4o",
                     "--judge-base-url", server.base_url, "--judge-api-key-env", "", "--workers", "2")
    assert result.code == 0, result.err
    # state checks scored again from the captured state, with no phone running: the run's verdicts
    assert "4 new verdicts on 4 episodes (0 evaluator errors" in result.out
    assert not server.chat_requests(), "tasks decided by state checks need no judge"
    for log in layout.episodes():
        first, again = log.verdicts[0], log.verdicts[-1]
        assert again.evaluator == "state" and again.role == "ground_truth" and again is not first
        assert again.success is first.success and again.error is None
        assert [e.summary for e in again.evidence] == [e.summary for e in first.evidence]
    assert "rate [95% CI]" in result.out and "overdue" in result.out and "eval cost" in result.out
    rows = [line for line in result.out.splitlines() if "oracle" in line or "noop" in line]
    assert any("2/2" in r and "100.0%" in r for r in rows if "oracle" in r), result.out
    assert any("0/2" in r and "0.0%" in r for r in rows if "noop" in r), result.out
    metrics = json.loads((run_copy / "metrics" / "metrics.json").read_text())
    by_agent = {row["agent"]: row for row in metrics["agents"]}
    assert by_agent["oracle"]["success_rate"] == 1.0 and by_agent["noop"]["success_rate"] == 0.0
    assert (run_copy / "metrics" / "agents.csv").is_file()
    assert _state_verdicts(layout) == before

    calibration = run_cli(capsys, "evaluate", "--calibrate", "--wide", str(run_copy), "--judge-model",
                          "gpt-4o", "--judge-base-url", server.base_url, "--judge-api-key-env", "")
    assert calibration.code == 0, calibration.err
    out = calibration.out
    assert "12 new verdicts on 4 episodes (0 evaluator errors" in out
    metrics = json.loads((run_copy / "metrics" / "metrics.json").read_text())
    assert {row["agent"]: row for row in metrics["agents"]}["oracle"]["evaluator_cost_usd"] > 0
    judge_rows = [line for line in out.splitlines() if "judge:gpt-4o" in line and " all " in line]
    assert judge_rows, out
    # the always-yes judge: 2 true positives (oracle), 2 false positives (noop); kappa 0
    cells = judge_rows[0].replace("│", " ").split()
    assert cells[2:10] == ["4", "0", "0.50", "0.67", "0.00", "2", "2", "0"], cells
    assert cells[10:] == ["0", "0.50", "1.00"], cells
    assert "key_components:rapidocr" in out and "key_components+judge" in out
    table = json.loads((run_copy / "metrics" / "calibration.json").read_text())
    assert {row["language"] for row in table} == {"all", "en", "zh"}


def test_cli_evaluate_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "evaluate", str(tmp_path / "nope"))
    assert result.code == 1 and "no such run folder" in result.err
    result = run_cli(capsys, "evaluate", str(tmp_path), "--evaluator", "judgee")
    assert result.code == 1


def test_run_scores_tasks_without_checks_after_each_episode(tmp_path: Path,
                                                            server: ScriptedOpenAIServer) -> None:
    source = yaml.safe_load((default_tasks_root() / "settings" / "en.yaml").read_text())
    wifi = next(t for t in source if t["id"] == "settings_wifi_off_en")
    wifi.update(id="wifi_off_screen_only", checks=[])
    tasks = tmp_path / "tasks" / "screen"
    tasks.mkdir(parents=True)
    (tasks / "en.yaml").write_text(yaml.safe_dump([wifi], allow_unicode=True))
    from spa_bench.evaluation.judge_config import default_judge_config

    config = RunConfig(tasks_dir=tmp_path / "tasks", agents=[AgentConfig(agent="oracle")], phones=1,
                       out=tmp_path / "runs", judge=default_judge_config("gpt-4o", base_url=server.base_url,
                                                                         api_key_env=None))
    result = run_benchmark(config)
    [log] = result.logs
    assert [v.evaluator.split(":")[0] for v in log.verdicts] == ["key_components", "judge"]
    assert [v.role for v in log.verdicts] == ["gate", "judge"]
    from spa_bench.evaluation.policy import decide_success

    decision = decide_success(log)
    assert decision.success is True and decision.source == "key_components+judge"
    path = RunLayout(result.run_dir).episode_path(log.episode_id)
    on_disk = EpisodeLog.model_validate_json(path.read_text())
    assert len(on_disk.verdicts) == 2


def test_evaluate_says_which_checks_changed_since_the_run(run_copy: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The run's phones are gone; the state checks are scored from the captured state against the
    current task files, and a task whose check was edited since says that its episodes need a rerun."""
    tasks = tmp_path / "tasks"
    shutil.copytree(default_tasks_root(), tasks)
    path = tasks / "settings" / "en.yaml"
    source = yaml.safe_load(path.read_text())
    wifi = next(t for t in source if t["id"] == "settings_wifi_off_en")
    wifi["checks"][0]["expect"] = "2"
    path.write_text(yaml.safe_dump(source, allow_unicode=True))
    result = run_cli(capsys, "evaluate", str(run_copy), "--tasks-dir", str(tasks))
    assert result.code == 0, result.err
    layout = RunLayout(run_copy)
    for log in layout.episodes():
        latest = log.verdicts[-1]
        if log.task.id == "settings_wifi_off_en":
            assert latest.success is None and latest.error is not None
            assert latest.error.type == "NeedsRerun" and "changed since" in latest.error.message
            assert f"{log.episode_id}: state (check 0 (shell) changed since" in " ".join(result.out.split())
        else:
            assert latest.success is log.verdicts[0].success and latest.error is None


def test_evaluate_refuses_a_tasks_folder_that_is_not_there(run_copy: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "evaluate", str(run_copy), "--tasks-dir", str(tmp_path / "nope"))
    assert result.code == 2, "a usage error"
    assert "--tasks-dir" in result.err and "no such folder" in result.err
