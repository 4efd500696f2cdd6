"""DeskClock: the tabbed main screen (Alarm, Clock, Timer, Stopwatch) and the alarm list with its
keyboard-mode time picker: hour and minute are typed into fields, as in DeskClock's keyboard input
mode, so an agent can set any time with taps and text."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.clock.store import EVERY_DAY, WEEKDAYS, WEEKEND, Alarm, ClockStore
from spa_bench.phone.apps.clock.strings import DAY_LETTER, DAY_NAMES, DAY_SHORT
from spa_bench.phone.apps.contacts.pim import Fab, chip, field, format_time, nav_bar, top_bar, use_24h
from spa_bench.phone.ui import LINEAR, Button, ImageView, Rect, Switch, TextView, View

PACKAGE = "com.android.deskclock"
ID = f"{PACKAGE}:id/"
TABS = (("alarm", "alarm"), ("clock", "public"), ("timer", "timer"), ("stopwatch", "stopwatch"))


class ClockActivity(Activity):
    @property
    def store(self) -> ClockStore:
        store: ClockStore = self.app.store  # type: ignore[attr-defined]
        return store

    def lang(self, pair: tuple[str, str]) -> str:
        return pair[1] if self.ctx.locale == "zh" else pair[0]


class DeskClock(ClockActivity):
    name = "com.android.deskclock.DeskClock"

    def build(self, area: Rect) -> View:
        from spa_bench.phone.apps.clock import tabs

        kit = self.kit
        tab = str(self.ui("tab", "alarm"))
        root = View(area, class_name=LINEAR, rid=f"{ID}desk_clock_pager")
        items = [
            (icon, self.t(f"tab_{key}"), key == tab, self.setter("tab", key), f"{ID}tab_{key}")
            for key, icon in TABS
        ]
        nav, nav_h = nav_bar(kit, area, items)
        content = Rect(area.left, area.top, area.right, area.bottom - nav_h)
        bar, bar_h = top_bar(kit, content, self.t(f"tab_{tab}"), package=PACKAGE)
        root.add(bar)
        body = Rect(content.left, content.top + bar_h, content.right, content.bottom)
        if tab == "clock":
            root.extend(tabs.world_clock(self, body))
        elif tab == "timer":
            root.extend(tabs.timer(self, body))
        elif tab == "stopwatch":
            root.extend(tabs.stopwatch(self, body))
        else:
            root.extend(self.alarm_tab(body))
        root.add(nav)
        if self.ui("dialog") == "time":
            root.add(self.time_dialog(area))
        return root

    # -- alarms ---------------------------------------------------------------------------------------
    def alarm_tab(self, area: Rect) -> list[View]:
        kit = self.kit
        rows: list[View] = []
        y = area.top
        expanded = self.ui("expanded")
        target = self.record.ui.pop("scroll_to", None)
        for alarm in self.store.alarms():
            card = self.alarm_card(area, y, alarm, alarm.id == expanded)
            if alarm.id == target:  # a new or re-timed alarm comes into view
                self.record.ui["scroll"] = card.bounds.top - area.top
            rows.append(card)
            y = card.bounds.bottom
        return [
            self.scroll_list(area, rows, rid=f"{ID}alarm_recycler_view", padding_bottom=kit.dp(96)),
            Fab(kit, area, "plus", self.t("add_alarm"), partial(self.open_time_dialog, None), rid=f"{ID}fab"),
        ]

    def days_summary(self, days: int) -> str:
        if days == 0:
            return self.t("not_scheduled")
        if days == EVERY_DAY:
            return self.t("every_day")
        if days == WEEKDAYS:
            return self.t("weekdays")
        if days == WEEKEND:
            return self.t("weekends")
        sep = "、" if self.ctx.locale == "zh" else ", "
        return sep.join(self.lang(DAY_SHORT[i]) for i in range(7) if days & (1 << i))

    def alarm_card(self, area: Rect, top: int, a: Alarm, expanded: bool) -> View:
        kit = self.kit
        p = kit.palette
        left, right = area.left + kit.dp(16), area.right - kit.dp(16)
        h = kit.dp(312 if expanded else 136)
        card = View(
            Rect(left, top + kit.dp(6), right, top + kit.dp(6) + h),
            class_name=FRAME_CARD,
            rid=f"{ID}alarm_card",
            bg=p.surface_high,
            radius=kit.dp(24),
            on_click=self.setter("expanded", None if expanded else a.id),
        )
        t = card.bounds.top
        inner_l, inner_r = left + kit.dp(20), right - kit.dp(20)
        card.add(
            TextView(
                Rect(inner_l, t + kit.dp(10), inner_r - kit.dp(60), t + kit.dp(34)),
                a.label,
                kit.body_medium,
                p.on_surface_variant,
                rid=f"{ID}label",
            )
        )
        time_text = format_time(a.hour, a.minutes, use_24h(self.ctx))
        card.add(
            TextView(
                Rect(inner_l, t + kit.dp(34), inner_r - kit.dp(80), t + kit.dp(94)),
                time_text,
                kit.dp(46),
                p.on_surface if a.enabled else p.on_surface_variant,
                rid=f"{ID}digital_clock",
                on_click=partial(self.open_time_dialog, a.id),
            )
        )
        sw, sh = kit.dp(52), kit.dp(32)
        cy = t + kit.dp(64)
        switch = card.add(
            Switch(
                Rect(inner_r - sw, cy - sh // 2, inner_r, cy + sh // 2),
                a.enabled,
                (p.primary, p.on_primary),
                (p.switch_off_track, p.switch_off_thumb),
                rid=f"{ID}onoff",
                outline=p.outline,
                on_click=partial(self._toggle, a),
            )
        )
        switch.desc = time_text  # TalkBack reads the alarm's time on its switch
        card.add(
            TextView(
                Rect(inner_l, t + kit.dp(96), inner_r - kit.dp(56), t + kit.dp(124)),
                self.days_summary(a.days),
                kit.body_medium,
                p.on_surface_variant,
                rid=f"{ID}days_of_week",
            )
        )
        s = kit.dp(40)
        card.add(
            ImageView(
                Rect(inner_r - s, t + kit.dp(90), inner_r, t + kit.dp(90) + s),
                "chevron_down",
                p.on_surface_variant,
                desc=self.t("collapse" if expanded else "expand"),
                rid=f"{ID}arrow",
                on_click=self.setter("expanded", None if expanded else a.id),
            )
        )
        if expanded:
            self._expanded(card, a, inner_l, inner_r, t + kit.dp(136))
        return card

    def _expanded(self, card: View, a: Alarm, left: int, right: int, top: int) -> None:
        kit = self.kit
        p = kit.palette
        s = kit.dp(38)
        gap = (right - left - 7 * s) // 6
        for i in range(7):
            x = left + i * (s + gap)
            card.add(
                chip(
                    kit,
                    Rect(x, top, x + s, top + s),
                    self.lang(DAY_LETTER[i]),
                    bool(a.days & (1 << i)),
                    partial(self._toggle_day, a, i),
                    rid=f"{ID}day_button_{i}",
                    desc=self.lang(DAY_NAMES[i]),
                    round_=True,
                )
            )
        y = top + s + kit.dp(16)
        key = f"label:{a.id}"
        card.add(
            kit.text_field(
                Rect(left, y, right, y + kit.dp(52)),
                key,
                a.label,
                self.t("add_label"),
                self.ui("focus") == key,
                partial(self._set_label, a.id),
                self._hide_keyboard,
                rid=f"{ID}edit_label",
            )
        )
        y += kit.dp(68)
        vib = View(
            Rect(left, y, left + kit.dp(150), y + kit.dp(40)),
            rid=f"{ID}vibrate_onoff",
            checkable=True,
            checked=a.vibrate,
            class_name="android.widget.CheckBox",
            on_click=partial(self.store.update_alarm, a.id, vibrate=int(not a.vibrate)),
        )
        box = Rect(left, y + kit.dp(10), left + kit.dp(20), y + kit.dp(30))
        vib.add(View(box, bg=p.primary if a.vibrate else None, radius=kit.dp(3)))
        if not a.vibrate:
            vib.add(
                View(
                    box,
                    bg=p.outline,
                    radius=kit.dp(3),
                    children=[View(box.inset(kit.dp(2)), bg=p.surface_high)],
                )
            )
        vib.add(
            TextView(
                Rect(left + kit.dp(30), y, left + kit.dp(150), y + kit.dp(40)),
                self.t("vibrate"),
                kit.body_medium,
                p.on_surface,
            )
        )
        card.add(vib)
        card.add(
            Button(
                Rect(right - kit.dp(110), y, right, y + kit.dp(40)),
                self.t("delete"),
                kit.body_medium,
                p.primary,
                None,
                on_click=partial(self._delete, a.id),
                rid=f"{ID}delete",
                outline=p.outline,
            )
        )

    def _hide_keyboard(self) -> None:
        self.set_ui("focus", None)

    def _set_label(self, alarm_id: int, value: str) -> None:
        self.store.update_alarm(alarm_id, label=value)

    def _toggle(self, a: Alarm) -> None:
        self.store.update_alarm(a.id, enabled=int(not a.enabled))
        self.ctx.toast(self.t("alarm_off" if a.enabled else "alarm_on"))

    def _toggle_day(self, a: Alarm, day: int) -> None:
        self.store.update_alarm(a.id, daysofweek=a.days ^ (1 << day))

    def _delete(self, alarm_id: int) -> None:
        self.store.delete_alarm(alarm_id)
        self.set_ui("expanded", None)
        self.ctx.toast(self.t("alarm_deleted"))

    # -- time picker ----------------------------------------------------------------------------------
    def open_time_dialog(self, alarm_id: int | None) -> None:
        ui = self.record.ui
        for key in ("text:hour", "text:minute", "editing"):
            ui.pop(key, None)
        ui["ampm"] = "am"
        if alarm_id is not None:
            a = next((x for x in self.store.alarms() if x.id == alarm_id), None)
            if a is not None:
                ui["editing"] = alarm_id
                h24 = use_24h(self.ctx)
                ui["text:hour"] = str(a.hour if h24 else (a.hour % 12 or 12))
                ui["text:minute"] = f"{a.minutes:02d}"
                ui["ampm"] = "am" if a.hour < 12 else "pm"
        self.set_ui("dialog", "time")

    def time_dialog(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        h24 = use_24h(self.ctx)
        # the fields share the dialog's inner width (kit.dialog: the area less 2 x 24dp margins and 2 x 24dp
        # padding) with the colon and the AM/PM chips: narrower on a 360dp-wide screen, where 96dp overflowed
        inner = area.width - kit.dp(96)
        fw = min(kit.dp(96), (inner - kit.dp(24) - (0 if h24 else kit.dp(80))) // 2)
        fh = kit.dp(72)
        views: list[View] = [
            self.text_field(Rect(0, 0, fw, fh), "hour", self.t("hour"), rid=f"{ID}hour"),
            TextView(Rect(fw, 0, fw + kit.dp(24), fh), ":", kit.dp(40), p.on_surface, align="center"),
            self.text_field(
                Rect(fw + kit.dp(24), 0, 2 * fw + kit.dp(24), fh),
                "minute",
                self.t("minute"),
                rid=f"{ID}minute",
            ),
        ]
        if not h24:
            x = 2 * fw + kit.dp(40)
            ampm = self.ui("ampm", "am")
            views.append(
                chip(
                    kit,
                    Rect(x, 0, x + kit.dp(64), kit.dp(34)),
                    self.t("am"),
                    ampm == "am",
                    self.setter("ampm", "am"),
                    rid=f"{ID}am_label",
                )
            )
            views.append(
                chip(
                    kit,
                    Rect(x, kit.dp(38), x + kit.dp(64), kit.dp(72)),
                    self.t("pm"),
                    ampm == "pm",
                    self.setter("ampm", "pm"),
                    rid=f"{ID}pm_label",
                )
            )
        return kit.dialog(
            area,
            self.t("enter_time"),
            views,
            [(self.t("cancel"), self._close_dialog), (self.t("ok"), self._confirm_time)],
            self._close_dialog,
            body_height=fh,
        )

    def _close_dialog(self) -> None:
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)

    def _confirm_time(self) -> None:
        hour_text, minute_text = field(self, "hour"), field(self, "minute") or "0"
        if not (hour_text.isdigit() and minute_text.isdigit()):
            self.ctx.toast(self.t("invalid_time"))
            return
        hour, minute = int(hour_text), int(minute_text)
        if not use_24h(self.ctx) and 1 <= hour <= 12:
            hour = hour % 12 + (12 if self.ui("ampm") == "pm" else 0)
        if hour > 23 or minute > 59:
            self.ctx.toast(self.t("invalid_time"))
            return
        editing = self.ui("editing")
        if editing is not None:
            self.store.update_alarm(int(editing), hour=hour, minutes=minute)
            self.record.ui["expanded"] = int(editing)
        else:
            self.record.ui["expanded"] = self.store.add_alarm(hour, minute)
        self.record.ui["scroll_to"] = self.record.ui["expanded"]
        self._close_dialog()


FRAME_CARD = "android.widget.FrameLayout"
