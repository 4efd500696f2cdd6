"""`run --resume RUN` continues the plan its manifest records (issue 35): options that would change it are
refused by name, not silently ignored; `--agent-arg` only gives back arguments redacted in the manifest."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args

from spa_bench.results.layout import RunLayout

pytestmark = pytest.mark.usefixtures("adb_env")

KEYED = textwrap.dedent('''
    from spa_bench.agent import AgentStep, BaseAgent

    class Keyed(BaseAgent):
        """Needs a key (redacted in the manifest); says done at once."""
        def __init__(self, api_key, colour="red"):
            if not api_key.startswith("sk-"):
                raise ValueError("not a key")
            self.colour = colour
        def step(self, observation):
            return AgentStep({"type": "finish", "status": "done"}, output=f"done in {self.colour}")
''')
TASK = "settings_wifi_off_en"


def test_resume_refuses_plan_changes_and_takes_back_a_redacted_key(
        results_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    agent_file = tmp_path / "keyed.py"
    agent_file.write_text(KEYED)
    phones = on_shared_phones_args(1)
    first = run_cli(capsys, "run", "--task", TASK, "--agent", f"{agent_file}:Keyed", "--agent-arg",
                    "api_key=sk-first-0123456789abcdef", *phones, "--out", str(results_dir))
    assert first.code == 0, first.err
    run_dir = next(results_dir.iterdir())
    layout = RunLayout(run_dir)
    assert layout.read_manifest().agents[0].args["api_key"] == "***REDACTED***"
    episodes = layout.episode_ids()

    changed = run_cli(capsys, "run", "--resume", str(run_dir), "--agent", "oracle", "--suite", "starter",
                      "--repeats", "3", "--seed", "4", *phones)
    assert changed.code == 2
    assert "--suite, --agent, --repeats, --seed would change that plan" in changed.err
    assert layout.episode_ids() == episodes  # nothing ran
    elsewhere = run_cli(capsys, "run", "--resume", str(run_dir), "--out", str(tmp_path / "other"))
    assert elsewhere.code == 2 and "--out would change that plan" in elsewhere.err
    other_arg = run_cli(capsys, "run", "--resume", str(run_dir), "--agent-arg", "colour=blue", *phones)
    assert other_arg.code == 2
    assert ("--agent-arg colour='blue' (recorded: not an argument of any agent) would change the run's agents"
            in other_arg.err)

    # an episode lost (its folder removed): the resume runs it again, with the key given back
    shutil.rmtree(layout.episode_dir(episodes[0]))
    no_key = run_cli(capsys, "run", "--resume", str(run_dir), *phones)
    assert no_key.code == 2 and "api_key were redacted in the manifest" in no_key.err
    resumed = run_cli(capsys, "run", "--resume", str(run_dir), "--agent-arg",
                      "api_key=sk-again-0123456789abc", "--out", str(results_dir),
                      *phones)  # --out: the run folder's parent, as at first
    assert resumed.code == 0, resumed.err
    log = layout.read_episode(episodes[0])
    assert log.termination == "done" and log.steps[0].agent_output == "done in red"
