"""`noop`: says it is done at once. A floor: no task should pass without work."""

from __future__ import annotations

from spa_bench.actions import Finish
from spa_bench.agent import AgentStep, BaseAgent
from spa_bench.device.observation import Observation


class NoopAgent(BaseAgent):
    def step(self, observation: Observation) -> AgentStep:
        return AgentStep(Finish(status="done"), output="noop: finishing without acting")
