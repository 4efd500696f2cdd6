"""The Eats main screen (`com.spa.eats.MainActivity`) and its three tabs: home (delivery address, search,
cuisines, restaurants near you), orders (status, reorder) and account (addresses, coupons)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from spa_bench.phone.apps.base import TabbedActivity
from spa_bench.phone.apps.eats.base import ADDRESSES, COUPONS, ORDER, RESTAURANT, RID, SEARCH, EatsActivity
from spa_bench.phone.apps.eats.models import Order
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, chip
from spa_bench.phone.ui import FRAME, LINEAR, Button, ImageView, Rect, TextView, View

TABS = (("home", "home"), ("orders", "receipt"), ("me", "person"))


class MainActivity(TabbedActivity, EatsActivity):
    name = "com.spa.eats.MainActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=RID + "main")
        items = [
            NavItem(key, self.t(f"tab_{key}"), glyph, key == self.tab, partial(self.switch, key))
            for key, glyph in TABS
        ]
        nav, nav_h = bottom_nav(kit, area, items, "com.spa.eats")
        body = Rect(area.left, area.top, area.right, area.bottom - nav_h)
        if self.tab == "home":
            root.add(self._home(body))
        else:
            bar, bar_h = kit.app_bar(body, self.t(f"tab_{self.tab}"), None, package="com.spa.eats")
            root.add(bar)
            inner = Rect(body.left, body.top + bar_h, body.right, body.bottom)
            root.add(self._orders(inner) if self.tab == "orders" else self._me(inner))
        root.add(nav)
        return root

    # -- home -----------------------------------------------------------------------------------------
    def _home(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        rows: list[View] = []
        top = area.top
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), top + kit.dp(8), area.right - kit.dp(16), top + kit.dp(52)),
                self.t("app_name"),
                kit.dp(28),
                p.primary,
                rid=RID + "title",
                bold=True,
            )
        )
        address = self.app.store.checkout_address(self.content_locale)
        line = View(
            Rect(area.left + kit.dp(8), top + kit.dp(52), area.right - kit.dp(8), top + kit.dp(92)),
            class_name=LINEAR,
            rid=RID + "address_bar",
            on_click=partial(self.ctx.start_activity, ADDRESSES, {"pick": "1"}),
        )
        s = kit.dp(20)
        line.add(
            ImageView(
                Rect(
                    line.bounds.left + kit.dp(8),
                    line.bounds.center[1] - s // 2,
                    line.bounds.left + kit.dp(8) + s,
                    line.bounds.center[1] + s // 2,
                ),
                "map_pin",
                p.primary,
            )
        )
        colon = "：" if self.ctx.locale == "zh" else ": "  # after a label: the UI's
        shown = (
            f"{self.t('deliver_to')}{colon}{address.label} · {address.address}"
            if address
            else self.t("no_address")
        )
        line.add(
            TextView(
                Rect(line.bounds.left + kit.dp(36), line.bounds.top, line.bounds.right, line.bounds.bottom),
                shown,
                kit.body_medium,
                p.on_surface,
                rid=RID + "address_text",
            )
        )
        rows.append(line)
        search = Rect(area.left + kit.dp(16), top + kit.dp(96), area.right - kit.dp(16), top + kit.dp(148))
        rows.append(
            kit.search_bar(
                search,
                self.t("search_hint"),
                rid=RID + "search_bar",
                on_click=partial(self.ctx.start_activity, SEARCH, {"focus": "1"}),
            )
        )
        y = search.bottom + kit.dp(12)
        x = area.left + kit.dp(16)
        cuisines = sorted(
            {r.cuisine for r in self.restaurants()},
            key=lambda c: [r.cuisine for r in self.restaurants()].index(c),
        )
        for key in cuisines:
            c = chip(
                kit,
                x,
                y,
                self.cuisine(key),
                False,
                partial(self.ctx.start_activity, SEARCH, {"cuisine": key}),
                rid=RID + f"cuisine_{key}",
            )
            if c.bounds.right > area.right - kit.dp(16):
                x = area.left + kit.dp(16)
                y += kit.dp(44)
                c = chip(
                    kit,
                    x,
                    y,
                    self.cuisine(key),
                    False,
                    partial(self.ctx.start_activity, SEARCH, {"cuisine": key}),
                    rid=RID + f"cuisine_{key}",
                )
            rows.append(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(52)
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(32)),
                self.t("nearby"),
                kit.title_large,
                p.on_surface,
                rid=RID + "nearby_title",
            )
        )
        y += kit.dp(36)
        for r in sorted(self.restaurants(), key=lambda r: (r.distance_km, r.key)):
            row = self.restaurant_row(area, y, r)
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "home_list", padding_bottom=kit.dp(8))

    # -- orders ---------------------------------------------------------------------------------------
    def _orders(self, area: Rect) -> View:
        rows: list[View] = []
        y = area.top
        for order in self.app.store.orders(self.content_locale, self.now_ms()):
            card = self._order_card(area, y, order)
            rows.append(card)
            y = card.bounds.bottom
        if not rows:
            rows.append(self.empty(area, self.t("no_orders")))
        return self.scroll_list(area, rows, rid=RID + "orders_list", padding_bottom=self.kit.dp(8))

    def _order_card(self, area: Rect, top: int, order: Order) -> View:
        kit = self.kit
        p = kit.palette
        restaurant = self.app.store.restaurant(order.restaurant)
        h = kit.dp(152)
        rect = Rect(area.left + kit.dp(12), top + kit.dp(8), area.right - kit.dp(12), top + kit.dp(8) + h)
        card = View(
            rect,
            class_name=LINEAR,
            rid=RID + "order_item",
            bg=p.surface,
            radius=kit.dp(16),
            on_click=partial(self.ctx.start_activity, ORDER, {"order": order.id}),
        )
        inner = rect.inset(kit.dp(16), 0)
        card.add(
            TextView(
                Rect(inner.left, rect.top + kit.dp(10), inner.right - kit.dp(120), rect.top + kit.dp(38)),
                restaurant.name if restaurant else order.restaurant,
                kit.body_large,
                p.on_surface,
                rid=RID + "order_restaurant",
                bold=True,
            )
        )
        card.add(
            TextView(
                Rect(inner.right - kit.dp(120), rect.top + kit.dp(10), inner.right, rect.top + kit.dp(38)),
                self.t(f"status_{order.status}"),
                kit.body_medium,
                p.primary,
                align="right",
                rid=RID + "order_status",
            )
        )
        when = datetime.fromtimestamp(order.created_at / 1000, UTC)
        card.add(
            TextView(
                Rect(inner.left, rect.top + kit.dp(38), inner.right, rect.top + kit.dp(60)),
                when.strftime("%Y-%m-%d %H:%M"),
                kit.label,
                p.on_surface_variant,
                rid=RID + "order_date",
            )
        )
        sep = "、" if self.content_locale == "zh" else ", "  # between dish names: theirs
        summary = sep.join(f"{i.name} ×{i.quantity}" for i in order.items)
        card.add(
            TextView(
                Rect(inner.left, rect.top + kit.dp(62), inner.right, rect.top + kit.dp(88)),
                summary,
                kit.body_medium,
                p.on_surface,
                rid=RID + "order_summary",
            )
        )
        card.add(
            TextView(
                Rect(inner.left, rect.top + kit.dp(100), inner.right - kit.dp(130), rect.top + kit.dp(140)),
                f"{self.t('total')} {self.money(order.total)}",
                kit.body_large,
                p.on_surface,
                rid=RID + "order_total",
                bold=True,
            )
        )
        card.add(
            Button(
                Rect(inner.right - kit.dp(124), rect.top + kit.dp(98), inner.right, rect.top + kit.dp(140)),
                self.t("reorder"),
                kit.body_medium,
                p.primary,
                None,
                outline=p.primary,
                on_click=partial(self.reorder, order),
                rid=RID + "reorder",
            )
        )
        return View(
            Rect(area.left, top, area.right, rect.bottom + kit.dp(4)), class_name=FRAME, children=[card]
        )

    def reorder(self, order: Order) -> None:
        self.app.store.reorder(order, self.now_ms())
        self.ctx.toast(self.t("reordered"))
        self.ctx.start_activity(RESTAURANT, {"restaurant": order.restaurant})

    # -- account --------------------------------------------------------------------------------------
    def _me(self, area: Rect) -> View:
        kit = self.kit
        rows: list[View] = []
        default = self.app.store.default_address(self.content_locale)
        today = self.ctx.clock.now().strftime("%Y-%m-%d")
        usable = [c for c in self.app.store.coupons(self.content_locale) if not c.used and c.expires >= today]
        y = area.top
        for key, glyph, summary, activity in (
            ("addresses", "map_pin", default.address if default else self.t("no_address"), ADDRESSES),
            ("coupons", "ticket", self.t("coupons_available", n=len(usable)), COUPONS),
        ):
            row = kit.list_item(
                area,
                y,
                self.t(key),
                summary,
                icon=glyph,
                hue="orange",
                rid=RID + f"me_{key}",
                on_click=partial(self.ctx.start_activity, activity),
            )
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "me_list")
