"""The task view: what an agent is given of a task, never the task itself.

An agent (built-in, native, plug-in, external program, Gymnasium or serve-env client) sees the id, the
instruction as shown, the language, the apps (names and packages), category and difficulty, the step and
time limits, the screen size and whether it may ask the user. The answer key stays with the harness:
checks, golden script, near misses, parameters and their drawn values (beyond what the instruction
says), setup, key components, the simulated user's replies. Reference agents (the oracle) get the full
task only through `ReferenceAgent.reveal` (spa_bench.agent), which the episode log records.
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, ConfigDict, Field

from spa_bench.tasks.model import Category, Language, Task


class _View(BaseModel):
    # extra="forbid" + no such fields: reading `checks` or `golden_script` raises AttributeError
    model_config = ConfigDict(extra="forbid", frozen=True)


class AppView(_View):
    """An app of the task: its package, how to launch it, and its name in the task's language."""

    package: str
    activity: str | None = None
    name: str


class TaskView(_View):
    """What an agent knows of its task (spa_bench.agent.TaskContext.task)."""

    id: str
    instruction: str = Field(description="as shown to the agent (single-app tasks: the opened-app prefix)")
    language: Language
    apps: list[AppView]
    category: Category
    difficulty: int
    max_steps: int = Field(description="the episode's step limit")
    time_limit_s: float | None = Field(None, description="the episode's time limit, if any")
    screen_width: int
    screen_height: int
    can_ask_user: bool = Field(description="a simulated user answers ask_user questions")
    start_package: str | None = Field(None, description="the app open at the start, if any")

    @property
    def packages(self) -> list[str]:
        return [a.package for a in self.apps]


def opened_app_prefix(task: Task) -> str:
    """SPA-Bench tells single-app agents that the app is already open."""
    if task.category != "single_app":
        return ""
    name = task.apps[0].display_name(task.language)
    if task.language == "zh":
        return f"这是已打开的“{name}”应用程序，"
    return f'This is the opened app "{name}". '


def task_view(task: Task, *, max_steps: int, screen_width: int, screen_height: int,
              time_limit_s: float | None = None) -> TaskView:
    """The view of `task` (as it runs on the device: its package names) for an episode with these limits."""
    return TaskView(
        id=task.id, instruction=opened_app_prefix(task) + task.instruction, language=task.language,
        apps=[AppView(package=a.package, activity=a.activity, name=a.display_name(task.language))
              for a in task.apps],
        category=task.category, difficulty=task.difficulty, max_steps=max_steps, time_limit_s=time_limit_s,
        screen_width=screen_width, screen_height=screen_height, can_ask_user=task.user is not None,
        start_package=task.start_package)


def agent_seed(instance_seed: int) -> int:
    """The seed an agent gets for its own randomness: a one-way hash of the instance seed. Not the instance
    seed itself, because that is the very seed the task's parameters were drawn with
    (spa_bench.tasks.params.draw_instance returns it): with the parameter specs from the task files,
    `draw_all(specs, instance_seed)` would give the drawn values back, answers included."""
    digest = hashlib.sha256(f"spa-bench agent seed\x00{instance_seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
