"""SpaBenchEnv instances as Ray actors, for rollouts on one machine or a cluster (the [env] and [ray]
extras; Ray is imported only here).

`RayEnvPool(n, **env_args)` starts n actors, each holding one `SpaBenchEnv` with its own virtual phone
(or the device its `serial=` names), placed by Ray like any actor: give `resources={"spa_phone": 1}` to
put them only on hosts joined with `spa-bench worker --phones N`. Two ways to use it:

- step them together, like a vector env whose members live anywhere: `reset(seeds, options)` and
  `step(actions)` return one result per env, in order;
- whole episodes on the actors, with no round trip per step: `rollouts(episodes, policy)` runs each
  (task, seed) on the next free env. The policy is a callable from the Gymnasium observation to an
  action (pickled to the actors), or the name of a spa-bench agent (`"oracle"`, `"my_agent.py:Cls"`),
  driven through `env.context()` and `env.observation` exactly as a benchmark run drives it. A policy
  from a module the actors cannot import goes by value after
  `ray.cloudpickle.register_pickle_by_value(module)` (functions of `__main__` always do).

With `record_dir=`, each env records its episodes as agent `<agent_name>-<i>`, on its own host: give a
folder all hosts share, or collect the folders afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spa_bench.cluster.connect import import_ray
from spa_bench.env.core import SpaBenchEnv

Policy = Callable[[dict[str, Any]], Any] | str
ResetResult = tuple[dict[str, Any], dict[str, Any]]
StepResult = tuple[dict[str, Any], float, bool, bool, dict[str, Any]]


@dataclass(frozen=True)
class Rollout:
    """One episode run on an actor: its total reward, how it ended, and per-step rewards."""

    task: str
    seed: int
    reward: float
    steps: int
    terminated: bool
    truncated: bool
    rewards: list[float] = field(default_factory=list)
    final_info: dict[str, Any] = field(default_factory=dict)


class EnvHost:
    """The object inside one env actor."""

    def __init__(self, env_args: dict[str, Any]) -> None:
        self.env = SpaBenchEnv(**env_args)

    def reset(self, seed: int | None, options: dict[str, Any] | None) -> ResetResult:
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> StepResult:
        return self.env.step(action)

    def rollout(self, task: str, seed: int, policy: Policy) -> Rollout:
        obs, info = self.env.reset(seed=seed, options={"task": task})
        agent = None
        if isinstance(policy, str):
            from spa_bench.agent import AGENTS, AgentStep, ReferenceAgent

            agent = AGENTS.get(policy)()
            if isinstance(agent, ReferenceAgent):  # the oracle: the full task, through the recorded path
                self.env.reveal_task(agent)
            agent.reset(self.env.context())
        rewards: list[float] = []
        terminated = truncated = False
        try:
            while not (terminated or truncated):
                if agent is not None:
                    assert self.env.observation is not None  # set by reset and every step
                    answer = agent.step(self.env.observation)
                    action = answer.action if isinstance(answer, AgentStep) else answer
                else:
                    assert callable(policy)
                    action = policy(obs)
                obs, reward, terminated, truncated, info = self.env.step(action)
                rewards.append(float(reward))
        finally:
            if agent is not None:
                agent.close()
        return Rollout(task, seed, sum(rewards), len(rewards), terminated, truncated, rewards,
                       {k: v for k, v in info.items() if k in ("task", "termination", "valid", "error")})

    def close(self) -> None:
        self.env.close()


class RayEnvPool:
    """n SpaBenchEnv actors. Connects to `address` (None: the Ray session of this process, or a local
    one Ray starts) and stops its actors on close()."""

    def __init__(self, n: int, *, address: str | None = None, resources: dict[str, float] | None = None,
                 num_cpus: float = 0, agent_name: str = "env", **env_args: Any) -> None:
        if n < 1:
            raise ValueError(f"RayEnvPool: n must be >= 1, got {n}")
        self.ray = import_ray()
        if not self.ray.is_initialized():
            self.ray.init(address=address, namespace="spa-bench", log_to_driver=False)
        actor = self.ray.remote(EnvHost).options(num_cpus=num_cpus, resources=resources or {},
                                                 max_restarts=0, max_task_retries=0)
        self.actors = [actor.remote(dict(env_args, agent_name=f"{agent_name}-{i}")) for i in range(n)]

    def reset(self, seeds: Sequence[int | None] | None = None,
              options: Sequence[dict[str, Any] | None] | None = None) -> list[ResetResult]:
        seeds = seeds if seeds is not None else [None] * len(self.actors)
        options = options if options is not None else [None] * len(self.actors)
        refs = [a.reset.remote(s, o) for a, s, o in zip(self.actors, seeds, options, strict=True)]
        return list(self.ray.get(refs))

    def step(self, actions: Sequence[Any]) -> list[StepResult]:
        refs = [a.step.remote(action) for a, action in zip(self.actors, actions, strict=True)]
        return list(self.ray.get(refs))

    def rollouts(self, episodes: Sequence[tuple[str, int]], policy: Policy) -> list[Rollout]:
        """Run every (task, seed) on the next free env; results in the order of `episodes`."""
        todo = list(enumerate(episodes))
        results: dict[int, Rollout] = {}
        running: dict[Any, tuple[int, Any]] = {}
        free = list(self.actors)
        while todo or running:
            while todo and free:
                index, (task, seed) = todo.pop(0)
                actor = free.pop(0)
                running[actor.rollout.remote(task, seed, policy)] = (index, actor)
            ready, _ = self.ray.wait(list(running), num_returns=1)
            for ref in ready:
                index, actor = running.pop(ref)
                results[index] = self.ray.get(ref)
                free.append(actor)
        return [results[i] for i in range(len(episodes))]

    def close(self) -> None:
        refs = [a.close.remote() for a in self.actors]
        self.ray.wait(refs, num_returns=len(refs), timeout=30)
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
