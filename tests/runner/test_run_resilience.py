"""Runs survive what goes wrong in practice: the harness process killed mid-run (resume), a device
dying mid-episode (retry elsewhere), and plug-ins installed as packages (entry points)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from spa_bench.results.layout import RunLayout
from spa_bench.runner import run as run_module
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, TaskRepository

pytestmark = pytest.mark.usefixtures("adb_env")

SLOW_ORACLE = textwrap.dedent('''
    import time
    from spa_bench.agents.oracle import OracleAgent

    class SlowOracle(OracleAgent):
        """The oracle, thinking 0.3 s per step like a (fast) model."""
        def step(self, observation):
            time.sleep(0.3)
            return super().step(observation)
''')

KILLER = textwrap.dedent('''
    from spa_bench.agents.oracle import OracleAgent

    KILL = None  # set by the test: a function(serial) that kills that phone
    KILLED = []

    class KillerOracle(OracleAgent):
        """The oracle, except that in its first episode of the dark-theme task it kills its own phone."""
        def step(self, observation):
            if (self.context.task.id == "settings_dark_theme_en" and not KILLED
                    and self.position == 1):
                KILLED.append(self.context.serial)
                KILL(self.context.serial)
            return super().step(observation)
''')


def armed_killer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, settle_s: float = 0.0) -> tuple[Path, Any]:
    """KILLER written to a file, and its module, whose KILL kills the run's virtual phone of that serial
    (the pool the run starts is captured), then waits `settle_s`."""
    agent_file = tmp_path / "killer.py"
    agent_file.write_text(KILLER)
    pools: list[Any] = []
    real_start = run_module.start_virtual_pool

    def capture(*args: Any, **kwargs: Any) -> Any:
        pool = real_start(*args, **kwargs)
        pools.append(pool)
        return pool

    monkeypatch.setattr(run_module, "start_virtual_pool", capture)
    from spa_bench.registry import load_object

    module = sys.modules[load_object(f"{agent_file}:KillerOracle").__module__]

    def kill(serial: str) -> None:
        phone = next(p for p in pools[0].phones.phones if p.serial == serial)
        phone.kill()  # the phone process dies like a crashed device
        time.sleep(settle_s)

    module.KILL = kill  # type: ignore[attr-defined]
    return agent_file, module


def test_sigkill_then_resume_records_every_episode_exactly_once(results_dir: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "slow.py"
    agent_file.write_text(SLOW_ORACLE)
    # two agents on the English half of the settings suite: 18 episodes, enough to kill the run midway
    planned = 2 * len(TaskRepository().select(TaskFilter(suites=["settings"], languages=["en"])))
    cmd = [sys.executable, "-m", "spa_bench", "run", "--suite", "settings", "--lang", "en", "--agent",
           f"{agent_file}:SlowOracle", "--agent", "noop", "--phones", "1", "--out", str(results_dir)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=os.environ.copy())
    try:
        deadline = time.monotonic() + 120
        finished_before: dict[str, str] = {}
        while time.monotonic() < deadline:
            runs = list(results_dir.glob("*/manifest.json")) if results_dir.exists() else []
            if runs:
                layout = RunLayout(runs[0].parent)
                finished_before = {log.episode_id: log.started_at.isoformat() for log in layout.episodes()
                                   if log.status == "finished"}
                if len(finished_before) >= 4:
                    break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.2)
        assert len(finished_before) >= 4, "the run made no progress"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    run_dir = runs[0].parent
    layout = RunLayout(run_dir)
    assert not layout.summary_path.exists()  # killed: no summary was written
    assert len(layout.episode_ids()) < planned
    resumed = subprocess.run([sys.executable, "-m", "spa_bench", "run", "--resume", str(run_dir)],
                             capture_output=True, text=True, timeout=600, env=os.environ.copy())
    assert resumed.returncode == 0, resumed.stderr
    logs = list(layout.episodes())
    ids = [log.episode_id for log in logs]
    assert len(ids) == planned and len(set(ids)) == planned
    assert all(log.status == "finished" and log.termination in ("done", "infeasible") for log in logs)
    # episodes finished before the kill were kept as they were, not run again
    for log in logs:
        if log.episode_id in finished_before:
            assert log.started_at.isoformat() == finished_before[log.episode_id]
    summary = layout.read_summary()
    assert summary.planned == planned and summary.finished == planned and summary.undone == []
    oracle_ok = [v.success for log in logs if log.agent.name == "SlowOracle" for v in log.verdicts]
    assert oracle_ok == [True] * (planned // 2)


def test_a_phone_killed_mid_episode_is_replaced_and_reported(results_dir: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    agent_file, module = armed_killer(tmp_path, monkeypatch, settle_s=0.5)
    config = RunConfig(filter=TaskFilter(ids=["settings_dark_theme_en", "settings_wifi_off_en",
                                              "settings_airplane_on_zh", "settings_bluetooth_on_zh"]),
                       agents=[AgentConfig(agent=f"{agent_file}:KillerOracle")], phones=2, out=results_dir)
    result = run_benchmark(config)
    assert module.KILLED, "the agent never killed its phone"  # type: ignore[attr-defined]
    dead = module.KILLED[0]  # type: ignore[attr-defined]
    assert set(result.summary.removed_devices) == {dead}
    assert result.summary.finished == 4 and not result.summary.undone and not result.summary.failed
    logs = {log.task.id: log for log in result.logs}
    retried = logs["settings_dark_theme_en"]
    assert retried.attempt == 2
    assert retried.device.serial != dead
    assert retried.errors and retried.errors[0].kind == "device"
    assert all(log.verdicts[0].success for log in logs.values())


def test_entry_point_agent_is_listed_and_runs(tmp_path: Path, results_dir: Path) -> None:
    """An agent installed as a package (an entry point in group spa_bench.agents) is found by name."""
    site = tmp_path / "site"
    (site / "my_agents").mkdir(parents=True)
    (site / "my_agents" / "__init__.py").write_text(
        "from spa_bench.agents.noop import NoopAgent\n\nclass PackagedAgent(NoopAgent):\n    pass\n")
    dist = site / "my_agents-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[spa_bench.agents]\npackaged = my_agents:PackagedAgent\n")
    env = dict(os.environ, PYTHONPATH=str(site) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               COLUMNS="200")
    listed = subprocess.run([sys.executable, "-m", "spa_bench", "agents", "list"], capture_output=True,
                            text=True, timeout=60, env=env, check=True)
    assert "packaged" in listed.stdout and "entry-point" in listed.stdout
    assert "my_agents:PackagedAgent" in listed.stdout
    ran = subprocess.run([sys.executable, "-m", "spa_bench", "run", "--agent", "packaged", "--task",
                          "settings_wifi_off_en", "--out", str(results_dir)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert ran.returncode == 0, ran.stderr
    log = next(RunLayout(next(results_dir.iterdir())).episodes())
    assert log.agent.agent == "packaged" and not log.agent.reference and log.termination == "done"


def test_resume_scores_an_episode_whose_driver_died_before_its_verdicts(results_dir: Path) -> None:
    """A driver killed between writing an episode's finished log and writing its verdicts leaves a finished,
    unscored episode. The resumed run does not run it again, so it scores it (from the captured state)."""
    ids = ["settings_dark_theme_en", "calculator_multiply_zh"]
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=ids), agents=[AgentConfig(agent="oracle")],
                                     phones=1, out=results_dir))
    layout = RunLayout(result.run_dir)
    unscored = layout.read_episode("oracle__calculator_multiply_zh__r0")
    assert unscored.verdicts
    assert [v.success for v in unscored.verdicts if v.evaluator == "state"] == [True]
    layout.write_episode(unscored.model_copy(update={"verdicts": []}))  # as the killed driver left it
    layout.summary_path.unlink()
    resumed = run_module.resume_run(result.run_dir)
    assert resumed.summary.finished == 2 and resumed.summary.undone == []
    rescored = layout.read_episode("oracle__calculator_multiply_zh__r0")
    assert [v.success for v in rescored.verdicts if v.evaluator == "state"] == [True]
    assert rescored.started_at == unscored.started_at  # scored, not run again
    scored = next(log for log in result.logs if log.task.id == "settings_dark_theme_en")
    kept = layout.read_episode(scored.episode_id)
    assert kept.verdicts == scored.verdicts  # an episode that was scored is not scored again


def test_a_run_that_loses_its_only_phone_exits_non_zero_and_says_how_to_go_on(
        results_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """With no device left, the episodes not run are the run's failure, not a quiet exit 0: the summary,
    report and resume line are written, and the exit code says the plan was not carried out."""
    from cli_helpers import run_cli

    agent_file, module = armed_killer(tmp_path, monkeypatch)
    result = run_cli(capsys, "run", "--task", "settings_dark_theme_en", "--task", "settings_wifi_off_en",
                     "--agent", f"{agent_file}:KillerOracle", "--phones", "1", "--out", str(results_dir))
    assert module.KILLED  # type: ignore[attr-defined]
    assert result.code == 1, (result.out, result.err)
    assert "of 2 episode(s) could not be run" in result.err
    assert "spa-bench run --resume" in " ".join(result.out.split()) and "results:" in result.out
    (run_dir,) = results_dir.iterdir()
    summary = RunLayout(run_dir).read_summary()
    assert summary.undone and not summary.interrupted and (run_dir / "report.html").is_file()
