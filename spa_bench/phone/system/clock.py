"""The phone's own clock: wall time is the host's plus an offset (tasks may set the date), and a
monotonic source for timeouts such as toasts. Both are injectable for tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class PhoneClock:
    """The phone runs on UTC (`persist.sys.timezone`), naive datetimes throughout."""

    def __init__(
        self, wall: Callable[[], datetime] = _utc_now, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self.offset = timedelta(0)

    def now(self) -> datetime:
        return self._wall() + self.offset

    def set_now(self, when: datetime) -> None:
        """Make the phone's wall clock read `when` now (it keeps running from there)."""
        self.offset = when - self._wall()

    def monotonic(self) -> float:
        return self._monotonic()

    def status_time(self, use_24h: bool) -> str:
        """The status bar clock: `13:05` or `1:05` (Android drops AM/PM there)."""
        now = self.now()
        if use_24h:
            return now.strftime("%H:%M")
        return f"{(now.hour % 12) or 12}:{now.minute:02d}"
