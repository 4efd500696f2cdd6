"""An example agent adapter: copy this file to add your own agent.

Three ways to run it (README, "Add your agent"; tests/agents/test_add_your_agent.py runs each):

    spa-bench run --agent path/to/example_agent.py:ExampleAgent --agent-arg greeting=hi --suite smoke
    spa-bench run --import path/to/example_agent.py --agent greeter --suite smoke    # @register_agent
    spa-bench run --agent mine --suite smoke    # installed, with an entry point in group spa_bench.agents

What an adapter does:
- `__init__(**args)`: receives `--agent-arg key=value` pairs (values parsed as YAML scalars: numbers,
  booleans, strings) or the `args` of an agent config file. Create your model client here.
- `reset(context)`: a new episode starts; `context` has the task's view (id, apps, limits: never its
  checks or golden script), the instruction to show, the language,
  the step limit, a seed, the device serial and screen size, and a folder for your own files.
- `step(observation)`: look at `observation.screenshot()` (PIL image) / `observation.screenshot_png`
  and `observation.elements` (numbered UI elements; `describe_elements()` gives one line each), return an
  `AgentStep` with an action - an Action object, a dict such as {"type": "tap", "element": 3}, or JSON text
  - plus your thought/raw output and token usage (TokenUsage) for the log.
- `close()`: release resources; always called.

This example taps the first element whose text mentions a word of the instruction, and finishes when it
has nothing left to tap. It is a demonstration, not a good agent.
"""

from __future__ import annotations

from spa_bench.actions import Finish, Tap
from spa_bench.agent import AgentStep, BaseAgent, TaskContext, register_agent
from spa_bench.device.observation import Observation
from spa_bench.results.schema import TokenUsage


# the name `--import THIS_FILE --agent greeter` finds it by: give your copy a name of its own
@register_agent("greeter")
class ExampleAgent(BaseAgent):
    def __init__(self, greeting: str = "hello") -> None:
        self.greeting = greeting
        self.tapped: set[str] = set()

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.tapped = set()

    def step(self, observation: Observation) -> AgentStep:
        words = {w.strip(".,!?\"'").casefold() for w in self.context.instruction.split() if len(w) > 3}
        for element in observation.elements:
            label = element.label.casefold()
            if element.clickable and label and label not in self.tapped and any(w in label for w in words):
                self.tapped.add(label)
                return AgentStep(Tap(element=element.index),
                                 output=f"{self.greeting}: tapping {element.label!r}", usage=TokenUsage())
        return AgentStep(Finish(status="done"), output=f"{self.greeting}: nothing left to tap")
