"""Calendar's main screen (`AllInOneActivity`): a day view (the default, like the schedule a phone
opens on) and a month grid; arrows move by a day or a month, tapping a day in the grid opens it."""

from __future__ import annotations

from datetime import date, timedelta
from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.calendar.store import CalendarStore, Event
from spa_bench.phone.apps.calendar.strings import MONTHS, WEEK_LETTERS, WEEKDAYS
from spa_bench.phone.apps.contacts.pim import Fab, format_time, top_bar, use_24h
from spa_bench.phone.ui import LINEAR, Callback, Rect, TextView, View

PACKAGE = "com.android.calendar"
ID = f"{PACKAGE}:id/"


class CalendarActivity(Activity):
    @property
    def store(self) -> CalendarStore:
        store: CalendarStore = self.app.store  # type: ignore[attr-defined]
        return store

    def today(self) -> date:
        return self.ctx.clock.now().date()

    def month_title(self, day: date) -> str:
        month = f"{day.month}月" if self.ctx.locale == "zh" else MONTHS[day.month - 1]
        return self.t("month_title", month=month, year=day.year)

    def long_date(self, day: date) -> str:
        weekday = WEEKDAYS[day.weekday()]
        if self.ctx.locale == "zh":
            return f"{day.year}年{day.month}月{day.day}日 {weekday[1]}"
        return f"{weekday[0]}, {MONTHS[day.month - 1]} {day.day}, {day.year}"

    def time_range(self, e: Event) -> str:
        if e.all_day:
            return self.t("all_day")
        h24 = use_24h(self.ctx)
        return (
            f"{format_time(e.start.hour, e.start.minute, h24)} – {format_time(e.end.hour, e.end.minute, h24)}"
        )


