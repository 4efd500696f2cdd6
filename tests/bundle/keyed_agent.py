"""An agent that is given credentials as arguments (as a user's adapter of a hosted model is) and
finishes at once: the bundle tests pass it keys by flag and by config file and look for them."""

from __future__ import annotations

from spa_bench.actions import Finish
from spa_bench.agent import AgentStep, BaseAgent
from spa_bench.device.observation import Observation


class KeyedAgent(BaseAgent):
    def __init__(self, api_key: str = "", token: str = "") -> None:
        self.api_key, self.token = api_key, token

    def step(self, observation: Observation) -> AgentStep:
        return AgentStep(action=Finish(status="done"), output="finishing at once")
