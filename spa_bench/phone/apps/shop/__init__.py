"""Shop (com.spa.shop): a shopping app in the style of the big third-party shops - home with
categories, search with sort and filters, product pages with colour/size options, cart, wishlist,
checkout and orders. State lives in `databases/shop.db` (tables documented in `store.py`).

A product page's Share button hands the product to the Chat app (`com.spa.chat.ShareActivity`).
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.shop import glyphs as _glyphs  # noqa: F401  (registers the icons)
from spa_bench.phone.apps.shop.main import MainActivity
from spa_bench.phone.apps.shop.product import CheckoutActivity, ProductActivity
from spa_bench.phone.apps.shop.search import SearchActivity
from spa_bench.phone.apps.shop.store import ShopStore
from spa_bench.phone.apps.shop.strings import STRINGS


class ShopApp(App):
    package = "com.spa.shop"
    label_en = "Shop"
    label_zh = "购物"
    launcher_activity = MainActivity.name
    apk_path = "/data/app/com.spa.shop-1/base.apk"
    icon = "bag"
    hue = "orange"
    strings = STRINGS
    activities = (MainActivity, SearchActivity, ProductActivity, CheckoutActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = ShopStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "shop.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["ShopApp"]
