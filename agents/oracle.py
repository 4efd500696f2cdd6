"""`oracle`: replays the task's golden action script.

Targets given by `selector` are resolved on the current screen by the device layer, so one script works
in both languages and at any screen size. When a selector is not on screen yet (an app still starting,
an animation), the oracle waits a little and looks again; still missing, it scrolls the screen down, then
up, looking after each scroll (on a smaller screen, or with bigger text under `--vary`, what the script's
author saw at once can be further down a list), before trying anyway. A task without a golden script
cannot be replayed: the oracle reports it infeasible at once.

Arguments: `patience` (default 2) - how many short waits per action before scrolling for a selector;
`scrolls` (default 6) - how many scrolls down (then twice as many up) before giving up on it.
"""

from __future__ import annotations

from spa_bench.actions import Action, Finish, Scroll, Wait
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.device.elements import find
from spa_bench.device.observation import Observation


class OracleAgent(BaseAgent):
    def __init__(self, patience: int = 2, scrolls: int = 6) -> None:
        self.patience = int(patience)
        self.scrolls = int(scrolls)
        self.script: list[Action] = []
        self.position = 0
        self.waited = self.scrolled = 0

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.script = list(context.task.golden_script or [])
        self.position = 0
        self.waited = self.scrolled = 0

    def step(self, observation: Observation) -> AgentStep:
        if not self.context.task.golden_script:
            return AgentStep(Finish(status="infeasible"), output="oracle: this task has no golden script")
        if self.position >= len(self.script):
            return AgentStep(Finish(status="done"), output="oracle: script finished")
        action = self.script[self.position]
        selector = getattr(action, "selector", None)
        if selector is not None and find(observation.all_elements, selector) is None:
            wanted = selector.model_dump(exclude_defaults=True)
            if self.waited < self.patience:
                self.waited += 1
                return AgentStep(Wait(seconds=0.5), output=f"oracle: waiting for {wanted}")
            if self.scrolled < 3 * self.scrolls:
                self.scrolled += 1
                direction = "down" if self.scrolled <= self.scrolls else "up"
                return AgentStep(Scroll(direction=direction),
                                 output=f"oracle: scrolling {direction} for {wanted}")
        self.position += 1
        self.waited = self.scrolled = 0
        return AgentStep(action, output=f"oracle: golden step {self.position}/{len(self.script)}")
