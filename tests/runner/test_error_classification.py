"""One error classification for the episode and the scheduler: what is retried on another device (an
infrastructure failure) and what is recorded as it is. The scheduler is driven here by work functions
that raise, on stand-in devices, so no phone is needed."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from spa_bench.device.device import Device
from spa_bench.errors import (
    ConfigError,
    DeviceCommandFailed,
    DeviceError,
    DeviceOffline,
    DeviceTimeout,
    classify,
)
from spa_bench.results.schema import AgentSpec, DeviceInfo, EpisodeLog, InstanceInfo
from spa_bench.runner.episode import EpisodeJob
from spa_bench.runner.events import Events
from spa_bench.runner.pool import DevicePool
from spa_bench.runner.scheduler import Attempt, LocalThreadExecutor
from spa_bench.tasks.model import Task

TASK = Task.model_validate({
    "id": "t1", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}], "language": "en",
    "difficulty": 1, "category": "single_app", "instruction": "Open Settings", "golden_steps": 1,
    "key_components": ["Settings"]})


@pytest.mark.parametrize(("exc", "termination", "kind", "retried"), [
    (DeviceOffline("gone", "emulator-5554"), "device_error", "device", True),
    (DeviceTimeout("slow", "emulator-5554"), "device_error", "device", True),
    (DeviceError("adb failed"), "device_error", "device", True),
    (DeviceCommandFailed("`pm clear x` exited 1"), "harness_error", "harness", False),
    (KeyboardInterrupt(), "interrupted", "harness", False),
    (ConfigError("bad"), "harness_error", "harness", False),
    (ZeroDivisionError("bug"), "harness_error", "harness", False),
])
def test_classify(exc: BaseException, termination: str, kind: str, retried: bool) -> None:
    outcome = classify(exc)
    assert (outcome.termination, outcome.kind, outcome.infrastructure) == (termination, kind, retried)


@dataclass
class StandInDevice:
    """What the scheduler asks of a device: its serial and a health check."""

    serial: str
    healthy: bool = True

    def health_check(self) -> None:
        if not self.healthy:
            raise DeviceOffline("not answering", self.serial)


@dataclass
class Recorder(Events):
    events: list[tuple[str, str]] = field(default_factory=list)

    def retrying(self, attempt: Attempt, device: Device, error: BaseException) -> None:
        self.events.append(("retrying", type(error).__name__))

    def gave_up(self, attempt: Attempt, error: BaseException) -> None:
        self.events.append(("gave_up", type(error).__name__))

    def finished(self, log: EpisodeLog) -> None:
        self.events.append(("finished", log.episode_id))


def _job() -> EpisodeJob:
    return EpisodeJob(episode_id="a__t1__r0", task=TASK, instance=InstanceInfo(seed=0),
                      agent=AgentSpec(name="a", reference="noop"), agent_factory=cast(Any, None),
                      agent_args={})


def _schedule(raises: list[BaseException], max_retries: int = 2) -> tuple[Recorder, list[Attempt]]:
    pending = list(raises)
    seen: list[Attempt] = []

    def work(attempt: Attempt, device: Device) -> EpisodeLog:
        seen.append(attempt)
        if pending:
            raise pending.pop(0)
        return EpisodeLog(episode_id=attempt.job.episode_id, run_id="r", status="finished", task=TASK,
                          instance=attempt.job.instance, agent=attempt.job.agent,
                          device=DeviceInfo(serial=device.serial), started_at=datetime.now(UTC),
                          termination="done")

    devices = cast(list[Device], [StandInDevice("d1"), StandInDevice("d2")])
    events = Recorder()
    LocalThreadExecutor().run([Attempt(_job())], DevicePool(devices), work, events, threading.Event(),
                              max_retries)
    return events, seen


def test_infrastructure_failures_are_retried_with_their_errors_recorded() -> None:
    events, seen = _schedule([DeviceOffline("gone", "d1"), DeviceTimeout("slow", "d2")])
    assert events.events == [("retrying", "DeviceOffline"), ("retrying", "DeviceTimeout"),
                             ("finished", "a__t1__r0")]
    assert [a.number for a in seen] == [1, 2, 3]
    assert [e.kind for e in seen[-1].errors] == ["device", "device"]


def test_retries_end_and_other_failures_are_recorded_not_retried() -> None:
    events, _ = _schedule([DeviceOffline("gone", "d1")] * 3, max_retries=1)
    assert events.events == [("retrying", "DeviceOffline"), ("gave_up", "DeviceOffline")]
    events, seen = _schedule([DeviceCommandFailed("`pm clear x` exited 1")])
    assert events.events == [("gave_up", "DeviceCommandFailed")] and len(seen) == 1
    assert seen[0].errors[0].kind == "harness"
    events, seen = _schedule([RuntimeError("a bug in the harness")])
    assert events.events == [("gave_up", "RuntimeError")] and len(seen) == 1
