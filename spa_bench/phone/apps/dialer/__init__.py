"""Phone (com.android.dialer): favourites, the call log of the real provider (content://call_log/calls)
with a badge of unread missed calls, contacts, a dialpad, call details with block and delete, blocked
numbers (content://com.android.blockednumber/blocked) and the in-call screen.

The dialer keeps no database of its own: calls are the call-log provider's, contacts the Contacts
provider's and blocked numbers the BlockedNumberProvider's, as on Android. At first boot it writes the
phone's seeded call history into the call-log database (`seed.py`).
"""

from __future__ import annotations

from spa_bench.phone.api import Component
from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.contacts.store import ContactsStore
from spa_bench.phone.apps.dialer import glyphs as _glyphs  # noqa: F401  (registers the icons)
from spa_bench.phone.apps.dialer.calls import CallHistory
from spa_bench.phone.apps.dialer.details import BlockedNumbersActivity, CallDetailsActivity
from spa_bench.phone.apps.dialer.incall import InCallActivity
from spa_bench.phone.apps.dialer.main import MainActivity
from spa_bench.phone.apps.dialer.strings import STRINGS


class DialerApp(App):
    package = "com.android.dialer"
    label_en = "Phone"
    label_zh = "电话"
    launcher_activity = MainActivity.name
    apk_path = "/product/priv-app/Dialer/Dialer.apk"
    icon = "call"
    hue = "green"
    strings = STRINGS
    activities = (MainActivity, CallDetailsActivity, BlockedNumbersActivity, InCallActivity)
    # InCallActivity is not exported (AOSP incallui's manifest): only Telecom starts it, for a call it
    # placed; `am start -a android.intent.action.CALL` goes through Telecom's exported UserCallActivity.
    services = (Component("service", "com.android.incallui.InCallServiceImpl", True,
                          "android.permission.BIND_INCALL_SERVICE"),)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.contacts = ContactsStore(ctx)
        self.calls = CallHistory(ctx)
        self.calls.ensure_seeded()  # at boot, so the history is in the runner's base snapshots


__all__ = ["DialerApp"]
