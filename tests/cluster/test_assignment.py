"""The Ray driver's choice of work for a device that joins after the start (without a cluster): it gets
only episodes whose apps it has installed, and the run waits for another device rather than send it
one it cannot run. And a device that joins is added to the manifest once."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from spa_bench.agent import AGENTS
from spa_bench.cluster.executor import RayExecutor, _Actor, _DriverLoop
from spa_bench.cluster.resources import Slot
from spa_bench.device.device import Device
from spa_bench.device.info import DeviceInfo
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import AgentSpec, InstanceInfo, RunManifest
from spa_bench.runner.episode import EpisodeJob, EpisodeLimits
from spa_bench.runner.events import Events
from spa_bench.runner.pool import DevicePool
from spa_bench.runner.scheduler import Attempt, DeviceReport, EpisodeWork
from spa_bench.tasks.model import Task

pytest.importorskip("ray", reason="the loop's constructor imports Ray's scheduling strategies")


class _Method:
    def __init__(self, calls: list[tuple[str, tuple[Any, ...]]], name: str) -> None:
        self.calls, self.name = calls, name

    def remote(self, *args: Any) -> object:
        self.calls.append((self.name, args))
        return object()  # an object ref, as far as the loop is concerned


class _Handle:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.run_episode = _Method(self.calls, "run_episode")


class _Ray:
    """Only what the loop's constructor asks of Ray."""

    @staticmethod
    def remote(cls: type) -> type:
        return cls


def _job(task_id: str, *packages: str) -> EpisodeJob:
    task = Task.model_validate({
        "id": task_id, "language": "en", "difficulty": 1, "instruction": "Do it.",
        "category": "single_app", "golden_steps": 1, "key_components": [],
        "apps": [{"package": p, "name": {"en": p}} for p in packages]})
    return EpisodeJob(f"noop__{task_id}__r0", task, InstanceInfo(seed=0),
                      AgentSpec(name="noop", reference="noop"), AGENTS.get("noop"), {})


def _work(tmp_path: Path) -> EpisodeWork:
    return EpisodeWork(RunLayout(tmp_path / "run"), EpisodeLimits(), "run-1", threading.Event(),
                       lambda log, folder: False)


def _actor(label: str, *packages: str) -> _Actor:
    slot = Slot("node-1", "10.0.0.7", index=int(label[-1]))
    report = DeviceReport(slot.label, DeviceInfo(serial=f"127.0.0.1:{6000 + slot.index}", host="10.0.0.7"),
                          frozenset(packages))
    return _Actor(slot, _Handle(), Device(slot.label), ready=True, report=report)


def test_a_device_gets_only_episodes_whose_apps_it_has(tmp_path: Path) -> None:
    loop = _DriverLoop(_Ray(), RayExecutor("10.0.0.5:6379"), DevicePool([]), Events(),  # type: ignore[arg-type]
                       threading.Event())
    loop.work, loop.run_id = _work(tmp_path), "run-1"
    chat, settings = _job("chat", "com.tencent.mm"), _job("settings", "com.android.settings")
    loop.pending.extend([Attempt(chat), Attempt(settings)])
    lacking = _actor("phone-0", "com.android.settings")
    loop.actors[lacking.slot] = lacking
    loop._assign()
    assert lacking.busy is not None and lacking.busy.job is settings
    assert [a.job for a in loop.pending] == [chat]
    lacking.busy = None
    loop.running.clear()
    assert not loop._runnable()  # the loop waits for a device with the app (then leaves it undone)
    loop._assign()
    assert lacking.busy is None and [a.job for a in loop.pending] == [chat]
    having = _actor("phone-1", "com.android.settings", "com.tencent.mm")
    loop.actors[having.slot] = having
    assert loop._runnable()
    loop._assign()
    assert having.busy is not None and having.busy.job is chat and not loop.pending
    ((name, (request,)),) = having.handle.calls
    assert name == "run_episode" and request.job.episode_id == chat.episode_id
    assert request.session == loop.ex.session and request.run_id == "run-1"


def test_a_device_that_joins_is_added_to_the_manifest_once(tmp_path: Path) -> None:
    work = _work(tmp_path)
    work.layout.write_manifest(RunManifest(
        run_id="run-1", created_at=datetime.now(UTC), spa_bench_version="0", python="3", platform="x",
        tasks_root="/tasks", devices=[DeviceInfo(serial="127.0.0.1:6000", host="10.0.0.7")]))
    work.record_device(DeviceInfo(serial="127.0.0.1:6000", host="10.0.0.7"))  # known
    work.record_device(DeviceInfo(serial="127.0.0.1:6000", host="10.0.0.8"))  # same serial, other host
    assert [(d.host, d.serial) for d in work.layout.read_manifest().devices] == [
        ("10.0.0.7", "127.0.0.1:6000"), ("10.0.0.8", "127.0.0.1:6000")]
