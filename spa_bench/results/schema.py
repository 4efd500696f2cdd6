"""Versioned pydantic models of what a run writes: the run manifest and one log per episode.

A log is written as the episode goes (after every step), so a crash loses at most the step in flight.
Readers check `schema_version` and refuse versions they do not know (ResultsError).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from spa_bench.actions import Action
from spa_bench.device.gesture import Gesture
from spa_bench.device.info import DeviceInfo as DeviceInfo  # re-exported: it lived here before
from spa_bench.device.state_digest import StateDigest
from spa_bench.errors import ResultsError
from spa_bench.tasks.dialogue import UserExchange
from spa_bench.tasks.model import Task

RESULTS_SCHEMA_VERSION: Literal[1] = 1
EPISODE_SCHEMA_VERSION: Literal[2] = 2
"""Episode logs: 2 since a log on disk may hold `task: null` and a `task_ref` while its episode runs (the
answer key out of the agent's reach); version 1 logs (always with their task) are read as they are."""

Termination = Literal[
    "done",  # the agent said the task is done
    "infeasible",  # the agent said the task cannot be done
    "max_steps",  # the step limit was reached
    "step_timeout",  # one agent step took longer than its limit
    "episode_timeout",  # the episode took longer than its limit
    "agent_error",  # the agent raised or its program failed
    "device_error",  # the device went offline or adb failed (infrastructure; retried elsewhere)
    "harness_error",  # a bug or setup failure in spa-bench itself
    "interrupted",  # the run was stopped (Ctrl-C)
]
ErrorKind = Literal["agent", "device", "harness", "evaluator", "timeout"]
Role = Literal["ground_truth", "gate", "judge", "informational"]
"""What an evaluator's verdicts count for (spa_bench.evaluation.policy): ground truth decides alone where
it applies; otherwise a failing gate fails the episode and judges decide; informational never counts."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TokenUsage(_Model):
    """Tokens and money of model calls. cost_usd is None when the price is unknown (not 0)."""

    prompt_tokens: int = Field(0, ge=0)
    completion_tokens: int = Field(0, ge=0)
    calls: int = Field(0, ge=0, description="number of model calls")
    cost_usd: float | None = Field(0.0, description="None when some call had no known price")
    cached_calls: int = Field(0, ge=0, description="calls answered from --model-cache: their tokens and "
                                                   "cost are as originally recorded, nothing was spent")

    def __add__(self, other: TokenUsage) -> TokenUsage:
        cost = None if self.cost_usd is None or other.cost_usd is None else self.cost_usd + other.cost_usd
        return TokenUsage(prompt_tokens=self.prompt_tokens + other.prompt_tokens,
                          completion_tokens=self.completion_tokens + other.completion_tokens,
                          calls=self.calls + other.calls, cost_usd=cost,
                          cached_calls=self.cached_calls + other.cached_calls)


class AgentSpec(_Model):
    """An agent as the user asked for it. Secret-looking arguments are redacted before they get here."""

    name: str = Field(description="label in reports; unique within a run")
    agent: str = Field(description="registry name or path/to/file.py:Class")
    args: dict[str, Any] = Field(default_factory=dict)
    reference: bool = Field(False, description="a reference agent (spa_bench.agent.ReferenceAgent, e.g. "
                                               "the oracle): the full task was revealed to it; never ranked")

    @model_validator(mode="before")
    @classmethod
    def _legacy_reference(cls, data: Any) -> Any:
        """Logs written before reference agents were marked held the registry name in `reference`."""
        if isinstance(data, dict) and isinstance(data.get("reference"), str) and "agent" not in data:
            return {**data, "agent": data["reference"], "reference": False}
        return data


class RunManifest(_Model):
    """What was run, with what, where: enough to reproduce the run and to resume it."""

    schema_version: Literal[1] = RESULTS_SCHEMA_VERSION
    run_id: str
    created_at: datetime
    spa_bench_version: str
    git_revision: str | None = Field(None, description="of the spa-bench source tree, if it is a checkout")
    python: str
    platform: str
    packages: dict[str, str] = Field(default_factory=dict, description="versions of key dependencies")
    command: list[str] = Field(default_factory=list, description="argv, secrets redacted")
    tasks_root: str
    task_files: dict[str, str] = Field(default_factory=dict, description="relative path -> sha256")
    task_ids: list[str] = Field(default_factory=list)
    agents: list[AgentSpec] = Field(default_factory=list)
    repeats: int = Field(1, ge=1)
    seed: int = 0
    devices: list[DeviceInfo] = Field(default_factory=list)
    settings: dict[str, Any] = Field(default_factory=dict, description="limits and options of the run")
    source_sha256: str | None = Field(None, description="spa-bench's Python sources as run (phone, adapters "
                                      "and tasks apart; spa_bench.bundle.provenance); None in older runs")
    phone_image_sha256: str | None = Field(None, description="the virtual phone's files as run (its apps' "
                                           "code and seed data); None in older runs")
    device_fingerprints: dict[str, str] = Field(
        default_factory=dict, description="serial -> `getprop ro.build.fingerprint` of each device this "
                                          "driver reached (a real device's image; empty on a Ray run)")
    instance_seed_commitment: str | None = Field(
        None, description="--instance-seed: sha256 commitment to the secret seed the task instances were "
                          "drawn from (the seed itself is never written); None: `seed` drew them")


class RunSummary(_Model):
    """Written when a run ends (also when it is interrupted): what happened to the plan."""

    schema_version: Literal[1] = RESULTS_SCHEMA_VERSION
    run_id: str
    started_at: datetime
    finished_at: datetime
    interrupted: bool = False
    planned: int = Field(0, description="episodes in the plan")
    finished: int = Field(0, description="episodes with a final log (this session or before)")
    undone: list[str] = Field(default_factory=list, description="episodes left to run (resume them)")
    failed: dict[str, str] = Field(default_factory=dict,
                                   description="episodes given up after device failures -> last error")
    removed_devices: dict[str, str] = Field(default_factory=dict, description="serial -> why")
    budget_usd: float | None = Field(None, description="--budget-usd: no new episodes once spent exceeds it")
    spent_usd: float = Field(0.0, description="agent cost of the run's final episodes (unknown costs as 0)")
    cost_unknown: int = Field(0, description="final episodes whose agent cost is unknown (not in spent_usd)")
    stopped_by_budget: bool = Field(False, description="episodes were left unstarted because of the budget")


class ObservationRef(_Model):
    """What the agent saw before a step; files are relative to the episode folder."""

    screenshot: str | None = Field(None, description="e.g. screenshots/003.png")
    hierarchy: str | None = Field(None, description="e.g. hierarchy/003.xml")
    package: str | None = None
    activity: str | None = None
    keyboard_shown: bool | None = None
    width: int | None = None
    height: int | None = None


class ErrorInfo(_Model):
    kind: ErrorKind
    type: str = Field(description="exception class name")
    message: str
    traceback: str | None = None
    step: int | None = Field(None, description="the step it happened in, if any")


class StepTimings(_Model):
    observe_s: float = 0.0
    agent_s: float = 0.0
    execute_s: float = 0.0
    model_s: float | None = Field(None, description="time inside model calls, when the agent reports it")


class StepRecord(_Model):
    index: int = Field(ge=0)
    started_at: datetime
    observation: ObservationRef
    action: Action | None = Field(None, description="None when the agent's answer was invalid")
    gesture: Gesture | None = Field(None, description="what the device did on the screen for the action; "
                                    "None when it touched nothing, and in logs written before gestures were")
    raw_action: Any = Field(None, description="what the agent returned, kept when it was invalid")
    valid: bool = True
    invalid_reason: str | None = None
    agent_output: str | None = Field(None, description="the agent's thought or raw model text")
    usage: TokenUsage = Field(default_factory=TokenUsage)
    timings: StepTimings = Field(default_factory=StepTimings)
    error: ErrorInfo | None = None
    user_reply: str | None = Field(None, description="the simulated user's reply to this step's ask_user")


class Evidence(_Model):
    """Why an evaluator decided as it did."""

    summary: str
    screenshot_index: int | None = Field(None, description="the step whose screenshot matched")
    details: dict[str, Any] = Field(default_factory=dict, description="e.g. command, output, OCR text")


class EvaluatorSpec(_Model):
    """How to build an evaluator again: its registry name and every argument that changes its verdicts
    (secrets removed). `spa-bench evaluate RUN` with no evaluator named rebuilds the evaluators from these."""

    name: str = Field(description="registry name, e.g. 'judge', 'state', or path/to/file.py:Class")
    args: dict[str, Any] = Field(default_factory=dict, description="keyword arguments, JSON values only")


class Verdict(_Model):
    """One evaluator's decision on an episode. success None = could not decide (evaluator error)."""

    evaluator: str = Field(description="identity: name plus version/model, e.g. 'judge:gpt-4o'")
    spec: EvaluatorSpec | None = Field(None, description="how to build the evaluator again; None in logs "
                                                         "written before specs were recorded")
    role: Role | None = Field(None, description="the evaluator's declared role; None in older logs "
                                                "(then the registered evaluator of that name says)")
    success: bool | None
    evidence: list[Evidence] = Field(default_factory=list)
    usage: TokenUsage = Field(default_factory=TokenUsage, description="evaluator cost, kept apart")
    created_at: datetime
    error: ErrorInfo | None = None


class CapturedCommand(_Model):
    """One read a success check made on the device at the end of the episode."""

    command: str
    output: str
    exit_code: int


class CheckCapture(_Model):
    """What one of the task's checks read, so that it can be scored again without a device."""

    index: int = Field(ge=0, description="position of the check in task.checks")
    type: str = Field(description="the check's type (shell, sqlite, content_query, answer, validator)")
    check_sha256: str = Field(description="hash of the check's definition as captured")
    commands: list[CapturedCommand] = Field(default_factory=list, description="every read, in order")


class AuditedCommand(_Model):
    """A command that reached the device during the episode from outside the harness (the agent's)."""

    channel: Literal["shell", "exec", "push", "service", "console"] = Field(
        description="shell/exec: a command line; push: a file written over adb sync; service: root/unroot; "
                    "console: an emulator-console command line")
    command: str = Field(description="the command line or pushed path, secrets redacted")
    kind: Literal["gui_input", "capture", "read", "tooling", "navigation", "state_change", "unknown"]
    changes_state: bool = Field(description="changes device state behind the GUI (unknown programs count)")
    reason: str


class ShellAudit(_Model):
    """What the agent sent the device besides its actions (spa_bench.evaluation.shell_audit). A tampered
    episode changed state behind the GUI and is never a success (spa_bench.evaluation.policy)."""

    source: Literal["device", "harness"] = Field(
        description="device: the virtual phone's own record of every command it got; harness: only what "
                    "passed through the harness (an emulator or phone keeps no record)")
    complete: bool = Field(description="every command that reached the device is in `commands`")
    commands: list[AuditedCommand] = Field(default_factory=list)
    tampered: bool = Field(False, description="some command changed state behind the GUI")

    @property
    def offending(self) -> list[AuditedCommand]:
        return [c for c in self.commands if c.changes_state]


class InstanceInfo(_Model):
    repeat: int = Field(0, ge=0)
    seed: int
    parameters: dict[str, Any] = Field(default_factory=dict)


class EpisodeTimings(_Model):
    setup_s: float = 0.0
    total_s: float = 0.0
    agent_s: float = 0.0
    device_s: float = 0.0


class AgentExit(_Model):
    """How an external agent program ended (agent `external`): its exit code in SPA-Bench's meaning."""

    command: list[str] = Field(default_factory=list, description="argv, secrets redacted")
    exit_code: int | None = Field(None, description="None when it was killed or did not start")
    meaning: str = Field(description="e.g. '0: finished', '4: maximum rounds reached', 'killed: time limit'")
    completed: bool = Field(description="SPA-Bench's 'completed': exit 0, 2 or 4")
    finish_signal: int | None = Field(None, description="log.json: 1 = the agent said it was done")
    reported_steps: int | None = Field(None, description="log.json: total_steps")
    elapsed_initial_s: float | None = None
    elapsed_exec_s: float | None = None
    wall_s: float = 0.0
    stderr_tail: str | None = None


class DeviceVariation(_Model):
    """How the device was varied from its default for this episode (`spa-bench run --vary`): what was
    changed, through adb, after the reset and before the task's setup. None fields were left alone."""

    name: str = Field(description="a short label for reports, e.g. 'dark+font1.3+720x1280'")
    seed: int | None = Field(None, description="the --vary seed this episode's draw came from")
    screen: str | None = Field(None, description="`wm size`, WIDTHxHEIGHT")
    density: int | None = Field(None, description="`wm density`, dpi")
    font_scale: float | None = Field(None, description="`settings put system font_scale`")
    dark: bool | None = Field(None, description="`cmd uimode night yes|no`")
    navigation: Literal["gestural", "threebutton"] | None = Field(None, description="navigation mode")
    locale: str | None = Field(None, description="system locale, e.g. zh-CN")


class EpisodeLog(_Model):
    """One agent on one task instance on one device."""

    schema_version: Literal[1, 2] = EPISODE_SCHEMA_VERSION
    episode_id: str = Field(description="unique in the run; also the folder name")
    run_id: str
    status: Literal["running", "finished"] = "running"
    task: Task | None = Field(description="the task as run (parameters filled in); null on disk while the "
                                          "episode runs, so that no agent can read its key there")
    task_ref: str | None = Field(None, description="sha256 of the task's canonical JSON (task_ref()); "
                                 "on disk while the episode runs, instance.parameters is empty too")
    task_file: str | None = None
    task_sha256: str | None = None
    instance: InstanceInfo
    agent: AgentSpec
    device: DeviceInfo
    package_map: dict[str, str] = Field(
        default_factory=dict, description="the task's packages this device has under another name (task's "
        "name -> installed name, e.g. Google's Clock on a stock emulator image; spa_bench.device.packages): "
        "the episode launched, tapped and read those. Empty: nothing substituted (the virtual phone)")
    attempt: int = Field(1, ge=1, description="1 + number of infrastructure retries")
    started_at: datetime
    finished_at: datetime | None = None
    steps: list[StepRecord] = Field(default_factory=list)
    final_observation: ObservationRef | None = None
    termination: Termination | None = None
    answer: str | None = Field(None, description="the agent's final answer, if it gave one")
    errors: list[ErrorInfo] = Field(default_factory=list)
    usage: TokenUsage = Field(default_factory=TokenUsage)
    timings: EpisodeTimings = Field(default_factory=EpisodeTimings)
    captured_state: list[CheckCapture] = Field(
        default_factory=list, description="every device read the checks made at the end, per check")
    verdicts: list[Verdict] = Field(default_factory=list)
    agent_exit: AgentExit | None = Field(None, description="external agent programs only")
    shell_audit: ShellAudit | None = Field(
        None, description="the agent's own commands to the device; None in logs written before audits")
    dialogue: list[UserExchange] = Field(default_factory=list,
                                         description="the agent's ask_user questions and the replies")
    interruptions_fired: list[int] = Field(
        default_factory=list, description="indexes into task.interruptions of those that fired")
    variation: DeviceVariation | None = Field(None, description="--vary: how the device differed from "
                                              "its default; None: the default device")
    digest_start: StateDigest | None = Field(None, description="infeasible tasks: their apps' state after "
                                             "setup (spa_bench.evaluation.untouched); None for other tasks")
    digest_end: StateDigest | None = Field(None, description="infeasible tasks: the same state before the "
                                           "final capture, with what changed since the start")

    @property
    def full_task(self) -> Task:
        """The task as run. A log read from disk while its episode runs has only `task_ref`: ResultsError."""
        if self.task is None:
            raise ResultsError(f"episode {self.episode_id}: still running, its log holds the task by "
                               f"sha256 only ({self.task_ref})")
        return self.task

    @field_validator("captured_state", mode="before")
    @classmethod
    def _legacy_mapping(cls, value: object) -> object:
        """Logs written before captures existed hold an (always empty) label -> output mapping."""
        if isinstance(value, dict):
            if value:
                raise ValueError("a label -> output mapping cannot be read as per-check captures")
            return []
        return value


def task_ref(task: Task) -> str:
    """sha256 of a task instance's canonical JSON (sorted keys, no spaces): what a running log holds."""
    data = json.dumps(task.model_dump(mode="json"), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()
