"""An app's own pop-ups: a rating request and an update prompt, as many store apps show them.

No stock app has them, so the virtual phone has its own broadcast, `am broadcast -a
spa_bench.intent.action.APP_DIALOG --es dialog rating|update`: the foreground app shows the dialog over
its current screen. The dialog is part of that screen's state (the activity record), so it survives
leaving and re-entering the app and snapshots, as an open dialog of a real activity would. Dismissing it
(the negative button, BACK, a tap outside) leaves the screen as it was; the positive button opens the
app's store page in the browser, harmless but away from the task, which is what a careless agent loses.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings
from spa_bench.phone.ui import Kit, Rect, View

ACTION = "spa_bench.intent.action.APP_DIALOG"
KINDS = ("rating", "update")
UI_KEY = "app_dialog"  # where the open dialog is kept in the activity record's screen state
STORE_URL = "https://play.google.com/store/apps/details?id={package}"

STRINGS = Strings(
    {
        "rating_title": ("Enjoying {app}?", "喜欢“{app}”吗？"),
        "rating_message": ("Rate us on the store. It only takes a moment and helps us a lot.",
                           "去应用商店给我们评个分吧，只需片刻，对我们帮助很大。"),
        "rating_no": ("Not now", "以后再说"),
        "rating_yes": ("Rate", "去评分"),
        "update_title": ("Update available", "发现新版本"),
        "update_message": ("A new version of {app} is available. Update now to get the latest features.",
                           "“{app}”有新版本可用，立即更新即可体验最新功能。"),
        "update_no": ("Later", "稍后"),
        "update_yes": ("Update", "更新"),
    }
)


def store_url(package: str) -> str:
    return STORE_URL.format(package=quote(package))


def app_dialog(kit: Kit, screen: Rect, locale: Locale, kind: str, app_label: str, *,
               accept: Callable[[], None], dismiss: Callable[[], None]) -> View:
    """The dialog (an AlertDialog: android:id/button1 is the positive button, button2 the negative)."""
    return kit.dialog(screen, STRINGS.get(locale, f"{kind}_title", app=app_label),
                      STRINGS.get(locale, f"{kind}_message", app=app_label),
                      [(STRINGS.get(locale, f"{kind}_no"), dismiss),
                       (STRINGS.get(locale, f"{kind}_yes"), accept)],
                      on_dismiss=dismiss)
