"""The README's "Add your agent", each of its three ways run as written with agents/example_agent.py on the
shared test phones: `file.py:Class`, `@register_agent` with `--import`, and an installed entry point."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args

from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog

pytestmark = pytest.mark.usefixtures("adb_env")

EXAMPLE = Path(__file__).parents[2] / "agents" / "example_agent.py"
TASK = "settings_dark_theme_en"


def _one_episode(results_dir: Path) -> EpisodeLog:
    (run_dir,) = [p for p in results_dir.iterdir() if p.is_dir()]
    (log,) = list(RunLayout(run_dir).episodes())
    return log


def _ran_the_example(log: EpisodeLog, name: str, greeting: str) -> None:
    """The example agent played the episode through: its greeting leads every output, it ended by
    finishing (no error), and the episode was scored."""
    assert log.agent.name == name and log.agent.args == {"greeting": greeting}
    assert log.termination == "done" and not log.errors
    assert log.steps and all((s.agent_output or "").startswith(f"{greeting}: ") for s in log.steps)
    assert log.verdicts


def test_a_file_and_its_class(results_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", "--agent", f"{EXAMPLE}:ExampleAgent", "--agent-arg", "greeting=hi",
                     "--task", TASK, *on_shared_phones_args(1), "--out", str(results_dir))
    assert result.code == 0, result.err
    _ran_the_example(_one_episode(results_dir), "ExampleAgent", "hi")


def test_the_decorator_with_import(results_dir: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """As the README says: copy the example, give its @register_agent a name of your own, --import it."""
    mine = tmp_path / "my_agents.py"
    mine.write_text(EXAMPLE.read_text().replace('register_agent("greeter")', 'register_agent("my-greeter")'))
    assert mine.read_text() != EXAMPLE.read_text()
    result = run_cli(capsys, "run", "--agent", "my-greeter", "--task", TASK, *on_shared_phones_args(1),
                     "--out", str(results_dir))
    assert result.code == 2 and "unknown agent 'my-greeter'" in result.err  # not without its file,
    assert "--import FILE.py" in result.err  # and the error says how to give it
    result = run_cli(capsys, "run", "--import", str(mine), "--agent", "my-greeter", "--agent-arg",
                     "greeting=hallo", "--task", "settings_*_en", "--limit", "1", *on_shared_phones_args(1),
                     "--out", str(results_dir))
    assert result.code == 0, result.err
    _ran_the_example(_one_episode(results_dir), "my-greeter", "hallo")
    listed = run_cli(capsys, "agents", "list", "--import", str(EXAMPLE))
    assert re.search(r"│ greeter +│ decorator +│", listed.out), listed.out  # the example's own name


def test_an_installed_entry_point(results_dir: Path, tmp_path: Path) -> None:
    """A package installed with `[project.entry-points."spa_bench.agents"] mine = "my_agents:ExampleAgent"`:
    its module and its dist-info on the path, as pip leaves them, in a process of its own."""
    site = tmp_path / "site"
    (site / "my_agents").mkdir(parents=True)
    (site / "my_agents" / "__init__.py").write_text(EXAMPLE.read_text())
    info = site / "my_agents-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: my-agents\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[spa_bench.agents]\nmine = my_agents:ExampleAgent\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-c", "from spa_bench.cli import main; main()"]
    listed = subprocess.run([*command, "agents", "list"], env=env, capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "mine" in listed.stdout and "entry-point" in listed.stdout
    ran = subprocess.run([*command, "run", "--agent", "mine", "--agent-arg", "greeting=hej", "--task", TASK,
                          *on_shared_phones_args(1), "--out", str(results_dir)],
                         env=env, capture_output=True, text=True, timeout=240)
    assert ran.returncode == 0, ran.stderr
    _ran_the_example(_one_episode(results_dir), "mine", "hej")
