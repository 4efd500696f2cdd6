"""The phone's own clock: wall time is the host's plus an offset (tasks may set the date), and a
monotonic source for timeouts such as toasts. Both are injectable for tests.

A phone started with a frozen clock (`spa-bench phone start --clock 2026-01-15T09:30`, `spa-bench run
--phone-clock ...`) shows the same time on every screen, so that two runs see the same screenshots and
a model cache can replay the first (spa_bench.models.cache). Timers and stopwatches then stand still.
Its time is the harness's, not the host's: a gesture's duration (a swipe's 300 ms, a long press's hold)
passes on its monotonic clock at once instead of being waited out, so events keep their planned times and
a run of many swipes is not slowed by them (the touchscreen tells gestures apart by those times alone).
$SPA_BENCH_PHONE_CLOCK freezes every phone started in that environment that is given no clock of its
own (phone processes, a cluster's hosts): the test suite sets it, so that no test depends on the hour.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta


def _utc_now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since 1970 of a naive UTC time, as Android's providers store dates."""
    return int((moment - datetime(1970, 1, 1)).total_seconds() * 1000)


def parse_clock(text: str) -> datetime:
    """An ISO 8601 time for a frozen clock, as naive UTC; a bad value is a PhoneError naming it."""
    from spa_bench.errors import PhoneError

    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise PhoneError(f"invalid clock {text!r}: expected an ISO 8601 time such as 2026-01-15T09:30 "
                         "(UTC unless it has an offset)") from None
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo else when


CLOCK_ENV = "SPA_BENCH_PHONE_CLOCK"


def clock_from_environment() -> datetime | None:
    """The frozen time $SPA_BENCH_PHONE_CLOCK gives, None when it is unset or empty."""
    text = os.environ.get(CLOCK_ENV, "").strip()
    return parse_clock(text) if text else None


class PhoneClock:
    """The phone runs on UTC (`persist.sys.timezone`), naive datetimes throughout."""

    def __init__(
        self, wall: Callable[[], datetime] = _utc_now, monotonic: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._sleep = sleep
        self.offset = timedelta(0)
        self._advanced = 0.0  # seconds a virtual sleep has moved the monotonic clock on
        self._advance_lock = threading.Lock()

    @classmethod
    def frozen(cls, at: datetime) -> PhoneClock:
        """A wall clock that always reads `at` (naive UTC, or aware and converted); set_now still works."""
        when = at.astimezone(UTC).replace(tzinfo=None) if at.tzinfo else at
        clock = cls(wall=lambda: when)
        clock._sleep = clock._advance
        return clock

    def now(self) -> datetime:
        return self._wall() + self.offset

    def set_now(self, when: datetime) -> None:
        """Make the phone's wall clock read `when` now (it keeps running from there)."""
        self.offset = when - self._wall()

    def monotonic(self) -> float:
        return self._monotonic() + self._advanced

    def _advance(self, seconds: float) -> None:
        """A frozen phone's sleep: the monotonic clock moves on by `seconds` without waiting (several
        gestures at once each move it: it only ever goes forward)."""
        with self._advance_lock:
            self._advanced += seconds

    def sleep(self, seconds: float) -> None:
        """Let `seconds` of monotonic time pass (a gesture's events are spaced so); a virtual clock's
        sleep advances its own monotonic time instead of waiting."""
        if seconds > 0:
            self._sleep(seconds)

    def status_time(self, use_24h: bool) -> str:
        """The status bar clock: `13:05` or `1:05` (Android drops AM/PM there)."""
        now = self.now()
        if use_24h:
            return now.strftime("%H:%M")
        return f"{(now.hour % 12) or 12}:{now.minute:02d}"
