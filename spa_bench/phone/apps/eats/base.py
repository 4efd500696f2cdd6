"""What every Eats screen shares: the store, money in the currency of the owner's content language,
cuisine names, and the restaurant row of the home page and the search results."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.eats.models import Restaurant
from spa_bench.phone.apps.eats.seed import CUISINES
from spa_bench.phone.apps.eats.store import ms
from spa_bench.phone.apps.eats.strings import money
from spa_bench.phone.apps.shop.widgets import Chip, chip, thumbnail
from spa_bench.phone.ui import LINEAR, Callback, Kit, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.eats import EatsApp

PACKAGE = "com.spa.eats"
RID = f"{PACKAGE}:id/"
MAIN = "com.spa.eats.MainActivity"
SEARCH = "com.spa.eats.SearchActivity"
RESTAURANT = "com.spa.eats.RestaurantActivity"
CHECKOUT = "com.spa.eats.CheckoutActivity"
ORDER = "com.spa.eats.OrderActivity"
ADDRESSES = "com.spa.eats.AddressesActivity"
ADDRESS_EDIT = "com.spa.eats.AddressEditActivity"
COUPONS = "com.spa.eats.CouponsActivity"
HUES = ("orange", "red", "green", "teal", "purple", "blue", "pink", "yellow")


def dialog_chip(
    kit: Kit, left: int, top: int, text: str, selected: bool, on_click: Callback, rid: str
) -> Chip:
    """A filter chip for a dialog: unselected ones take the page's colour, as the dialog's own surface
    colour would hide them."""
    c = chip(kit, left, top, text, selected, on_click, rid=rid)
    if not selected:
        c.bg = kit.palette.background
    return c


class EatsActivity(Activity):
    app: EatsApp

    @property
    def content_locale(self) -> str:
        """The language of the restaurants, addresses, coupons and orders shown (the `locale` columns) and of
        their prices: the owner's content (the SIM's country), not the UI's, as a US user who switches the
        phone to Chinese still orders from the restaurants near them in dollars."""
        return self.ctx.content_locale

    def now_ms(self) -> int:
        return ms(self.ctx.clock.now())

    def money(self, value: float) -> str:
        return money(value, self.ctx.content_locale)  # the restaurants' currency

    def amount_row(self, area: Rect, pad: int, y: int, key: str, value: str, rid: str,
                   bold: bool = False) -> list[View]:
        """One line of a bill (checkout and order pages): the label at the left, the amount at the right."""
        kit, p = self.kit, self.kit.palette
        line = Rect(area.left + pad, y, area.right - pad, y + kit.dp(28))
        return [TextView(line, self.t(key), kit.body_medium, p.on_surface_variant),
                TextView(line, value, kit.body_medium, p.on_surface, align="right", rid=RID + rid, bold=bold)]

    def cuisine(self, key: str, locale: str | None = None) -> str:
        """A cuisine's name: a category label, so in the UI's language unless `locale` says otherwise."""
        en, zh = CUISINES.get(key, (key, key))
        return zh if (locale or self.ctx.locale) == "zh" else en

    def price_level(self, level: int) -> str:
        return ("¥" if self.ctx.content_locale == "zh" else "$") * level  # the restaurants' currency

    def restaurants(self) -> list[Restaurant]:
        return self.app.store.restaurants(self.ctx.content_locale)

    def open_restaurant(self, key: str) -> None:
        self.ctx.start_activity(RESTAURANT, {"restaurant": key})

    def facts(self, r: Restaurant) -> str:
        """`★ 4.6 · Chinese · $$` / `★ 4.6 · 川菜 · ¥¥`."""
        return f"★ {r.rating:.1f} · {self.cuisine(r.cuisine)} · {self.price_level(r.price_level)}"

    def delivery(self, r: Restaurant) -> str:
        fee = (
            self.t("free_delivery")
            if r.delivery_fee == 0
            else self.t("delivery_fee", fee=self.money(r.delivery_fee))
        )
        return f"{self.t('minutes', n=r.eta_minutes)} · {self.t('km', n=r.distance_km)} · {fee}"

    def restaurant_row(self, area: Rect, top: int, r: Restaurant) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(104)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "restaurant_item",
            on_click=lambda: self.open_restaurant(r.key),
        )
        pad, pic = kit.dp(16), kit.dp(80)
        hue = HUES[sum(map(ord, r.key)) % len(HUES)]
        row.add(
            thumbnail(
                kit,
                Rect(area.left + pad, top + kit.dp(12), area.left + pad + pic, top + kit.dp(12) + pic),
                "bowl",
                hue,
            )
        )
        left = area.left + pad + pic + kit.dp(14)
        right = area.right - pad
        row.add(
            TextView(
                Rect(left, top + kit.dp(10), right, top + kit.dp(38)),
                r.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "restaurant_name",
                bold=True,
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(40), right, top + kit.dp(64)),
                self.facts(r),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "restaurant_facts",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(66), right, top + kit.dp(90)),
                self.delivery(r),
                kit.body_medium,
                p.primary,
                rid=RID + "restaurant_delivery",
            )
        )
        row.add(View(Rect(area.left + pad, top + h - 1, area.right - pad, top + h), bg=p.divider))
        return row

    def empty(self, area: Rect, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, area.top + kit.dp(48), area.right, area.top + kit.dp(96)),
            text,
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )
