"""Play a task as a person: the `human` agent, whose actions come from the studio page.

A play is an ordinary benchmark run (`run_benchmark`) of one task with the agent `human`, on the studio's
device, into a run folder of its own: the reset, setup, interruptions, simulated user, tamper audit,
untouched digest, checks and the episode log are the harness's, not the studio's, so a person's episode is
scored exactly as an agent's and lands in the leaderboard and `spa-bench report` beside them. The person
sees what an agent sees (the instruction as shown, the screen the runner observed, the user's reply after
an `ask_user`), and nothing of the answer key.

The runner builds the agent by name with `desk=ID`; the desk is the meeting point: the agent offers each
observation there and waits for the page's action.
"""

from __future__ import annotations

import hashlib
import queue
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.device.observation import Observation
from spa_bench.errors import ConfigError

HUMAN = "human"


@dataclass
class Desk:
    """What the page shows and sends during one play."""

    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    instruction: str = ""
    language: str = ""
    task_id: str = ""
    max_steps: int = 0
    time_limit_s: float | None = None
    started: float | None = None
    step: int = 0  # actions the person has taken
    observation: Observation | None = None
    screen_etag: str = ""
    waiting: bool = False  # the episode waits for the person's next action
    user_reply: str | None = None
    ended: bool = False
    actions: queue.Queue[dict[str, Any]] = field(default_factory=queue.Queue)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, context: TaskContext) -> None:
        with self.lock:
            self.instruction, self.language = context.instruction, context.language
            self.task_id, self.max_steps = context.task.id, context.max_steps
            self.time_limit_s, self.started = context.time_limit_s, time.monotonic()

    def offer(self, observation: Observation) -> None:
        with self.lock:
            self.observation = observation
            self.screen_etag = hashlib.sha1(observation.screenshot_png, usedforsecurity=False).hexdigest()
            if observation.user_reply is not None:
                self.user_reply = observation.user_reply
            self.waiting = True

    def take(self) -> dict[str, Any]:
        action = self.actions.get()
        with self.lock:
            self.waiting = False
            self.step += 1
        return action

    def submit(self, action: dict[str, Any]) -> None:
        if self.ended:
            raise ConfigError("this play has ended")
        self.actions.put(action)

    def end(self) -> None:
        with self.lock:
            self.ended, self.waiting = True, False

    def status(self) -> dict[str, Any]:
        with self.lock:
            elapsed = time.monotonic() - self.started if self.started is not None else 0.0
            return {"desk": self.id, "task": self.task_id, "instruction": self.instruction,
                    "language": self.language, "step": self.step, "max_steps": self.max_steps,
                    "elapsed_s": round(elapsed, 1), "time_limit_s": self.time_limit_s,
                    "waiting": self.waiting, "user_reply": self.user_reply, "ended": self.ended,
                    "screen_etag": self.screen_etag}


DESKS: dict[str, Desk] = {}


class HumanAgent(BaseAgent):
    """A person at the studio page (`spa-bench studio`, Play): each step waits for their action."""

    def __init__(self, desk: str = "") -> None:
        if desk not in DESKS:
            raise ConfigError("the human agent is played in `spa-bench studio` (Play a task): it takes its "
                              "actions from that page, not from a model")
        self.desk = DESKS[desk]

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.desk.begin(context)

    def step(self, observation: Observation) -> AgentStep:
        self.desk.offer(observation)
        return AgentStep(action=self.desk.take())

    # close() is BaseAgent's: the runner also builds and closes an agent to check it before the run
    # (runner/agent_check.py), so the play, not the agent, ends the desk when the run is over


@dataclass
class PlayResult:
    run_dir: Path
    episode_id: str
    success: bool | None
    termination: str
    summary: str


class Play:
    """One task played by a person, run by the harness in a thread on `serial`."""

    def __init__(self, task_id: str, serial: str, console_port: int | None, out_root: Path,
                 tasks_dir: Path | None, seed: int) -> None:
        self.desk = Desk()
        self.task_id = task_id
        self.out_root = out_root  # the run folder is made inside, named by its run id, as `spa-bench run -o`
        self.serial, self.console_port, self.tasks_dir, self.seed = serial, console_port, tasks_dir, seed
        self.result: PlayResult | None = None
        self.error: str | None = None
        self.stop_event = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"play-{task_id}", daemon=True)

    def start(self) -> None:
        DESKS[self.desk.id] = self.desk
        self._thread.start()

    @property
    def done(self) -> bool:
        return not self._thread.is_alive() and (self.result is not None or self.error is not None)

    def wait(self, timeout: float | None = None) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        from spa_bench.evaluation.policy import decide_success
        from spa_bench.runner.config import AgentConfig, RunConfig
        from spa_bench.runner.run import run_benchmark
        from spa_bench.tasks.repository import TaskFilter

        serial, console = self.serial, self.console_port
        extra: dict[str, Any] = {}
        if self.tasks_dir is not None:
            extra["tasks_dir"] = self.tasks_dir
        try:
            config = RunConfig(filter=TaskFilter(ids=[self.task_id]),
                               agents=[AgentConfig(agent=HUMAN, args={"desk": self.desk.id})],
                               devices=[serial], console_ports={serial: console} if console else {},
                               out=self.out_root, seed=self.seed,
                               step_timeout_s=3600.0, **extra)
            result = run_benchmark(config, stop=self.stop_event)
            log = next(log for log in result.logs if log.agent.name == HUMAN)
            decision = decide_success(log)  # the one place that decides success, as the report does
            self.result = PlayResult(result.run_dir, log.episode_id, decision.success, str(log.termination),
                                     decision.reason[:600])
        except Exception as exc:  # shown on the page: the play failed to run, not the person
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.desk.end()
            DESKS.pop(self.desk.id, None)

    def abandon(self) -> None:
        """Give the play up: the episode ends `interrupted` (undecided, as any interrupted episode), after
        one last step (a wait of 0 s) that releases the harness from waiting for the person."""
        self.stop_event.set()
        if not self.desk.ended:
            self.desk.actions.put({"type": "wait", "seconds": 0})

    def status(self) -> dict[str, Any]:
        out = self.desk.status()
        out["error"] = self.error
        if self.result is not None:
            out["result"] = {"success": self.result.success, "termination": self.result.termination,
                             "summary": self.result.summary, "episode_id": self.result.episode_id,
                             "run_dir": str(self.result.run_dir)}
        return out
