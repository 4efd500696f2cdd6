"""The notes app (com.google.android.keep, a Keep-like notes app) with its own documented schema in
/data/data/com.google.android.keep/databases/notes.db (see `store.py`)."""

from __future__ import annotations

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.notes.screens import Browse, Editor
from spa_bench.phone.apps.notes.store import PACKAGE, NotesStore
from spa_bench.phone.apps.notes.strings import STRINGS


class NotesApp(App):
    package = PACKAGE
    label_en = "Keep Notes"
    label_zh = "Keep 记事"
    launcher_activity = "com.google.android.keep.activities.BrowseActivity"
    apk_path = "/product/app/GoogleKeep/GoogleKeep.apk"
    icon = "note"
    hue = "yellow"
    strings = STRINGS
    activities = (Browse, Editor)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = NotesStore(ctx)
        self.store.db.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def on_data_cleared(self) -> None:
        self.store.db.ensure()


__all__ = ["NotesApp"]
