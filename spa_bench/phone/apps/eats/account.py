"""Delivery addresses (`AddressesActivity`: choose one for the next order, or edit; `AddressEditActivity`:
add, edit, set as default, delete) and the user's coupons (`CouponsActivity`)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.contacts.pim import form, icon_button, prefill, top_bar
from spa_bench.phone.apps.eats.base import ADDRESS_EDIT, PACKAGE, RID, EatsActivity
from spa_bench.phone.apps.eats.models import Address
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View

FIELDS = (
    ("label", "address_label"),
    ("recipient", "address_recipient"),
    ("phone", "address_phone"),
    ("street", "address_street"),
)


class AddressesActivity(EatsActivity):
    name = "com.spa.eats.AddressesActivity"

    @property
    def picking(self) -> bool:
        return bool(self.record.args.get("pick"))

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "addresses")
        title = self.t("choose_address") if self.picking else self.t("addresses")
        bar, bar_h = top_bar(
            kit, area, title, package=PACKAGE, on_back=self.ctx.finish, back_desc=self.t("navigate_up")
        )
        root.add(bar)
        chosen = self.app.store.checkout_address(self.content_locale)
        rows: list[View] = []
        y = area.top + bar_h
        for a in self.app.store.addresses(self.content_locale):
            row = self._row(area, y, a, self.picking and chosen is not None and chosen.id == a.id)
            rows.append(row)
            y = row.bounds.bottom
        y += kit.dp(12)
        rows.append(
            Button(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(48)),
                self.t("add_address"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=partial(self.ctx.start_activity, ADDRESS_EDIT, {}),
                rid=RID + "add_address",
            )
        )
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom), rows, rid=RID + "address_list"
            )
        )
        return root

    def _row(self, area: Rect, top: int, a: Address, chosen: bool) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(88)
        edit = partial(self.ctx.start_activity, ADDRESS_EDIT, {"id": a.id})
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "address_item",
            on_click=partial(self._pick, a) if self.picking else edit,
            selected=chosen,
            bg=p.primary_container if chosen else None,
        )
        left, right = area.left + kit.dp(16), area.right - kit.dp(72)
        tag = f"  [{self.t('default')}]" if a.is_default else ""
        row.add(
            TextView(
                Rect(left, top + kit.dp(8), right, top + kit.dp(34)),
                a.label + tag,
                kit.body_large,
                p.on_surface,
                rid=RID + "address_label_text",
                bold=True,
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right, top + kit.dp(58)),
                a.address,
                kit.body_medium,
                p.on_surface,
                rid=RID + "address_text",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(58), right, top + kit.dp(82)),
                f"{a.recipient} {a.phone}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "address_contact",
            )
        )
        b = kit.dp(48)
        row.add(
            icon_button(
                kit,
                Rect(
                    area.right - kit.dp(8) - b,
                    top + h // 2 - b // 2,
                    area.right - kit.dp(8),
                    top + h // 2 + b // 2,
                ),
                "pencil",
                f"{self.t('edit_address')} {a.label}",
                edit,
                rid=RID + "edit_address",
            )
        )
        row.add(View(Rect(left, top + h - 1, area.right - kit.dp(16), top + h), bg=p.divider))
        return row

    def _pick(self, a: Address) -> None:
        self.app.store.set_pref("checkout_address", str(a.id))
        self.ctx.finish()


class AddressEditActivity(EatsActivity):
    name = "com.spa.eats.AddressEditActivity"

    @property
    def address_id(self) -> int | None:
        value = self.record.args.get("id")
        return int(value) if value not in (None, "") else None

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        existing = self.app.store.address(self.address_id) if self.address_id is not None else None
        if existing is not None and not self.ui("loaded"):
            self.record.ui["default"] = int(existing.is_default)
            prefill(
                self,
                {
                    "label": existing.label,
                    "recipient": existing.recipient,
                    "phone": existing.phone,
                    "street": existing.address,
                },
            )
        root = View(area, class_name=LINEAR, rid=RID + "address_edit")
        actions = [("delete", self.t("delete"), self._delete, "delete_address")] if existing else []
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("edit_address" if existing else "add_address"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
            actions=actions,
        )
        root.add(bar)
        y = area.top + bar_h + kit.dp(8)
        specs = [(key, self.t(key), rid) for key, rid in FIELDS]
        views, y = form(self, area, y, specs, PACKAGE)
        root.extend(views)
        root.add(
            kit.list_item(
                area,
                y + kit.dp(8),
                self.t("set_default"),
                switch=bool(self.ui("default")),
                rid=RID + "address_default",
                on_click=self.setter("default", None if self.ui("default") else 1),
            )
        )
        y += kit.dp(80)
        root.add(
            Button(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(48)),
                self.t("save"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self._save,
                rid=RID + "save_address",
            )
        )
        return root

    def _value(self, key: str) -> str:
        return str(self.ui(f"text:{key}", "")).strip()

    def _save(self) -> None:
        if not self._value("street") or not self._value("recipient"):
            self.ctx.toast(self.t("fill_all"))
            return
        self.app.store.save_address(
            self.content_locale,
            self.address_id,
            self._value("label"),
            self._value("recipient"),
            self._value("phone"),
            self._value("street"),
            bool(self.ui("default")),
        )
        self.ctx.toast(self.t("saved"))
        self.ctx.finish()

    def _delete(self) -> None:
        if self.address_id is not None:
            self.app.store.delete_address(self.address_id)
        self.ctx.finish()


class CouponsActivity(EatsActivity):
    name = "com.spa.eats.CouponsActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "coupons")
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("coupons"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        today = self.ctx.clock.now().strftime("%Y-%m-%d")
        rows: list[View] = []
        y = area.top + bar_h
        for c in self.app.store.coupons(self.content_locale):
            h = kit.dp(104)
            rect = Rect(area.left + kit.dp(12), y + kit.dp(6), area.right - kit.dp(12), y + h)
            dead = c.used or c.expires < today
            card = View(rect, class_name=LINEAR, rid=RID + "coupon_item", bg=p.surface, radius=kit.dp(12))
            card.add(
                TextView(
                    Rect(
                        rect.left + kit.dp(16),
                        rect.top + kit.dp(8),
                        rect.left + kit.dp(120),
                        rect.bottom - kit.dp(8),
                    ),
                    self.money(c.discount),
                    kit.dp(26),
                    p.outline if dead else p.error,
                    rid=RID + "coupon_amount",
                    bold=True,
                )
            )
            left = rect.left + kit.dp(128)
            card.add(
                TextView(
                    Rect(left, rect.top + kit.dp(8), rect.right - kit.dp(8), rect.top + kit.dp(34)),
                    c.title,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "coupon_title",
                )
            )
            restaurant = self.app.store.restaurant(c.restaurant) if c.restaurant else None
            detail = self.t("coupon_min", amount=self.money(c.min_spend))
            if restaurant is not None:
                detail += " · " + self.t("only_at", name=restaurant.name)
            card.add(
                TextView(
                    Rect(left, rect.top + kit.dp(36), rect.right - kit.dp(8), rect.top + kit.dp(60)),
                    detail,
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "coupon_detail",
                )
            )
            state = (
                self.t("coupon_used")
                if c.used
                else self.t("coupon_expired")
                if c.expires < today
                else self.t("coupon_expires", date=c.expires)
            )
            card.add(
                TextView(
                    Rect(left, rect.top + kit.dp(62), rect.right - kit.dp(8), rect.top + kit.dp(86)),
                    state,
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "coupon_state",
                )
            )
            card.add(
                TextView(
                    Rect(left, rect.top + kit.dp(62), rect.right - kit.dp(16), rect.top + kit.dp(86)),
                    c.code,
                    kit.label,
                    p.primary,
                    align="right",
                    rid=RID + "coupon_code",
                )
            )
            rows.append(View(Rect(area.left, y, area.right, y + h), class_name=LINEAR, children=[card]))
            y += h
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom), rows, rid=RID + "coupon_list"
            )
        )
        return root
