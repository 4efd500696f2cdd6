"""The task model: what a task file says, validated with pydantic (schema version TASK_SCHEMA_VERSION)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from spa_bench.actions import Action, AskUser
from spa_bench.tasks.checks import DEVICE_CHECK_TYPES, AnswerCheck, AskUserCheck, Check, FinishCheck
from spa_bench.tasks.dialogue import SimulatedUser
from spa_bench.tasks.interruptions import Interruption
from spa_bench.tasks.params import (
    ParamSpec,
    ParamValue,
    draw_instance,
    instance_seed,
    placeholders,
    substitute,
)

TASK_SCHEMA_VERSION: Literal[1] = 1

Language = Literal["en", "zh"]
Category = Literal["single_app", "cross_app"]
ResetStrategy = Literal["snapshot", "pm_clear", "none"]

HARD_CATEGORIES = ("long", "memory", "ask_user", "interruption", "infeasible_ask")
"""The kinds of task of the hard split, as tags: long-horizon, memory, asking the user, interruptions,
infeasible once the user has been asked. Reports and `tasks list --counts` group by them."""

TASK_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$"
PACKAGE_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AppRef(_Model):
    """An app a task uses: its package, how to launch it, and its display name per language."""

    package: str = Field(pattern=PACKAGE_PATTERN)
    activity: str | None = Field(None, description="launch activity; the launcher activity when absent")
    name: dict[Language, str] = Field(min_length=1,
                                      description="display names, e.g. {en: Settings, zh: 设置}")

    def display_name(self, language: Language) -> str:
        return self.name.get(language) or next(iter(self.name.values()))


class TaskSetup(_Model):
    """What happens before the agent's first step."""

    reset: ResetStrategy = Field(
        "snapshot", description="snapshot: load the device snapshot; pm_clear: clear the task's apps' "
                                "data; none: leave the device as it is")
    snapshot: str | None = Field(
        None, description="snapshot to load for reset: snapshot; default spa-bench-base-<language>, "
                          "a device state with the system in the task's language")
    shell: list[str] = Field(default_factory=list, description="shell commands run after the reset")
    start_app: str | None = Field(
        None, description="package to open before the episode; defaults to the app of a single-app "
                          "task (as SPA-Bench does) and to the home screen for a cross-app task")
    home_first: bool = Field(True, description="press HOME before launching")


class Subtask(_Model):
    """One leg of a cross-app task, as SPA-Bench splits them."""

    app: str = Field(min_length=1, description="package or display name of the app")
    instruction: str = Field(min_length=1)
    uses_history: bool = Field(False, description="needs what earlier subtasks found")
    memory: str | None = Field(None, description="what this subtask produces for later ones")


class NearMiss(_Model):
    """An almost-right way through the task (wrong item, wrong recipient, one change too many) that the
    task's checks must reject: the oracle replays `script` and the state verdict must be a failure."""

    description: str = Field(min_length=1, description="what is wrong about it")
    script: list[Action] = Field(min_length=1)


