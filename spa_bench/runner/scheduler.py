"""Scheduling episodes on devices: a queue of jobs, one worker per device, retries after device failures.

The `Executor` seam is how jobs meet devices. `LocalThreadExecutor` runs one thread per device in this
process; an executor over a distributed engine (e.g. Ray actors, one per device host) can implement the
same `run` without touching the episode code.

Retry policy: an episode whose exception `spa_bench.errors.classify` calls an infrastructure failure
(a device that went offline or timed out) is put back in the queue with attempt + 1 (at most
`max_retries` times); its device gets a health check and is taken out of the pool when it fails it.
Any other exception is recorded (`gave_up`) and the run goes on; any returned log is final.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from spa_bench.device.device import Device
from spa_bench.errors import DeviceError, classify
from spa_bench.results.schema import EpisodeLog, ErrorInfo
from spa_bench.runner.episode import EpisodeJob, error_info
from spa_bench.runner.events import Broadcast, Events
from spa_bench.runner.pool import DevicePool

__all__ = ["Attempt", "Broadcast", "EpisodeWork", "Events", "Executor", "LocalThreadExecutor"]


@dataclass
class Attempt:
    job: EpisodeJob
    number: int = 1
    errors: list[ErrorInfo] = field(default_factory=list)


# (attempt, device) -> the finished log; raises DeviceError for infrastructure failures
EpisodeWork = Callable[[Attempt, Device], EpisodeLog]


class Executor(Protocol):
    def run(self, attempts: list[Attempt], pool: DevicePool, work: EpisodeWork, events: Events,
            stop: threading.Event, max_retries: int) -> list[Attempt]:
        """Run every attempt; return those left undone (stopped, or no healthy device left)."""
        ...


class LocalThreadExecutor:
    """One worker thread per device, all pulling from one queue."""

    def run(self, attempts: list[Attempt], pool: DevicePool, work: EpisodeWork, events: Events,
            stop: threading.Event, max_retries: int) -> list[Attempt]:
        jobs: queue.Queue[Attempt] = queue.Queue()
        for attempt in attempts:
            jobs.put(attempt)
        outstanding = [len(attempts)]
        lock = threading.Lock()
        undone: list[Attempt] = []

        def done_one() -> None:
            with lock:
                outstanding[0] -= 1

        def worker(device: Device) -> None:
            while not stop.is_set() and pool.is_healthy(device):
                try:
                    attempt = jobs.get(timeout=0.2)
                except queue.Empty:
                    with lock:
                        if outstanding[0] <= 0:
                            return
                    continue
                events.started(attempt, device)
                try:
                    log = work(attempt, device)
                except Exception as exc:
                    outcome = classify(exc)
                    attempt.errors.append(error_info(outcome.kind, exc))
                    if not outcome.infrastructure:  # recorded; another device would not help
                        events.gave_up(attempt, exc)
                        done_one()
                        continue
                    reason = _health(device)
                    if reason is not None:
                        pool.take_out(device, reason)
                        events.device_removed(device, reason)
                    if attempt.number <= max_retries:
                        events.retrying(attempt, device, exc)
                        jobs.put(Attempt(attempt.job, attempt.number + 1, attempt.errors))
                    else:
                        events.gave_up(attempt, exc)
                        done_one()
                    continue
                events.finished(log)
                done_one()

        threads = [threading.Thread(target=worker, args=(d,), name=f"device-{d.serial}", daemon=True)
                   for d in pool.healthy()]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(timeout=0.2)
        while not jobs.empty():
            undone.append(jobs.get_nowait())
        return undone


def _health(device: Device) -> str | None:
    """None when the device answers; otherwise why it is taken out."""
    try:
        device.health_check()
    except DeviceError as exc:
        return str(exc)
    return None
