"""SpaBenchEnv as Ray actors (spa_bench.env.ray_rollout) on a local Ray: whole rollouts with the
oracle agent get reward 1 and a policy that finishes at once gets 0, in both languages; reset/step across
the actors work like a vector env."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("gymnasium")
ray = pytest.importorskip("ray", reason="the [ray] extra is not installed")

from spa_bench.env.ray_rollout import RayEnvPool  # noqa: E402

# the xdist worker of every test that starts Ray (tests/cluster too): not two Ray instances on 2 cores
pytestmark = [pytest.mark.ray, pytest.mark.slow, pytest.mark.usefixtures("adb_env"),
              pytest.mark.xdist_group("ray-cluster")]
TASKS = ["calculator_multiply_en", "calculator_multiply_zh"]


@pytest.fixture(scope="module")
def pool(adb_env: dict[str, str]) -> Iterator[RayEnvPool]:
    root = tempfile.mkdtemp(prefix="sbe", dir="/tmp")  # short: Ray's sockets live under it
    mp = pytest.MonkeyPatch()
    mp.setenv("RAY_AUTH_MODE", "disabled")
    mp.setenv("RAY_USAGE_STATS_ENABLED", "0")
    mp.delenv("RAY_ADDRESS", raising=False)
    ray.init(num_cpus=2, include_dashboard=False, _temp_dir=root, object_store_memory=80 * 1024 * 1024,
             log_to_driver=False, _node_ip_address="127.0.0.2")  # 127.0.0.1 is rewritten by Ray
    envs = None
    try:
        envs = RayEnvPool(2, tasks=TASKS, size="540x1200")
        yield envs
    finally:
        if envs is not None:
            envs.close()
        ray.shutdown()
        mp.undo()
        shutil.rmtree(root, ignore_errors=True)


def finish_at_once(obs: dict[str, Any]) -> dict[str, str]:
    return {"type": "finish", "status": "done"}


# the actors cannot import this test module: send its functions by value, as a user's script would
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


def test_oracle_rollouts_get_reward_1_and_finishing_at_once_0(pool: RayEnvPool) -> None:
    episodes = [(TASKS[0], 0), (TASKS[1], 1), (TASKS[0], 2)]
    oracle = pool.rollouts(episodes, "oracle")
    assert [(r.task, r.seed) for r in oracle] == episodes
    assert [r.reward for r in oracle] == [1.0, 1.0, 1.0]
    assert all(r.terminated and not r.truncated and r.steps > 1 for r in oracle)
    assert all(r.rewards[:-1] == [0.0] * (r.steps - 1) for r in oracle)  # the reward comes at the end
    noop = pool.rollouts(episodes[:2], finish_at_once)
    assert [(r.reward, r.steps, r.terminated) for r in noop] == [(0.0, 1, True), (0.0, 1, True)]


def test_reset_and_step_across_the_actors(pool: RayEnvPool) -> None:
    results = pool.reset(seeds=[0, 1], options=[{"task": TASKS[0]}, {"task": TASKS[1]}])
    assert [info["task"] for _, info in results] == TASKS
    (obs_en, _), (obs_zh, _) = results
    assert obs_en["screenshot"].shape == (1200, 540, 3) and obs_en["screenshot"].dtype.name == "uint8"
    assert obs_en["instruction"] != obs_zh["instruction"]
    steps = pool.step(['{"type": "finish", "status": "done"}', {"type": "finish", "status": "done"}])
    assert [(reward, terminated, truncated) for _, reward, terminated, truncated, _ in steps] == [
        (0.0, True, False), (0.0, True, False)]
