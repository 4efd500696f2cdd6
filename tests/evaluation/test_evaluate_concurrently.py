"""Two `spa-bench evaluate` processes at once on one run lose no verdict (issue 39): the recorder adds
verdicts under a lock, re-reading the log, instead of rewriting the copy each process read at its start.
The second process is held (a plug-in evaluator that waits for a file) after it has read every log and
before it writes any, while the first adds its state verdicts to every episode: a read-modify-write of
the copies read at the start would drop all of them."""

from __future__ import annotations

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
from spa_bench.tasks.repository import TaskFilter

pytestmark = pytest.mark.usefixtures("adb_env")

WAITING = textwrap.dedent('''
    """Waits, at its first episode, until the test says go; then says it looked."""
    import time
    from datetime import UTC, datetime
    from pathlib import Path

    from spa_bench.results.schema import Verdict

    FOLDER = Path({folder!r})


    class WaitingEvaluator:
        name = "waiting"
        role = "informational"

        def applies(self, log):
            return True

        def open(self, context):
            return None

        def close(self):
            return None

        def evaluate(self, log, episode_dir):
            (FOLDER / "started").touch()
            deadline = time.monotonic() + 60
            while not (FOLDER / "go").exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            return Verdict(evaluator=self.name, success=True, created_at=datetime.now(UTC))
''')


def _evaluate(run_dir: Path, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "spa_bench", "evaluate", str(run_dir), "--workers", "1",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_two_evaluations_at_once_keep_both_verdicts(results_dir: Path, tmp_path: Path) -> None:
    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en", "settings_bluetooth_on_zh"]),
                       **on_shared_phones(1), out=results_dir, evaluate=False,
                       agents=[AgentConfig(agent="noop"), AgentConfig(agent="oracle")])
    run_dir = run_benchmark(config).run_dir
    layout = RunLayout(run_dir)
    before = {log.episode_id: len(log.verdicts) for log in layout.episodes()}
    assert len(before) == 4

    plugin = tmp_path / "waiting.py"
    plugin.write_text(WAITING.format(folder=str(tmp_path)))
    held = _evaluate(run_dir, "-e", f"{plugin}:WaitingEvaluator")
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "started").exists():  # it has read every log, and written none
            assert held.poll() is None and time.monotonic() < deadline, held.communicate()[0]
            time.sleep(0.05)
        first = _evaluate(run_dir, "-e", "state", "-e", "key_components", "--calibrate")
        out, _ = first.communicate(timeout=300)
        assert first.returncode == 0, out
        (tmp_path / "go").touch()
        out, _ = held.communicate(timeout=120)
        assert held.returncode == 0, out
    finally:
        for process in (held,):
            if process.poll() is None:
                process.kill()
    for log in layout.episodes():
        names = [v.evaluator for v in log.verdicts[before[log.episode_id]:]]
        assert sorted(names) == ["key_components:rapidocr", "state", "waiting"], (log.episode_id, names)
        assert all(v.spec is not None for v in log.verdicts[before[log.episode_id]:])