class Task(_Model):
    """One benchmark task. Files may omit defaults; ids are unique across the task tree."""

    schema_version: Literal[1] = TASK_SCHEMA_VERSION
    id: str = Field(pattern=TASK_ID_PATTERN, description="unique, safe as a file name")
    apps: list[AppRef] = Field(min_length=1)
    language: Language
    difficulty: Literal[1, 2, 3]
    category: Category
    instruction: str = Field(min_length=1)
    golden_steps: int = Field(ge=1, description="steps of a shortest human solution")
    key_components: list[str] | None = Field(
        None, description="strings that must be visible at the end (SPA-Bench); an explicit empty list "
                          "means the MLLM judge decides alone, as for SPA-Bench's task wechat_0")
    max_steps: int | None = Field(None, ge=1, description="default: 2 x golden_steps + 1")
    setup: TaskSetup = Field(default_factory=TaskSetup)
    checks: list[Check] = Field(default_factory=list, description="success checks on device state")
    golden_script: list[Action] | None = Field(None, description="actions the oracle agent replays")
    parameters: dict[str, ParamSpec] = Field(default_factory=dict)
    subtasks: list[Subtask] = Field(default_factory=list, description="cross-app tasks: ordered legs")
    near_misses: list[NearMiss] = Field(default_factory=list,
                                        description="almost-right scripts the checks must reject")
    user: SimulatedUser | None = Field(None, description="answers the agent's ask_user questions")
    interruptions: list[Interruption] = Field(default_factory=list,
                                              description="what happens to the phone during the episode")
    tags: list[str] = Field(default_factory=list)
    source: str | None = Field(None, description="where the task comes from, e.g. spa-bench:airbnb_0")

    @field_validator("key_components")
    @classmethod
    def _components_not_blank(cls, value: list[str] | None) -> list[str] | None:
        if value is not None and any(not c.strip() for c in value):
            raise ValueError("key components must not be blank")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Task:
        if self.category == "single_app" and len(self.apps) != 1:
            raise ValueError(f"a single_app task has exactly one app, not {len(self.apps)}")
        if self.category == "cross_app" and len(self.apps) < 2:
            raise ValueError("a cross_app task has at least two apps")
        if self.category == "single_app" and self.subtasks:
            raise ValueError("subtasks are for cross_app tasks")
        if not self.checks and self.key_components is None and not self.subtasks:
            raise ValueError("a task without success checks must have key_components (it is then "
                             "judged by key components and the MLLM judge; [] lets the judge decide "
                             "alone) or, if cross-app, subtasks (judged one by one)")
        unknown = placeholders(self.instruction) - set(self.parameters)
        if unknown:
            raise ValueError(f"instruction uses undefined parameters: {', '.join(sorted(unknown))}")
        if self.infeasible and not any(c.type in DEVICE_CHECK_TYPES for c in self.checks):
            raise ValueError("an infeasible task (a finish check with status infeasible) needs at least one "
                             "check on device state, so that an agent that changes something fails")
        self._consistent_dialogue()
        if self.max_steps is not None and self.max_steps < self.golden_steps:
            raise ValueError(f"max_steps ({self.max_steps}) is below golden_steps ({self.golden_steps})")
        return self

    def _consistent_dialogue(self) -> None:
        scripts = [self.golden_script or [], *(m.script for m in self.near_misses)]
        asks = any(isinstance(a, AskUser) for script in scripts for a in script)
        checks = [c for c in self.checks if isinstance(c, AskUserCheck)]
        if self.user is None and (asks or checks):
            raise ValueError("a task whose scripts ask the user or that has an ask_user check needs a `user` "
                             "(the simulated user's replies)")
        for check in checks:
            if self.user is not None and check.reply is not None and check.reply >= len(self.user.replies):
                raise ValueError(f"ask_user check: reply {check.reply} does not exist (the user has "
                                 f"{len(self.user.replies)} replies)")
        for i, interruption in enumerate(self.interruptions):
            if interruption.after_step >= self.step_limit:
                raise ValueError(f"interruptions[{i}]: after_step {interruption.after_step} is not before "
                                 f"the step limit ({self.step_limit})")

    # -- derived values -------------------------------------------------------------------------------
    @property
    def step_limit(self) -> int:
        """max_steps, or SPA-Bench's default of 2 x golden_steps + 1."""
        return self.max_steps if self.max_steps is not None else 2 * self.golden_steps + 1

    @property
    def snapshot_name(self) -> str:
        return self.setup.snapshot or f"spa-bench-base-{self.language}"

    @property
    def start_package(self) -> str | None:
        if self.setup.start_app is not None:
            return self.setup.start_app or None
        return self.apps[0].package if self.category == "single_app" else None

    @property
    def components(self) -> list[str]:
        """The key components, [] when none are given."""
        return list(self.key_components or [])

    @property
    def infeasible(self) -> bool:
        """Success is reporting the task infeasible (with nothing changed)."""
        return any(isinstance(c, FinishCheck) and c.status == "infeasible" for c in self.checks)

    @property
    def asks_user(self) -> bool:
        """Success needs a question to the simulated user."""
        return any(isinstance(c, AskUserCheck) and c.min_questions > 0 for c in self.checks)

    @property
    def retrieval(self) -> bool:
        """The agent must find something out: its answer is checked."""
        return any(isinstance(c, AnswerCheck) for c in self.checks)

    @property
    def packages(self) -> list[str]:
        return [a.package for a in self.apps]

    def instantiate(self, run_seed: int, index: int = 0) -> tuple[Task, int, dict[str, ParamValue]]:
        """This task with its parameters drawn for instance `index` of a run seeded `run_seed`.
        Returns (task with placeholders filled and no parameters, instance seed, drawn values)."""
        if not self.parameters:
            return self, instance_seed(run_seed, self.id, index), {}
        seed, values = draw_instance(dict(self.parameters), run_seed, self.id, index)
        data = self.model_dump(mode="json", exclude={"parameters"})
        filled: dict[str, Any] = _fill(data, values)
        return Task.model_validate(filled), seed, values


def _fill(node: Any, values: dict[str, ParamValue]) -> Any:
    if isinstance(node, str):
        return substitute(node, values)
    if isinstance(node, list):
        return [_fill(v, values) for v in node]
    if isinstance(node, dict):
        return {k: _fill(v, values) for k, v in node.items()}
    return node
