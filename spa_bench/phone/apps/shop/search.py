"""Product search (`com.spa.shop.SearchActivity`): a query or a category, sort and filters.

Matching: every word of the query must occur in the product's titles (both languages), brand or
category name; a Chinese word matches when each of its characters occurs, as a shop's tokenizer
would find 无线耳机 in 无线降噪耳机. Filters: price range, brands, 4 stars and up.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.shop.base import RID, ShopActivity
from spa_bench.phone.apps.shop.store import Product
from spa_bench.phone.apps.shop.widgets import chip, icon_button
from spa_bench.phone.system.tasks import ActivityRecord
from spa_bench.phone.ui import LINEAR, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.shop import ShopApp

SORTS = ("relevance", "price_asc", "price_desc", "rating")


def _is_cjk(word: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" for ch in word)


def matches(product: Product, query: str, category_names: tuple[str, str]) -> bool:
    hay = " ".join((product.title_en, product.title_zh, product.brand, *category_names)).casefold()
    for word in query.casefold().split():
        if _is_cjk(word):
            if not all(ch in hay for ch in word if not ch.isspace()):
                return False
        elif word not in hay:
            return False
    return True


def _number(text: str) -> float | None:
    try:
        return float(text.strip().lstrip("$¥"))
    except ValueError:
        return None


class SearchActivity(ShopActivity):
    name = "com.spa.shop.SearchActivity"

    def __init__(self, app: ShopApp, record: ActivityRecord) -> None:
        super().__init__(app, record)
        if (
            self.record.args.get("focus")
            and "focus" not in self.record.ui
            and not self.record.ui.get("searched")
        ):
            self.record.ui["focus"] = "query"
            self.record.ui["searched"] = True
            self.ctx.show_keyboard()

    @property
    def category(self) -> str:
        return str(self.record.args.get("category", ""))

    def results(self) -> list[Product]:
        query = str(self.ui("text:query", ""))
        found = []
        for product in self.app.store.products().values():
            if self.category and product.category != self.category:
                continue
            names = (
                self.app.strings.get("en", f"cat_{product.category}"),
                self.app.strings.get("zh", f"cat_{product.category}"),
            )
            if matches(product, query, names):
                found.append(product)
        low, high = _number(str(self.ui("text:min_price", ""))), _number(str(self.ui("text:max_price", "")))
        brands = set(self.ui("brands", []))
        found = [
            pr
            for pr in found
            if (low is None or pr.price >= low)
            and (high is None or pr.price <= high)
            and (not brands or pr.brand in brands)
            and (not self.ui("rating4") or pr.rating >= 4.0)
        ]
        sort = self.ui("sort", "relevance")
        if sort == "price_asc":
            found.sort(key=lambda pr: pr.price)
        elif sort == "price_desc":
            found.sort(key=lambda pr: -pr.price)
        elif sort == "rating":
            found.sort(key=lambda pr: (-pr.rating, -pr.reviews))
        return found

    def submit(self) -> None:
        self.record.ui.pop("focus", None)
        self.record.ui.pop("scroll", None)
        self.set_ui("searched", True)

    def toggle_brand(self, brand: str) -> None:
        brands = list(self.ui("brands", []))
        brands.remove(brand) if brand in brands else brands.append(brand)
        self.record.ui.pop("scroll", None)
        self.set_ui("brands", brands or None)

    def choose_sort(self, key: str) -> None:
        self.record.ui.pop("scroll", None)
        self.record.ui["dialog"] = None
        self.set_ui("sort", key)

    def reset_filters(self) -> None:
        for key in ("text:min_price", "text:max_price", "brands", "rating4", "focus"):
            self.record.ui.pop(key, None)
        self.ctx.invalidate()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "search")
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        root.add(
            icon_button(
                kit,
                Rect(area.left + kit.dp(4), top, area.left + kit.dp(4) + s, top + s),
                "arrow_back",
                self.t("navigate_up"),
                self.ctx.finish,
                rid=RID + "back",
            )
        )
        hint = self.t(f"cat_{self.category}") if self.category else self.t("search_hint")
        root.add(
            self.text_field(
                Rect(area.left + kit.dp(60), top, area.right - kit.dp(16), top + s),
                "query",
                hint,
                rid=RID + "search_src_text",
                on_submit=self.submit,
            )
        )
        y = top + s + kit.dp(12)
        found = self.results()
        sort_label = f"{self.t('sort')}: {self.t('sort_' + str(self.ui('sort', 'relevance')))}"
        sort_chip = chip(
            kit,
            area.left + kit.dp(16),
            y,
            sort_label,
            self.ui("sort", "relevance") != "relevance",
            self.setter("dialog", "sort"),
            rid=RID + "sort",
        )
        root.add(sort_chip)
        active = bool(
            self.ui("text:min_price") or self.ui("text:max_price") or self.ui("brands") or self.ui("rating4")
        )
        root.add(
            chip(
                kit,
                sort_chip.bounds.right + kit.dp(8),
                y,
                self.t("filters"),
                active,
                self.setter("dialog", "filters"),
                rid=RID + "filter",
            )
        )
        y += kit.dp(44)
        root.add(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(24)),
                self.t("results", n=len(found)),
                kit.label,
                p.on_surface_variant,
                rid=RID + "result_count",
            )
        )
        y += kit.dp(28)
        list_area = Rect(area.left, y, area.right, area.bottom)
        rows: list[View] = []
        for product in found:
            row = self.product_row(list_area, y, product)
            rows.append(row)
            y = row.bounds.bottom
        if not found:
            rows.append(
                TextView(
                    Rect(area.left, y + kit.dp(32), area.right, y + kit.dp(80)),
                    self.t("no_results"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(self.scroll_list(list_area, rows, rid=RID + "results_list"))
        if self.ui("dialog") == "sort":
            root.add(self._sort_dialog(area))
        elif self.ui("dialog") == "filters":
            root.add(self._filter_dialog(area))
        return root

    def _sort_dialog(self, area: Rect) -> View:
        kit = self.kit
        current = self.ui("sort", "relevance")
        width = area.width - kit.dp(96)
        rows: list[View] = []
        for i, key in enumerate(SORTS):
            rows.append(
                kit.list_item(
                    Rect(-kit.dp(16), 0, width + kit.dp(16), 0),
                    i * kit.dp(56),
                    self.t(f"sort_{key}"),
                    icon="check" if key == current else "",
                    on_click=partial(self.choose_sort, key),
                    rid=RID + f"sort_{key}",
                    selected=key == current,
                )
            )
        return kit.dialog(
            area,
            self.t("sort"),
            rows,
            [(self.t("reset"), partial(self.choose_sort, "relevance"))],
            self.setter("dialog", None),
            body_height=len(SORTS) * kit.dp(56),
        )

    def _filter_dialog(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        width = area.width - kit.dp(96)
        body: list[View] = []
        y = 0
        body.append(
            TextView(Rect(0, y, width, y + kit.dp(28)), self.t("price_range"), kit.body_large, p.on_surface)
        )
        y += kit.dp(32)
        half = (width - kit.dp(16)) // 2
        body.append(
            self.text_field(
                Rect(0, y, half, y + kit.dp(52)),
                "min_price",
                self.t("min_price"),
                rid=RID + "min_price",
                on_submit=self._done_typing,
            )
        )
        body.append(
            self.text_field(
                Rect(half + kit.dp(16), y, width, y + kit.dp(52)),
                "max_price",
                self.t("max_price"),
                rid=RID + "max_price",
                on_submit=self._done_typing,
            )
        )
        y += kit.dp(64)
        body.append(
            TextView(Rect(0, y, width, y + kit.dp(28)), self.t("brand"), kit.body_large, p.on_surface)
        )
        y += kit.dp(32)
        query_only = [
            pr.brand
            for pr in self.app.store.products().values()
            if (not self.category or pr.category == self.category)
            and matches(pr, str(self.ui("text:query", "")), ("", ""))
        ]
        chosen = set(self.ui("brands", []))
        x = 0
        for brand in sorted(set(query_only)):
            c = chip(
                kit,
                x,
                y,
                brand,
                brand in chosen,
                partial(self.toggle_brand, brand),
                rid=RID + "brand_chip",
                max_right=width,
            )
            if c.bounds.right > width and x > 0:
                x, y = 0, y + kit.dp(44)
                c = chip(
                    kit,
                    x,
                    y,
                    brand,
                    brand in chosen,
                    partial(self.toggle_brand, brand),
                    rid=RID + "brand_chip",
                    max_right=width,
                )
            body.append(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(48)
        body.append(
            TextView(Rect(0, y, width, y + kit.dp(28)), self.t("rating"), kit.body_large, p.on_surface)
        )
        y += kit.dp(32)
        body.append(
            chip(
                kit,
                0,
                y,
                self.t("rating_4"),
                bool(self.ui("rating4")),
                self.setter("rating4", None if self.ui("rating4") else True),
                rid=RID + "rating_4",
            )
        )
        y += kit.dp(44)
        return kit.dialog(
            area,
            self.t("filters"),
            body,
            [(self.t("reset"), self.reset_filters), (self.t("show_results"), self._close_filters)],
            self._close_filters,
            body_height=y,
        )

    def _done_typing(self) -> None:
        self.record.ui.pop("focus", None)
        self.ctx.invalidate()

    def _close_filters(self) -> None:
        self.record.ui.pop("focus", None)
        self.record.ui.pop("scroll", None)
        self.set_ui("dialog", None)
