"""Failures in plain sight (issue 35): an agent that cannot be built stops the run before anything starts,
in one line; during a run the first error of each kind is printed with its episode and cause, the summary
counts errors by kind, and a run whose every episode errored exits non-zero."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args

from spa_bench.errors import ConfigError
from spa_bench.runner.agent_check import check_signature
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter

AGENTS = textwrap.dedent('''
    from spa_bench.agent import BaseAgent

    class RaisesInStep(BaseAgent):
        def step(self, observation):
            raise RuntimeError("model endpoint said 500")

    class TakesNothing(BaseAgent):
        def __init__(self):
            pass

    class BadInit(BaseAgent):
        def __init__(self, colour="red"):
            raise ValueError(f"cannot paint it {colour}")
''')
TASKS = ("--task", "settings_wifi_off_en", "--task", "settings_dark_theme_en")


@pytest.fixture
def agents_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agents.py"
    path.write_text(AGENTS)
    return path


@pytest.mark.parametrize(("agent", "args", "said"), [
    ("TakesNothing", ["--agent-arg", "model=gpt-4o"],
     "agent 'TakesNothing' ({file}:TakesNothing) with model='gpt-4o': cannot be built: got an unexpected "
     "keyword argument 'model'; it takes no arguments"),
    ("BadInit", ["--agent-arg", "colour=blue"],
     "agent 'BadInit' ({file}:BadInit) with colour='blue': cannot be built: ValueError: cannot paint it "
     "blue"),
])
def test_an_agent_that_cannot_be_built_stops_the_run_in_one_line(
        agent: str, args: list[str], said: str, agents_file: Path, results_dir: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    # no device is given: the agents are built before any phone would start
    result = run_cli(capsys, "run", *TASKS, "--agent", f"{agents_file}:{agent}", *args, "--out",
                     str(results_dir))
    assert result.code == 2
    assert result.err.strip() == "error: " + said.format(file=agents_file)
    assert "episodes" not in result.out  # no progress bar was shown: nothing started
    assert not results_dir.exists()  # and no run folder made


def test_a_registered_agent_given_an_argument_it_does_not_take(results_dir: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", *TASKS, "--agent", "oracle", "--agent-arg", "patience=3",
                     "--agent-arg", "colour=red", "--out", str(results_dir))
    assert result.code == 2
    assert ("agent 'oracle' with patience=3, colour='red': cannot be built: got an unexpected keyword "
            "argument 'colour'; it takes patience, scrolls") in result.err
    assert not results_dir.exists()


def test_the_library_refuses_too_and_the_ray_path_checks_the_signature(agents_file: Path,
                                                                       results_dir: Path) -> None:
    config = RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), out=results_dir,
                       agents=[AgentConfig(agent=f"{agents_file}:BadInit")])
    with pytest.raises(ConfigError, match="cannot paint it red"):
        run_benchmark(config)
    assert not results_dir.exists()

    def factory(model: str, temperature: float = 0.0) -> object:
        return object()

    assert check_signature(factory, {"model": "m"}) is None
    assert check_signature(factory, {"model": "m", "top_p": 1}) == (
        "got an unexpected keyword argument 'top_p'; it takes model, temperature")
    assert check_signature(factory, {}) == "missing a required argument: 'model'; it takes model, temperature"


@pytest.mark.usefixtures("adb_env")
def test_errors_are_printed_first_of_each_kind_and_counted(agents_file: Path, results_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", *TASKS, "--agent", f"{agents_file}:RaisesInStep", "--agent", "noop",
                     *on_shared_phones_args(1), "--out", str(results_dir))
    assert result.code == 0, result.err  # noop's episodes ran: not every episode errored
    lines = result.out.splitlines()
    first = [line for line in lines if line.startswith("✗ first agent_error:")]
    assert first == ["✗ first agent_error: RaisesInStep__settings_wifi_off_en__r0: RuntimeError: model "
                     "endpoint said 500 (step 0) (further ones are counted in the summary)"]
    assert "errors by kind: agent_error 2" in lines
    assert ("  first agent_error: RaisesInStep__settings_wifi_off_en__r0: RuntimeError: model endpoint said "
            "500 (step 0)") in lines
    assert "agent RaisesInStep: every one of its 2 episode(s) ended in an error" in lines


@pytest.mark.usefixtures("adb_env")
def test_a_run_whose_every_episode_errored_exits_non_zero(agents_file: Path, results_dir: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", "--task", "settings_wifi_off_en", "--agent",
                     f"{agents_file}:RaisesInStep", *on_shared_phones_args(1), "--out", str(results_dir))
    assert result.code == 1
    assert "every episode of this run ended in an error" in result.err
    assert "errors by kind: agent_error 1" in result.out
    assert "results:" in result.out  # the run folder and its report are still written and named
