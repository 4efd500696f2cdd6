"""A conversation (`com.android.email.ThreadActivity`): its messages with attachments, and the
actions on it - archive, delete (or, in Trash, move back / delete forever), labels, star, reply,
reply all and forward.

Screen state (`record.ui`): `dialog` (`labels`) with the ticked labels in `picked`, `scroll`.
"""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.email.base import COMPOSE, RID, EmailActivity
from spa_bench.phone.apps.email.store import Message, Thread
from spa_bench.phone.apps.files.listing import format_size
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Button, ImageView, Rect, TextView, View


class ThreadActivity(EmailActivity):
    name = "com.android.email.ThreadActivity"

    @property
    def thread(self) -> Thread | None:
        return self.app.store.thread(self.account, int(self.record.args.get("thread_id", 0)))

    @property
    def in_trash(self) -> bool:
        thread = self.thread
        return thread is not None and all(m.folder == "trash" for m in thread.messages)

    def _done(self, toast: str) -> None:
        self.ctx.finish()
        self.ctx.toast(self.t(toast))

    def archive(self) -> None:
        thread = self.thread
        if thread is not None:
            self.app.store.archive(thread.id)
            self._done("archived")

    def delete(self) -> None:
        thread = self.thread
        if thread is None:
            return
        if self.in_trash:
            self.app.store.delete_forever(thread.id)
            self.ctx.finish()
        else:
            self.app.store.trash(thread.id)
            self._done("deleted")

    def restore(self) -> None:
        thread = self.thread
        if thread is not None:
            self.app.store.restore(thread.id, self.account)
            self._done("moved_inbox")

    def toggle_star(self) -> None:
        thread = self.thread
        if thread is not None:
            self.app.store.set_starred(thread.id, not thread.starred)
            self.ctx.invalidate()

    def mark_unread(self) -> None:
        thread = self.thread
        if thread is not None:
            self.app.store.mark_read(thread.id, read=False)
            self.ctx.finish()

    def open_labels(self) -> None:
        thread = self.thread
        if thread is not None:
            self.record.ui["picked"] = list(thread.labels)
            self.set_ui("dialog", "labels")

    def tick(self, label: str) -> None:
        picked = [str(x) for x in self.ui("picked", [])]
        self.set_ui("picked", [x for x in picked if x != label] if label in picked else [*picked, label])

    def apply_labels(self) -> None:
        thread = self.thread
        if thread is not None:
            self.app.store.set_labels(thread.id, [str(x) for x in self.ui("picked", [])])
            self.ctx.toast(self.t("labels_updated"))
        self.record.ui.pop("picked", None)
        self.set_ui("dialog", None)

    def compose(self, mode: str, message: Message) -> None:
        self.ctx.start_activity(COMPOSE, {"mode": mode, "source": message.id})

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "thread")
        thread = self.thread
        bar, bar_h = kit.app_bar(area, "", self.ctx.finish, package="com.android.email")
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if thread is None:
            return root
        s = kit.dp(48)
        actions = (
            [
                ("restore", "restore", self.t("move_to_inbox"), self.restore),
                ("delete", "delete", self.t("delete_forever"), self.delete),
            ]
            if self.in_trash
            else [
                ("archive", "archive", self.t("archive"), self.archive),
                ("delete", "delete", self.t("delete"), self.delete),
                ("label", "label", self.t("label_as"), self.open_labels),
                ("unread", "mail", self.t("mark_unread"), self.mark_unread),
            ]
        )
        x = area.right - kit.dp(4)
        for key, glyph, desc, action in reversed(actions):
            bar.add(
                icon_button(
                    kit,
                    Rect(x - s, area.top + kit.dp(8), x, area.top + kit.dp(8) + s),
                    glyph,
                    desc,
                    action,
                    rid=RID + f"action_{key}",
                )
            )
            x -= s
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top + kit.dp(4)
        width = area.width - kit.dp(32) - s
        title_h = TextView.wrapped_height(thread.subject, kit.title_large, width, 3)
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), y, area.left + kit.dp(16) + width, y + title_h),
                thread.subject,
                kit.title_large,
                p.on_surface,
                max_lines=3,
                rid=RID + "thread_subject",
            )
        )
        star = icon_button(
            kit,
            Rect(area.right - kit.dp(8) - s, y, area.right - kit.dp(8), y + s),
            "star" if thread.starred else "star_outline",
            self.t("unstar" if thread.starred else "star"),
            self.toggle_star,
            rid=RID + "thread_star",
            color=(244, 180, 0) if thread.starred else None,
        )
        star.checkable = True
        star.checked = thread.starred
        rows.append(star)
        y += max(title_h, s) + kit.dp(4)
        if thread.labels:
            x = area.left + kit.dp(16)
            for label in thread.labels:
                from spa_bench.phone.ui.fonts import text_width

                w = round(text_width(label, kit.label)) + kit.dp(16)
                chip = View(
                    Rect(x, y, x + w, y + kit.dp(24)),
                    bg=p.surface_high,
                    radius=kit.dp(4),
                    rid=RID + "label_chip",
                )
                chip.add(
                    TextView(
                        chip.bounds,
                        label,
                        kit.label,
                        p.on_surface_variant,
                        align="center",
                        rid=RID + "label_name",
                    )
                )
                rows.append(chip)
                x += w + kit.dp(8)
            y += kit.dp(32)
        for message in thread.messages:
            y = self._message(rows, list_area, y, message)
        root.add(self.scroll_list(list_area, rows, rid=RID + "message_list", padding_bottom=kit.dp(16)))
        if self.ui("dialog") == "labels":
            root.add(self._labels_dialog(area))
        return root

    def _message(self, rows: list[View], area: Rect, y: int, m: Message) -> int:
        kit = self.kit
        p = kit.palette
        rows.append(View(Rect(area.left, y, area.right, y + 1), bg=p.divider))
        y += kit.dp(12)
        s = kit.dp(40)
        left = area.left + kit.dp(72)
        right = area.right - kit.dp(16)
        mine = m.from_addr == self.account
        rows.append(
            self.avatar(Rect(area.left + kit.dp(16), y, area.left + kit.dp(16) + s, y + s), m.from_name)
        )
        rows.append(
            TextView(
                Rect(left, y, right - kit.dp(120), y + kit.dp(22)),
                m.from_name,
                kit.body_large,
                p.on_surface,
                bold=True,
                rid=RID + "from_name",
            )
        )
        rows.append(
            TextView(
                Rect(right - kit.dp(120), y, right, y + kit.dp(22)),
                self.short_date(m.timestamp),
                kit.label,
                p.on_surface_variant,
                align="right",
                rid=RID + "date",
            )
        )
        to = self.t("to_me") if not mine and self.account in m.to else self.t("to_names", names=m.to)
        rows.append(
            TextView(
                Rect(left, y + kit.dp(22), right, y + kit.dp(42)),
                f"{m.from_addr} · {to}",
                kit.label,
                p.on_surface_variant,
                rid=RID + "to",
            )
        )
        y += kit.dp(46)
        if m.cc:
            rows.append(
                TextView(
                    Rect(left, y, right, y + kit.dp(20)),
                    f"{self.t('cc')}: {m.cc}",
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "cc",
                )
            )
            y += kit.dp(22)
        rows.append(
            TextView(
                Rect(left, y, right, y + kit.dp(20)),
                self.long_date(m.timestamp),
                kit.label,
                p.on_surface_variant,
                rid=RID + "long_date",
            )
        )
        y += kit.dp(28)
        width = area.width - kit.dp(32)
        for para in m.body.split("\n"):
            h = TextView.wrapped_height(para or " ", kit.body_large, width, 12)
            rows.append(
                TextView(
                    Rect(area.left + kit.dp(16), y, area.left + kit.dp(16) + width, y + h),
                    para,
                    kit.body_large,
                    p.on_surface,
                    max_lines=12,
                    rid=RID + "body",
                )
            )
            y += h
        y += kit.dp(8)
        for a in m.attachments:
            card = View(
                Rect(area.left + kit.dp(16), y, right, y + kit.dp(56)),
                class_name=LINEAR,
                bg=p.surface_high,
                radius=kit.dp(8),
                rid=RID + "attachment",
                desc=a.name,
            )
            cy = y + kit.dp(28)
            g = kit.dp(28)
            card.add(
                ImageView(
                    Rect(area.left + kit.dp(28), cy - g // 2, area.left + kit.dp(28) + g, cy + g // 2),
                    "file",
                    p.primary,
                )
            )
            card.add(
                TextView(
                    Rect(area.left + kit.dp(68), y + kit.dp(6), right - kit.dp(12), y + kit.dp(30)),
                    a.name,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "attachment_name",
                )
            )
            card.add(
                TextView(
                    Rect(area.left + kit.dp(68), y + kit.dp(30), right - kit.dp(12), y + kit.dp(50)),
                    format_size(a.size),
                    kit.label,
                    p.on_surface_variant,
                )
            )
            rows.append(card)
            y += kit.dp(64)
        bw = (area.width - kit.dp(48)) // 3
        x = area.left + kit.dp(16)
        for key in ("reply", "reply_all", "forward"):
            btn = Button(
                Rect(x, y, x + bw, y + kit.dp(40)),
                self.t(key),
                kit.body_medium,
                p.primary,
                None,
                outline=p.outline,
                on_click=partial(self.compose, key, m),
                rid=RID + key,
            )
            rows.append(btn)
            x += bw + kit.dp(8)
        return y + kit.dp(56)

    def _labels_dialog(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        picked = [str(x) for x in self.ui("picked", [])]
        width = area.width - kit.dp(96)
        body: list[View] = []
        y = 0
        for label in self.app.store.labels(self.account):
            on = label in picked
            row = View(
                Rect(0, y, width, y + kit.dp(48)),
                class_name="android.widget.CheckBox",
                rid=RID + "label_option",
                text=label,
                checkable=True,
                checked=on,
                on_click=partial(self.tick, label),
            )
            b = kit.dp(20)
            box = Rect(kit.dp(4), y + kit.dp(14), kit.dp(4) + b, y + kit.dp(14) + b)
            row.add(View(box, bg=p.primary if on else None, radius=kit.dp(3)))
            if on:
                row.add(ImageView(box, "check", p.on_primary))
            else:
                row.add(_Outline(box, p.on_surface_variant))
            row.add(TextView(Rect(kit.dp(40), y, width, y + kit.dp(48)), label, kit.body_large, p.on_surface))
            body.append(row)
            y += kit.dp(48)
        return kit.dialog(
            area,
            self.t("label_as"),
            body,
            [(self.t("cancel"), partial(self.set_ui, "dialog", None)), (self.t("ok"), self.apply_labels)],
            partial(self.set_ui, "dialog", None),
            body_height=y,
        )


class _Outline(View):
    """An empty check box."""

    def __init__(self, bounds: Rect, color: tuple[int, int, int]) -> None:
        super().__init__(bounds, class_name=FRAME)
        self.color = color

    def paint(self, canvas: object) -> None:
        from spa_bench.phone.ui import Canvas

        assert isinstance(canvas, Canvas)
        canvas.fill(self.bounds, (0, 0, 0, 0), 3, outline=self.color, width=max(2, self.bounds.height // 10))


__all__ = ["ThreadActivity"]
