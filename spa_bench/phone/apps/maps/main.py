"""The Maps main screen (`com.spa.maps.MainActivity`): a drawn map of the phone's city with pins, a
search box over it, category chips and recent searches; search results as a list; and the Saved tab
with the lists and their places."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.maps.seed import CITY_OF_LOCALE, HERE, PLACES, Place
from spa_bench.phone.apps.maps.store import SavedList
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, chip, icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Canvas, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.maps import MapsApp

PACKAGE = "com.spa.maps"
RID = f"{PACKAGE}:id/"
PLACE = "com.spa.maps.PlaceActivity"
DIRECTIONS = "com.spa.maps.DirectionsActivity"
CATEGORIES = ("coffee", "restaurants", "parks", "museums")


class MapsActivity(Activity):
    app: MapsApp

    @property
    def city(self) -> str:
        return CITY_OF_LOCALE[self.ctx.content_locale]  # where the owner lives, not the UI's

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def list_name(self, lst: SavedList) -> str:
        return self.t(f"list_{lst.kind}") if lst.kind != "custom" else lst.name

    def place_row(
        self, area: Rect, top: int, place: Place, rid: str = "place_item", trailing: View | None = None
    ) -> View:
        kit = self.kit
        p = kit.palette
        right = area.right - (kit.dp(56) if trailing is not None else kit.dp(16))
        row = View(
            Rect(area.left, top, area.right, top + kit.dp(88)),
            class_name=LINEAR,
            rid=RID + rid,
            on_click=partial(self.ctx.start_activity, PLACE, {"place": place.key}),
        )
        s = kit.dp(40)
        row.add(
            kit.icon_circle(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(24), area.left + kit.dp(16) + s, top + kit.dp(24) + s
                ),
                "pin",
                "red",
            )
        )
        left = area.left + kit.dp(72)
        row.add(
            TextView(
                Rect(left, top + kit.dp(8), right, top + kit.dp(34)),
                place.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "place_name",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right, top + kit.dp(58)),
                f"{place.rating:.1f} ★ · {place.category}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "place_summary",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(58), right, top + kit.dp(82)),
                place.address,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "place_address",
            )
        )
        if trailing is not None:
            row.add(trailing)
        row.add(View(Rect(left, top + kit.dp(88) - 1, area.right, top + kit.dp(88)), bg=p.divider))
        return row


class MapView(View):
    """The map: a street grid on land colours with a pin per place of the city and a blue dot for
    "Your location" (a picture only: the dump shows one node described by the city)."""

    class_name = "android.view.View"

    def __init__(
        self, bounds: Rect, places: list[Place], here: tuple[float, float], dark: bool, desc: str
    ) -> None:
        super().__init__(bounds, rid=RID + "map", desc=desc)
        self.places = places
        self.here = here
        self.dark = dark

    def _xy(self, lat: float, lon: float, box: tuple[float, float, float, float]) -> tuple[float, float]:
        lat0, lat1, lon0, lon1 = box
        b = self.bounds
        land = b.width - b.width // 6  # the water band on the right stays clear of pins
        x = b.left + (lon - lon0) / (lon1 - lon0 or 1) * land
        y = b.bottom - (lat - lat0) / (lat1 - lat0 or 1) * b.height
        return x, y

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        land, road, water = (
            ((38, 42, 48), (70, 76, 86), (30, 50, 80))
            if self.dark
            else ((236, 240, 234), (255, 255, 255), (170, 208, 240))
        )
        canvas.fill(b, land)
        canvas.fill(Rect(b.right - b.width // 6, b.top, b.right, b.bottom), water)
        step = max(24, b.width // 9)
        for gx in range(b.left + step // 2, b.right, step):
            canvas.fill(Rect(gx, b.top, gx + 6, b.bottom), road)
        for gy in range(b.top + step // 3, b.bottom, step):
            canvas.fill(Rect(b.left, gy, b.right, gy + 6), road)
        lats = [p.lat for p in self.places] + [self.here[0]]
        lons = [p.lon for p in self.places] + [self.here[1]]
        pad_lat, pad_lon = (max(lats) - min(lats)) * 0.12, (max(lons) - min(lons)) * 0.12
        box = (min(lats) - pad_lat, max(lats) + pad_lat, min(lons) - pad_lon, max(lons) + pad_lon)
        r = max(8, b.width // 90)
        for place in self.places:
            x, y = self._xy(place.lat, place.lon, box)
            canvas.ellipse(Rect(round(x - r), round(y - 2 * r), round(x + r), round(y)), (219, 68, 55))
        x, y = self._xy(*self.here, box)
        canvas.ellipse(
            Rect(round(x - r - 4), round(y - r - 4), round(x + r + 4), round(y + r + 4)), (255, 255, 255)
        )
        canvas.ellipse(Rect(round(x - r), round(y - r), round(x + r), round(y + r)), (26, 115, 232))


class MainActivity(MapsActivity):
    name = "com.spa.maps.MainActivity"

    @property
    def tab(self) -> str:
        return str(self.ui("tab", "explore"))

    def on_back(self) -> bool:
        if self.ui("query") is not None or self.ui("focus") == "query":
            for key in ("query", "text:query", "focus", "scroll"):
                self.record.ui.pop(key, None)
            self.ctx.invalidate()
            return True
        if self.tab != "explore":
            self.switch("explore")
            return True
        return super().on_back()

    def switch(self, tab: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("tab", tab)

    def run_search(self, query: str | None = None) -> None:
        text = (query if query is not None else str(self.ui("text:query", ""))).strip()
        if not text:
            return
        self.app.store.record_search(self.city, text, self.now_ms())
        self.record.ui["text:query"] = text
        self.record.ui.pop("focus", None)
        self.record.ui.pop("scroll", None)
        self.record.ui["tab"] = "explore"
        self.set_ui("query", text)

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=FRAME, rid=RID + "main")
        items = [
            NavItem(k, self.t(f"tab_{k}"), g, k == self.tab, partial(self.switch, k))
            for k, g in (("explore", "pin"), ("saved", "star"))
        ]
        nav, nav_h = bottom_nav(kit, area, items, PACKAGE)
        body = Rect(area.left, area.top, area.right, area.bottom - nav_h)
        if self.tab == "saved":
            root.add(self._saved(body))
        else:
            root.add(self._explore(body))
        root.add(nav)
        return root

    def _search_box(self, area: Rect) -> View:
        kit = self.kit
        top = area.top + kit.dp(12)
        box = self.text_field(
            Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(52)),
            "query",
            self.t("search_hint"),
            rid=RID + "search_box",
            on_submit=self.run_search,
        )
        box.bg = kit.palette.surface
        box.radius = kit.dp(26)
        box.underline = False
        return box

    def _explore(self, body: Rect) -> View:
        kit = self.kit
        p = kit.palette
        view = View(body, class_name=FRAME, rid=RID + "explore")
        query = self.ui("query")
        list_top = body.top + kit.dp(76)
        if query is not None:
            view.add(View(body, bg=p.surface))
            places = self.app.store.search(self.city, str(query))
            rows: list[View] = []
            y = list_top
            for place in places:
                rows.append(self.place_row(body, y, place))
                y = rows[-1].bounds.bottom
            if not rows:
                rows.append(
                    TextView(
                        Rect(body.left, y + kit.dp(24), body.right, y + kit.dp(72)),
                        self.t("no_results", q=query),
                        kit.body_large,
                        p.on_surface_variant,
                        align="center",
                        rid=RID + "no_results",
                    )
                )
            view.add(
                self.scroll_list(
                    Rect(body.left, list_top, body.right, body.bottom), rows, rid=RID + "results"
                )
            )
        else:
            city_places = [pl for pl in PLACES if pl.city == self.city]
            view.add(MapView(body, city_places, HERE[self.city], p.dark, self.t("app_name")))
            x = body.left + kit.dp(16)
            chips_top = body.top + kit.dp(76)
            for cat in CATEGORIES:
                c = chip(
                    kit,
                    x,
                    chips_top,
                    self.t(f"cat_{cat}"),
                    False,
                    partial(self.run_search, self.t(f"q_{cat}")),
                    rid=RID + f"chip_{cat}",
                )
                c.bg = p.surface
                view.add(c)
                x = c.bounds.right + kit.dp(8)
            if self.ui("focus") == "query":
                view.add(self._recent(Rect(body.left, body.top + kit.dp(72), body.right, body.bottom)))
        view.add(self._search_box(body))
        return view

    def _recent(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        panel = View(area, class_name=LINEAR, bg=p.surface, rid=RID + "recent")
        panel.add(
            TextView(
                Rect(area.left + kit.dp(16), area.top, area.right, area.top + kit.dp(40)),
                self.t("recent"),
                kit.body_medium,
                p.primary,
            )
        )
        y = area.top + kit.dp(40)
        for q in self.app.store.recent_searches(self.city):
            panel.add(
                kit.list_item(
                    area,
                    y,
                    q,
                    icon="clock",
                    hue="blue",
                    on_click=partial(self.run_search, q),
                    rid=RID + "recent_item",
                )
            )
            y += kit.dp(56)
        return panel

    def _saved(self, body: Rect) -> View:
        kit = self.kit
        p = kit.palette
        view = View(body, class_name=LINEAR, rid=RID + "saved", bg=p.surface)
        bar_h = kit.dp(64)
        view.add(
            TextView(
                Rect(body.left + kit.dp(16), body.top, body.right, body.top + bar_h),
                self.t("tab_saved"),
                kit.title_large,
                p.on_surface,
                rid="android:id/title",
                bold=True,
            )
        )
        rows: list[View] = []
        y = body.top + bar_h
        by_key = self.app.store.by_key
        for lst in self.app.store.lists():
            places = [by_key[k] for k in lst.place_keys if by_key[k].city == self.city]
            header = View(
                Rect(body.left, y, body.right, y + kit.dp(56)), class_name=LINEAR, rid=RID + "list_header"
            )
            header.add(
                TextView(
                    Rect(body.left + kit.dp(16), y, body.right - kit.dp(120), y + kit.dp(56)),
                    self.list_name(lst),
                    kit.body_large,
                    p.primary,
                    rid=RID + "list_name",
                    bold=True,
                )
            )
            header.add(
                TextView(
                    Rect(body.right - kit.dp(136), y, body.right - kit.dp(16), y + kit.dp(56)),
                    self.t("places_one" if len(places) == 1 else "places_count", n=len(places)),
                    kit.body_medium,
                    p.on_surface_variant,
                    align="right",
                    rid=RID + "list_count",
                )
            )
            rows.append(header)
            y += kit.dp(56)
            for place in places:
                s = kit.dp(48)
                remove = icon_button(
                    kit,
                    Rect(
                        body.right - kit.dp(4) - s, y + kit.dp(20), body.right - kit.dp(4), y + kit.dp(20) + s
                    ),
                    "close",
                    f"{self.t('remove')} {place.name}",
                    partial(self._remove, lst, place),
                    rid=RID + "saved_remove",
                )
                rows.append(self.place_row(body, y, place, rid="saved_place", trailing=remove))
                y = rows[-1].bounds.bottom
            if not places:
                rows.append(
                    TextView(
                        Rect(body.left + kit.dp(16), y, body.right, y + kit.dp(40)),
                        self.t("empty_list"),
                        kit.body_medium,
                        p.on_surface_variant,
                    )
                )
                y += kit.dp(40)
        view.add(
            self.scroll_list(
                Rect(body.left, body.top + bar_h, body.right, body.bottom), rows, rid=RID + "saved_list"
            )
        )
        return view

    def _remove(self, lst: SavedList, place: Place) -> None:
        self.app.store.toggle_saved(lst.id, place.key, self.now_ms())
        self.ctx.toast(self.t("removed_from", name=self.list_name(lst)))
        self.ctx.invalidate()


__all__ = ["DIRECTIONS", "PLACE", "MainActivity", "MapsActivity"]
