"""One episode: reset the device, set the task up, let the agent act step by step, check the result.

The log is written after every step (atomically), so a crash loses at most the step in flight; until
the episode ends it holds the task by sha256 only, and the agent works in a folder outside the run
folder (spa_bench.results.recorder), so nothing it can reach holds the answer key.
An agent that does the whole episode in one call (spa_bench.agent.external.EpisodeAgent: an external
program) replaces the step loop; its recorded steps are copied into the log, then the episode ends
like any other (final screenshot, captured state).
From the end of setup to the end of the final capture, the device audits what reaches it besides the
harness's own commands (spa_bench.device.audit): the agent's shell commands and pushes, classified into
the log's `shell_audit`; one that changed state behind the GUI fails the episode whatever its checks say.
At the end the runner only captures what the success checks read (spa_bench.evaluation.capture): the
verdicts come from the evaluators afterwards, which need no device for it. Files are written by the
episode recorder (spa_bench.results.recorder), which owns the folder layout.
On a device that has some of the task's apps under other package names (Google's builds on a stock
emulator image), the episode runs the task with the installed names (spa_bench.runner.packages) and its
log's `package_map` says which were substituted.
Termination reasons: done / infeasible (the agent said so), max_steps, step_timeout, episode_timeout,
agent_error (the agent raised), interrupted (the run was stopped); an exception from setup, the loop or
the capture ends the episode as `spa_bench.errors.classify` says. Infrastructure failures (a device
offline or timing out) are recorded in the log and re-raised, so that the scheduler can retry the
episode on another device; everything else is recorded and the episode ends normally.
"""

from __future__ import annotations

import json
import re
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from spa_bench.actions import Action, AskUser, Finish, parse_action
from spa_bench.agent import AgentFactory, AgentStep, ReferenceAgent, TaskContext
from spa_bench.agent.external import EpisodeAgent, ImportedStep
from spa_bench.device.audit import DeviceAudit, SentCommand
from spa_bench.device.device import Device, InvalidAction
from spa_bench.device.observation import Observation
from spa_bench.errors import classify
from spa_bench.evaluation.capture import capture_checks
from spa_bench.evaluation.shell_audit import shell_audit
from spa_bench.evaluation.state_checks import read_check
from spa_bench.evaluation.untouched import UntouchedWatch, watched
from spa_bench.results.layout import RunLayout
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import (
    AgentSpec,
    DeviceVariation,
    EpisodeLog,
    ErrorInfo,
    ErrorKind,
    InstanceInfo,
    ObservationRef,
    StepRecord,
    StepTimings,
    Termination,
)
from spa_bench.runner.interruptions import fire_due
from spa_bench.runner.packages import episode_packages, task_for_device
from spa_bench.runner.vary import apply_variation
from spa_bench.tasks.apps import resolve_app
from spa_bench.tasks.dialogue import exchange
from spa_bench.tasks.model import Task


@dataclass(frozen=True)
class EpisodeJob:
    """Everything needed to run one episode, independent of the device it lands on."""

    episode_id: str
    task: Task  # parameters already filled in
    instance: InstanceInfo
    agent: AgentSpec
    agent_factory: AgentFactory
    agent_args: dict[str, Any]  # as passed to the factory (the spec holds the redacted copy)
    task_file: str | None = None
    task_sha256: str | None = None
    variation: DeviceVariation | None = None  # --vary: the device as this episode wants it


@dataclass(frozen=True)
class EpisodeLimits:
    max_steps: int | None = None  # overrides the task's step limit when given
    step_timeout_s: float = 300.0  # one agent.step call
    episode_timeout_s: float = 3600.0
    settle_s: float = 0.0  # pause after each action before the next observation (real devices: ~1 s)


def now() -> datetime:
    return datetime.now(UTC)


def error_info(kind: ErrorKind, exc: BaseException, step: int | None = None) -> ErrorInfo:
    return ErrorInfo(kind=kind, type=type(exc).__name__, message=str(exc) or repr(exc),
                     traceback="".join(traceback.format_exception(exc)), step=step)


