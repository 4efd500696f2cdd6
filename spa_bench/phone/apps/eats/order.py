"""An order's page (`com.spa.eats.OrderActivity`): its progress (placed -> preparing -> on the way ->
delivered, by the phone's clock), arrival or scheduled time, items, bill, address and note; cancel while
the restaurant has not accepted it, and reorder."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from spa_bench.phone.apps.contacts.pim import top_bar
from spa_bench.phone.apps.eats.base import PACKAGE, RESTAURANT, RID, EatsActivity
from spa_bench.phone.apps.eats.checkout import options_text
from spa_bench.phone.apps.eats.models import Order
from spa_bench.phone.apps.eats.store import STATUSES
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View


class OrderActivity(EatsActivity):
    name = "com.spa.eats.OrderActivity"

    def order(self) -> Order | None:
        order_id = int(self.record.args.get("order", 0))
        orders = self.app.store.orders(self.content_locale, self.now_ms())
        return next((o for o in orders if o.id == order_id), None)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "order")
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("order_details"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        order = self.order()
        if order is None:
            return root
        r = self.app.store.restaurant(order.restaurant)
        rows: list[View] = []
        pad = kit.dp(16)
        y = area.top + bar_h
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(40)),
                self.t(f"status_{order.status}"),
                kit.dp(26),
                p.primary,
                rid=RID + "order_status",
                bold=True,
            )
        )
        y += kit.dp(44)
        eta = datetime.fromtimestamp(order.eta_at / 1000, UTC)
        if order.status in STATUSES[:3] or order.status == "delivered":
            if order.status == "delivered":
                when = self.t("delivered_at", t=eta.strftime("%Y-%m-%d %H:%M"))
            elif order.scheduled:
                when = self.t("scheduled_for", t=eta.strftime("%Y-%m-%d %H:%M"))
            else:
                when = self.t("eta", t=eta.strftime("%H:%M"))
            rows.append(
                TextView(
                    Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                    when,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "order_eta",
                )
            )
            y += kit.dp(28)
        if order.status in STATUSES:
            step_w = (area.width - 2 * pad) // len(STATUSES)
            reached = STATUSES.index(order.status)
            for i, status in enumerate(STATUSES):
                left = area.left + pad + i * step_w
                color = p.primary if i <= reached else p.outline
                rows.append(
                    View(
                        Rect(left + kit.dp(2), y + kit.dp(4), left + step_w - kit.dp(2), y + kit.dp(10)),
                        bg=color,
                        radius=kit.dp(3),
                    )
                )
                rows.append(
                    TextView(
                        Rect(left, y + kit.dp(12), left + step_w, y + kit.dp(36)),
                        self.t(f"status_{status}"),
                        kit.label,
                        color,
                        align="center",
                        rid=RID + "order_step",
                    )
                )
            y += kit.dp(44)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(24)),
                self.t("order_no", no=order.order_no),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "order_no",
            )
        )
        y += kit.dp(32)
        rows.append(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + kit.dp(32)),
                r.name if r else order.restaurant,
                kit.title_large,
                p.on_surface,
                rid=RID + "order_restaurant",
            )
        )
        y += kit.dp(36)
        for item in order.items:
            extra = options_text(item.size, item.spice, self.content_locale)
            name = item.name + (
                f"（{extra}）" if self.content_locale == "zh" and extra else f" ({extra})" if extra else ""
            )
            rows.append(
                TextView(
                    Rect(area.left + pad, y, area.right - kit.dp(120), y + kit.dp(28)),
                    f"{name} ×{item.quantity}",
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "order_line",
                )
            )
            rows.append(
                TextView(
                    Rect(area.right - kit.dp(120), y, area.right - pad, y + kit.dp(28)),
                    self.money(item.unit_price * item.quantity),
                    kit.body_medium,
                    p.on_surface,
                    align="right",
                )
            )
            y += kit.dp(28)
        y += kit.dp(8)
        for key, value, rid in (
            ("fee", self.money(order.delivery_fee), "order_fee"),
            ("discount", "-" + self.money(order.discount), "order_discount"),
            ("total", self.money(order.total), "order_total"),
        ):
            rows += self.amount_row(area, pad, y, key, value, rid, bold=key == "total")
            y += kit.dp(28)
        y += kit.dp(8)
        for key, value, rid in (
            ("address", order.address, "order_address"),
            ("note", order.note, "order_note"),
        ):
            if not value:
                continue
            rows.append(
                TextView(
                    Rect(area.left + pad, y, area.right - pad, y + kit.dp(22)),
                    self.t(key),
                    kit.label,
                    p.on_surface_variant,
                )
            )
            rows.append(
                TextView(
                    Rect(area.left + pad, y + kit.dp(22), area.right - pad, y + kit.dp(48)),
                    value,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + rid,
                )
            )
            y += kit.dp(54)
        y += kit.dp(8)
        bw = (area.width - 3 * pad) // 2
        if order.status == "placed":
            rows.append(
                Button(
                    Rect(area.left + pad, y, area.left + pad + bw, y + kit.dp(48)),
                    self.t("cancel_order"),
                    kit.body_medium,
                    p.error,
                    None,
                    outline=p.error,
                    on_click=self.setter("dialog", "cancel"),
                    rid=RID + "cancel_order",
                )
            )
        rows.append(
            Button(
                Rect(area.right - pad - bw, y, area.right - pad, y + kit.dp(48)),
                self.t("reorder"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=partial(self._reorder, order),
                rid=RID + "reorder",
            )
        )
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom),
                rows,
                rid=RID + "order_list",
                padding_bottom=kit.dp(16),
            )
        )
        if self.ui("dialog") == "cancel":
            root.add(
                kit.dialog(
                    area,
                    self.t("cancel_q"),
                    self.t("cancel_body"),
                    [
                        (self.t("keep"), self.setter("dialog", None)),
                        (self.t("cancel_order"), partial(self._cancel, order)),
                    ],
                    self.setter("dialog", None),
                )
            )
        return root

    def _cancel(self, order: Order) -> None:
        self.record.ui.pop("dialog", None)
        if self.app.store.cancel(order.id):
            self.ctx.toast(self.t("cancelled"))
        self.ctx.invalidate()

    def _reorder(self, order: Order) -> None:
        self.app.store.reorder(order, self.now_ms())
        self.ctx.toast(self.t("reordered"))
        self.ctx.start_activity(RESTAURANT, {"restaurant": order.restaurant})
