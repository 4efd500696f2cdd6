"""The product page (`com.spa.shop.ProductActivity`, extra `sku`) and checkout
(`com.spa.shop.CheckoutActivity`: the cart, or one product with "Buy now").

Sharing a product starts the Chat app's share target (`com.spa.chat.ShareActivity`) with the
product's sku, titles and price, as an Android share intent would.
"""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.shop.base import GLYPHS, HUES, RID, ShopActivity
from spa_bench.phone.apps.shop.catalogue import ADDRESS
from spa_bench.phone.apps.shop.store import CartLine, Product
from spa_bench.phone.apps.shop.widgets import chip, icon_button, thumbnail
from spa_bench.phone.ui import FRAME, LINEAR, Button, Callback, Rect, TextView, View

CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")


def option_rid(value: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in value)


class ProductActivity(ShopActivity):
    name = "com.spa.shop.ProductActivity"

    @property
    def product(self) -> Product | None:
        return self.app.store.products().get(str(self.record.args.get("sku", "")))

    def chosen(self, product: Product) -> tuple[str, str, int]:
        color = str(self.ui("color", product.colors[0] if product.colors else ""))
        size = str(self.ui("size", product.sizes[0] if product.sizes else ""))
        return color, size, int(self.ui("qty", 1))

    def add_to_cart(self) -> None:
        product = self.product
        if product is None:
            return
        color, size, qty = self.chosen(product)
        self.app.store.add_to_cart(product.sku, color, size, qty, self.now_ms())
        self.ctx.toast(self.t("added_to_cart"))

    def buy_now(self) -> None:
        product = self.product
        if product is None:
            return
        color, size, qty = self.chosen(product)
        self.ctx.start_activity(
            CheckoutActivity.name, {"sku": product.sku, "color": color, "size": size, "qty": qty}
        )

    def toggle_wishlist(self) -> None:
        product = self.product
        if product is None:
            return
        added = self.app.store.toggle_wishlist(product.sku, self.now_ms())
        self.ctx.toast(self.t("wishlist_added" if added else "wishlist_removed"))

    def share(self) -> None:
        product = self.product
        if product is None:
            return
        package, activity = CHAT_SHARE
        self.ctx.start_activity(
            activity,
            {
                "sku": product.sku,
                "title_en": product.title_en,
                "title_zh": product.title_zh,
                "price": product.price,
                "caller": self.ctx.package,
            },
            package=package,
        )

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "product")
        product = self.product
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        bar_h = kit.dp(64)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "toolbar", bg=p.background)
        bar.add(
            icon_button(
                kit,
                Rect(area.left + kit.dp(4), top, area.left + kit.dp(4) + s, top + s),
                "arrow_back",
                self.t("navigate_up"),
                self.ctx.finish,
                rid=RID + "back",
            )
        )
        if product is None:
            root.add(bar)
            return root
        wished = self.app.store.in_wishlist(product.sku)
        actions: tuple[tuple[str, str, Callback, str], ...] = (
            (
                "cart",
                self.t("tab_cart"),
                partial(self.ctx.start_activity, "com.spa.shop.MainActivity", {"tab": "cart"}),
                "open_cart",
            ),
            (
                "heart_filled" if wished else "heart",
                self.t("wishlist_remove" if wished else "wishlist_add"),
                self.toggle_wishlist,
                "wishlist",
            ),
            ("share", self.t("share"), self.share, "share"),
        )
        # The toolbar's icon-only actions carry no content description, as in many shopping apps: a
        # uiautomator dump shows them as NAF nodes known only by id and position (the labels above are
        # what a sighted user reads off the icons, kept for the strings' other uses).
        for i, (glyph, _label, action, rid) in enumerate(actions):
            right = area.right - kit.dp(4) - i * s
            bar.add(
                icon_button(
                    kit,
                    Rect(right - s, top, right, top + s),
                    glyph,
                    "",
                    action,
                    rid=RID + rid,
                    color=p.error if glyph == "heart_filled" else None,
                )
            )
        footer_h = kit.dp(80)
        content = Rect(area.left, area.top + bar_h, area.right, area.bottom - footer_h)
        root.add(
            self.scroll_list(
                content,
                self._details(content, product),
                rid=RID + "product_scroll",
                padding_bottom=kit.dp(16),
            )
        )
        root.add(bar)
        footer = View(
            Rect(area.left, area.bottom - footer_h, area.right, area.bottom),
            class_name=LINEAR,
            bg=p.surface_high,
            rid=RID + "product_footer",
        )
        bw = (area.width - kit.dp(48)) // 2
        by = footer.bounds.top + kit.dp(16)
        footer.add(
            Button(
                Rect(area.left + kit.dp(16), by, area.left + kit.dp(16) + bw, by + kit.dp(48)),
                self.t("add_to_cart"),
                kit.body_large,
                p.on_primary_container,
                p.primary_container,
                on_click=self.add_to_cart,
                rid=RID + "add_to_cart",
            )
        )
        footer.add(
            Button(
                Rect(area.right - kit.dp(16) - bw, by, area.right - kit.dp(16), by + kit.dp(48)),
                self.t("buy_now"),
                kit.body_large,
                p.on_primary,
                p.error,
                on_click=self.buy_now,
                rid=RID + "buy_now",
            )
        )
        root.add(footer)
        return root

    def _details(self, area: Rect, product: Product) -> list[View]:
        kit = self.kit
        p = kit.palette
        views: list[View] = []
        pad = kit.dp(16)
        left, right = area.left + pad, area.right - pad
        y = area.top + kit.dp(4)
        pic = kit.dp(200)
        views.append(
            thumbnail(kit, Rect(left, y, right, y + pic), GLYPHS[product.category], HUES[product.category])
        )
        y += pic + kit.dp(12)
        views.append(
            TextView(
                Rect(left, y, right, y + kit.dp(36)),
                self.price(product.price),
                kit.dp(26),
                p.error,
                rid=RID + "product_price",
                bold=True,
            )
        )
        y += kit.dp(40)
        title_h = TextView.wrapped_height(self.title(product), kit.dp(20), right - left, 3)
        views.append(
            TextView(
                Rect(left, y, right, y + title_h),
                self.title(product),
                kit.dp(20),
                p.on_surface,
                rid=RID + "product_title",
                max_lines=3,
            )
        )
        y += title_h + kit.dp(4)
        views.append(
            TextView(
                Rect(left, y, right, y + kit.dp(24)),
                f"{self.rating(product)} · {product.brand}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "product_rating",
            )
        )
        y += kit.dp(36)
        color, size, qty = self.chosen(product)
        for label, values, current, key, show in (
            ("color", product.colors, color, "color", lambda v: self.t(f"c_{v}")),
            ("size", product.sizes, size, "size", lambda v: v),
        ):
            if not values:
                continue
            views.append(
                TextView(
                    Rect(left, y, right, y + kit.dp(28)),
                    f"{self.t(label)}: {show(current)}",
                    kit.body_large,
                    p.on_surface,
                    rid=RID + f"{key}_label",
                )
            )
            y += kit.dp(32)
            x = left
            for value in values:
                c = chip(
                    kit,
                    x,
                    y,
                    show(value),
                    value == current,
                    partial(self._choose, key, value),
                    rid=RID + f"{key}_{option_rid(value)}",
                )
                if c.bounds.right > right:
                    x, y = left, y + kit.dp(44)
                    c = chip(
                        kit,
                        x,
                        y,
                        show(value),
                        value == current,
                        partial(self._choose, key, value),
                        rid=RID + f"{key}_{option_rid(value)}",
                    )
                views.append(c)
                x = c.bounds.right + kit.dp(8)
            y += kit.dp(48)
        views.append(
            TextView(
                Rect(left, y, left + kit.dp(120), y + kit.dp(40)),
                self.t("quantity"),
                kit.body_large,
                p.on_surface,
            )
        )
        s = kit.dp(40)
        qx = right - 3 * s
        views.append(
            icon_button(
                kit,
                Rect(qx, y, qx + s, y + s),
                "minus",
                self.t("decrease"),
                self.setter("qty", max(1, qty - 1)),
                rid=RID + "qty_minus",
            )
        )
        views.append(
            TextView(
                Rect(qx + s, y, qx + 2 * s, y + s),
                str(qty),
                kit.body_large,
                p.on_surface,
                align="center",
                rid=RID + "qty_value",
            )
        )
        views.append(
            icon_button(
                kit,
                Rect(qx + 2 * s, y, qx + 3 * s, y + s),
                "plus",
                self.t("increase"),
                self.setter("qty", min(99, qty + 1)),
                rid=RID + "qty_plus",
            )
        )
        y += kit.dp(52)
        views.append(
            TextView(Rect(left, y, right, y + kit.dp(32)), self.t("specs"), kit.title_large, p.on_surface)
        )
        y += kit.dp(40)
        for key, value in product.specs:
            views.append(
                TextView(
                    Rect(left, y, left + kit.dp(140), y + kit.dp(28)),
                    self.t(f"s_{key}"),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "spec_name",
                )
            )
            views.append(
                TextView(
                    Rect(left + kit.dp(148), y, right, y + kit.dp(28)),
                    value,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "spec_value",
                )
            )
            y += kit.dp(30)
        return views

    def _choose(self, key: str, value: str) -> None:
        self.set_ui(key, value)


