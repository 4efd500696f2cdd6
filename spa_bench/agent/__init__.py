"""The agent protocol and the agent registry (adapters live in the top-level agents/ folder, installed as
`spa_bench.agents`).

An agent is anything with `reset(context)`, `step(observation) -> AgentStep` and `close()`. The harness
creates one agent object per episode (from its registered class or factory, called with the agent
arguments as keyword arguments), calls `reset` once, `step` until the agent returns a `finish` action or
a limit is hit, and `close` always. `step` may return an Action, a dict or JSON text for one; anything
that does not validate is recorded as an invalid step and the episode goes on.

An agent that works in one go instead (a program run to the end, e.g. `external`) also has
`run_episode(context, stop) -> EpisodeOutcome` (spa_bench.agent.external.EpisodeAgent): the runner then
calls that once instead of `step`, and records the steps it returns.

An agent sees a task view (spa_bench.agent.view.TaskView), never the task: no checks, golden script or
anything else of the answer key. A reference agent (the oracle) subclasses ReferenceAgent: the harness
calls its `reveal(task)` with the full task before `reset`, records that in the episode log
(`agent.reference`), and the report never ranks it with the agents under test.

Agents are found by name in AGENTS: built-ins (lazy), `@register_agent("name")` in imported code, the
entry-point group `spa_bench.agents` of installed packages, or `path/to/file.py:ClassName`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar, runtime_checkable

from spa_bench.actions import Action
from spa_bench.agent.view import AppView, TaskView, agent_seed, opened_app_prefix, task_view
from spa_bench.device.observation import Observation
from spa_bench.registry import Registry
from spa_bench.results.schema import TokenUsage
from spa_bench.tasks.model import Language, Task

__all__ = ["AGENTS", "Agent", "AgentFactory", "AgentStep", "AppView", "BaseAgent", "ReferenceAgent",
           "TaskContext", "TaskView", "is_reference", "opened_app_prefix", "register_agent", "task_view"]


@dataclass(frozen=True)
class TaskContext:
    """What an agent knows about the episode before its first step. `task` is a view: the task itself
    (its checks, golden script, ...) never gets here; build one with `TaskContext.for_task`."""

    task: TaskView
    instruction: str  # as shown to the agent (single-app tasks get SPA-Bench's "opened app" prefix)
    language: Language
    max_steps: int
    # the agent's seed for its own randomness: derived one-way from the instance seed, which is the seed
    # the task's parameters were drawn with and would give them back (spa_bench.agent.view.agent_seed)
    seed: int
    serial: str  # the device, for agents that talk to it themselves
    screen_width: int
    screen_height: int
    workdir: Path  # a fresh folder outside the run folder; copied into the episode's agent/ at its end
    time_limit_s: float | None = None  # the episode's time limit (agents that run a program honour it)

    def __post_init__(self) -> None:
        if not isinstance(self.task, TaskView):  # a Task here would hand the agent the answer key
            raise TypeError(f"TaskContext.task must be a TaskView (spa_bench.agent.task_view), not "
                            f"{type(self.task).__name__}: use TaskContext.for_task")

    @classmethod
    def for_task(cls, task: Task, *, max_steps: int, instance_seed: int, serial: str, screen_width: int,
                 screen_height: int, workdir: Path, time_limit_s: float | None = None) -> TaskContext:
        """The context of an episode of `task` (as it runs on the device), with its view and agent seed."""
        view = task_view(task, max_steps=max_steps, screen_width=screen_width, screen_height=screen_height,
                         time_limit_s=time_limit_s)
        return cls(task=view, instruction=view.instruction, language=view.language, max_steps=max_steps,
                   seed=agent_seed(instance_seed), serial=serial, screen_width=screen_width,
                   screen_height=screen_height, workdir=workdir, time_limit_s=time_limit_s)


@dataclass
class AgentStep:
    """An agent's answer for one step."""

    action: Action | dict[str, Any] | str | None
    output: str | None = None  # thought or raw model text, kept in the log
    usage: TokenUsage = field(default_factory=TokenUsage)
    model_s: float | None = None  # time spent inside model calls, if known
    # the agent itself found its model's answer unusable: the step is recorded as invalid with this reason
    # and `action` (the raw answer) as its raw action, without trying to read an action out of it
    invalid_reason: str | None = None


