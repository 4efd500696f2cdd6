"""Checkout (`com.spa.eats.CheckoutActivity`) of one restaurant's cart: delivery address, quantities,
a delivery time (as soon as possible or a half-hour slot), a coupon, a note for the rider, the bill and
Place order."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from spa_bench.phone.apps.contacts.pim import top_bar
from spa_bench.phone.apps.eats.base import ADDRESSES, ORDER, PACKAGE, RID, EatsActivity, dialog_chip
from spa_bench.phone.apps.eats.models import CartLine, Coupon
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View

SLOTS = ("11:00", "11:30", "12:00", "12:30", "13:00", "17:30", "18:00", "18:30", "19:00", "19:30")


def options_text(size: str, spice: str, locale: str) -> str:
    return ("，" if locale == "zh" else ", ").join(x for x in (size, spice) if x)


class CheckoutActivity(EatsActivity):
    name = "com.spa.eats.CheckoutActivity"

    @property
    def key(self) -> str:
        return str(self.record.args.get("restaurant", ""))

    def coupons(self, subtotal: float) -> list[Coupon]:
        today = self.ctx.clock.now().strftime("%Y-%m-%d")
        coupons = self.app.store.coupons(self.content_locale)
        return [c for c in coupons if c.applies(self.key, subtotal, today)]

    def chosen_coupon(self, subtotal: float) -> Coupon | None:
        code = self.ui("coupon")
        return next((c for c in self.coupons(subtotal) if c.code == code), None)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "checkout")
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("checkout"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        r = self.app.store.restaurant(self.key)
        lines = self.app.store.cart(self.key)
        if r is None:
            return root
        footer_h = kit.dp(80)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom - footer_h)
        rows: list[View] = []
        y = list_area.top
        pad = kit.dp(16)
        address = self.app.store.checkout_address(self.content_locale)
        summary = (
            f"{address.address} · {address.recipient} {address.phone}" if address else self.t("no_address")
        )
        row = kit.list_item(
            list_area,
            y,
            address.label if address else self.t("address"),
            summary,
            icon="map_pin",
            hue="orange",
            rid=RID + "checkout_address",
            on_click=partial(self.ctx.start_activity, ADDRESSES, {"pick": "1"}),
        )
        rows.append(row)
        y = row.bounds.bottom + kit.dp(8)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(32)),
                r.name,
                kit.title_large,
                p.on_surface,
                rid=RID + "checkout_restaurant",
            )
        )
        y += kit.dp(36)
        for line in lines:
            view = self._line(list_area, y, line)
            rows.append(view)
            y = view.bounds.bottom
        subtotal = round(sum(x.unit_price * x.quantity for x in lines), 2)
        when = self.deliver_at()
        row = kit.list_item(
            list_area,
            y + kit.dp(8),
            self.t("delivery_time"),
            self.slot_label(when) if when else self.t("asap", n=r.eta_minutes),
            icon="moped",
            hue="blue",
            rid=RID + "delivery_time_row",
            on_click=self.setter("dialog", "time"),
        )
        rows.append(row)
        y = row.bounds.bottom
        available = self.coupons(subtotal)
        coupon = self.chosen_coupon(subtotal)
        coupon_text = (
            coupon.title
            if coupon
            else (self.t("coupons_available", n=len(available)) if available else self.t("no_coupon"))
        )
        row = kit.list_item(
            list_area,
            y + kit.dp(8),
            self.t("coupon"),
            coupon_text,
            icon="ticket",
            hue="red",
            rid=RID + "coupon_row",
            on_click=self.setter("dialog", "coupon"),
        )
        rows.append(row)
        y = row.bounds.bottom + kit.dp(8)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                self.t("note"),
                kit.body_medium,
                p.on_surface_variant,
            )
        )
        y += kit.dp(26)
        rows.append(
            self.text_field(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(52)),
                "note",
                self.t("note_hint"),
                rid=RID + "note",
            )
        )
        y += kit.dp(64)
        discount = coupon.discount if coupon else 0.0
        total = round(max(0.0, subtotal + r.delivery_fee - discount), 2)
        for key, value, rid in (
            ("subtotal", self.money(subtotal), "subtotal"),
            ("fee", self.money(r.delivery_fee), "delivery_fee"),
            ("discount", "-" + self.money(discount), "discount"),
        ):
            rows += self.amount_row(area, pad, y, key, value, rid)
            y += kit.dp(28)
        root.add(self.scroll_list(list_area, rows, rid=RID + "checkout_list", padding_bottom=kit.dp(8)))
        footer = View(
            Rect(area.left, area.bottom - footer_h, area.right, area.bottom),
            class_name=LINEAR,
            bg=p.surface_high,
            rid=RID + "checkout_footer",
        )
        footer.add(
            TextView(
                Rect(area.left + pad, footer.bounds.top, area.right - kit.dp(180), footer.bounds.bottom),
                f"{self.t('total')} {self.money(total)}",
                kit.dp(18),
                p.on_surface,
                rid=RID + "total",
                bold=True,
            )
        )
        by = footer.bounds.top + kit.dp(16)
        footer.add(
            Button(
                Rect(area.right - kit.dp(172), by, area.right - pad, by + kit.dp(48)),
                self.t("place_order"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self.place,
                rid=RID + "place_order",
                enabled=bool(lines),
            )
        )
        root.add(footer)
        if self.ui("dialog") == "coupon":
            root.add(self._coupon_dialog(area, available))
        elif self.ui("dialog") == "time":
            root.add(self._time_dialog(area, r.eta_minutes))
        return root

    # -- delivery time: as soon as possible, or a half-hour slot today (an hour ahead at least) or tomorrow
    def slots(self) -> list[tuple[str, datetime]]:
        now = self.ctx.clock.now()
        found = []
        for day, offset in (("today", 0), ("tomorrow", 1)):
            date = (now + timedelta(days=offset)).date()
            for slot in SLOTS:
                hour, minute = map(int, slot.split(":"))
                moment = datetime(date.year, date.month, date.day, hour, minute)
                if moment >= now + timedelta(hours=1):
                    found.append((f"slot_{day}_{hour:02d}{minute:02d}", moment))
        return found

    def deliver_at(self) -> datetime | None:
        chosen = self.ui("deliver_at")
        return next((m for rid, m in self.slots() if rid == chosen), None)

    def slot_label(self, moment: datetime) -> str:
        day = "today" if moment.date() == self.ctx.clock.now().date() else "tomorrow"
        return self.t(f"slot_{day}", t=moment.strftime("%H:%M"))

    def _time_dialog(self, area: Rect, minutes: int) -> View:
        """Today / Tomorrow tabs over that day's slots (today: as soon as possible first)."""
        kit = self.kit
        width = area.width - kit.dp(96)
        row_h = kit.dp(44)
        day = str(self.ui("slot_day", "today"))
        body: list[View] = []
        x = 0
        for key in ("today", "tomorrow"):
            c = dialog_chip(
                kit,
                x,
                0,
                self.t(key),
                key == day,
                partial(self.set_ui, "slot_day", key),
                rid=RID + f"day_{key}",
            )
            body.append(c)
            x = c.bounds.right + kit.dp(8)
        options: list[tuple[str, str, str | None]] = []
        if day == "today":
            options.append(("slot_asap", self.t("asap", n=minutes), None))
        options += [
            (rid, m.strftime("%H:%M"), rid) for rid, m in self.slots() if rid.startswith(f"slot_{day}_")
        ]
        top = kit.dp(48)
        for i, (rid, text, value) in enumerate(options):
            body.append(
                TextView(
                    Rect(0, top + i * row_h, width, top + (i + 1) * row_h),
                    text,
                    kit.body_large,
                    kit.palette.on_surface,
                    rid=RID + rid,
                    on_click=partial(self._deliver, value),
                )
            )
        return kit.dialog(
            area,
            self.t("delivery_time"),
            body,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=top + row_h * max(1, len(options)),
        )

    def _deliver(self, value: str | None) -> None:
        self.record.ui.pop("dialog", None)
        self.set_ui("deliver_at", value)

    def _line(self, area: Rect, top: int, line: CartLine) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        row = View(Rect(area.left, top, area.right, top + h), class_name=LINEAR, rid=RID + "cart_line")
        left, right = area.left + kit.dp(16), area.right - kit.dp(140)
        row.add(
            TextView(
                Rect(left, top + kit.dp(6), right, top + kit.dp(32)),
                line.dish.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "line_name",
            )
        )
        extra = options_text(line.size, line.spice, self.content_locale)
        row.add(
            TextView(
                Rect(left, top + kit.dp(32), right, top + kit.dp(54)),
                (extra + " · " if extra else "") + self.money(line.unit_price),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "line_options",
            )
        )
        s = kit.dp(40)
        x = area.right - kit.dp(16) - 3 * s
        cy = top + kit.dp(14)
        row.add(
            icon_button(
                kit,
                Rect(x, cy, x + s, cy + s),
                "minus",
                self.t("decrease"),
                partial(self._qty, line, line.quantity - 1),
                rid=RID + "line_minus",
            )
        )
        row.add(
            TextView(
                Rect(x + s, cy, x + 2 * s, cy + s),
                str(line.quantity),
                kit.body_large,
                p.on_surface,
                align="center",
                rid=RID + "line_qty",
            )
        )
        row.add(
            icon_button(
                kit,
                Rect(x + 2 * s, cy, x + 3 * s, cy + s),
                "plus",
                self.t("increase"),
                partial(self._qty, line, line.quantity + 1),
                rid=RID + "line_plus",
            )
        )
        return row

    def _qty(self, line: CartLine, quantity: int) -> None:
        self.app.store.set_quantity(line.id, quantity)
        self.ctx.invalidate()

    def _coupon_dialog(self, area: Rect, available: list[Coupon]) -> View:
        kit = self.kit
        width = area.width - kit.dp(96)
        row_h = kit.dp(48)
        options: list[tuple[str, str, str | None]] = [("coupon_none", self.t("no_coupon"), None)]
        options += [(f"coupon_{c.code}", c.title, c.code) for c in available]
        body: list[View] = [
            TextView(
                Rect(0, i * row_h, width, (i + 1) * row_h),
                text,
                kit.body_large,
                kit.palette.on_surface,
                rid=RID + rid,
                on_click=partial(self._use, code),
            )
            for i, (rid, text, code) in enumerate(options)
        ]
        return kit.dialog(
            area,
            self.t("coupon"),
            body,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=row_h * len(options),
        )

    def _use(self, code: str | None) -> None:
        self.record.ui.pop("dialog", None)
        self.set_ui("coupon", code)

    def place(self) -> None:
        r = self.app.store.restaurant(self.key)
        lines = self.app.store.cart(self.key)
        address = self.app.store.checkout_address(self.content_locale)
        if r is None or not lines:
            return
        if address is None:
            self.ctx.toast(self.t("no_address"))
            return
        subtotal = round(sum(x.unit_price * x.quantity for x in lines), 2)
        if subtotal < r.min_order:
            self.ctx.toast(self.t("below_min", amount=self.money(r.min_order)))
            return
        note = str(self.ui("text:note", "")).strip()
        order_id = self.app.store.place_order(
            self.content_locale,
            r,
            lines,
            address,
            self.chosen_coupon(subtotal),
            note,
            self.ctx.clock.now(),
            self.deliver_at(),
        )
        self.ctx.toast(self.t("order_placed"))
        self.ctx.finish()
        self.ctx.start_activity(ORDER, {"order": order_id})
