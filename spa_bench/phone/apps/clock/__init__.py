"""The Clock app (com.android.deskclock): alarms in AOSP DeskClock's `alarms.db` layout, timers,
stopwatch and world clock. Checks read it with
`sqlite3 /data/user_de/0/com.android.deskclock/databases/alarms.db` (device-protected storage, as
AOSP DeskClock)."""

from __future__ import annotations

from spa_bench.phone.api import Component
from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.clock.screens import DeskClock
from spa_bench.phone.apps.clock.store import ClockStore
from spa_bench.phone.apps.clock.strings import STRINGS
from spa_bench.phone.apps.clock.tabs import CityPicker


class ClockApp(App):
    package = "com.android.deskclock"
    label_en = "Clock"
    label_zh = "时钟"
    launcher_activity = "com.android.deskclock.DeskClock"
    apk_path = "/product/app/DeskClockGoogle/DeskClockGoogle.apk"
    icon = "alarm"
    hue = "blue"
    strings = STRINGS
    activities = (DeskClock, CityPicker)
    services = (Component("service", "com.android.deskclock.alarms.AlarmService", False),
                Component("service", "com.android.deskclock.timer.TimerService", False),
                Component("service", "com.android.deskclock.stopwatch.StopwatchService", False))
    receivers = (Component("receiver", "com.android.deskclock.AlarmInitReceiver", True),
                 Component("receiver", "com.android.deskclock.alarms.AlarmStateManager", False))

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = ClockStore(ctx)
        self.store.db.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def on_data_cleared(self) -> None:
        self.store.db.ensure()


__all__ = ["ClockApp"]
