"""N envs, each with its own virtual phone, each in its own process (Gymnasium's AsyncVectorEnv).

The phone of each env runs inside that env's worker process (phone_process=False): the worker is
already a process of its own, so one more per phone would only add a hop. Observations hold text, which
Gymnasium's shared memory cannot carry, so they are sent through the pipes (shared_memory=False).
"""

from __future__ import annotations

import functools
from typing import Any

from gymnasium.vector import AsyncVectorEnv

from spa_bench.env.core import SpaBenchEnv


def make_vector_env(n: int, **env_args: Any) -> AsyncVectorEnv:
    """n SpaBenchEnv, each recording (if record_dir is given) as agent "<agent_name>-<i>"."""
    if n < 1:
        raise ValueError(f"make_vector_env: n must be >= 1, got {n}")
    name = env_args.pop("agent_name", "env")
    env_args.setdefault("phone_process", False)
    makers = [functools.partial(SpaBenchEnv, agent_name=f"{name}-{i}", **env_args) for i in range(n)]
    return AsyncVectorEnv(makers, shared_memory=False)
