"""A place's page (`com.spa.maps.PlaceActivity`, extra `place`: its key): rating, address, hours and phone,
with Directions, Save (to a list, or a new one) and Share (to Chat or Messages)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.maps.main import DIRECTIONS, PLACE, RID, MapsActivity
from spa_bench.phone.apps.maps.seed import Place
from spa_bench.phone.apps.sharing import TextTarget, share_sheet, share_text
from spa_bench.phone.ui import FRAME, Button, Rect, TextView, View


class PlaceActivity(MapsActivity):
    name = PLACE

    @property
    def place(self) -> Place | None:
        return self.app.store.by_key.get(str(self.record.args.get("place", "")))

    def share_to(self, target: TextTarget) -> None:
        place = self.place
        if place is None:
            return
        self.set_ui("dialog", None)
        # one line: the Messages compose box is a single-line field
        share_text(self, target, f"{place.name}, {place.address}", place.name, "pin", "red")

    def toggle(self, list_id: int) -> None:
        place = self.place
        if place is not None:
            self.app.store.toggle_saved(list_id, place.key, self.now_ms())
            self.ctx.invalidate()

    def create_list(self) -> None:
        place = self.place
        name = str(self.ui("text:list_name", "")).strip()
        if place is None or not name:
            return
        list_id = self.app.store.new_list(name, self.now_ms())
        self.app.store.toggle_saved(list_id, place.key, self.now_ms())
        self.record.ui.pop("text:list_name", None)
        self.record.ui.pop("focus", None)
        self.ctx.toast(self.t("added_to", name=name))
        self.set_ui("dialog", None)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "place")
        place = self.place
        bar, bar_h = kit.app_bar(area, place.name if place else "", self.ctx.finish, package="com.spa.maps")
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if place is None:
            return root
        rows: list[View] = []
        left, right = area.left + kit.dp(16), area.right - kit.dp(16)
        y = area.top + bar_h
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(36)),
                place.name,
                kit.dp(24),
                p.on_surface,
                rid=RID + "title",
                bold=True,
            )
        )
        y += kit.dp(40)
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(24)),
                f"{place.rating:.1f} ★ {self.t('reviews', n=f'{place.reviews:,}')}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "rating",
            )
        )
        y += kit.dp(26)
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(24)),
                place.category,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "category",
            )
        )
        y += kit.dp(36)
        saved = self.app.store.is_saved(place.key)
        actions = (
            (
                "directions",
                self.t("directions"),
                partial(self.ctx.start_activity, DIRECTIONS, {"destination": place.key}),
                True,
            ),
            ("save", self.t("saved_state" if saved else "save"), self.setter("dialog", "save"), False),
            ("share", self.t("share"), self.setter("dialog", "share"), False),
        )
        x = left
        for rid, label, action, filled in actions:
            w = kit.dp(112)
            rows.append(
                Button(
                    Rect(x, y, x + w, y + kit.dp(40)),
                    label,
                    kit.body_medium,
                    p.on_primary if filled else p.primary,
                    p.primary if filled else p.primary_container,
                    on_click=action,
                    rid=RID + rid,
                )
            )
            x += w + kit.dp(8)
        y += kit.dp(56)
        for key, value, icon in (
            ("address", place.address, "pin"),
            ("hours", place.hours, "clock"),
            ("phone", place.phone, "call"),
        ):
            row = kit.list_item(area, y, value, self.t(key), icon=icon, hue="blue", rid=RID + key)
            rows.append(row)
            y = row.bounds.bottom
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        root.add(self.scroll_list(body, rows, rid=RID + "details"))
        if self.ui("dialog") == "save":
            root.add(self._save_dialog(area, place))
        elif self.ui("dialog") == "share":
            root.add(self._share_dialog(area))
        return root

    def _save_dialog(self, area: Rect, place: Place) -> View:
        kit = self.kit
        width = area.width - kit.dp(96)
        rows: list[View] = []
        y = 0
        for lst in self.app.store.lists():
            inside = place.key in lst.place_keys
            row = kit.list_item(
                Rect(0, 0, width, 0),
                y,
                self.list_name(lst),
                icon="star" if inside else "star_outline",
                hue="yellow" if inside else "blue",
                on_click=partial(self.toggle, lst.id),
                rid=RID + f"list_{lst.id}",
                selected=inside,
            )
            row.checkable, row.checked = True, inside
            rows.append(row)
            y = row.bounds.bottom
        rows.append(
            self.text_field(
                Rect(0, y + kit.dp(8), width - kit.dp(96), y + kit.dp(60)),
                "list_name",
                self.t("new_list_hint"),
                rid=RID + "new_list_name",
                on_submit=self.create_list,
            )
        )
        rows.append(
            Button(
                Rect(width - kit.dp(88), y + kit.dp(12), width, y + kit.dp(56)),
                self.t("create"),
                kit.body_medium,
                kit.palette.primary,
                None,
                on_click=self.create_list,
                rid=RID + "create_list",
            )
        )
        return kit.dialog(
            area,
            self.t("save_to"),
            rows,
            [(self.t("done"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=y + kit.dp(64),
        )

    def _share_dialog(self, area: Rect) -> View:
        return share_sheet(self, area, RID, self.share_to, self.setter("dialog", None))


__all__ = ["PlaceActivity"]
