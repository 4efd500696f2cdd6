"""`random`: seeded random valid actions on the elements of the current screen.

Arguments: `finish_probability` (default 0.05) - the chance per step of saying it is done.
"""

from __future__ import annotations

import random

from spa_bench.actions import Action, Finish, Key, Scroll, Tap, TypeText
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.device.observation import Observation

WORDS = ("hello", "test", "alarm", "note", "你好", "设置", "7:30", "Alice")


class RandomAgent(BaseAgent):
    def __init__(self, finish_probability: float = 0.05) -> None:
        if not 0 <= float(finish_probability) <= 1:
            raise ValueError(f"finish_probability must be within 0..1, got {finish_probability}")
        self.finish_probability = float(finish_probability)
        self.rng = random.Random(0)

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.rng = random.Random(context.seed)

    def step(self, observation: Observation) -> AgentStep:
        rng = self.rng
        elements = observation.elements
        clickable = [e for e in elements if e.clickable or e.long_clickable or e.checkable]
        editable = [e for e in elements if e.editable]
        roll = rng.random()
        action: Action
        if roll < self.finish_probability:
            action = Finish(status="done")
        elif roll < 0.15 and editable:
            action = TypeText(text=rng.choice(WORDS), element=rng.choice(editable).index)
        elif roll < 0.30:
            action = Scroll(direction=rng.choice(("up", "down", "left", "right")))
        elif roll < 0.38:
            action = Key(key=rng.choice(("back", "home", "enter")))
        elif clickable:
            action = Tap(element=rng.choice(clickable).index)
        else:
            action = Tap(x=rng.randrange(max(1, observation.width)),
                         y=rng.randrange(max(1, observation.height)))
        return AgentStep(action, output=f"random choice (roll {roll:.3f})")
