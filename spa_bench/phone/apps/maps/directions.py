"""The directions screen (`com.spa.maps.DirectionsActivity`, extras `destination` and optional `origin`):
start and destination fields with suggestions, the four travel modes, and the computed distance and time.
Each route shown is recorded in `routes`."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.maps.geo import MODES, Mode, distance_text, duration_text, route
from spa_bench.phone.apps.maps.main import DIRECTIONS, RID, MapsActivity
from spa_bench.phone.apps.maps.seed import HERE, PLACES
from spa_bench.phone.apps.shop.widgets import chip, icon_button
from spa_bench.phone.ui import LINEAR, Rect, TextView, View

HERE_KEY = "here"


class DirectionsActivity(MapsActivity):
    name = DIRECTIONS

    def endpoint(self, which: str) -> str:
        default = HERE_KEY if which == "origin" else ""
        return str(self.ui(which, self.record.args.get(which, default)))

    def label(self, key: str) -> str:
        if key == HERE_KEY:
            return self.t("your_location")
        place = self.app.store.by_key.get(key)
        return place.name if place else ""

    def point(self, key: str) -> tuple[float, float] | None:
        if key == HERE_KEY:
            return HERE[self.city]
        place = self.app.store.by_key.get(key)
        return (place.lat, place.lon) if place else None

    @property
    def mode(self) -> Mode:
        value = str(self.ui("mode", "drive"))
        return next((m for m in MODES if m == value), "drive")

    def _record(self) -> None:
        origin, dest = self.endpoint("origin"), self.endpoint("destination")
        a, b = self.point(origin), self.point(dest)
        if a is None or b is None:
            return
        r = route(a, b, self.mode)
        self.app.store.record_route(origin, dest, self.mode, r.metres, r.minutes, self.now_ms())

    def set_mode(self, mode: Mode) -> None:
        self.record.ui["mode"] = mode
        self._record()
        self.ctx.invalidate()

    def pick(self, which: str, key: str) -> None:
        self.record.ui[which] = key
        self.record.ui.pop(f"text:{which}", None)
        self.record.ui.pop("focus", None)
        self._record()
        self.ctx.invalidate()

    def swap(self) -> None:
        origin, dest = self.endpoint("origin"), self.endpoint("destination")
        self.record.ui["origin"], self.record.ui["destination"] = dest, origin
        self._record()
        self.ctx.invalidate()

    def build(self, area: Rect) -> View:
        if not self.record.ui.get("recorded"):
            self.record.ui["recorded"] = True
            self._record()
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "directions", bg=p.surface)
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
        fields_left, fields_right = area.left + kit.dp(56), area.right - kit.dp(56)
        for i, which in enumerate(("origin", "destination")):
            y = top + i * kit.dp(60)
            key = f"text:{which}"
            if self.ui("focus") == which:  # a fresh entry: typing replaces the shown place
                if not self.record.ui.get(f"editing:{which}"):
                    self.record.ui[f"editing:{which}"] = True
                    self.record.ui[key] = ""
            else:
                self.record.ui.pop(f"editing:{which}", None)
                self.record.ui[key] = self.label(self.endpoint(which))
            root.add(
                self.text_field(
                    Rect(fields_left, y, fields_right, y + kit.dp(52)),
                    which,
                    self.t("from_hint" if i == 0 else "to_hint"),
                    rid=RID + which,
                )
            )
        root.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(52), top + kit.dp(32), area.right - kit.dp(4), top + kit.dp(80)),
                "sort",
                self.t("swap"),
                self.swap,
                rid=RID + "swap",
            )
        )
        y = top + kit.dp(124)
        focus = self.ui("focus")
        if focus in ("origin", "destination"):
            root.add(self._suggestions(Rect(area.left, y, area.right, area.bottom), str(focus)))
            return root
        x = area.left + kit.dp(16)
        for mode in MODES:
            c = chip(
                kit,
                x,
                y,
                self.t(f"mode_{mode}"),
                mode == self.mode,
                partial(self.set_mode, mode),
                rid=RID + f"mode_{mode}",
            )
            root.add(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(56)
        a, b = self.point(self.endpoint("origin")), self.point(self.endpoint("destination"))
        if a is not None and b is not None:
            r = route(a, b, self.mode)
            zh = self.ctx.locale == "zh"
            card = View(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(104)),
                class_name=LINEAR,
                bg=p.surface_high,
                radius=kit.dp(12),
                rid=RID + "route",
            )
            card.add(
                TextView(
                    Rect(card.bounds.left + kit.dp(16), y + kit.dp(10), card.bounds.right, y + kit.dp(48)),
                    duration_text(r.minutes, zh),
                    kit.dp(26),
                    (24, 128, 56),
                    rid=RID + "route_time",
                    bold=True,
                )
            )
            card.add(
                TextView(
                    Rect(card.bounds.left + kit.dp(16), y + kit.dp(50), card.bounds.right, y + kit.dp(74)),
                    distance_text(r.metres, imperial=not zh),
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "route_distance",
                )
            )
            card.add(
                TextView(
                    Rect(card.bounds.left + kit.dp(16), y + kit.dp(74), card.bounds.right, y + kit.dp(98)),
                    self.t("fastest"),
                    kit.body_medium,
                    p.on_surface_variant,
                )
            )
            root.add(card)
        return root

    def _suggestions(self, area: Rect, which: str) -> View:
        kit = self.kit
        query = str(self.ui(f"text:{which}", "")).strip()
        rows: list[View] = []
        y = area.top
        candidates: list[tuple[str, str, str]] = [(HERE_KEY, self.t("your_location"), "")]
        matches = (
            self.app.store.search(self.city, query)
            if query
            else [pl for pl in PLACES if pl.city == self.city]
        )
        candidates += [(pl.key, pl.name, pl.address) for pl in matches]
        for key, name, address in candidates:
            row = kit.list_item(
                area,
                y,
                name,
                address,
                icon="location" if key == HERE_KEY else "pin",
                hue="blue" if key == HERE_KEY else "red",
                on_click=partial(self.pick, which, key),
                rid=RID + "suggestion",
            )
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "suggestions")


__all__ = ["DirectionsActivity"]
