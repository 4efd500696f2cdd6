"""Limits and interruptions: a step that takes too long, an episode over its time, Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from pim_runs import on_shared_phones

from spa_bench.results.layout import RunLayout
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter, TaskRepository

pytestmark = pytest.mark.usefixtures("adb_env")

SLEEPERS = textwrap.dedent('''
    import time
    from spa_bench.agent import AgentStep, BaseAgent

    class Sleeper(BaseAgent):
        """Thinks for `seconds` on every step, then scrolls."""
        def __init__(self, seconds=5.0):
            self.seconds = float(seconds)
        def step(self, observation):
            time.sleep(self.seconds)
            return AgentStep({"type": "scroll", "direction": "down"})
''')


def test_step_and_episode_timeouts(results_dir: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "sleepers.py"
    agent_file.write_text(SLEEPERS)
    task = TaskFilter(ids=["settings_wifi_off_en"])
    slow = run_benchmark(RunConfig(filter=task, **on_shared_phones(1), out=results_dir, step_timeout_s=1.0,
                                   agents=[AgentConfig(agent=f"{agent_file}:Sleeper", args={"seconds": 3})]))
    log = slow.logs[0]
    assert log.termination == "step_timeout"
    assert log.steps[-1].error is not None and log.steps[-1].error.kind == "timeout"
    assert log.verdicts[0].success is False  # checked all the same: nothing was done
    long = run_benchmark(RunConfig(filter=task, **on_shared_phones(1), out=results_dir, episode_timeout_s=1.0,
                                   agents=[AgentConfig(agent=f"{agent_file}:Sleeper",
                                                       args={"seconds": 0.4})]))
    log = long.logs[0]
    assert log.termination == "episode_timeout"
    # 0.4 s per step in a 1 s episode: at most 4 steps; under CPU load an observation can take most of
    # a second, so one step is all the check may count on (the limit is what ended it, not max_steps)
    assert 1 <= len(log.steps) <= 4


def test_ctrl_c_stops_cleanly_and_resume_finishes(results_dir: Path, tmp_path: Path) -> None:
    agent_file = tmp_path / "sleepers.py"
    agent_file.write_text(SLEEPERS)
    cmd = [sys.executable, "-m", "spa_bench", "run", "--suite", "settings", "--lang", "en", "--agent",
           f"{agent_file}:Sleeper", "--agent-arg", "seconds=0.2", "--max-steps", "3", "--phones", "1",
           "--out", str(results_dir)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        done = list(results_dir.glob("*/episodes/*/episode.json")) if results_dir.exists() else []
        if len(done) >= 3:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err
    run_dir = next(results_dir.iterdir())
    layout = RunLayout(run_dir)
    summary = layout.read_summary()
    assert summary.interrupted and summary.undone
    assert b"--resume" in out
    resumed = subprocess.run([sys.executable, "-m", "spa_bench", "run", "--resume", str(run_dir)],
                             capture_output=True, timeout=300, env=os.environ.copy())
    assert resumed.returncode == 0, resumed.stderr.decode()
    summary = layout.read_summary()
    planned = len(TaskRepository().select(TaskFilter(suites=["settings"], languages=["en"])))
    assert not summary.interrupted and summary.undone == [] and summary.finished == planned
    assert len(layout.episode_ids()) == planned
    assert all(log.termination == "max_steps" for log in layout.episodes())