class AllInOne(CalendarActivity):
    name = "com.android.calendar.AllInOneActivity"

    def selected(self) -> date:
        value = self.ui("day")
        return date.fromisoformat(value) if value else self.today()

    def build(self, area: Rect) -> View:
        kit = self.kit
        day = self.selected()
        month_view = self.ui("view") == "month"
        root = View(area, class_name=LINEAR, rid=f"{ID}main_frame")
        actions: list[tuple[str, str, Callback, str]] = [
            ("chevron_left", self.t("previous"), partial(self._move, -1), "prev"),
            ("chevron_right", self.t("next"), partial(self._move, 1), "next"),
            ("calendar", self.t("today"), self._today, "action_today"),
            (
                "menu",
                self.t("day_view" if month_view else "month_view"),
                self.setter("view", None if month_view else "month"),
                "action_view",
            ),
        ]
        bar, h = top_bar(kit, area, self.month_title(day), package=PACKAGE, actions=actions)
        root.add(bar)
        body = Rect(area.left, area.top + h, area.right, area.bottom)
        if month_view:
            root.extend(self._month(body, day))
        else:
            root.extend(self._day(body, day))
        root.add(
            Fab(
                kit,
                area,
                "plus",
                self.t("new_event"),
                lambda: self.ctx.start_activity(
                    "com.android.calendar.event.EditEventActivity", {"day": self.selected().isoformat()}
                ),
                rid=f"{ID}floating_action_button",
            )
        )
        return root

    def _move(self, step: int) -> None:
        day = self.selected()
        if self.ui("view") == "month":
            month = day.month - 1 + step
            year = day.year + month // 12
            day = date(year, month % 12 + 1, 1)
        else:
            day += timedelta(days=step)
        self.set_ui("day", day.isoformat())

    def _today(self) -> None:
        self.set_ui("day", None)

    def _open_day(self, day: date) -> None:
        self.record.ui["view"] = None
        self.record.ui.pop("view")
        self.set_ui("day", day.isoformat())

    def _day(self, area: Rect, day: date) -> list[View]:
        kit = self.kit
        p = kit.palette
        header = TextView(
            Rect(area.left + kit.dp(24), area.top, area.right - kit.dp(16), area.top + kit.dp(48)),
            self.long_date(day),
            kit.dp(20),
            p.primary if day == self.today() else p.on_surface,
            rid=f"{ID}date_header",
            bold=day == self.today(),
        )
        list_area = Rect(area.left, area.top + kit.dp(52), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        events = self.store.on_day(day)
        for e in events:
            rows.append(self._event_row(list_area, y, e))
            y = rows[-1].bounds.bottom + kit.dp(8)
        if not events:
            rows.append(
                TextView(
                    Rect(list_area.left, y + kit.dp(32), list_area.right, y + kit.dp(80)),
                    self.t("no_events"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=f"{ID}empty",
                )
            )
        return [
            header,
            self.scroll_list(list_area, rows, key="day_scroll", rid=f"{ID}events", padding_bottom=kit.dp(96)),
        ]

    def _event_row(self, area: Rect, top: int, e: Event) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(88 if e.location else 64)
        rect = Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + h)
        row = View(
            rect,
            class_name=LINEAR,
            rid=f"{ID}event_row",
            bg=p.primary_container,
            radius=kit.dp(12),
            on_click=lambda: self.ctx.start_activity("com.android.calendar.EventInfoActivity", {"id": e.id}),
        )
        fg = p.on_primary_container
        x = rect.left + kit.dp(16)
        row.add(
            TextView(
                Rect(x, rect.top + kit.dp(8), rect.right - kit.dp(12), rect.top + kit.dp(34)),
                e.title,
                kit.body_large,
                fg,
                rid=f"{ID}event_title",
                bold=True,
            )
        )
        row.add(
            TextView(
                Rect(x, rect.top + kit.dp(34), rect.right - kit.dp(12), rect.top + kit.dp(58)),
                self.time_range(e),
                kit.body_medium,
                fg,
                rid=f"{ID}event_time",
            )
        )
        if e.location:
            row.add(
                TextView(
                    Rect(x, rect.top + kit.dp(58), rect.right - kit.dp(12), rect.top + kit.dp(82)),
                    e.location,
                    kit.body_medium,
                    fg,
                    rid=f"{ID}event_location",
                )
            )
        return row

    def _month(self, area: Rect, day: date) -> list[View]:
        kit = self.kit
        p = kit.palette
        first = day.replace(day=1)
        grid_start = first - timedelta(days=first.weekday())
        events = self.store.between(grid_start, grid_start + timedelta(days=41))
        views: list[View] = []
        cw = area.width // 7
        for i in range(7):
            letter = WEEK_LETTERS[i][1 if self.ctx.locale == "zh" else 0]
            views.append(
                TextView(
                    Rect(area.left + i * cw, area.top, area.left + (i + 1) * cw, area.top + kit.dp(28)),
                    letter,
                    kit.label,
                    p.on_surface_variant,
                    align="center",
                )
            )
        top = area.top + kit.dp(32)
        ch = (area.bottom - top - kit.dp(8)) // 6
        today = self.today()
        for n in range(42):
            d = grid_start + timedelta(days=n)
            r, c = divmod(n, 7)
            cell = Rect(area.left + c * cw, top + r * ch, area.left + (c + 1) * cw, top + (r + 1) * ch)
            label = self.long_date(d)
            box = View(
                cell,
                rid=f"{ID}month_day",
                desc=label,
                on_click=partial(self._open_day, d),
                selected=d == day,
                class_name=LINEAR,
            )
            box.add(View(Rect(cell.left, cell.top, cell.right, cell.top + 1), bg=p.divider))
            s = kit.dp(28)
            num = Rect(
                cell.center[0] - s // 2,
                cell.top + kit.dp(4),
                cell.center[0] + s // 2,
                cell.top + kit.dp(4) + s,
            )
            if d == today:
                box.add(View(num, bg=p.primary, radius=s // 2))
            color = p.on_primary if d == today else (p.on_surface if d.month == day.month else p.outline)
            box.add(TextView(num, str(d.day), kit.label, color, align="center", rid=f"{ID}day_number"))
            y = num.bottom + kit.dp(2)
            for e in [e for e in events if e.start.date() <= d <= (e.end - timedelta(milliseconds=1)).date()][
                :3
            ]:
                chip = Rect(cell.left + kit.dp(2), y, cell.right - kit.dp(2), y + kit.dp(16))
                if chip.bottom > cell.bottom:
                    break
                box.add(View(chip, bg=p.primary_container, radius=kit.dp(3)))
                box.add(TextView(chip.inset(kit.dp(2), 0), e.title, kit.dp(10), p.on_primary_container))
                y = chip.bottom + kit.dp(2)
            views.append(box)
        return views
