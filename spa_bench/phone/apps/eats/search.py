"""Restaurant search (`com.spa.eats.SearchActivity`): a query over restaurant names, cuisines and dishes,
filter chips for cuisine, rating 4.5+ and price level, and a sort order."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.eats.base import RID, EatsActivity
from spa_bench.phone.apps.eats.models import Restaurant
from spa_bench.phone.apps.shop.widgets import chip
from spa_bench.phone.ui import LINEAR, Rect, TextView, View

SORTS = ("distance", "rating", "time", "fee")


class SearchActivity(EatsActivity):
    name = "com.spa.eats.SearchActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        args = self.record.args
        if not self.ui("init"):
            self.record.ui["init"] = 1
            if args.get("cuisine"):
                self.record.ui["cuisine"] = str(args["cuisine"])
            if args.get("focus"):
                self.record.ui["focus"] = "query"
        root = View(area, class_name=LINEAR, rid=RID + "search")
        bar, bar_h = kit.app_bar(area, "", self.ctx.finish, package="com.spa.eats")
        bar.children[0].desc = self.t("navigate_up")
        field = Rect(
            area.left + kit.dp(60), area.top + kit.dp(8), area.right - kit.dp(16), area.top + kit.dp(56)
        )
        bar.children[1:] = [
            self.text_field(
                field, "query", self.t("search_hint"), rid=RID + "search_input", on_submit=self.ctx.invalidate
            )
        ]
        root.add(bar)
        y = area.top + bar_h + kit.dp(4)
        x = area.left + kit.dp(16)
        cuisine = str(self.ui("cuisine", ""))
        level = int(self.ui("price", 0))
        chips = (
            (
                "filter_cuisine",
                self.cuisine(cuisine) if cuisine else self.t("filter_cuisine"),
                bool(cuisine),
                self.setter("dialog", "cuisine"),
            ),
            (
                "filter_rating",
                self.t("filter_rating"),
                bool(self.ui("rating")),
                self.setter("rating", None if self.ui("rating") else 1),
            ),
            (
                "filter_price",
                self.price_level(level) if level else self.t("filter_price"),
                bool(level),
                self.setter("dialog", "price"),
            ),
            (
                "sort",
                self.t(f"sort_{self.ui('sort', 'distance')}"),
                self.ui("sort") is not None,
                self.setter("dialog", "sort"),
            ),
        )
        for rid, text, selected, cb in chips:
            c = chip(kit, x, y, text, selected, cb, rid=RID + rid)
            root.add(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(44)
        found = self.results()
        root.add(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(28)),
                self.t("results", n=len(found)),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "results_count",
            )
        )
        y += kit.dp(32)
        list_area = Rect(area.left, y, area.right, area.bottom)
        rows: list[View] = []
        top = y
        for r in found:
            row = self.restaurant_row(list_area, top, r)
            rows.append(row)
            top = row.bounds.bottom
        if not rows:
            rows.append(self.empty(list_area, self.t("no_results")))
        root.add(self.scroll_list(list_area, rows, rid=RID + "results_list"))
        dialog = self.ui("dialog")
        if dialog:
            root.add(self._dialog(area, str(dialog)))
        return root

    def results(self) -> list[Restaurant]:
        query = str(self.ui("text:query", "")).strip().casefold()
        cuisine = str(self.ui("cuisine", ""))
        level = int(self.ui("price", 0))
        menu = self.app.store.dishes().values()
        found = []
        for r in self.restaurants():
            if cuisine and r.cuisine != cuisine:
                continue
            if self.ui("rating") and r.rating < 4.5:
                continue
            if level and r.price_level != level:
                continue
            if query and not (
                query in r.name.casefold()
                or any(query in self.cuisine(r.cuisine, lang).casefold() for lang in ("en", "zh"))
                or any(query in f"{d.name} {d.description}".casefold() for d in menu if d.restaurant == r.key)
            ):
                continue
            found.append(r)
        key = {
            "distance": lambda r: (r.distance_km, r.key),
            "rating": lambda r: (-r.rating, r.distance_km),
            "time": lambda r: (r.eta_minutes, r.distance_km),
            "fee": lambda r: (r.delivery_fee, r.distance_km),
        }[str(self.ui("sort", "distance"))]
        return sorted(found, key=key)

    def _choose(self, key: str, value: object) -> None:
        self.record.ui.pop("dialog", None)
        self.record.ui.pop("scroll", None)
        self.set_ui(key, value)

    def _dialog(self, area: Rect, which: str) -> View:
        kit = self.kit
        options: list[tuple[str, str, object]]
        if which == "cuisine":
            keys = []
            for r in self.restaurants():
                if r.cuisine not in keys:
                    keys.append(r.cuisine)
            options = [("cuisine_all", self.t("all_cuisines"), None)] + [
                (f"cuisine_option_{k}", self.cuisine(k), k) for k in keys
            ]
            title, key = self.t("filter_cuisine"), "cuisine"
        elif which == "price":
            options = [("price_0", self.t("any_price"), None)] + [
                (f"price_{n}", self.price_level(n), n) for n in (1, 2, 3)
            ]
            title, key = self.t("filter_price"), "price"
        else:
            options = [(f"sort_{s}", self.t(f"sort_{s}"), s) for s in SORTS]
            title, key = self.t("sort"), "sort"
        width = area.width - kit.dp(96)
        row_h = kit.dp(48)
        body: list[View] = [
            TextView(
                Rect(0, i * row_h, width, (i + 1) * row_h),
                text,
                kit.body_large,
                kit.palette.on_surface,
                rid=RID + rid,
                on_click=partial(self._choose, key, value),
            )
            for i, (rid, text, value) in enumerate(options)
        ]
        return kit.dialog(
            area,
            title,
            body,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=row_h * len(options),
        )