class CheckoutActivity(ShopActivity):
    name = "com.spa.shop.CheckoutActivity"

    def lines(self) -> list[CartLine]:
        args = self.record.args
        if args.get("sku"):
            product = self.app.store.products().get(str(args["sku"]))
            if product is None:
                return []
            return [
                CartLine(
                    0, product, str(args.get("color", "")), str(args.get("size", "")), int(args.get("qty", 1))
                )
            ]
        return self.app.store.cart()

    def place(self) -> None:
        order_no = self.app.store.place_order(
            self.lines(), self.ctx.clock.now(), not self.record.args.get("sku")
        )
        if order_no is None:
            return
        self.ctx.finish()
        self.ctx.start_activity(MAIN, {"tab": "orders"})
        self.ctx.toast(self.t("order_placed"))

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "checkout_root")
        bar, bar_h = kit.app_bar(area, self.t("checkout_title"), self.ctx.finish, package="com.spa.shop")
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        pad = kit.dp(16)
        left, right = area.left + pad, area.right - pad
        rows: list[View] = []
        y = area.top + bar_h
        rows.append(
            TextView(Rect(left, y, right, y + kit.dp(28)), self.t("ship_to"), kit.body_medium, p.primary)
        )
        y += kit.dp(28)
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(48)),
                ADDRESS[self.ctx.content_locale],
                kit.body_large,
                p.on_surface,
                rid=RID + "address",
                max_lines=2,
            )
        )
        y += kit.dp(60)
        rows.append(
            TextView(Rect(left, y, right, y + kit.dp(28)), self.t("items"), kit.body_medium, p.primary)
        )
        y += kit.dp(32)
        lines = self.lines()
        for line in lines:
            extra = " · ".join(x for x in (self.t(f"c_{line.color}") if line.color else "", line.size) if x)
            text = self.title(line.product) + (f" ({extra})" if extra else "")
            rows.append(
                TextView(
                    Rect(left, y, right - kit.dp(120), y + kit.dp(28)),
                    text,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "checkout_item",
                )
            )
            rows.append(
                TextView(
                    Rect(right - kit.dp(120), y, right, y + kit.dp(28)),
                    f"{self.price(line.product.price)} ×{line.quantity}",
                    kit.body_medium,
                    p.on_surface_variant,
                    align="right",
                    rid=RID + "checkout_item_price",
                )
            )
            y += kit.dp(34)
        total = round(sum(line.product.price * line.quantity for line in lines), 2)
        y += kit.dp(8)
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(32)),
                f"{self.t('total')}: {self.price(total)}",
                kit.dp(20),
                p.on_surface,
                align="right",
                rid=RID + "checkout_total",
                bold=True,
            )
        )
        footer_h = kit.dp(80)
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom - footer_h),
                rows,
                rid=RID + "checkout_list",
            )
        )
        by = area.bottom - footer_h + kit.dp(16)
        root.add(
            Button(
                Rect(left, by, right, by + kit.dp(48)),
                self.t("place_order"),
                kit.body_large,
                p.on_primary,
                p.error,
                on_click=self.place,
                rid=RID + "place_order",
                enabled=bool(lines),
            )
        )
        return root


MAIN = "com.spa.shop.MainActivity"
