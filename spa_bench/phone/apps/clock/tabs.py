"""The Clock, Timer and Stopwatch tabs of DeskClock, and the world-clock city picker."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.clock.store import CITIES, Timer
from spa_bench.phone.apps.contacts.pim import Fab, field, format_time, top_bar, use_24h
from spa_bench.phone.system.clock import epoch_ms
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.clock.screens import DeskClock

from spa_bench.phone.apps.clock.screens import ID, ClockActivity

WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_line(act: ClockActivity, moment: datetime) -> str:
    if act.ctx.locale == "zh":
        return f"{moment.month}月{moment.day}日{WEEKDAYS_ZH[moment.weekday()]}"
    return f"{WEEKDAYS_EN[moment.weekday()]}, {MONTHS_EN[moment.month - 1]} {moment.day}"


def city_name(act: ClockActivity, city_id: str) -> str:
    en, zh, _ = CITIES[city_id]
    return zh if act.ctx.locale == "zh" else en


def world_clock(act: DeskClock, area: Rect) -> list[View]:
    kit = act.kit
    p = kit.palette
    now = act.ctx.clock.now()
    h24 = use_24h(act.ctx)
    rows: list[View] = [
        TextView(
            Rect(area.left, area.top, area.right, area.top + kit.dp(96)),
            format_time(now.hour, now.minute, h24),
            kit.dp(64),
            p.on_surface,
            align="center",
            rid=f"{ID}digital_clock",
        ),
        TextView(
            Rect(area.left, area.top + kit.dp(96), area.right, area.top + kit.dp(128)),
            date_line(act, now),
            kit.body_large,
            p.on_surface_variant,
            align="center",
            rid=f"{ID}date",
        ),
    ]
    y = area.top + kit.dp(144)
    for city_id in act.store.cities():
        if city_id not in CITIES:
            continue
        offset = CITIES[city_id][2]
        there = now + timedelta(minutes=offset)
        diff = offset / 60
        h = f"{abs(diff):g}"
        rel = act.t("same_time") if diff == 0 else act.t("ahead" if diff > 0 else "behind", h=h)
        row = View(
            Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(88)),
            class_name=LINEAR,
            rid=f"{ID}world_clock_row",
            bg=p.surface_high,
            radius=kit.dp(20),
        )
        b = row.bounds
        row.add(
            TextView(
                Rect(b.left + kit.dp(20), b.top + kit.dp(12), b.right - kit.dp(140), b.top + kit.dp(48)),
                city_name(act, city_id),
                kit.dp(20),
                p.on_surface,
                rid=f"{ID}city_name",
            )
        )
        row.add(
            TextView(
                Rect(b.left + kit.dp(20), b.top + kit.dp(48), b.right - kit.dp(140), b.bottom - kit.dp(12)),
                rel,
                kit.body_medium,
                p.on_surface_variant,
                rid=f"{ID}city_offset",
            )
        )
        row.add(
            TextView(
                Rect(b.right - kit.dp(160), b.top, b.right - kit.dp(20), b.bottom),
                format_time(there.hour, there.minute, h24),
                kit.dp(30),
                p.on_surface,
                align="right",
                rid=f"{ID}city_time",
            )
        )
        rows.append(row)
        y = b.bottom + kit.dp(8)
    return [
        act.scroll_list(area, rows, key="clock_scroll", rid=f"{ID}cities", padding_bottom=kit.dp(96)),
        Fab(
            kit,
            area,
            "plus",
            act.t("add_city"),
            lambda: act.ctx.start_activity(CityPicker.name),
            rid=f"{ID}fab",
        ),
    ]


def _duration(ms: int) -> str:
    total = max(0, ms) // 1000
    h, rest = divmod(total, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m:02d}:{s:02d}"


def remaining(act: ClockActivity, t: Timer) -> int:
    if t.state != 1:
        return t.remaining_ms
    return t.remaining_ms - (epoch_ms(act.ctx.clock.now()) - t.start_time)


def timer(act: DeskClock, area: Rect) -> list[View]:
    kit = act.kit
    p = kit.palette
    timers = act.store.timers()
    if timers and not act.ui("adding_timer"):
        rows: list[View] = []
        y = area.top
        for t in timers:
            rows.append(_timer_card(act, area, y, t))
            y = rows[-1].bounds.bottom + kit.dp(8)
        return [
            act.scroll_list(area, rows, key="timer_scroll", rid=f"{ID}timers", padding_bottom=kit.dp(96)),
            Fab(kit, area, "plus", act.t("add_timer"), act.setter("adding_timer", True), rid=f"{ID}fab"),
        ]
    views: list[View] = []
    fw = kit.dp(100)
    gap = kit.dp(12)
    left = area.center[0] - (3 * fw + 2 * gap) // 2
    top = area.top + kit.dp(48)
    for i, key in enumerate(("hours", "minutes", "seconds")):
        x = left + i * (fw + gap)
        views.append(
            TextView(Rect(x, top, x + fw, top + kit.dp(24)), act.t(key), kit.label, p.primary, align="center")
        )
        views.append(
            act.text_field(
                Rect(x, top + kit.dp(28), x + fw, top + kit.dp(100)),
                f"timer_{key}",
                "00",
                rid=f"{ID}timer_{key}",
            )
        )
    views.append(
        Fab(
            kit,
            area,
            "timer",
            act.t("start"),
            partial(_start_timer, act),
            rid=f"{ID}fab",
            label=act.t("start"),
        )
    )
    return views


def _timer_card(act: DeskClock, area: Rect, top: int, t: Timer) -> View:
    kit = act.kit
    p = kit.palette
    card = View(
        Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(180)),
        class_name=LINEAR,
        rid=f"{ID}timer_card",
        bg=p.surface_high,
        radius=kit.dp(24),
    )
    b = card.bounds
    card.add(
        TextView(
            Rect(b.left + kit.dp(20), b.top + kit.dp(12), b.right - kit.dp(20), b.top + kit.dp(36)),
            act.t("timer_running" if t.state == 1 else "timer_paused"),
            kit.body_medium,
            p.on_surface_variant,
            rid=f"{ID}timer_label",
        )
    )
    card.add(
        TextView(
            Rect(b.left + kit.dp(20), b.top + kit.dp(36), b.right - kit.dp(20), b.top + kit.dp(110)),
            _duration(remaining(act, t)),
            kit.dp(52),
            p.on_surface,
            rid=f"{ID}timer_time_text",
        )
    )
    y = b.top + kit.dp(124)
    card.add(
        Button(
            Rect(b.left + kit.dp(20), y, b.left + kit.dp(140), y + kit.dp(40)),
            act.t("pause" if t.state == 1 else "resume"),
            kit.body_medium,
            p.on_primary,
            p.primary,
            on_click=partial(_pause_timer, act, t),
            rid=f"{ID}timer_pause",
        )
    )
    card.add(
        Button(
            Rect(b.right - kit.dp(140), y, b.right - kit.dp(20), y + kit.dp(40)),
            act.t("delete"),
            kit.body_medium,
            p.primary,
            None,
            on_click=partial(_delete_timer, act, t.id),
            rid=f"{ID}timer_delete",
            outline=p.outline,
        )
    )
    return card


def _start_timer(act: DeskClock) -> None:
    parts = [field(act, f"timer_{k}") or "0" for k in ("hours", "minutes", "seconds")]
    if not all(x.isdigit() for x in parts):
        act.ctx.toast(act.t("invalid_time"))
        return
    h, m, s = (int(x) for x in parts)
    length = ((h * 60 + m) * 60 + s) * 1000
    if length <= 0:
        return
    act.store.db.run(
        "INSERT INTO timers (length_ms, remaining_ms, state, start_time, label) VALUES (?, ?, 1, ?, '')",
        length,
        length,
        epoch_ms(act.ctx.clock.now()),
    )
    for k in ("hours", "minutes", "seconds"):
        act.record.ui.pop(f"text:timer_{k}", None)
    act.record.ui.pop("focus", None)
    act.set_ui("adding_timer", None)


def _pause_timer(act: DeskClock, t: Timer) -> None:
    now = epoch_ms(act.ctx.clock.now())
    if t.state == 1:
        act.store.db.run(
            "UPDATE timers SET state = 2, remaining_ms = ? WHERE _id = ?", remaining(act, t), t.id
        )
    else:
        act.store.db.run("UPDATE timers SET state = 1, start_time = ? WHERE _id = ?", now, t.id)
    act.ctx.invalidate()


def _delete_timer(act: DeskClock, timer_id: int) -> None:
    act.store.db.run("DELETE FROM timers WHERE _id = ?", timer_id)
    act.ctx.invalidate()


def stopwatch(act: DeskClock, area: Rect) -> list[View]:
    kit = act.kit
    p = kit.palette
    state, start, acc, laps = act.store.stopwatch()
    elapsed = acc + (epoch_ms(act.ctx.clock.now()) - start if state == 1 else 0)
    cs = (elapsed // 10) % 100
    views: list[View] = [
        TextView(
            Rect(area.left, area.top + kit.dp(120), area.right, area.top + kit.dp(220)),
            f"{_duration(elapsed)}.{cs:02d}",
            kit.dp(60),
            p.on_surface,
            align="center",
            rid=f"{ID}stopwatch_time_text",
        ),
    ]
    if laps:
        views.append(
            TextView(
                Rect(area.left, area.top + kit.dp(230), area.right, area.top + kit.dp(260)),
                act.t("laps", n=laps),
                kit.body_large,
                p.on_surface_variant,
                align="center",
                rid=f"{ID}laps",
            )
        )
    y = area.bottom - kit.dp(80)
    if state != 0:
        views.append(
            Button(
                Rect(area.left + kit.dp(24), y, area.left + kit.dp(124), y + kit.dp(48)),
                act.t("reset"),
                kit.body_medium,
                p.primary,
                None,
                rid=f"{ID}stopwatch_reset",
                outline=p.outline,
                on_click=partial(_stopwatch_set, act, 0, 0, 0, 0),
            )
        )
    if state == 1:
        views.append(
            Button(
                Rect(area.right - kit.dp(124), y, area.right - kit.dp(24), y + kit.dp(48)),
                act.t("lap"),
                kit.body_medium,
                p.primary,
                None,
                rid=f"{ID}stopwatch_lap",
                outline=p.outline,
                on_click=partial(_stopwatch_set, act, state, start, acc, laps + 1),
            )
        )
    now = epoch_ms(act.ctx.clock.now())
    toggle = (
        partial(_stopwatch_set, act, 2, 0, elapsed, laps)
        if state == 1
        else partial(_stopwatch_set, act, 1, now, acc, laps)
    )
    label = act.t("pause" if state == 1 else "start")
    fab = Fab(
        kit,
        Rect(area.left, area.top, area.center[0] + kit.dp(44), area.bottom),
        "stopwatch",
        label,
        toggle,
        rid=f"{ID}fab",
    )
    views.append(fab)
    return views


def _stopwatch_set(act: DeskClock, state: int, start: int, acc: int, laps: int) -> None:
    act.store.db.run(
        "UPDATE stopwatch SET state = ?, start_time = ?, accumulated_ms = ?, laps = ? WHERE _id = 1",
        state,
        start,
        acc,
        laps,
    )
    act.ctx.invalidate()


class CityPicker(ClockActivity):
    """Select the cities shown on the Clock tab (tap toggles); a search field filters the list."""

    name = "com.android.deskclock.worldclock.CitySelectionActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}cities_activity")
        bar, h = top_bar(
            kit,
            area,
            self.t("select_cities"),
            package="com.android.deskclock",
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        top = area.top + h
        root.add(
            self.text_field(
                Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(52)),
                "query",
                self.t("search_city"),
                rid=f"{ID}search_src_text",
            )
        )
        query = field(self, "query").casefold()
        selected = set(self.store.cities())
        list_area = Rect(area.left, top + kit.dp(60), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        names = sorted(CITIES, key=lambda c: city_name(self, c))
        for city_id in names:
            en, zh, _ = CITIES[city_id]
            if query and query not in en.casefold() and query not in zh:
                continue
            on = city_id in selected
            row = View(
                Rect(list_area.left, y, list_area.right, y + kit.dp(56)),
                class_name=LINEAR,
                rid=f"{ID}city_row",
                checkable=True,
                checked=on,
                on_click=partial(self._toggle, city_id),
            )
            box = Rect(
                list_area.left + kit.dp(20), y + kit.dp(18), list_area.left + kit.dp(40), y + kit.dp(38)
            )
            row.add(
                View(
                    box,
                    bg=p.primary if on else p.outline,
                    radius=kit.dp(3),
                    children=[] if on else [View(box.inset(kit.dp(2)), bg=p.background)],
                )
            )
            row.add(
                TextView(
                    Rect(list_area.left + kit.dp(64), y, list_area.right - kit.dp(16), y + kit.dp(56)),
                    city_name(self, city_id),
                    kit.body_large,
                    p.on_surface,
                    rid=f"{ID}city_name",
                )
            )
            rows.append(row)
            y += kit.dp(56)
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}cities_list"))
        return root

    def _toggle(self, city_id: str) -> None:
        self.store.toggle_city(city_id)
        self.ctx.invalidate()
