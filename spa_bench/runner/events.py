"""What the scheduler tells the outside (progress bars, the run's bookkeeping): one `Events` base whose
methods do nothing, so a listener overrides only what it cares about, and `Broadcast` to several.

Light on purpose (types only under TYPE_CHECKING): the CLI subclasses it without importing adb code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spa_bench.device.device import Device
    from spa_bench.results.schema import EpisodeLog
    from spa_bench.runner.scheduler import Attempt


class Events:
    """What the scheduler tells the outside (progress bars, logs). Every method does nothing here:
    a listener overrides the ones it cares about."""

    def planned(self, total: int, already_done: int) -> None:
        return None

    def started(self, attempt: Attempt, device: Device) -> None:
        return None

    def finished(self, log: EpisodeLog) -> None:
        return None

    def retrying(self, attempt: Attempt, device: Device, error: BaseException) -> None:
        return None

    def device_removed(self, device: Device, reason: str) -> None:
        return None

    def device_added(self, device: Device) -> None:
        """A device joined during the run (the Ray executor: a host joined the cluster)."""
        return None

    def gave_up(self, attempt: Attempt, error: BaseException) -> None:
        return None


class Broadcast(Events):
    """Events sent to several listeners in order (e.g. the run's own bookkeeping, then a progress bar)."""

    def __init__(self, *listeners: Events) -> None:
        self.listeners = listeners

    def planned(self, total: int, already_done: int) -> None:
        for listener in self.listeners:
            listener.planned(total, already_done)

    def started(self, attempt: Attempt, device: Device) -> None:
        for listener in self.listeners:
            listener.started(attempt, device)

    def finished(self, log: EpisodeLog) -> None:
        for listener in self.listeners:
            listener.finished(log)

    def retrying(self, attempt: Attempt, device: Device, error: BaseException) -> None:
        for listener in self.listeners:
            listener.retrying(attempt, device, error)

    def device_removed(self, device: Device, reason: str) -> None:
        for listener in self.listeners:
            listener.device_removed(device, reason)

    def device_added(self, device: Device) -> None:
        for listener in self.listeners:
            listener.device_added(device)

    def gave_up(self, attempt: Attempt, error: BaseException) -> None:
        for listener in self.listeners:
            listener.gave_up(attempt, error)
