"""A built-in Clock task run by the episode runner on a scripted stock emulator image, whose Clock is
Google's build (com.google.android.deskclock): the app launched, the agent's open_app, the golden script
the agent is given and the checks' database path follow the device's package map, the log says what was
substituted, and `spa-bench evaluate`'s state evaluator re-scores the log offline from what was captured.

The device answers from real captures (android_captures: a phone's uiautomator dump and dumpsys) and, for
the commands this test is about, in the formats of AOSP's tools: `pm list packages` prints
`package:NAME` lines, `am start -n` prints `Starting: Intent { cmp=PKG/CLASS }` (shared/reference's
am_start capture), monkey prints `Events injected: 1`, sqlite3 prints rows with the separators the check
asks for and `Error: unable to open database "PATH": unable to open database file` for a missing file."""

from __future__ import annotations

import shlex
import threading
from pathlib import Path
from typing import ClassVar

import android_captures
import pytest
from android_captures import FakeAndroid
from spa_bench.evaluators.state import StateEvaluator

from spa_bench.actions import Finish, OpenApp
from spa_bench.agent import AgentStep, ReferenceAgent, TaskContext
from spa_bench.device.device import Device
from spa_bench.device.observation import Observation
from spa_bench.device.transport import Request, Response, ScriptedTransport
from spa_bench.evaluation.state_checks import FIELD_SEP, ROW_SEP
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import AgentSpec, InstanceInfo
from spa_bench.runner.episode import EpisodeJob, EpisodeLimits, EpisodeRunner
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import TaskRepository

TASKS = Path(__file__).resolve().parents[2] / "tasks"
GOOGLE_CLOCK = "com.google.android.deskclock"
GOOGLE_ALARMS = f"/data/user_de/0/{GOOGLE_CLOCK}/databases/alarms.db"
STOCK_IMAGE = ["com.android.settings", "com.android.camera2", GOOGLE_CLOCK, "com.google.android.contacts",
               "com.google.android.apps.messaging", "com.google.android.documentsui"]


class StockImage:
    """The vivo capture's screens, with Google's Clock holding the alarm the task asks for."""

    def __init__(self, screens: FakeAndroid, alarm: tuple[str, str], alarms: int) -> None:
        self.screens, self.alarm, self.alarms = screens, alarm, alarms

    def __call__(self, request: Request) -> Response:
        command = request.command
        if request.service != "shell":
            return self.screens(request)
        if command == "pm list packages":
            return Response(stdout="".join(f"package:{p}\n" for p in STOCK_IMAGE).encode())
        if command.startswith("am start -n "):
            return Response(stdout=f"Starting: Intent {{ cmp={command.split()[-1]} }}\n".encode())
        if command.startswith("monkey -p "):
            return Response(stdout=b"Events injected: 1\n")
        if command.startswith("sqlite3 "):
            return self._sqlite(shlex.split(command))
        return self.screens(request)

    def _sqlite(self, words: list[str]) -> Response:
        db, query = words[-2], words[-1]
        if db != GOOGLE_ALARMS:
            return Response(stderr=f'Error: unable to open database "{db}": unable to open database '
                                   f'file\n'.encode(), exit_code=1)
        hour, minute = self.alarm
        if f"hour = {hour} AND minutes = {minute}" in query:
            rows = [["1", "0"]]  # on, not repeating
        elif query == "SELECT count(*) FROM alarm_templates":
            rows = [[str(self.alarms)]]
        else:
            rows = []
        return Response(stdout="".join(FIELD_SEP.join(r) + ROW_SEP for r in rows).encode())


class OpensTheAospName(ReferenceAgent):
    """An agent that knows the app by AOSP's package name, then says it is done (a reference agent, so
    that the full task it is revealed can be looked at too)."""

    contexts: ClassVar[list[TaskContext]] = []
    revealed: ClassVar[list[Task]] = []

    def reveal(self, task: Task) -> None:
        super().reveal(task)
        self.revealed.append(task)

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.contexts.append(context)
        self.done = False

    def step(self, observation: Observation) -> AgentStep:
        if self.done:
            return AgentStep(Finish(status="done"))
        self.done = True
        return AgentStep(OpenApp(app="com.android.deskclock"))


