"""The whole pipeline on virtual phones: tasks -> agents -> episodes on devices -> state checks -> logs.
Assertions are on the logs the run writes, read back through the published schema."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_helpers import run_cli

from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, RunManifest
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

SMOKE = TaskFilter(ids=["settings_wifi_off_en", "settings_bluetooth_on_zh", "settings_model_name_en",
                        "settings_android_version_zh"])

MISBEHAVING = textwrap.dedent('''
    from spa_bench.agent import AgentStep, BaseAgent

    class Raiser(BaseAgent):
        """Raises on its second step."""
        def reset(self, context):
            super().reset(context)
            self.n = 0
        def step(self, observation):
            self.n += 1
            if self.n == 2:
                raise RuntimeError("agent exploded on purpose")
            return AgentStep({"type": "scroll", "direction": "down"}, output="scrolling")

    class Garbage(BaseAgent):
        """Returns nonsense, then a valid finish."""
        def reset(self, context):
            super().reset(context)
            self.n = 0
        def step(self, observation):
            self.n += 1
            answers = [None, "not json at all", {"type": "tap"}, {"type": "tap", "element": 9999},
                       {"type": "open_app", "app": "No Such App"}, 42]
            if self.n <= len(answers):
                return AgentStep(answers[self.n - 1], output=f"garbage {self.n}")
            return {"type": "finish", "status": "infeasible"}

''')


def test_oracle_succeeds_noop_fails_and_logs_are_complete(results_dir: Path) -> None:
    config = RunConfig(filter=SMOKE, agents=[AgentConfig(agent="oracle"), AgentConfig(agent="noop")],
                       phones=2, out=results_dir, seed=7)
    argv = ["spa-bench", "run", "--agent-arg", "api_key=sk-secret-0123456789abcdef"]
    result = run_benchmark(config, argv=argv)
    assert result.summary.planned == 8 and result.summary.finished == 8 and result.summary.undone == []
    layout = RunLayout(result.run_dir)
    manifest = RunManifest.model_validate_json(layout.manifest_path.read_text())
    assert manifest.task_ids == sorted(SMOKE.ids)
    assert len(manifest.devices) == 2 and all(d.kind == "virtual" for d in manifest.devices)
    assert manifest.task_files and all(len(h) == 64 for h in manifest.task_files.values())
    assert "sk-secret-0123456789abcdef" not in layout.manifest_path.read_text()
    logs = {log.episode_id: log for log in layout.episodes()}
    assert len(logs) == 8
    for log in logs.values():
        assert log.status == "finished"
        state = [v for v in log.verdicts if v.evaluator == "state"]
        assert len(state) == 1
        expected = log.agent.name == "oracle"
        assert state[0].success is expected, (log.episode_id, state[0].evidence)
        episode_dir = layout.episode_dir(log.episode_id)
        for step in log.steps:
            assert step.observation.screenshot is not None
            png = (episode_dir / step.observation.screenshot).read_bytes()
            assert png.startswith(b"\x89PNG")
            assert (episode_dir / str(step.observation.hierarchy)).read_text().startswith("<?xml")
        assert log.final_observation is not None
        assert (episode_dir / "screenshots" / "final.png").is_file()
        # the log on disk validates against the published schema
        EpisodeLog.model_validate(json.loads(layout.episode_path(log.episode_id).read_text()))
    oracle = logs["oracle__settings_model_name_en__r0"]
    assert oracle.termination == "done" and oracle.answer == "SPA Virtual Phone"
    assert oracle.steps[0].observation.package == "com.android.settings"  # single-app tasks start in the app
    noop = logs["noop__settings_wifi_off_en__r0"]
    assert noop.termination == "done" and len(noop.steps) == 1
    assert "Wi-Fi is off" in noop.verdicts[0].evidence[0].summary


def test_misbehaving_agents_are_recorded_and_the_run_goes_on(results_dir: Path, tmp_path: Path) -> None:
    agents_file = tmp_path / "bad_agents.py"
    agents_file.write_text(MISBEHAVING)
    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), phones=1, out=results_dir,
                       agents=[AgentConfig(agent=f"{agents_file}:Raiser"),
                               AgentConfig(agent=f"{agents_file}:Garbage"),
                               AgentConfig(agent="oracle")])
    result = run_benchmark(config)
    logs = {log.agent.name: log for log in result.logs}
    assert set(logs) == {"Raiser", "Garbage", "oracle"}
    raiser = logs["Raiser"]
    assert raiser.termination == "agent_error"
    assert raiser.errors[0].kind == "agent" and "exploded on purpose" in raiser.errors[0].message
    assert "Traceback" in (raiser.errors[0].traceback or "")
    assert len(raiser.steps) == 2 and raiser.steps[1].error is not None
    garbage = logs["Garbage"]
    invalid = [s for s in garbage.steps if not s.valid]
    assert len(invalid) == 6
    assert garbage.steps[1].raw_action == "not json at all"
    assert "element 9999" in (garbage.steps[3].invalid_reason or "")
    assert "No Such App" in (garbage.steps[4].invalid_reason or "")
    assert garbage.termination == "infeasible"
    assert logs["oracle"].verdicts[0].success is True  # the run went on


def test_cli_run_with_a_user_agent_file(results_dir: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    example = Path(__file__).parents[2] / "agents" / "example_agent.py"
    mine = tmp_path / "my_agent.py"
    mine.write_text(example.read_text())
    result = run_cli(capsys, "run", "--agent", f"{mine}:ExampleAgent", "--agent-arg", "greeting=bonjour",
                     "--task", "settings_dark_theme_en", "--out", str(results_dir))
    assert result.code == 0, result.err
    assert "ExampleAgent" in result.out and "results:" in result.out
    run_dir = next(results_dir.iterdir())
    log = next(RunLayout(run_dir).episodes())
    assert log.agent.args == {"greeting": "bonjour"}
    assert log.steps[0].agent_output is not None and log.steps[0].agent_output.startswith("bonjour")


def test_cli_errors_are_one_line(results_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", "--agent", "oracel", "--out", str(results_dir))
    assert result.code == 2
    assert "unknown agent 'oracel'; did you mean 'oracle'?" in result.err
    result = run_cli(capsys, "run", "--task", "no_such_task_*", "--out", str(results_dir))
    assert result.code == 2 and "no task matches" in result.err
    result = run_cli(capsys, "run", "--agent-arg", "novalue", "--out", str(results_dir))
    assert result.code == 2 and "expected key=value" in result.err
    assert not results_dir.exists() or not any(results_dir.iterdir())
