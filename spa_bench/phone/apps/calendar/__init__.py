"""The Calendar app (com.android.calendar) over the calendar provider's database (calendar.db),
served to `content query` as content://com.android.calendar/events."""

from __future__ import annotations

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.calendar.event import EditEvent, EventInfo
from spa_bench.phone.apps.calendar.screens import AllInOne
from spa_bench.phone.apps.calendar.store import AUTHORITY, CalendarStore
from spa_bench.phone.apps.calendar.strings import STRINGS
from spa_bench.phone.system.providers import ContentProvider


class CalendarApp(App):
    package = "com.android.calendar"
    label_en = "Calendar"
    label_zh = "日历"
    launcher_activity = "com.android.calendar.AllInOneActivity"
    apk_path = "/product/app/CalendarGooglePrebuilt/CalendarGooglePrebuilt.apk"
    icon = "calendar"
    hue = "blue"
    strings = STRINGS
    activities = (AllInOne, EventInfo, EditEvent)
    exported_activities = frozenset({EventInfo.name, EditEvent.name})  # VIEW / INSERT / EDIT of events

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = CalendarStore(ctx)
        self.store.db.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def providers(self) -> dict[str, ContentProvider]:
        return {AUTHORITY: self.store.provider()}

    def on_data_cleared(self) -> None:
        self.store.db.ensure()


__all__ = ["CalendarApp"]