def test_a_clock_task_runs_on_googles_clock_and_is_rescored_from_its_log(tmp_path: Path) -> None:
    (record,) = [r for r in TaskRepository(TASKS).index() if r.id == "clock_alarm_new_en"]
    task, seed, values = TaskRepository(TASKS).load([record])[0].instantiate(0)
    drawn = values["t"]
    assert isinstance(drawn, dict)
    phone = StockImage(android_captures.vivo_home(), (drawn["hour"], drawn["minute"]), alarms=9)
    transport = ScriptedTransport(phone)
    device = Device("emulator-5554", transport=transport)
    layout = RunLayout(tmp_path / "run")
    job = EpisodeJob("opens__clock_alarm_new_en__r0", task, InstanceInfo(seed=seed, parameters=values),
                     AgentSpec(name="opens", agent="test"), OpensTheAospName, {})
    log = EpisodeRunner(job, device, layout, EpisodeLimits(), threading.Event(), run_id="run").run()

    assert log.termination == "done" and not log.errors, log.errors
    assert log.package_map == {"com.android.deskclock": GOOGLE_CLOCK}
    assert log.task.apps[0].package == "com.android.deskclock"  # the log keeps the task as written
    sent = transport.commands()
    assert f"am start -n {GOOGLE_CLOCK}/com.android.deskclock.DeskClock" in sent  # the start app
    assert f"monkey -p {GOOGLE_CLOCK} -c android.intent.category.LAUNCHER 1" in sent  # the agent's open_app
    assert not [c for c in sent if "com.android.deskclock/" in c or "com.android.deskclock " in c]
    captured = [c.command for capture in log.captured_state for c in capture.commands]
    assert len(captured) == 2 and all(GOOGLE_ALARMS in c for c in captured)  # as run on the device
    # the agent was given the task with the device's names: its view names Google's clock, and the full
    # task revealed to a reference agent has a golden script that taps Google's ids
    assert OpensTheAospName.contexts[-1].task.apps[0].package == GOOGLE_CLOCK
    assert log.agent.reference
    ids = [a.selector.resource_id for a in OpensTheAospName.revealed[-1].golden_script or []
           if getattr(a, "selector", None) is not None and a.selector.resource_id]  # type: ignore[union-attr]
    assert ids == [f"{GOOGLE_CLOCK}:id/fab", f"{GOOGLE_CLOCK}:id/hour", f"{GOOGLE_CLOCK}:id/minute"]

    saved = layout.read_episode(log.episode_id)  # as `spa-bench evaluate` reads it, with no device
    verdict = StateEvaluator().evaluate(saved, layout.episode_dir(saved.episode_id))
    assert verdict.success is True, verdict
    forgotten = saved.model_copy(update={"package_map": {}})  # without the map the reads do not match
    undecided = StateEvaluator().evaluate(forgotten, layout.episode_dir(saved.episode_id))
    assert undecided.success is None and undecided.error is not None
    assert "did not capture" in undecided.error.message


def test_the_gymnasium_env_maps_the_same_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The env (spa_bench.env) on the same scripted stock image, through the same functions as the runner:
    the agent's open_app of AOSP's name opens Google's Clock and the reward reads Google's Clock's file."""
    from spa_bench.env import core
    from spa_bench.runner.pool import DevicePool

    task = TaskRepository(TASKS).load([r for r in TaskRepository(TASKS).index()
                                       if r.id == "clock_alarm_new_en"])[0]
    drawn = task.instantiate(0)[2]["t"]
    assert isinstance(drawn, dict)
    phone = StockImage(android_captures.vivo_home(), (drawn["hour"], drawn["minute"]), alarms=9)
    transport = ScriptedTransport(phone)
    device = Device("emulator-5554", transport=transport)
    monkeypatch.setattr(core, "connect_devices", lambda serials: DevicePool([device]))
    env = core.SpaBenchEnv(["clock_alarm_new_en"], serial="emulator-5554", tasks_dir=TASKS,
                           record_dir=tmp_path / "env-run")
    try:
        env.reset(options={"task": "clock_alarm_new_en"})
        assert env.context().task.apps[0].package == GOOGLE_CLOCK
        _, reward, *_ = env.step('{"type": "open_app", "app": "com.android.deskclock"}')
        _, reward, terminated, _, info = env.step('{"type": "finish"}')
    finally:
        env.close()
    assert terminated and reward == 1.0, info
    assert f"monkey -p {GOOGLE_CLOCK} -c android.intent.category.LAUNCHER 1" in transport.commands()
    (episode,) = RunLayout(tmp_path / "env-run").episode_ids()
    saved = RunLayout(tmp_path / "env-run").read_episode(episode)
    assert saved.package_map == {"com.android.deskclock": GOOGLE_CLOCK}
    assert StateEvaluator().evaluate(saved, tmp_path).success is True
