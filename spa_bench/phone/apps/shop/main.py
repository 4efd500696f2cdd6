"""The Shop's main screen (`com.spa.shop.MainActivity`) with its four tabs: home (search bar,
categories, recommendations), wishlist, cart (quantities, total, checkout) and orders."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from spa_bench.phone.apps.base import TabbedActivity
from spa_bench.phone.apps.shop.base import GLYPHS, HUES, RID, ShopActivity
from spa_bench.phone.apps.shop.catalogue import CATEGORIES
from spa_bench.phone.apps.shop.store import CartLine, Order
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, icon_button, thumbnail
from spa_bench.phone.ui import FRAME, LINEAR, Button, Rect, TextView, View

TABS = (("home", "home"), ("wishlist", "heart"), ("cart", "cart"), ("orders", "receipt"))
SEARCH = "com.spa.shop.SearchActivity"


class MainActivity(TabbedActivity, ShopActivity):
    name = "com.spa.shop.MainActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=RID + "main")
        cart_count = sum(line.quantity for line in self.app.store.cart())
        items = [
            NavItem(
                key,
                self.t(f"tab_{key}"),
                glyph,
                key == self.tab,
                partial(self.switch, key),
                cart_count if key == "cart" else 0,
            )
            for key, glyph in TABS
        ]
        nav, nav_h = bottom_nav(kit, area, items, "com.spa.shop")
        body = Rect(area.left, area.top, area.right, area.bottom - nav_h)
        if self.tab == "home":
            root.add(self._home(body))
        else:
            bar, bar_h = kit.app_bar(body, self.t(f"tab_{self.tab}"), None, package="com.spa.shop")
            root.add(bar)
            inner = Rect(body.left, body.top + bar_h, body.right, body.bottom)
            root.add(
                {"wishlist": self._wishlist, "cart": self._cart, "orders": self._orders}[self.tab](inner)
            )
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
                Rect(area.left + kit.dp(16), top + kit.dp(8), area.right - kit.dp(16), top + kit.dp(56)),
                self.t("app_name"),
                kit.dp(28),
                p.primary,
                rid=RID + "title",
                bold=True,
            )
        )
        search = Rect(area.left + kit.dp(16), top + kit.dp(60), area.right - kit.dp(16), top + kit.dp(112))
        rows.append(
            kit.search_bar(
                search,
                self.t("search_hint"),
                rid=RID + "search_bar",
                on_click=lambda: self.ctx.start_activity(SEARCH, {"focus": "1"}),
            )
        )
        y = search.bottom + kit.dp(16)
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(32)),
                self.t("categories"),
                kit.title_large,
                p.on_surface,
                rid=RID + "categories_title",
            )
        )
        y += kit.dp(40)
        cols = 3
        cw = (area.width - kit.dp(16)) // cols
        ch = kit.dp(96)
        for i, (key, glyph) in enumerate(CATEGORIES):
            left = area.left + kit.dp(8) + (i % cols) * cw
            cell_top = y + (i // cols) * ch
            cell = View(
                Rect(left, cell_top, left + cw, cell_top + ch),
                class_name=LINEAR,
                rid=RID + f"cat_{key}",
                on_click=partial(self.ctx.start_activity, SEARCH, {"category": key}),
            )
            s = kit.dp(52)
            cx = left + cw // 2
            cell.add(
                thumbnail(
                    kit,
                    Rect(cx - s // 2, cell_top + kit.dp(6), cx + s // 2, cell_top + kit.dp(6) + s),
                    glyph,
                    HUES[key],
                )
            )
            cell.add(
                TextView(
                    Rect(left, cell_top + kit.dp(62), left + cw, cell_top + kit.dp(88)),
                    self.t(f"cat_{key}"),
                    kit.body_medium,
                    p.on_surface,
                    align="center",
                )
            )
            rows.append(cell)
        y += ((len(CATEGORIES) + cols - 1) // cols) * ch + kit.dp(8)
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(32)),
                self.t("recommended"),
                kit.title_large,
                p.on_surface,
                rid=RID + "recommended_title",
            )
        )
        y += kit.dp(40)
        picks = sorted(self.app.store.products().values(), key=lambda pr: (-pr.reviews, pr.sku))[:12]
        for product in picks:
            row = self.product_row(area, y, product)
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "home_list", padding_bottom=kit.dp(8))

    # -- wishlist -------------------------------------------------------------------------------------
    def _wishlist(self, area: Rect) -> View:
        kit = self.kit
        rows: list[View] = []
        y = area.top
        for product in self.app.store.wishlist():
            s = kit.dp(48)
            remove = icon_button(
                kit,
                Rect(area.right - kit.dp(8) - s, y + kit.dp(36), area.right - kit.dp(8), y + kit.dp(36) + s),
                "heart_filled",
                self.t("wishlist_remove"),
                partial(self._unwish, product.sku),
                rid=RID + "wishlist_remove",
                color=kit.palette.error,
            )
            row = self.product_row(area, y, product, trailing=remove)
            rows.append(row)
            y = row.bounds.bottom
        if not rows:
            rows.append(self._empty(area, self.t("wishlist_empty")))
        return self.scroll_list(area, rows, rid=RID + "wishlist_list")

    def _unwish(self, sku: str) -> None:
        self.app.store.toggle_wishlist(sku, self.now_ms())
        self.ctx.invalidate()

    def _empty(self, area: Rect, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, area.top + kit.dp(48), area.right, area.top + kit.dp(96)),
            text,
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )

    # -- cart -----------------------------------------------------------------------------------------
    def _cart(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        lines = self.app.store.cart()
        frame = View(area, class_name=FRAME, rid=RID + "cart")
        footer_h = kit.dp(80) if lines else 0
        list_area = Rect(area.left, area.top, area.right, area.bottom - footer_h)
        rows: list[View] = []
        y = list_area.top
        for line in lines:
            row = self._cart_row(list_area, y, line)
            rows.append(row)
            y = row.bounds.bottom
        if not lines:
            rows.append(self._empty(area, self.t("cart_empty")))
        frame.add(self.scroll_list(list_area, rows, rid=RID + "cart_list"))
        if lines:
            total = round(sum(line.product.price * line.quantity for line in lines), 2)
            footer = View(
                Rect(area.left, area.bottom - footer_h, area.right, area.bottom),
                class_name=LINEAR,
                bg=p.surface_high,
                rid=RID + "cart_footer",
            )
            footer.add(
                TextView(
                    Rect(
                        area.left + kit.dp(16),
                        footer.bounds.top,
                        area.right - kit.dp(180),
                        footer.bounds.bottom,
                    ),
                    f"{self.t('total')}: {self.price(total)}",
                    kit.dp(18),
                    p.on_surface,
                    rid=RID + "cart_total",
                    bold=True,
                )
            )
            count = sum(line.quantity for line in lines)
            by = footer.bounds.top + kit.dp(16)
            footer.add(
                Button(
                    Rect(area.right - kit.dp(172), by, area.right - kit.dp(16), by + kit.dp(48)),
                    self.t("checkout", n=count),
                    kit.body_medium,
                    p.on_primary,
                    p.primary,
                    on_click=lambda: self.ctx.start_activity("com.spa.shop.CheckoutActivity"),
                    rid=RID + "checkout",
                )
            )
            frame.add(footer)
        return frame

    def _cart_row(self, area: Rect, top: int, line: CartLine) -> View:
        kit = self.kit
        p = kit.palette
        product = line.product
        h = kit.dp(132)
        row = View(Rect(area.left, top, area.right, top + h), class_name=LINEAR, rid=RID + "cart_item")
        pad, pic = kit.dp(16), kit.dp(84)
        row.add(
            thumbnail(
                kit,
                Rect(area.left + pad, top + kit.dp(12), area.left + pad + pic, top + kit.dp(12) + pic),
                GLYPHS[product.category],
                HUES[product.category],
            )
        )
        left = area.left + pad + pic + kit.dp(12)
        right = area.right - kit.dp(56)
        row.add(
            TextView(
                Rect(left, top + kit.dp(8), right, top + kit.dp(34)),
                self.title(product),
                kit.body_large,
                p.on_surface,
                rid=RID + "cart_item_title",
                on_click=partial(self.open_product, product.sku),
            )
        )
        options = " · ".join(x for x in (self.t(f"c_{line.color}") if line.color else "", line.size) if x)
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right, top + kit.dp(56)),
                options,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "cart_item_options",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(56), right, top + kit.dp(82)),
                self.price(product.price),
                kit.dp(17),
                p.error,
                rid=RID + "cart_item_price",
                bold=True,
            )
        )
        s = kit.dp(40)
        y = top + kit.dp(84)
        row.add(
            icon_button(
                kit,
                Rect(left, y, left + s, y + s),
                "minus",
                self.t("decrease"),
                partial(self._qty, line, line.quantity - 1),
                rid=RID + "qty_minus",
            )
        )
        row.add(
            TextView(
                Rect(left + s, y, left + 2 * s, y + s),
                str(line.quantity),
                kit.body_large,
                p.on_surface,
                align="center",
                rid=RID + "qty_value",
            )
        )
        row.add(
            icon_button(
                kit,
                Rect(left + 2 * s, y, left + 3 * s, y + s),
                "plus",
                self.t("increase"),
                partial(self._qty, line, line.quantity + 1),
                rid=RID + "qty_plus",
            )
        )
        row.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(56), top + kit.dp(8), area.right - kit.dp(8), top + kit.dp(56)),
                "delete",
                self.t("remove"),
                partial(self._qty, line, 0),
                rid=RID + "cart_item_remove",
            )
        )
        row.add(View(Rect(area.left + pad, top + h - 1, area.right - pad, top + h), bg=p.divider))
        return row

    def _qty(self, line: CartLine, quantity: int) -> None:
        self.app.store.set_quantity(line.id, quantity)
        self.ctx.invalidate()

    # -- orders ---------------------------------------------------------------------------------------
    def _orders(self, area: Rect) -> View:
        rows: list[View] = []
        y = area.top
        for order in self.app.store.orders():
            card = self._order_card(area, y, order)
            rows.append(card)
            y = card.bounds.bottom
        if not rows:
            rows.append(self._empty(area, self.t("orders_empty")))
        return self.scroll_list(area, rows, rid=RID + "orders_list", padding_bottom=self.kit.dp(8))

    def _order_card(self, area: Rect, top: int, order: Order) -> View:
        kit = self.kit
        p = kit.palette
        products = self.app.store.products()
        lh = kit.dp(26)
        h = kit.dp(92) + lh * len(order.items)
        rect = Rect(area.left + kit.dp(12), top + kit.dp(8), area.right - kit.dp(12), top + kit.dp(8) + h)
        card = View(rect, class_name=LINEAR, rid=RID + "order_item", bg=p.surface, radius=kit.dp(16))
        inner = rect.inset(kit.dp(16), 0)
        card.add(
            TextView(
                Rect(inner.left, rect.top + kit.dp(10), inner.right - kit.dp(110), rect.top + kit.dp(36)),
                self.t("order_no", no=order.order_no),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "order_no",
            )
        )
        card.add(
            TextView(
                Rect(inner.right - kit.dp(110), rect.top + kit.dp(10), inner.right, rect.top + kit.dp(36)),
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
                Rect(inner.left, rect.top + kit.dp(36), inner.right, rect.top + kit.dp(60)),
                when.strftime("%Y-%m-%d %H:%M"),
                kit.label,
                p.on_surface_variant,
                rid=RID + "order_date",
            )
        )
        y = rect.top + kit.dp(60)
        for sku, title_en, qty, color, size in order.items:
            product = products.get(sku)
            title = self.title(product) if product else title_en
            extra = " · ".join(x for x in (self.t(f"c_{color}") if color else "", size) if x)
            if extra:
                # the suffix in the title's language
                title += f"（{extra}）" if self.ctx.content_locale == "zh" else f" ({extra})"
            text = f"{title} ×{qty}"
            card.add(
                TextView(
                    Rect(inner.left, y, inner.right, y + lh),
                    text,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "order_line",
                )
            )
            y += lh
        card.add(
            TextView(
                Rect(inner.left, y, inner.right, y + kit.dp(28)),
                f"{self.t('total')}: {self.price(order.total)}",
                kit.body_large,
                p.on_surface,
                align="right",
                rid=RID + "order_total",
                bold=True,
            )
        )
        return View(
            Rect(area.left, top, area.right, rect.bottom + kit.dp(4)), class_name=FRAME, children=[card]
        )
