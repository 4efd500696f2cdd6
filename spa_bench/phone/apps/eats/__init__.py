"""Eats (com.spa.eats, 外卖): food delivery in the style of the Chinese super-apps - restaurants near the
user with search and filters, menus with size and spice options, a cart per restaurant, delivery
addresses, coupons, checkout with a note for the rider, order status advanced by the phone's clock,
order history and reorder. State lives in `databases/eats.db` (tables documented in `store.py`).

A restaurant's Share button sends it as a text message through the Chat app's share target
(`com.spa.chat.ShareActivity`, extras `kind: text`).
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.eats import glyphs as _glyphs  # noqa: F401  (registers the icons)
from spa_bench.phone.apps.eats.account import AddressEditActivity, AddressesActivity, CouponsActivity
from spa_bench.phone.apps.eats.checkout import CheckoutActivity
from spa_bench.phone.apps.eats.main import MainActivity
from spa_bench.phone.apps.eats.order import OrderActivity
from spa_bench.phone.apps.eats.restaurant import RestaurantActivity
from spa_bench.phone.apps.eats.search import SearchActivity
from spa_bench.phone.apps.eats.store import EatsStore
from spa_bench.phone.apps.eats.strings import STRINGS


class EatsApp(App):
    package = "com.spa.eats"
    label_en = "Eats"
    label_zh = "外卖"
    launcher_activity = MainActivity.name
    apk_path = "/data/app/com.spa.eats-1/base.apk"
    icon = "bowl"
    hue = "yellow"
    strings = STRINGS
    activities = (
        MainActivity,
        SearchActivity,
        RestaurantActivity,
        CheckoutActivity,
        OrderActivity,
        AddressesActivity,
        AddressEditActivity,
        CouponsActivity,
    )

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = EatsStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "eats.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["EatsApp"]
