"""Call details (`CallDetailsActivity`): one number's calls with call, copy, block and delete actions;
and the blocked-numbers list (`BlockedNumbersActivity`, Telecom's screen in AOSP) with add and unblock."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.contacts.pim import Avatar, icon_button, top_bar
from spa_bench.phone.apps.dialer.base import PACKAGE, RID, TYPE_GLYPHS, DialerActivity
from spa_bench.phone.system.blocked_numbers import same_number
from spa_bench.phone.ui import LINEAR, Button, Callback, ImageView, Rect, TextView, View


class CallDetailsActivity(DialerActivity):
    name = "com.android.dialer.calldetails.CallDetailsActivity"

    @property
    def number(self) -> str:
        return str(self.record.args.get("number", ""))

    def blocked(self) -> bool:
        return any(same_number(n, self.number) for n in self.ctx.telecom.blocked_numbers())

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "call_details")
        rows = self.app.calls.of_number(self.number)
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("call_details"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
            actions=[("delete", self.t("delete_history"), self._delete_all, "call_detail_delete_menu_item")],
        )
        root.add(bar)
        name = self.app.contacts.name_for_number(self.number) or (
            rows[0].name if rows and rows[0].name else ""
        )
        y = area.top + bar_h + kit.dp(8)
        s = kit.dp(72)
        cx = area.center[0]
        root.add(Avatar(kit, Rect(cx - s // 2, y, cx + s // 2, y + s), name or "#"))
        y += s + kit.dp(8)
        root.add(
            TextView(
                Rect(area.left, y, area.right, y + kit.dp(36)),
                name or self.number,
                kit.dp(24),
                p.on_surface,
                align="center",
                rid=RID + "contact_name",
            )
        )
        y += kit.dp(36)
        if name:
            root.add(
                TextView(
                    Rect(area.left, y, area.right, y + kit.dp(24)),
                    self.number,
                    kit.body_medium,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "phone_number",
                )
            )
            y += kit.dp(28)
        y += kit.dp(8)
        actions: list[tuple[str, str, Callback, str]] = [
            ("call", self.t("call"), partial(self.place_call, self.number), "call_detail_action_call"),
            ("copy", self.t("copy_number"), self._copy, "call_detail_action_copy"),
            (
                "block",
                self.t("unblock_number" if self.blocked() else "block_number"),
                self._block,
                "call_detail_action_block",
            ),
        ]
        w = area.width // len(actions)
        for i, (glyph, label, cb, rid) in enumerate(actions):
            left = area.left + i * w
            cell = View(
                Rect(left, y, left + w, y + kit.dp(76)),
                class_name=LINEAR,
                rid=RID + rid,
                desc=label,
                on_click=cb,
            )
            b = kit.dp(40)
            c = left + w // 2
            cell.add(
                ImageView(Rect(c - b // 2, y + kit.dp(4), c + b // 2, y + kit.dp(4) + b), glyph, p.primary)
            )
            cell.add(
                TextView(
                    Rect(left, y + kit.dp(48), left + w, y + kit.dp(72)),
                    label,
                    kit.label,
                    p.primary,
                    align="center",
                )
            )
            root.add(cell)
        y += kit.dp(88)
        root.add(View(Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + 1), bg=p.divider))
        y += kit.dp(8)
        items: list[View] = []
        top = y
        for row in rows:
            line = View(
                Rect(area.left, top, area.right, top + kit.dp(64)),
                class_name=LINEAR,
                rid=RID + "call_detail_entry",
            )
            g = kit.dp(20)
            line.add(
                ImageView(
                    Rect(
                        area.left + kit.dp(24),
                        top + kit.dp(22),
                        area.left + kit.dp(24) + g,
                        top + kit.dp(22) + g,
                    ),
                    TYPE_GLYPHS.get(row.type, "call"),
                    p.error if row.type in (3, 5) else p.on_surface_variant,
                )
            )
            line.add(
                TextView(
                    Rect(area.left + kit.dp(64), top + kit.dp(8), area.right - kit.dp(16), top + kit.dp(34)),
                    self.t(f"type_{row.type}"),
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "call_type",
                )
            )
            extra = self.when(row.when)
            if row.type in (1, 2):
                extra += " · " + self.duration(row.duration_s)
            line.add(
                TextView(
                    Rect(area.left + kit.dp(64), top + kit.dp(34), area.right - kit.dp(16), top + kit.dp(58)),
                    extra,
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "call_time",
                )
            )
            items.append(line)
            top += kit.dp(64)
        root.add(self.scroll_list(Rect(area.left, y, area.right, area.bottom), items, rid=RID + "history"))
        if self.ui("dialog") == "block":
            root.add(
                kit.dialog(
                    area,
                    self.t("block_q", number=self.number),
                    self.t("block_body"),
                    [(self.t("cancel"), self.setter("dialog", None)), (self.t("block"), self._confirm_block)],
                    self.setter("dialog", None),
                )
            )
        return root

    def _copy(self) -> None:
        self.ctx.set_clipboard(self.number)
        self.ctx.toast(self.t("copied"))

    def _block(self) -> None:
        if self.blocked():
            self.ctx.telecom.unblock(self.number)
            self.ctx.toast(self.t("unblocked", number=self.number))
        else:
            self.set_ui("dialog", "block")

    def _confirm_block(self) -> None:
        self.ctx.telecom.block(self.number)
        self.set_ui("dialog", None)
        self.ctx.toast(self.t("blocked", number=self.number))

    def _delete_all(self) -> None:
        self.app.calls.delete([r.id for r in self.app.calls.of_number(self.number)])
        self.ctx.toast(self.t("deleted"))
        self.ctx.finish()


class BlockedNumbersActivity(DialerActivity):
    name = "com.android.dialer.blocking.BlockedNumbersActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "blocked_numbers")
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("blocked_numbers"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        y = area.top + bar_h
        root.add(
            Button(
                Rect(area.left + kit.dp(16), y + kit.dp(8), area.left + kit.dp(200), y + kit.dp(56)),
                self.t("add_number"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self.setter("dialog", "add"),
                rid=RID + "add_blocked_number",
            )
        )
        y += kit.dp(72)
        rows: list[View] = []
        top = y
        for number in self.ctx.telecom.blocked_numbers():
            row = View(
                Rect(area.left, top, area.right, top + kit.dp(56)), class_name=LINEAR, rid=RID + "blocked_row"
            )
            row.add(
                TextView(
                    Rect(area.left + kit.dp(24), top, area.right - kit.dp(72), top + kit.dp(56)),
                    number,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "blocked_number",
                )
            )
            b = kit.dp(48)
            row.add(
                icon_button(
                    kit,
                    Rect(
                        area.right - kit.dp(8) - b,
                        top + kit.dp(4),
                        area.right - kit.dp(8),
                        top + kit.dp(4) + b,
                    ),
                    "close",
                    f"{self.t('unblock')} {number}",
                    partial(self._unblock, number),
                    rid=RID + "unblock",
                )
            )
            rows.append(row)
            top += kit.dp(56)
        if not rows:
            rows.append(
                TextView(
                    Rect(area.left, y + kit.dp(24), area.right, y + kit.dp(72)),
                    self.t("no_blocked"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(
            self.scroll_list(Rect(area.left, y, area.right, area.bottom), rows, rid=RID + "blocked_list")
        )
        if self.ui("dialog") == "add":
            width = area.width - kit.dp(96)
            field = self.text_field(
                Rect(0, 0, width, kit.dp(52)),
                "number",
                self.t("number_hint"),
                rid=RID + "blocked_number_input",
                on_submit=self._add,
            )
            root.add(
                kit.dialog(
                    area,
                    self.t("add_number"),
                    [field],
                    [(self.t("cancel"), self._close), (self.t("block"), self._add)],
                    self._close,
                    body_height=kit.dp(52),
                )
            )
        return root

    def _close(self) -> None:
        self.record.ui.pop("focus", None)
        self.record.ui.pop("text:number", None)
        self.set_ui("dialog", None)

    def _add(self) -> None:
        number = str(self.ui("text:number", "")).strip()
        if number:
            self.ctx.telecom.block(number)
            self.ctx.toast(self.t("blocked", number=number))
        self._close()

    def _unblock(self, number: str) -> None:
        self.ctx.telecom.unblock(number)
        self.ctx.toast(self.t("unblocked", number=number))
