"""The Gymnasium environment over a virtual phone: Gymnasium's own checker, the oracle's golden scripts
giving reward 1 in both languages, finishing at once giving 0, recordings that `spa-bench evaluate`
scores, and the vector form over two phones."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from cli_helpers import run_cli

from spa_bench.tasks.repository import TaskFilter, TaskRepository

gymnasium = pytest.importorskip("gymnasium")

from spa_bench.agents.oracle import OracleAgent  # noqa: E402

from spa_bench.agent import AgentStep  # noqa: E402
from spa_bench.env import SpaBenchEnv, make_vector_env  # noqa: E402
from spa_bench.results.layout import RunLayout  # noqa: E402

pytestmark = pytest.mark.usefixtures("adb_env")

TASKS = ["calculator_multiply_en", "calculator_multiply_zh", "settings_wifi_off_en",
         "settings_bluetooth_on_zh"]


@pytest.fixture(scope="module")
def env(adb_env: dict[str, str]) -> Iterator[SpaBenchEnv]:
    environment = SpaBenchEnv(TASKS, size="540x1200")
    try:
        yield environment
    finally:
        environment.close()


def run_oracle(env: SpaBenchEnv, task: str) -> tuple[float, bool, bool, list[dict[str, object]]]:
    """The oracle agent, driven through the env: its golden actions, sent as their dict form."""
    env.reset(options={"task": task})
    oracle = OracleAgent()
    env.reveal_task(oracle)  # a reference agent: the full task, through the env's privileged path
    oracle.reset(env.context())
    reward, terminated, truncated, infos = 0.0, False, False, []
    while not (terminated or truncated):
        assert env.observation is not None
        answer = oracle.step(env.observation)
        action = answer.action if isinstance(answer, AgentStep) else answer
        _, reward, terminated, truncated, info = env.step(action.model_dump(exclude_none=True))
        infos.append(info)
    return reward, terminated, truncated, infos


def test_check_env_passes(env: SpaBenchEnv) -> None:
    from gymnasium.utils.env_checker import check_env

    env.timings_in_info = False  # timings differ between equal steps; check_env compares infos
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.timings_in_info = True
    obs, info = env.reset(seed=1, options={"task": "calculator_multiply_zh"})
    assert obs["screenshot"].shape == (1200, 540, 3) and obs["screenshot"].dtype == np.uint8
    assert obs["package"] == "com.android.calculator2"
    drawn = env._instance.parameters["e"] if env._instance else {}  # the task draws its two numbers
    assert isinstance(drawn, dict) and f"{drawn['a']} 乘以 {drawn['b']}" in obs["instruction"]
    assert info["language"] == "zh"
    elements = json.loads(obs["elements"])
    assert any(e["resource_id"].endswith("digit_1") for e in elements)


@pytest.mark.parametrize("task", ["calculator_multiply_en", "calculator_multiply_zh",
                                  "settings_wifi_off_en", "settings_bluetooth_on_zh"])
def test_oracle_gets_reward_1(env: SpaBenchEnv, task: str) -> None:
    reward, terminated, truncated, infos = run_oracle(env, task)
    assert (reward, terminated, truncated) == (1.0, True, False), infos[-1]
    assert all(i["valid"] for i in infos)
    assert any(i["gesture"] for i in infos)  # the taps reached the screen


@pytest.mark.parametrize("task", ["calculator_multiply_en", "settings_bluetooth_on_zh"])
def test_noop_gets_0(env: SpaBenchEnv, task: str) -> None:
    env.reset(options={"task": task})
    _, reward, terminated, truncated, info = env.step('{"type": "finish"}')
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["termination"] == "done" and any(c.startswith("✗") for c in info["checks"])


def test_rewards_before_the_end_and_every_step(env: SpaBenchEnv) -> None:
    env.reset(options={"task": "settings_wifi_off_en"})
    _, reward, terminated, _, info = env.step({"type": "key", "key": "home"})
    assert (reward, terminated, info["valid"]) == (0.0, False, True) and "checks" not in info
    _, reward, _, _, info = env.step("not an action")
    assert not info["valid"] and "invalid action" in info["error"]
    env.reward_mode = "checks_every_step"
    try:
        _, _, _, _, info = env.step({"type": "wait", "seconds": 0.1})
        assert info["checks"]  # read while the episode goes on
    finally:
        env.reward_mode = "final"
    env.step({"type": "finish"})
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step({"type": "finish"})


def test_step_limit_truncates(adb_env: dict[str, str], env: SpaBenchEnv) -> None:
    env.max_steps = 2
    try:
        env.reset(options={"task": "calculator_multiply_en"})
        _, _, terminated, truncated, _ = env.step({"type": "wait", "seconds": 0.1})
        assert (terminated, truncated) == (False, False)
        _, reward, terminated, truncated, info = env.step({"type": "wait", "seconds": 0.1})
        assert (reward, terminated, truncated, info["termination"]) == (0.0, False, True, "max_steps")
    finally:
        env.max_steps = None


def test_recorded_episodes_are_evaluated(adb_env: dict[str, str], tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "env-run"
    env = SpaBenchEnv(TASKS, size="540x1200", record_dir=run_dir, agent_name="oracle-env")
    try:
        assert run_oracle(env, "calculator_multiply_zh")[0] == 1.0
        env.reset(options={"task": "calculator_multiply_zh"})
        env.step({"type": "finish"})
    finally:
        env.close()
    layout = RunLayout(run_dir)
    assert layout.read_manifest().run_id == "env-run"
    ids = layout.episode_ids()
    assert ids == ["oracle-env__calculator_multiply_zh__r0", "oracle-env__calculator_multiply_zh__r1"]
    first = layout.read_episode(ids[0])
    assert first.termination == "done" and first.captured_state and len(first.steps) >= 8
    assert (run_dir / "episodes" / ids[0] / first.steps[0].observation.screenshot).is_file()
    result = run_cli(capsys, "evaluate", str(run_dir))
    assert result.code == 0, result.out
    verdicts = {e: [v.success for v in layout.read_episode(e).verdicts if v.evaluator == "state"]
                for e in ids}
    assert verdicts == {ids[0]: [True], ids[1]: [False]}
    result = run_cli(capsys, "report", str(run_dir), "--out", str(tmp_path / "report.html"))
    assert result.code == 0, result.out + result.err
    assert "calculator_multiply_zh" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_vector_env_with_two_phones(adb_env: dict[str, str]) -> None:
    envs = make_vector_env(2, tasks=["settings_wifi_off_en", "calculator_multiply_zh"], size="540x1200")
    try:
        obs, info = envs.reset(seed=3, options={"task": "settings_wifi_off_en"})
        assert obs["screenshot"].shape == (2, 1200, 540, 3)
        assert len(set(info["serial"])) == 2  # a phone of its own for each env
        actions = ('{"type": "key", "key": "home"}', '{"type": "finish"}')
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert list(terminated) == [False, True] and list(truncated) == [False, False]
        assert list(rewards) == [0.0, 0.0] and list(info["valid"]) == [True, True]
        assert obs["screenshot"].shape == (2, 1200, 540, 3)
    finally:
        envs.close()


def test_bad_arguments_are_named_before_any_phone_starts() -> None:
    from spa_bench.errors import ConfigError

    with pytest.raises(ConfigError, match="reward_mode 'dense'"):
        SpaBenchEnv(reward_mode="dense")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match=r"unknown task id.*no_such_task"):
        SpaBenchEnv(["calculator_multiply_en", "no_such_task"])
    with pytest.raises(ConfigError, match="needs pixels=True"):
        SpaBenchEnv(render_mode="rgb_array", pixels=False)


def test_unknown_reset_options_and_tasks_are_refused(env: SpaBenchEnv) -> None:
    from spa_bench.errors import ConfigError

    with pytest.raises(ConfigError, match="only 'task' and 'repeat'"):
        env.reset(options={"tsak": "calculator_multiply_en"})
    with pytest.raises(ConfigError, match="unknown task id 'nope'"):
        env.reset(options={"task": "nope"})



@pytest.mark.slow
def test_starter_tasks_oracle_1_noop_0(adb_env: dict[str, str]) -> None:
    """The env reproduces the benchmark's own baseline at the benchmark's screen size on the starter
    suite: one task per app and language, both languages (tests/tasks/test_every_task.py runs every
    task through the runner; the env shares its set-up and checks)."""
    env = SpaBenchEnv(size="1080x2400")
    starter = [r.id for r in TaskRepository().select(TaskFilter(suites=["starter"]))]
    assert {t.rsplit("_", 1)[-1] for t in starter} == {"en", "zh"}
    failures = []
    try:
        for task in starter:
            reward, terminated, _, infos = run_oracle(env, task)
            if (reward, terminated) != (1.0, True):
                failures.append(f"{task}: oracle got {reward}: {infos[-1].get('checks')}")
            env.reset(options={"task": task})
            _, reward, _, _, _ = env.step({"type": "finish"})
            if reward != 0.0:
                failures.append(f"{task}: finishing at once got {reward}")
    finally:
        env.close()
    assert not failures, "\n".join(failures)
