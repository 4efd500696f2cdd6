"""Calendar's event page (`EventInfoActivity`) and editor (`EditEventActivity`). The editor takes the
date as YYYY-MM-DD and the times as text (`14:30`, `2:30 PM`), the keyboard-input form of the pickers."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import partial

from spa_bench.phone.apps.calendar.screens import ID, PACKAGE, CalendarActivity
from spa_bench.phone.apps.contacts.pim import field, form, parse_time, prefill, top_bar
from spa_bench.phone.ui import LINEAR, Button, EditText, ImageView, Rect, TextView, View


class EventInfo(CalendarActivity):
    name = "com.android.calendar.EventInfoActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}event_info")
        e = self.store.get(int(self.record.args.get("id", 0)))
        actions = []
        if e is not None:
            actions = [
                (
                    "pencil",
                    self.t("edit_event"),
                    lambda: self.ctx.start_activity(EditEvent.name, {"id": e.id}),
                    "edit",
                ),
                ("delete", self.t("delete_event"), self.setter("dialog", "delete"), "delete"),
            ]
        bar, h = top_bar(
            kit,
            area,
            "",
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
            actions=actions,
        )
        root.add(bar)
        if e is None:
            return root
        x = area.left + kit.dp(72)
        y = area.top + h + kit.dp(8)
        root.add(
            View(
                Rect(area.left + kit.dp(28), y + kit.dp(10), area.left + kit.dp(48), y + kit.dp(30)),
                bg=p.primary,
                radius=kit.dp(4),
            )
        )
        title_h = TextView.wrapped_height(e.title, kit.dp(26), area.right - kit.dp(16) - x, 3)
        root.add(
            TextView(
                Rect(x, y, area.right - kit.dp(16), y + title_h),
                e.title,
                kit.dp(26),
                p.on_surface,
                rid=f"{ID}title",
                max_lines=3,
            )
        )
        y += title_h + kit.dp(8)
        when = self.long_date(e.start.date()) + "\n" + self.time_range(e)
        root.add(
            TextView(
                Rect(x, y, area.right - kit.dp(16), y + kit.dp(48)),
                when,
                kit.body_medium,
                p.on_surface_variant,
                rid=f"{ID}when_datetime",
                max_lines=2,
            )
        )
        y += kit.dp(64)
        for icon, text, rid in (("location", e.location, "where"), ("pencil", e.description, "description")):
            if not text:
                continue
            s = kit.dp(24)
            root.add(
                ImageView(
                    Rect(
                        area.left + kit.dp(26), y + kit.dp(4), area.left + kit.dp(26) + s, y + kit.dp(4) + s
                    ),
                    icon,
                    p.on_surface_variant,
                )
            )
            th = TextView.wrapped_height(text, kit.body_large, area.right - kit.dp(16) - x, 4)
            root.add(
                TextView(
                    Rect(x, y, area.right - kit.dp(16), y + th),
                    text,
                    kit.body_large,
                    p.on_surface,
                    rid=f"{ID}{rid}",
                    max_lines=4,
                )
            )
            y += th + kit.dp(20)
        if self.ui("dialog") == "delete":
            root.add(
                kit.dialog(
                    area,
                    self.t("delete_title"),
                    e.title,
                    [
                        (self.t("cancel"), self.setter("dialog", None)),
                        (self.t("delete"), partial(self._delete, e.id)),
                    ],
                    self.setter("dialog", None),
                )
            )
        return root

    def _delete(self, event_id: int) -> None:
        self.store.delete(event_id)
        self.ctx.toast(self.t("deleted"))
        self.ctx.finish()


class EditEvent(CalendarActivity):
    name = "com.android.calendar.event.EditEventActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        event_id = self.record.args.get("id")
        e = self.store.get(int(event_id)) if event_id is not None else None
        if e is not None:
            prefill(
                self,
                {
                    "title": e.title,
                    "date": e.start.date().isoformat(),
                    "start": f"{e.start.hour:02d}:{e.start.minute:02d}",
                    "end": f"{e.end.hour:02d}:{e.end.minute:02d}",
                    "location": e.location,
                    "description": e.description,
                },
            )
        else:
            day = str(self.record.args.get("day") or self.today().isoformat())
            nxt = (self.ctx.clock.now().hour + 1) % 24
            prefill(self, {"date": day, "start": f"{nxt:02d}:00", "end": f"{(nxt + 1) % 24:02d}:00"})
        root = View(area, class_name=LINEAR, rid=f"{ID}edit_event")
        bar, h = top_bar(
            kit,
            area,
            self.t("edit_event" if e is not None else "new_event"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("cancel"),
        )
        bar.children[0].icon = "close"  # type: ignore[attr-defined]
        w = kit.dp(88)
        top = area.top + kit.dp(12)
        bar.add(
            Button(
                Rect(area.right - kit.dp(16) - w, top, area.right - kit.dp(16), top + kit.dp(40)),
                self.t("save"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self._save,
                rid=f"{ID}action_done",
            )
        )
        root.add(bar)
        fields = [
            ("title", self.t("title"), "title"),
            ("date", self.t("date"), "start_date"),
            ("start", self.t("start_time"), "start_time"),
            ("end", self.t("end_time"), "end_time"),
            ("location", self.t("location"), "location"),
            ("description", self.t("description"), "description"),
        ]
        list_area = Rect(area.left, area.top + h, area.right, area.bottom)
        views, _ = form(self, area, list_area.top + kit.dp(8), fields, PACKAGE)
        self._reveal_focus(views, list_area)
        root.add(
            self.scroll_list(
                list_area, views, key="form_scroll", rid=f"{ID}scroll_view", padding_bottom=kit.dp(16)
            )
        )
        return root

    def _reveal_focus(self, views: list[View], area: Rect) -> None:
        """Scroll the focused field into view when the keyboard shrinks the window (adjustResize)."""
        focus = self.ui("focus")
        offset = int(self.ui("form_scroll", 0))
        for v in views:
            if isinstance(v, EditText) and v.key == focus:
                if v.bounds.bottom - offset > area.bottom:
                    offset = v.bounds.bottom - area.bottom + self.kit.dp(8)
                elif v.bounds.top - self.kit.dp(24) - offset < area.top:
                    offset = max(0, v.bounds.top - self.kit.dp(24) - area.top)
        self.record.ui["form_scroll"] = offset

    def _save(self) -> None:
        try:
            day = date.fromisoformat(field(self, "date"))
        except ValueError:
            self.ctx.toast(self.t("invalid"))
            return
        start, end = parse_time(field(self, "start")), parse_time(field(self, "end"))
        if start is None or end is None:
            self.ctx.toast(self.t("invalid"))
            return
        begin = datetime.combine(day, datetime.min.time()) + timedelta(hours=start[0], minutes=start[1])
        finish = datetime.combine(day, datetime.min.time()) + timedelta(hours=end[0], minutes=end[1])
        if finish <= begin:
            finish += timedelta(days=1) if end < start else timedelta(hours=1)
        event_id = self.record.args.get("id")
        self.store.save(
            int(event_id) if event_id is not None else None,
            field(self, "title"),
            begin,
            finish,
            field(self, "location"),
            field(self, "description"),
        )
        self.ctx.toast(self.t("saved"))
        self.ctx.finish()
