"""Browser (com.android.browser): a Chrome-style browser over a small offline web shipped with the
phone (`web.py`, `sites_en.py`, `sites_zh.py`): search, articles, a shop page and forms whose
submissions are stored, with tabs, bookmarks and history in `databases/browser.db` (tables documented
in `store.py`). `am start -a android.intent.action.VIEW -d https://...` opens the page in a new tab."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.browser.lists import BookmarksActivity, HistoryActivity, TabSwitcherActivity
from spa_bench.phone.apps.browser.screens import BrowserActivity
from spa_bench.phone.apps.browser.store import BrowserStore
from spa_bench.phone.apps.browser.strings import STRINGS


class BrowserApp(App):
    package = "com.android.browser"
    label_en = "Browser"
    label_zh = "浏览器"
    launcher_activity = BrowserActivity.name
    apk_path = "/system/app/Browser2/Browser2.apk"
    icon = "public"
    hue = "blue"
    strings = STRINGS
    activities = (BrowserActivity, TabSwitcherActivity, BookmarksActivity, HistoryActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = BrowserStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "browser.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["BrowserApp"]