def coerce_action(raw: Any) -> Action:
    """An agent's answer as an Action: an Action, a dict, or JSON text (possibly inside prose)."""
    if isinstance(raw, str):
        text = raw.strip()
        try:
            raw = json.loads(text)
        except ValueError:
            match = re.search(r"\{.*\}", text, re.S)
            if not match:
                raise ValueError(f"no JSON action in {text[:200]!r}") from None
            raw = json.loads(match.group(0))
    if isinstance(raw, BaseModel):  # an Action object: validate a copy, so a mutated one is caught too
        raw = raw.model_dump()
    return parse_action(raw)


def set_up_task(device: Device, task: Task, settle_s: float = 0.0,
                variation: DeviceVariation | None = None) -> None:
    """Put the device in the task's starting state: its reset (snapshot or pm clear), the device
    variation (--vary), its setup commands, home, its start app. Shared by the runner and the Gymnasium
    environment (spa_bench.env)."""
    if task.setup.reset == "snapshot":
        device.load_snapshot(task.snapshot_name)
    elif task.setup.reset == "pm_clear":
        device.clear_packages(task.packages)
    if variation is not None:
        apply_variation(device, variation)
    for command in task.setup.shell:
        device.check(command, doing="setup command")
    if task.setup.home_first:
        device.press_key("home")
    package = task.start_package
    if package:
        app = next((a for a in task.apps if a.package == package), None)
        device.open_app(package, app.activity if app else None)
    if settle_s:
        time.sleep(settle_s)


