"""`SpaBenchEnv`: one phone as a Gymnasium environment.

reset(options={"task": ID, "repeat": K}) loads the task's snapshot and setup (the runner's own
`set_up_task`) and returns the first observation; without a task it draws one of the env's tasks with
the env's seeded generator. step(action) carries out one action of spa_bench.actions - its JSON text
(the action space), its dict form or an Action object. The reward is the task's state checks
(evaluation/state_checks.py, the ground truth of `spa-bench evaluate`): 1.0 when they all pass at the
end of the episode, 0.0 otherwise and before the end; reward_mode="checks_every_step" reads them after
every step instead (a denser signal that costs a few device reads per step). `terminated`: the agent
sent `finish`; `truncated`: the step limit (max_steps, else the task's) was reached. An invalid action
is a step that does nothing (info["valid"] is False, info["error"] says why), as in a benchmark run.

The virtual phone the env starts has its clock frozen (`clock`) so that equal seeds give equal screens:
by default at the minute the env starts ("start"), not at a fixed date, because tasks with relative
dates ("tomorrow") are checked with sqlite's date('now'), which reads the host's date, while the apps
read the phone's clock: frozen on another day, the two disagree and those checks fail.
Task parameters are filled in from (run_seed, repeat), as `spa-bench run --seed` does, so a recorded
episode is scored from the same task instance by `spa-bench evaluate`.
With pixels=False the observations' screenshot is an empty array and `env.observation` (the raw
Observation, its PNG included) is what a caller reads: serve-env, which sends the PNG on.
A client gets the task's view, never the task (spa_bench.agent.view): reset's info["task_view"] and
`env.task_view`; the task itself (checks, golden script, simulated user) stays in private attributes.
info["checks"] says which checks pass ("✓ check 1/2"), not what they expect. A reference agent (the
oracle) driven through the env gets the full task through `env.reveal_task(agent)`, which the recorded
episode notes (agent.reference).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from pydantic import ValidationError

from spa_bench.actions import AskUser, Finish
from spa_bench.agent import ReferenceAgent, TaskContext, TaskView, task_view
from spa_bench.device.device import Device, InvalidAction
from spa_bench.device.observation import Observation
from spa_bench.device.packages import PackageMap
from spa_bench.device.state_digest import StateDigest
from spa_bench.env.recording import EnvRecording
from spa_bench.env.spaces import action_space, observation_space, to_space
from spa_bench.errors import ConfigError
from spa_bench.evaluation.capture import capture_checks
from spa_bench.evaluation.shell_audit import shell_audit
from spa_bench.evaluation.state_checks import read_check, score_captured
from spa_bench.evaluation.untouched import UntouchedWatch, untouched, watched
from spa_bench.results.schema import (
    CheckCapture,
    InstanceInfo,
    ObservationRef,
    StepRecord,
    StepTimings,
    Termination,
)
from spa_bench.runner.episode import _short, coerce_action, now, set_up_task
from spa_bench.runner.interruptions import fire_due
from spa_bench.runner.packages import episode_packages, task_for_device
from spa_bench.runner.pool import DevicePool, connect_devices, start_virtual_pool
from spa_bench.tasks.apps import resolve_app
from spa_bench.tasks.dialogue import UserExchange, exchange
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import TaskRecord, TaskRepository, default_tasks_root

RewardMode = Literal["final", "checks_every_step"]
REWARD_MODES: tuple[RewardMode, ...] = ("final", "checks_every_step")
DEFAULT_CLOCK = "start"  # freeze the phone clock at the minute the env starts (UTC)


class SpaBenchEnv(gym.Env[dict[str, Any], str]):
    metadata = {"render_modes": ["rgb_array"]}  # noqa: RUF012  (gymnasium's own attribute)

    def __init__(self, tasks: Sequence[str] | None = None, *, serial: str | None = None,
                 tasks_dir: Path | None = None, size: str = "1080x2400", clock: str | None = DEFAULT_CLOCK,
                 phone_process: bool = True, reward_mode: RewardMode = "final", max_steps: int | None = None,
                 settle_s: float = 0.0, record_dir: Path | None = None, agent_name: str = "env",
                 run_seed: int = 0, render_mode: str | None = None, timings_in_info: bool = True,
                 pixels: bool = True) -> None:
        if reward_mode not in REWARD_MODES:
            raise ConfigError(f"reward_mode {reward_mode!r}: expected one of {', '.join(REWARD_MODES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode {render_mode!r}: expected 'rgb_array' or None")
        if render_mode is not None and not pixels:
            raise ConfigError("render_mode='rgb_array' needs pixels=True (the screenshot as an array)")
        self.repo = TaskRepository(tasks_dir or default_tasks_root())
        self._records: dict[str, TaskRecord] = {r.id: r for r in self.repo.index()}
        wanted = list(tasks) if tasks is not None else sorted(self._records)
        unknown = [t for t in wanted if t not in self._records]
        if unknown:
            raise ConfigError(f"unknown task id(s) {', '.join(unknown)} in {self.repo.root}")
        if not wanted:
            raise ConfigError(f"no tasks to draw from in {self.repo.root}")
        self.task_ids = wanted
        self.reward_mode, self.max_steps, self.settle_s = reward_mode, max_steps, settle_s
        self.run_seed, self.render_mode = run_seed, render_mode
        # Gymnasium's check_env wants equal infos for equal seeds and actions; timings are measurements
        # and never equal twice, so they can be left out (env.timings always holds the last step's).
        self.timings_in_info = timings_in_info
        # serve-env sends the PNG as it is: decoding it to an array (10 MB at 1080x2400, and its
        # transient copies in every session's thread) is work and memory it would throw away
        self.pixels = pixels
        self.timings: dict[str, float] = {}
        if clock == "start":
            clock = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M")
        self.pool: DevicePool = connect_devices([serial]) if serial else \
            start_virtual_pool(1, size=size, processes=phone_process, clock=clock)
        try:
            self.device: Device = self.pool.devices[0]
            info = self.device.info()
            self.observation_space = observation_space(info.screen_width or 0, info.screen_height or 0)
            self.action_space = action_space()
            self.recording = EnvRecording(Path(record_dir), agent_name, self.repo.root, run_seed,
                                          self.device, wanted) if record_dir is not None else None
        except BaseException:
            self.pool.close()
            raise
        self._loaded: dict[str, Task] = {}
        self._workdir: tempfile.TemporaryDirectory[str] | None = None  # agents' files when not recording
        self._task: Task | None = None  # the answer key: never handed to a client (task_view is)
        self.packages = PackageMap()  # the task's packages the device has under other names
        self._device_task: Task | None = None  # the task with those names (what setup and the view use)
        self.task_view: TaskView | None = None
        self._instance: InstanceInfo | None = None  # its drawn parameter values are part of the key
        self.observation: Observation | None = None  # the last raw observation (what the agent acts on)
        self._steps, self._done = 0, True
        self._answer: str | None = None  # the agent's finish answer (answer checks read it)
        self._status: str | None = None  # how the episode ended so far (finish checks read it)
        self._dialogue: list[UserExchange] = []  # the agent's ask_user questions (ask_user checks read it)
        self._pixels: np.ndarray[Any, Any] | None = None
        self._watch: UntouchedWatch | None = None  # an infeasible task's state digests (its reward needs
        self._digests: list[StateDigest] = []  # the state untouched): [start] or [start, end]

    # -- gymnasium API --------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None,
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        options = dict(options or {})
        unknown = set(options) - {"task", "repeat"}
        if unknown:
            raise ConfigError(f"reset options {sorted(unknown)}: only 'task' and 'repeat' are known")
        task_id = options.get("task") or self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        if task_id not in self._records:
            raise ConfigError(f"reset: unknown task id {task_id!r} in {self.repo.root}")
        repeat = int(options.get("repeat", 0))
        self._end_recording("interrupted")  # an episode left unfinished by this reset
        filled, instance_seed, values = self._load(task_id).instantiate(self.run_seed, repeat)
        self._task = filled
        self.packages = episode_packages(self.device, filled)
        self._device_task = task_for_device(filled, self.packages)
        self._instance = InstanceInfo(repeat=repeat, seed=instance_seed, parameters=values)
        info_device = self.device.info()
        self.task_view = task_view(self._device_task, max_steps=self.step_limit,
                                   screen_width=info_device.screen_width or 0,
                                   screen_height=info_device.screen_height or 0)
        t0 = time.monotonic()
        set_up_task(self.device, self._device_task, self.settle_s)
        names = {p: self.packages.package(p) for p in filled.packages}
        self._watch = UntouchedWatch(filled.packages, names) if watched(filled) else None
        self._digests = [self._watch.start(self.device)] if self._watch is not None else []
        self.device.begin_audit()  # what reaches the phone besides the env's own actions (a client's adb)
        t1 = time.monotonic()
        obs = self._observe()
        t2 = time.monotonic()
        self._steps, self._done, self._answer, self._status = 0, False, None, None
        self._dialogue = []
        info: dict[str, Any] = {"task": filled.id, "language": filled.language, "repeat": repeat,
                                "step_limit": self.step_limit, "serial": self.device.serial,
                                "task_view": self.task_view.model_dump(mode="json")}
        self.timings = {"setup_s": t1 - t0, "observe_s": t2 - t1}
        if self.timings_in_info:
            info["timings"] = dict(self.timings)
        if self.recording is not None:
            info["episode_id"] = self.recording.start(filled, self._instance, self.packages)
            if self.recording.log is not None and self._digests:
                self.recording.log.digest_start = self._digests[0]
        return obs, info

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self._task is None or self.observation is None or self._done:
            raise gym.error.ResetNeeded("call reset() before step() (and again after an episode ends)")
        index, before = self._steps, self.observation
        self._steps += 1
        t0 = time.monotonic()
        record = StepRecord(index=index, started_at=now(), observation=ObservationRef())
        info: dict[str, Any] = {"task": self._task.id, "valid": True, "error": None, "gesture": None}
        terminated, said = False, None
        try:
            parsed = coerce_action(action)
        except (ValidationError, ValueError, TypeError, AttributeError) as exc:
            record.valid, record.invalid_reason, record.raw_action = False, _short(exc), _raw(action)
            parsed = None
        if parsed is not None:
            record.action = parsed
            if isinstance(parsed, Finish):
                terminated, self._answer, self._status = True, parsed.answer, parsed.status
                info["termination"] = parsed.status
            elif isinstance(parsed, AskUser):
                said = exchange(self._task.user, self._task.language, index, parsed.question)
                self._dialogue.append(said)
                record.user_reply = info["user_reply"] = said.reply
            else:
                try:
                    record.gesture = self.device.execute(self.packages.action(parsed), before,
                                                         self._resolve_app)
                except InvalidAction as exc:
                    record.valid, record.invalid_reason = False, str(exc)
                if self.settle_s:
                    time.sleep(self.settle_s)
        if not terminated and self._device_task is not None:
            fired = fire_due(self.device, self._device_task.interruptions, self._steps)
            if fired:
                info["interruptions"] = fired
        t1 = time.monotonic()
        obs = self._observe()
        t2 = time.monotonic()
        truncated = not terminated and self._steps >= self.step_limit
        if truncated:
            self._status = "max_steps"
        reward, captured = 0.0, None
        if terminated or truncated or self.reward_mode == "checks_every_step":
            reward, captured, info["checks"] = self._score(final=terminated or truncated)
        t3 = time.monotonic()
        record.timings = StepTimings(execute_s=t1 - t0, observe_s=t2 - t1)
        info.update(valid=record.valid, error=record.invalid_reason,
                    gesture=record.gesture.model_dump(mode="json") if record.gesture else None,
                    step=index)
        self.timings = {"execute_s": t1 - t0, "observe_s": t2 - t1, "checks_s": t3 - t2}
        if self.timings_in_info:
            info["timings"] = dict(self.timings)
        if self.recording is not None:
            self.recording.step(record, before, said, info.get("interruptions", ()))
        if terminated or truncated:
            self._done = True
            termination: Termination = info.get("termination", "max_steps")
            info["termination"] = termination
            self._end_recording(termination, captured)
        return obs, reward, terminated, truncated, info

    def render(self) -> np.ndarray[Any, Any] | None:
        return self._pixels if self.render_mode == "rgb_array" else None

    def close(self) -> None:
        self._end_recording("interrupted")
        pool = getattr(self, "pool", None)
        if pool is not None:
            pool.close()
            self.pool = DevicePool([])
        if getattr(self, "_workdir", None) is not None:
            self._workdir.cleanup()  # type: ignore[union-attr]
            self._workdir = None
        super().close()

    # -- helpers --------------------------------------------------------------------------------------
    @property
    def step_limit(self) -> int:
        assert self._task is not None
        return self.max_steps or self._task.step_limit

    def context(self) -> TaskContext:
        """The episode as a TaskContext (its task a view), to drive spa-bench's own agents (agents/)."""
        if self._device_task is None:
            raise gym.error.ResetNeeded("call reset() first")
        info = self.device.info()
        if self.recording is not None and self.recording.recorder is not None:
            workdir = self.recording.recorder.agent_dir()  # kept with the episode, as in a run
        else:
            if self._workdir is None:
                self._workdir = tempfile.TemporaryDirectory(prefix="spa-bench-env-agent-")
            workdir = Path(self._workdir.name)
        return TaskContext.for_task(self._device_task, max_steps=self.step_limit,
                                    instance_seed=self._instance.seed if self._instance else 0,
                                    serial=self.device.serial, screen_width=info.screen_width or 0,
                                    screen_height=info.screen_height or 0, workdir=workdir)

    def reveal_task(self, agent: ReferenceAgent) -> None:
        """The privileged path, as in a run: a reference agent (the oracle) gets the full task (before its
        reset), and the recorded episode says so (agent.reference)."""
        if self._device_task is None:
            raise gym.error.ResetNeeded("call reset() first")
        agent.reveal(self._device_task)
        if self.recording is not None and self.recording.log is not None:
            log = self.recording.log
            log.agent = log.agent.model_copy(update={"reference": True})

    def _load(self, task_id: str) -> Task:
        if task_id not in self._loaded:
            self._loaded[task_id] = self.repo.load([self._records[task_id]])[0]
        return self._loaded[task_id]

    def _observe(self) -> dict[str, Any]:
        assert self.task_view is not None
        self.observation = self.device.observe()
        obs = to_space(self.observation, self.task_view.instruction, self.pixels)
        self._pixels = obs["screenshot"]
        return obs

    def _resolve_app(self, name: str) -> str | None:
        return resolve_app(name, self.device.packages(), self._device_task.apps if self._device_task else [])

    def _score(self, final: bool = True) -> tuple[float, list[CheckCapture], list[str]]:
        """The state checks on the device as it is now: (reward, the captured reads, which checks pass).
        Only pass/fail per check goes to the client: the evidence would state what the checks expect.
        `final`: the episode ends here, and its audit closes after the capture: a client that changed the
        phone behind the GUI (its own `adb shell settings put ...`, with the serial `reset` gives) earns 0,
        as the runner's policy fails a tampered episode."""
        assert self._task is not None
        checks = self._task.checks
        if not checks:
            return 0.0, [], [f"task {self._task.id!r} has no state checks: the reward is always 0"]
        captured = capture_checks(checks, self.device, read_check, self.packages)
        verdict = score_captured(checks, captured, self._answer, status=self._status,
                                 packages=self.packages, dialogue=self._dialogue,
                                 question=self._task.instruction)
        marks = [e.summary[:1] for e in verdict.evidence]  # "✓", "✗" or "?" (score_captured's prefixes)
        shown = [f"{mark} check {i}/{len(marks)}" for i, mark in enumerate(marks, 1)]
        if verdict.error is not None:
            shown.append(f"? the checks could not be scored ({verdict.error.type})")
        success = bool(verdict.success)
        if self._watch is not None:  # an infeasible task: as the policy decides, its state must be untouched
            self._digests[1:] = [self._watch.end(self.device)]
            state = untouched(self._digests[0], self._digests[1])
            success = success and state.untouched is True
            shown.append(f"{'✓' if state.untouched else '✗'} the apps' state is untouched")
        if final:
            audit = shell_audit(self.device.end_audit())
            success = success and not audit.tampered
            shown.append(f"{'✗' if audit.tampered else '✓'} nothing changed the phone behind the GUI")
            if self.recording is not None and self.recording.log is not None:
                self.recording.log.shell_audit = audit
        return (1.0 if success else 0.0), captured, shown

    def _end_recording(self, termination: Termination, captured: list[CheckCapture] | None = None) -> None:
        if self.recording is None or not self.recording.active:
            return
        if captured is None and termination != "interrupted" and self._task is not None and self._task.checks:
            if self._watch is not None:
                self._digests[1:] = [self._watch.end(self.device)]
            captured = capture_checks(self._task.checks, self.device, read_check, self.packages)
        if self.recording.log is not None and len(self._digests) == 2:
            self.recording.log.digest_end = self._digests[1]
        self.recording.finish(termination, self.observation, self._answer, captured)


def _raw(action: Any) -> Any:
    return action if isinstance(action, str | dict | list | int | float | None) else repr(action)[:2000]
