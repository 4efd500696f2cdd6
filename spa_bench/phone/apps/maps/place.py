"""A place's page (`com.spa.maps.PlaceActivity`, extra `place`: its key) with Directions, Save (to a list,
or a new one) and Share (to Chat or Messages), and the directions screen (`com.spa.maps.DirectionsActivity`,
extras `destination` and optional `origin`): start and destination fields with suggestions, the four
travel modes, and the computed distance and time. Each route shown is recorded in `routes`."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.maps.geo import MODES, Mode, distance_text, duration_text, route
from spa_bench.phone.apps.maps.main import DIRECTIONS, PLACE, RID, MapsActivity
from spa_bench.phone.apps.maps.seed import HERE, PLACES, Place
from spa_bench.phone.apps.shop.widgets import chip, icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Button, Rect, TextView, View

CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")
MESSAGES_SHARE = ("com.android.messaging", "com.android.messaging.ui.conversation.NewConversationActivity")
HERE_KEY = "here"


class PlaceActivity(MapsActivity):
    name = PLACE

    @property
    def place(self) -> Place | None:
        return self.app.store.by_key.get(str(self.record.args.get("place", "")))

    def share_text(self, place: Place) -> str:
        # one line: the Messages compose box is a single-line field
        return f"{place.name}, {place.address}"

    def share_to(self, target: tuple[str, str]) -> None:
        place = self.place
        if place is None:
            return
        self.set_ui("dialog", None)
        package, activity = target
        text = self.share_text(place)
        if package == CHAT_SHARE[0]:
            args = {
                "text": text,
                "title_en": place.name,
                "title_zh": place.name,
                "caller": self.ctx.package,
                "glyph": "pin",
                "hue": "red",
            }
        else:
            args = {"sms_body": text}
        self.ctx.start_activity(activity, args, package=package)

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
        kit = self.kit
        width = area.width - kit.dp(96)
        rows = [
            kit.list_item(
                Rect(0, 0, width, 0),
                i * kit.dp(56),
                self.t(key),
                icon=icon,
                hue=hue,
                on_click=partial(self.share_to, target),
                rid=RID + f"share_{key[6:]}",
            )
            for i, (key, target, icon, hue) in enumerate(
                (
                    ("share_chat", CHAT_SHARE, "chat", "green"),
                    ("share_messages", MESSAGES_SHARE, "message", "blue"),
                )
            )
        ]
        return kit.dialog(
            area,
            self.t("share_via"),
            rows,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=kit.dp(112),
        )


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
                "move",
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


__all__ = ["DirectionsActivity", "PlaceActivity"]