class EpisodeRunner:
    """Runs one job on one device, writing into the run folder as it goes."""

    def __init__(self, job: EpisodeJob, device: Device, layout: RunLayout, limits: EpisodeLimits,
                 stop: threading.Event, attempt: int = 1, earlier_errors: list[ErrorInfo] | None = None,
                 run_id: str = "") -> None:
        self.job, self.device, self.limits, self.stop = job, device, limits, stop
        self.recorder = EpisodeRecorder(layout, job.episode_id)
        # setup and the agent get the task with the device's package names; the log and the checks keep
        # it as written (the checks' commands are mapped as they run)
        self.packages = episode_packages(device, job.task)
        self.task = task_for_device(job.task, self.packages)
        self.log = EpisodeLog(
            episode_id=job.episode_id, run_id=run_id, task=job.task, task_file=job.task_file,
            task_sha256=job.task_sha256, instance=job.instance, agent=job.agent, device=device.info(),
            package_map=dict(self.packages.substitutions), attempt=attempt, started_at=now(),
            errors=list(earlier_errors or []), variation=job.variation)
        self._program_calls: list[str] = []
        self._watch: UntouchedWatch | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"agent-{job.episode_id[:30]}")

    # -- recording ------------------------------------------------------------------------------------
    def save(self) -> None:
        self.recorder.save(self.log)

    def _finish(self, termination: Termination) -> EpisodeLog:
        self.log.termination = termination
        self.log.finished_at = now()
        self.log.status = "finished"
        self.log.timings.total_s = (self.log.finished_at - self.log.started_at).total_seconds()
        self.recorder.finish(self.log)  # the full task joins the log on disk
        return self.log

    # -- the episode ----------------------------------------------------------------------------------
    def run(self) -> EpisodeLog:
        """Run to the end. Raises the exception of an infrastructure failure after recording it."""
        self.recorder.start(self.log)
        agent = None
        try:
            start = time.monotonic()
            self._setup()
            self.log.timings.setup_s = time.monotonic() - start
            self._watch = self._untouched_watch()
            self.device.begin_audit()  # from here on, what the agent sends the device besides its actions
            try:
                agent = self.job.agent_factory(**self.job.agent_args)
                context = self._context()
                self._reveal(agent)
                agent.reset(context)
            except Exception as exc:
                self.log.errors.append(error_info("agent", exc))
                self._capture_final(capture_state=True)  # the state decides: the task may be done
                self._end_audit()
                return self._finish("agent_error")
            if isinstance(agent, EpisodeAgent):
                termination = self._run_whole(agent, context)
            else:
                termination = self._loop(agent)
            # the audit closes after the final capture: a command the agent left running (a background
            # loop that fires after finish) reaches the device either before the capture's reads, and is
            # in the audit, or after them, and cannot change what was captured
            self._capture_final(capture_state=termination != "interrupted")
            self._end_audit()
            return self._finish(termination)
        except Exception as exc:
            outcome = classify(exc)
            self.log.errors.append(error_info(outcome.kind, exc))
            if not outcome.infrastructure:
                return self._finish(outcome.termination)
            self.log.termination = outcome.termination
            self.log.finished_at = now()
            self.recorder.finish(self.log)
            raise
        finally:
            if agent is not None:
                try:
                    agent.close()
                except Exception as exc:
                    self.log.errors.append(error_info("agent", exc))
                    self.save()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self.recorder.keep_agent_files()  # its workdir (outside the run folder) into agent/

    def _setup(self) -> None:
        set_up_task(self.device, self.task, self.limits.settle_s, self.job.variation)

    def _untouched_watch(self) -> UntouchedWatch | None:
        """An infeasible task's state digest after setup (spa_bench.evaluation.untouched), read again at the
        end; other tasks read none."""
        if not watched(self.job.task):
            return None
        names = {p: self.packages.package(p) for p in self.job.task.packages}
        watch = UntouchedWatch(self.job.task.packages, names)
        self.log.digest_start = watch.start(self.device)
        self.save()
        return watch

    def _context(self) -> TaskContext:
        """What the agent is given: the task's view (as it runs on this device), never the task."""
        info, seed = self.device.info(), self.job.instance.seed
        return TaskContext.for_task(self.task, max_steps=self._step_limit(), instance_seed=seed,
                                    serial=self.device.serial, screen_width=info.screen_width or 0,
                                    screen_height=info.screen_height or 0, workdir=self.recorder.agent_dir(),
                                    time_limit_s=self.limits.episode_timeout_s)

    def _reveal(self, agent: object) -> None:
        """The privileged path: a reference agent (the oracle) gets the full task before reset, and the
        log says so (`agent.reference`), so that the report never ranks it."""
        if not isinstance(agent, ReferenceAgent):
            return
        agent.reveal(self.task)
        if not self.log.agent.reference:
            self.log.agent = self.log.agent.model_copy(update={"reference": True})
        self.save()

    def _step_limit(self) -> int:
        return self.limits.max_steps or self.job.task.step_limit

    def _ask(self, agent_step: Callable[[Observation], Any], obs: Observation) -> Any:
        future = self._pool.submit(agent_step, obs)
        return future.result(timeout=self.limits.step_timeout_s)

    def _loop(self, agent: Any) -> Termination:
        started = time.monotonic()
        resolver = self._app_resolver()
        reply: str | None = None  # the user's answer to the last step's ask_user, for the next observation
        for index in range(self._step_limit()):
            if self.stop.is_set():
                return "interrupted"
            if time.monotonic() - started > self.limits.episode_timeout_s:
                return "episode_timeout"
            self._interrupt(index)
            t0 = time.monotonic()
            obs = self.device.observe()
            if reply is not None:
                obs, reply = replace(obs, user_reply=reply), None
            ref = self.recorder.observation(obs, f"{index:03d}")
            t1 = time.monotonic()
            step = StepRecord(index=index, started_at=now(), observation=ref)
            try:
                answer = self._ask(agent.step, obs)
            except FutureTimeout:
                step.timings = StepTimings(observe_s=t1 - t0, agent_s=time.monotonic() - t1)
                step.error = ErrorInfo(kind="timeout", type="StepTimeout", step=index,
                                       message=f"agent.step took longer than {self.limits.step_timeout_s} s")
                self._record(step)
                return "step_timeout"
            except Exception as exc:
                step.timings = StepTimings(observe_s=t1 - t0, agent_s=time.monotonic() - t1)
                step.error = error_info("agent", exc, index)
                self.log.errors.append(step.error)
                self._record(step)
                return "agent_error"
            t2 = time.monotonic()
            agent_step = answer if isinstance(answer, AgentStep) else AgentStep(action=answer)
            step.agent_output = agent_step.output
            step.usage = agent_step.usage
            step.timings = StepTimings(observe_s=t1 - t0, agent_s=t2 - t1, model_s=agent_step.model_s)
            if agent_step.invalid_reason is not None:
                step.valid, step.invalid_reason = False, agent_step.invalid_reason
                step.raw_action = _jsonable(agent_step.action)
                self._record(step)
                continue
            try:
                action = coerce_action(agent_step.action)
            except (ValidationError, ValueError, TypeError, AttributeError) as exc:
                step.valid, step.invalid_reason = False, _short(exc)
                step.raw_action = _jsonable(agent_step.action)
                self._record(step)
                continue
            step.action = action
            if isinstance(action, Finish):
                self.log.answer = action.answer
                self._record(step)
                return action.status
            if isinstance(action, AskUser):
                reply = step.user_reply = self._answer_question(index, action.question)
                self._record(step)
                continue
            try:
                step.gesture = self.device.execute(self.packages.action(action), obs, resolver)
            except InvalidAction as exc:
                step.valid, step.invalid_reason = False, str(exc)
            step.timings.execute_s = time.monotonic() - t2
            self._record(step)
            if self.limits.settle_s:
                time.sleep(self.limits.settle_s)
        return "max_steps"

    def _answer_question(self, index: int, question: str) -> str:
        """The simulated user's reply (Task.user), kept in the log's dialogue."""
        said = exchange(self.job.task.user, self.job.task.language, index, question)
        self.log.dialogue.append(said)
        return said.reply

    def _interrupt(self, steps_done: int) -> None:
        """Fire the task's interruptions due after `steps_done` of the agent's steps (before it observes)."""
        fired = fire_due(self.device, self.task.interruptions, steps_done)
        if fired:
            self.log.interruptions_fired.extend(fired)
            self.save()

    def _run_whole(self, agent: EpisodeAgent, context: TaskContext) -> Termination:
        """An agent that does the episode in one call (an external program): record what it returns.
        The agent enforces context.time_limit_s itself; the wait here is only a safety net."""
        started = time.monotonic()
        future = self._pool.submit(agent.run_episode, context, self.stop)
        try:
            outcome = future.result(timeout=self.limits.episode_timeout_s + 60)
        except FutureTimeout:
            self.log.errors.append(ErrorInfo(kind="timeout", type="EpisodeTimeout",
                                             message="the agent did not return from run_episode in time"))
            return "episode_timeout"
        except Exception as exc:
            self.log.errors.append(error_info("agent", exc))
            return "agent_error"
        for index, imported in enumerate(outcome.steps):
            self._record(self._imported_step(index, imported))
        self.log.timings.agent_s = time.monotonic() - started  # the program's whole run
        self.log.errors.extend(outcome.errors)
        self.log.answer = outcome.answer
        self.log.agent_exit = outcome.exit
        self._program_calls = outcome.adb_calls
        self.save()
        return outcome.termination

    def _imported_step(self, index: int, imported: ImportedStep) -> StepRecord:
        ref = ObservationRef()
        if imported.screenshot is not None and imported.screenshot.is_file():
            ref = self.recorder.imported_screenshot(imported.screenshot, index)
        return StepRecord(index=index, started_at=imported.started_at or now(), observation=ref,
                          action=imported.action, raw_action=_jsonable(imported.raw_action),
                          agent_output=imported.output, usage=imported.usage,
                          timings=StepTimings(agent_s=imported.agent_s))

    def _app_resolver(self) -> Callable[[str], str | None]:
        def resolve(name: str) -> str | None:
            return resolve_app(name, self.device.packages(), self.task.apps)

        return resolve

    def _record(self, step: StepRecord) -> None:
        self.log.steps.append(step)
        self.log.usage = self.log.usage + step.usage
        self.log.timings.agent_s += step.timings.agent_s
        self.log.timings.device_s += step.timings.observe_s + step.timings.execute_s
        self.save()

    def _end_audit(self) -> None:
        """The device's record of the agent's commands; a device that keeps none (an emulator, a phone)
        gives what passed through the harness: an external program's adb command lines."""
        audit = self.device.end_audit()
        if audit.source == "harness" and self._program_calls:
            audit = DeviceAudit("harness", False, [SentCommand("shell", c) for c in self._program_calls])
        self.log.shell_audit = shell_audit(audit)

    def _capture_final(self, capture_state: bool) -> None:
        """The final screen and, for the checks, every device read they make (not their verdict)."""
        obs = self.device.observe()
        self.log.final_observation = self.recorder.observation(obs, "final")
        if capture_state and self._watch is not None:
            self.log.digest_end = self._watch.end(self.device)
        if capture_state and self.job.task.checks:
            self.log.captured_state = capture_checks(self.job.task.checks, self.device, read_check,
                                                     self.packages)


def _short(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"invalid action: {where + ': ' if where else ''}{first['msg']}"
    return f"invalid action: {exc}"


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:2000]