@runtime_checkable
class Agent(Protocol):
    def reset(self, context: TaskContext) -> None:
        ...

    def step(self, observation: Observation) -> AgentStep:
        ...

    def close(self) -> None:
        ...


class BaseAgent:
    """Convenience base: keeps the context; `close` does nothing."""

    context: TaskContext

    def reset(self, context: TaskContext) -> None:
        self.context = context

    def step(self, observation: Observation) -> AgentStep:
        raise NotImplementedError

    def close(self) -> None:
        return None


class ReferenceAgent(BaseAgent):
    """An agent that may read the full task: the oracle, and the probes that replay its golden script.
    The harness calls `reveal` with the full task before `reset` (the only way it gets there), records it
    in the episode log (`agent.reference`), and the report lists such agents apart, never ranked."""

    full_task: Task

    def reveal(self, task: Task) -> None:
        self.full_task = task

    def reset(self, context: TaskContext) -> None:
        revealed = getattr(self, "full_task", None)
        if revealed is None or revealed.id != context.task.id:
            raise RuntimeError(f"{type(self).__name__} is a reference agent: the harness must reveal the "
                               f"task {context.task.id!r} (reveal(task)) before reset")
        super().reset(context)


AgentFactory = Callable[..., Agent]
A = TypeVar("A")

AGENTS: Registry[AgentFactory] = Registry("agent", entry_point_group="spa_bench.agents")
AGENTS.add_lazy("noop", "spa_bench.agents.noop:NoopAgent")
AGENTS.add_lazy("random", "spa_bench.agents.random_agent:RandomAgent")
AGENTS.add_lazy("oracle", "spa_bench.agents.oracle:OracleAgent")
AGENTS.add_lazy("example", "spa_bench.agents.example_agent:ExampleAgent")
AGENTS.add_lazy("mllm", "spa_bench.agents.mllm:MLLMAgent")
AGENTS.add_lazy("text", "spa_bench.agents.text_agent:TextAgent")
AGENTS.add_lazy("reflection", "spa_bench.agents.reflection:ReflectionAgent")
AGENTS.add_lazy("external", "spa_bench.agents.external:ExternalAgent")
# native GUI-model adapters (spa_bench.agent.native_agent)
AGENTS.add_lazy("ui-tars", "spa_bench.agents.ui_tars:UITarsAgent")
AGENTS.add_lazy("autoglm", "spa_bench.agents.autoglm:AutoGLMAgent")
AGENTS.add_lazy("qwen-vl", "spa_bench.agents.qwen_vl:QwenVLAgent")
AGENTS.add_lazy("gui-owl", "spa_bench.agents.gui_owl:GUIOwlAgent")
AGENTS.add_lazy("cogagent", "spa_bench.agents.cogagent:CogAgentAgent")
AGENTS.add_lazy("m3a", "spa_bench.agents.m3a:M3AAgent")
AGENTS.add_lazy("t3a", "spa_bench.agents.t3a:T3AAgent")
AGENTS.add_lazy("appagent", "spa_bench.agents.appagent:AppAgent")
AGENTS.add_lazy("os-atlas", "spa_bench.agents.os_atlas:OSAtlasAgent")
AGENTS.add_lazy("seeact-v", "spa_bench.agents.seeact_v:SeeActVAgent")
# a person playing in `spa-bench studio`: the human baseline, ranked like any agent
AGENTS.add_lazy("human", "spa_bench.studio.play:HumanAgent")
# the graders' adversarial probes (spa-bench tasks verify): never a success where they are not meant to be
AGENTS.add_lazy("probe-infeasible", "spa_bench.agents.probes:InfeasibleProbe")
AGENTS.add_lazy("probe-spam", "spa_bench.agents.probes:AnswerSpamProbe")
AGENTS.add_lazy("probe-recorder", "spa_bench.agents.probes:StateRecorderProbe")
AGENTS.add_lazy("probe-tamper", "spa_bench.agents.probes:ShellTamperProbe")


def register_agent(name: str) -> Callable[[A], A]:
    """Decorator for a user's agent class in imported code: `@register_agent("mine")`."""

    def decorate(cls: A) -> A:
        AGENTS.add(name, cls)  # type: ignore[arg-type]
        return cls

    return decorate


def is_reference(factory: object) -> bool:
    """Whether an agent factory makes reference agents, known before any is made (a ReferenceAgent
    subclass); a factory that is not a class says so only once it has made one."""
    return isinstance(factory, type) and issubclass(factory, ReferenceAgent)
