"""A restaurant's page (`com.spa.eats.RestaurantActivity`): its facts, the menu by section, a dish's
options sheet (size, spice level, quantity), the cart bar of this restaurant, and Share (a text share
to Chat's share target, as ACTION_SEND text/plain would offer: `kind` text)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.contacts.pim import top_bar
from spa_bench.phone.apps.eats.base import CHECKOUT, PACKAGE, RID, EatsActivity, dialog_chip
from spa_bench.phone.apps.eats.models import Dish, Restaurant
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Button, Rect, TextView, View

CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")


class RestaurantActivity(EatsActivity):
    name = "com.spa.eats.RestaurantActivity"

    @property
    def restaurant(self) -> Restaurant | None:
        return self.app.store.restaurant(str(self.record.args.get("restaurant", "")))

    def share_text(self, r: Restaurant) -> str:
        # a message made of the restaurant's content: all of it in the content's language
        if self.content_locale == "zh":
            return f"【外卖】{r.name}（{self.cuisine(r.cuisine, 'zh')}，★{r.rating:.1f}）{r.address}"
        return f"{r.name} ({self.cuisine(r.cuisine, 'en')}, ★ {r.rating:.1f}) on Eats - {r.address}"

    def share(self) -> None:
        r = self.restaurant
        if r is None:
            return
        package, activity = CHAT_SHARE
        text = self.share_text(r)
        # a plain-text share (ACTION_SEND text/plain): Chat sends it as a text message
        extras = {
            "title_en": text,
            "title_zh": text,
            "kind": "text",
            "glyph": "bowl",
            "caller": self.ctx.package,
        }
        self.ctx.start_activity(activity, extras, package=package)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "restaurant")
        r = self.restaurant
        bar, bar_h = top_bar(
            kit,
            area,
            r.name if r else "",
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
            actions=[("share", self.t("share"), self.share, "share")],
        )
        root.add(bar)
        if r is None:
            return root
        lines = self.app.store.cart(r.key)
        footer_h = kit.dp(80) if lines else 0
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom - footer_h)
        rows: list[View] = []
        y = list_area.top
        pad = kit.dp(16)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(36)),
                r.name,
                kit.dp(24),
                p.on_surface,
                rid=RID + "restaurant_title",
                bold=True,
            )
        )
        y += kit.dp(38)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                f"{self.facts(r)} · {r.reviews:,}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "restaurant_facts",
            )
        )
        y += kit.dp(26)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                f"{self.delivery(r)} · {self.t('min_order', amount=self.money(r.min_order))}",
                kit.body_medium,
                p.primary,
                rid=RID + "restaurant_delivery",
            )
        )
        y += kit.dp(26)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                r.address,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "restaurant_address",
            )
        )
        y += kit.dp(36)
        section = ""
        for dish in self.app.store.menu(r.key):
            if dish.section != section:
                section = dish.section
                rows.append(
                    TextView(
                        Rect(area.left + pad, y, area.right - pad, y + kit.dp(36)),
                        section,
                        kit.title_large,
                        p.on_surface,
                        rid=RID + "menu_section",
                    )
                )
                y += kit.dp(40)
            row = self._dish_row(list_area, y, dish)
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=RID + "menu_list", padding_bottom=kit.dp(8)))
        if lines:
            root.add(
                self._cart_bar(
                    area,
                    footer_h,
                    sum(x.quantity for x in lines),
                    sum(x.unit_price * x.quantity for x in lines),
                    r,
                )
            )
        dish_key = self.ui("dish")
        chosen = self.app.store.dishes().get(str(dish_key)) if dish_key else None
        if chosen is not None:
            root.add(self._options(area, chosen))
        return root

    def _dish_row(self, area: Rect, top: int, dish: Dish) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(96)
        row = View(Rect(area.left, top, area.right, top + h), class_name=LINEAR, rid=RID + "dish_item")
        left, right = area.left + kit.dp(16), area.right - kit.dp(120)
        name = dish.name + (f"  · {self.t('popular')}" if dish.popular else "")
        row.add(
            TextView(
                Rect(left, top + kit.dp(8), right, top + kit.dp(34)),
                name,
                kit.body_large,
                p.on_surface,
                rid=RID + "dish_name",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right, top + kit.dp(58)),
                dish.description,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "dish_description",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(60), right, top + kit.dp(88)),
                self.money(dish.price),
                kit.dp(17),
                p.error,
                rid=RID + "dish_price",
                bold=True,
            )
        )
        has_options = bool(dish.sizes or dish.spices)
        bw = kit.dp(96)
        button = Button(
            Rect(area.right - kit.dp(16) - bw, top + kit.dp(48), area.right - kit.dp(16), top + kit.dp(84)),
            self.t("options") if has_options else self.t("add"),
            kit.body_medium,
            p.on_primary,
            p.primary,
            on_click=partial(self._add, dish),
            rid=RID + ("choose_options" if has_options else "add_dish"),
        )
        button.desc = f"{button.text} {dish.name}"  # which dish: the button's text is the same on every row
        row.add(button)
        row.add(View(Rect(left, top + h - 1, area.right - kit.dp(16), top + h), bg=p.divider))
        return row

    def _add(self, dish: Dish) -> None:
        if dish.sizes or dish.spices:
            for key in ("opt_size", "opt_spice", "opt_qty"):
                self.record.ui.pop(key, None)
            self.set_ui("dish", dish.key)
            return
        self.app.store.add_to_cart(dish, "", "", 1, self.now_ms())
        self.ctx.toast(self.t("added"))

    def _confirm(self, dish: Dish) -> None:
        size = str(self.ui("opt_size", dish.sizes[0][0] if dish.sizes else ""))
        spice = str(self.ui("opt_spice", dish.spices[0] if dish.spices else ""))
        self.app.store.add_to_cart(dish, size, spice, int(self.ui("opt_qty", 1)), self.now_ms())
        self.set_ui("dish", None)
        self.ctx.toast(self.t("added"))

    def _options(self, area: Rect, dish: Dish) -> View:
        kit = self.kit
        p = kit.palette
        width = area.width - kit.dp(96)
        body: list[View] = []
        y = 0
        for key, label, choices in (
            (
                "size",
                self.t("size"),
                [(s, f"{s} +{self.money(extra)}" if extra else s) for s, extra in dish.sizes],
            ),
            ("spice", self.t("spice"), [(s, s) for s in dish.spices]),
        ):
            if not choices:
                continue
            body.append(
                TextView(
                    Rect(0, y, width, y + kit.dp(28)),
                    label,
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + f"{key}_label",
                )
            )
            y += kit.dp(32)
            x = 0
            current = str(self.ui(f"opt_{key}", choices[0][0]))
            for value, text in choices:
                c = dialog_chip(
                    kit,
                    x,
                    y,
                    text,
                    value == current,
                    partial(self.set_ui, f"opt_{key}", value),
                    rid=RID + f"{key}_option",
                )
                if c.bounds.right > width:
                    x, y = 0, y + kit.dp(44)
                    c = dialog_chip(
                        kit,
                        x,
                        y,
                        text,
                        value == current,
                        partial(self.set_ui, f"opt_{key}", value),
                        rid=RID + f"{key}_option",
                    )
                body.append(c)
                x = c.bounds.right + kit.dp(8)
            y += kit.dp(48)
        qty = int(self.ui("opt_qty", 1))
        body.append(
            TextView(
                Rect(0, y, kit.dp(120), y + kit.dp(40)),
                self.t("quantity"),
                kit.body_medium,
                p.on_surface_variant,
            )
        )
        s = kit.dp(40)
        body.append(
            icon_button(
                kit,
                Rect(kit.dp(120), y, kit.dp(120) + s, y + s),
                "minus",
                self.t("decrease"),
                partial(self.set_ui, "opt_qty", max(1, qty - 1)),
                rid=RID + "qty_minus",
            )
        )
        body.append(
            TextView(
                Rect(kit.dp(120) + s, y, kit.dp(120) + 2 * s, y + s),
                str(qty),
                kit.body_large,
                p.on_surface,
                align="center",
                rid=RID + "qty_value",
            )
        )
        body.append(
            icon_button(
                kit,
                Rect(kit.dp(120) + 2 * s, y, kit.dp(120) + 3 * s, y + s),
                "plus",
                self.t("increase"),
                partial(self.set_ui, "opt_qty", min(99, qty + 1)),
                rid=RID + "qty_plus",
            )
        )
        y += s
        price = self.money(
            dish.unit_price(str(self.ui("opt_size", dish.sizes[0][0] if dish.sizes else ""))) * qty
        )
        return kit.dialog(
            area,
            f"{dish.name} · {price}",
            body,
            [
                (self.t("cancel"), self.setter("dish", None)),
                (self.t("add_to_cart"), partial(self._confirm, dish)),
            ],
            self.setter("dish", None),
            body_height=y,
        )

    def _cart_bar(self, area: Rect, h: int, count: int, total: float, r: Restaurant) -> View:
        kit = self.kit
        p = kit.palette
        bar = View(
            Rect(area.left, area.bottom - h, area.right, area.bottom),
            class_name=LINEAR,
            bg=p.surface_high,
            rid=RID + "cart_bar",
        )
        bar.add(
            TextView(
                Rect(area.left + kit.dp(16), bar.bounds.top, area.right - kit.dp(172), bar.bounds.bottom),
                self.t("cart_bar", n=count, total=self.money(total)),
                kit.dp(17),
                p.on_surface,
                rid=RID + "cart_summary",
                bold=True,
            )
        )
        by = bar.bounds.top + kit.dp(16)
        bar.add(
            Button(
                Rect(area.right - kit.dp(156), by, area.right - kit.dp(16), by + kit.dp(48)),
                self.t("go_checkout"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=partial(self.ctx.start_activity, CHECKOUT, {"restaurant": r.key}),
                rid=RID + "go_checkout",
            )
        )
        return bar
