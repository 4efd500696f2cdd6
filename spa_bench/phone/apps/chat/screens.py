"""The Chat app's screens: the main screen (chats, contacts, me), a conversation, and the share
target that the Shop's Share button opens."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.chat.seed import ME
from spa_bench.phone.apps.chat.store import Contact, Message
from spa_bench.phone.apps.shop.strings import price as price_text
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, icon_button, thumbnail
from spa_bench.phone.ui import FRAME, LINEAR, Button, Callback, Rect, ScrollList, TextView, View, tone
from spa_bench.phone.ui.fonts import text_width

if TYPE_CHECKING:
    from spa_bench.phone.apps.chat import ChatApp

PACKAGE = "com.spa.chat"
RID = f"{PACKAGE}:id/"
CONVERSATION = "com.spa.chat.ConversationActivity"
GREEN = (149, 236, 105)  # the sender's bubble, as in WeChat


class ChatActivity(Activity):
    app: ChatApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def when(self, ms: int, long: bool = False) -> str:
        t = datetime.fromtimestamp(ms / 1000, UTC)
        now = self.ctx.clock.now()
        if t.date() == now.date():
            return t.strftime("%H:%M")
        if self.ctx.locale == "zh":
            day = f"{t.year}/{t.month}/{t.day}"
        else:
            day = f"{t.month}/{t.day}/{t.strftime('%y')}"
        return f"{day} {t:%H:%M}" if long else day

    def avatar(self, rect: Rect, contact: Contact) -> View:
        bg, fg = tone(contact.hue, self.kit.palette.dark)
        tile = View(rect, bg=bg, radius=self.kit.dp(8), rid=RID + "avatar")
        initial = (
            contact.name[:1]
            if not contact.name[:1].isascii()
            else "".join(w[0] for w in contact.name.split()[:2])
        )
        tile.add(TextView(rect, initial, rect.height * 2 // 5, fg, align="center", bold=True))
        return tile

    def preview(self, message: Message) -> str:
        if message.type == "product":
            return f"[{self.t('product_card')}] {message.body}"
        if message.type == "image":
            return f"[{self.t('photo')}] {message.body}"
        return message.body

    def contact_row(
        self,
        area: Rect,
        top: int,
        contact: Contact,
        subtitle: str,
        on_click: Callback,
        rid: str = "contact_item",
        trailing: str = "",
        badge: int = 0,
    ) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        row = View(
            Rect(area.left, top, area.right, top + h), class_name=LINEAR, rid=RID + rid, on_click=on_click
        )
        s = kit.dp(48)
        row.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(12), area.left + kit.dp(16) + s, top + kit.dp(12) + s
                ),
                contact,
            )
        )
        left = area.left + kit.dp(80)
        right = area.right - kit.dp(16)
        title_top = top + (kit.dp(12) if subtitle else kit.dp(22))
        row.add(
            TextView(
                Rect(left, title_top, right - kit.dp(96), title_top + kit.dp(28)),
                contact.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "name",
            )
        )
        if subtitle:
            row.add(
                TextView(
                    Rect(left, top + kit.dp(40), right - kit.dp(28), top + kit.dp(62)),
                    subtitle,
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "subtitle",
                )
            )
        if trailing:
            row.add(
                TextView(
                    Rect(right - kit.dp(96), top + kit.dp(12), right, top + kit.dp(36)),
                    trailing,
                    kit.label,
                    p.on_surface_variant,
                    align="right",
                    rid=RID + "time",
                )
            )
        if badge:
            b = kit.dp(20)
            dot = View(
                Rect(right - b, top + kit.dp(40), right, top + kit.dp(40) + b),
                bg=p.error,
                radius=b // 2,
                rid=RID + "unread",
            )
            dot.add(TextView(dot.bounds, str(badge), kit.dp(12), (255, 255, 255), align="center"))
            row.add(dot)
        row.add(View(Rect(left, top + h - 1, area.right, top + h), bg=p.divider))
        return row


class MainActivity(ChatActivity):
    name = "com.spa.chat.MainActivity"

    @property
    def tab(self) -> str:
        return str(self.ui("tab", "chats"))

    def switch(self, tab: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("tab", tab)

    def on_back(self) -> bool:
        if self.ui("searching"):
            self.record.ui.pop("text:query", None)
            self.set_ui("searching", None)
            return True
        if self.tab != "chats":
            self.switch("chats")
            return True
        return super().on_back()

    def open_chat(self, contact: Contact) -> None:
        self.ctx.start_activity(CONVERSATION, {"contact_id": contact.id})

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "main")
        items = [
            NavItem(
                k,
                self.t(f"tab_{k}"),
                g,
                k == self.tab,
                partial(self.switch, k),
                sum(c.unread for c in self.app.store.chats()) if k == "chats" else 0,
            )
            for k, g in (("chats", "chat"), ("contacts", "person"), ("me", "info"))
        ]
        nav, nav_h = bottom_nav(kit, area, items, PACKAGE)
        bar_h = kit.dp(64)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "toolbar", bg=p.surface_high)
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        if self.ui("searching"):
            bar.add(
                icon_button(
                    kit,
                    Rect(area.left + kit.dp(4), top, area.left + kit.dp(4) + s, top + s),
                    "arrow_back",
                    self.t("navigate_up"),
                    self._close_search,
                    rid=RID + "search_back",
                )
            )
            bar.add(
                self.text_field(
                    Rect(area.left + kit.dp(60), top, area.right - kit.dp(16), top + s),
                    "query",
                    self.t("search_hint"),
                    rid=RID + "search_src_text",
                    on_submit=self._submit,
                )
            )
        else:
            bar.add(
                TextView(
                    Rect(area.left + kit.dp(16), area.top, area.right - kit.dp(64), area.top + bar_h),
                    self.t("app_name") if self.tab == "chats" else self.t(f"tab_{self.tab}"),
                    kit.title_large,
                    p.on_surface,
                    rid="android:id/title",
                    bold=True,
                )
            )
            bar.add(
                icon_button(  # icon only, no content description (NAF in a dump), as in many chat apps
                    kit,
                    Rect(area.right - kit.dp(4) - s, top, area.right - kit.dp(4), top + s),
                    "search",
                    "",
                    self._start_search,
                    rid=RID + "action_search",
                )
            )
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom - nav_h)
        if self.ui("searching"):
            root.add(self._search_results(body))
        elif self.tab == "chats":
            root.add(self._chats(body))
        elif self.tab == "contacts":
            root.add(self._contacts(body))
        else:
            root.add(self._me(body))
        root.add(bar)
        root.add(nav)
        return root

    def _start_search(self) -> None:
        self.record.ui["focus"] = "query"
        self.ctx.show_keyboard()
        self.set_ui("searching", True)

    def _close_search(self) -> None:
        self.on_back()

    def _submit(self) -> None:
        self.record.ui.pop("focus", None)
        self.ctx.invalidate()

    def _chats(self, area: Rect) -> View:
        rows: list[View] = []
        y = area.top
        for chat in self.app.store.chats():
            row = self.contact_row(
                area,
                y,
                chat.contact,
                self.preview(chat.last),
                partial(self.open_chat, chat.contact),
                rid="conversation_item",
                trailing=self.when(chat.last.timestamp),
                badge=chat.unread,
            )
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "conversation_list")

    def _contacts(self, area: Rect) -> View:
        rows: list[View] = []
        y = area.top
        for contact in self.app.store.contacts():
            row = self.contact_row(area, y, contact, "", partial(self.open_chat, contact))
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows, rid=RID + "contact_list")

    def _search_results(self, area: Rect) -> View:
        query = str(self.ui("text:query", "")).strip().casefold()
        rows: list[View] = []
        y = area.top
        if query:
            for contact in self.app.store.contacts():
                if query in contact.name.casefold():
                    row = self.contact_row(area, y, contact, contact.phone, partial(self.open_chat, contact))
                    rows.append(row)
                    y = row.bounds.bottom
            if not rows:
                rows.append(
                    TextView(
                        Rect(area.left, y + self.kit.dp(32), area.right, y + self.kit.dp(80)),
                        self.t("no_results"),
                        self.kit.body_large,
                        self.kit.palette.on_surface_variant,
                        align="center",
                        rid=RID + "empty",
                    )
                )
        return self.scroll_list(area, rows, rid=RID + "search_list")

    def _me(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        me = Contact(0, ME[self.ctx.content_locale], "", "green")
        view = View(area, class_name=LINEAR, rid=RID + "me")
        s = kit.dp(72)
        view.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(24),
                    area.top + kit.dp(24),
                    area.left + kit.dp(24) + s,
                    area.top + kit.dp(24) + s,
                ),
                me,
            )
        )
        left = area.left + kit.dp(112)
        view.add(
            TextView(
                Rect(left, area.top + kit.dp(28), area.right, area.top + kit.dp(60)),
                me.name,
                kit.dp(22),
                p.on_surface,
                rid=RID + "my_name",
                bold=True,
            )
        )
        view.add(
            TextView(
                Rect(left, area.top + kit.dp(62), area.right, area.top + kit.dp(88)),
                self.t("chat_id", id="alex_chen_88"),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "my_id",
            )
        )
        return view


class ConversationActivity(ChatActivity):
    name = CONVERSATION

    @property
    def contact(self) -> Contact | None:
        return self.app.store.contact(int(self.record.args.get("contact_id", 0)))

    def send(self) -> None:
        contact = self.contact
        text = str(self.ui("text:message", "")).strip()
        if contact is None or not text:
            return
        self.app.store.send(contact.id, self.now_ms(), text)
        self.record.ui["text:message"] = ""
        self.record.ui.pop("scroll", None)
        self.ctx.invalidate()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "conversation")
        contact = self.contact
        bar, bar_h = kit.app_bar(area, contact.name if contact else "", self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if contact is None:
            return root
        self.app.store.mark_read(contact.id)
        input_h = kit.dp(72)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom - input_h)
        rows: list[View] = []
        y = list_area.top + kit.dp(8)
        for message in self.app.store.messages(contact.id):
            row = self._bubble(list_area, y, message, contact)
            rows.append(row)
            y = row.bounds.bottom
        offset = int(self.ui("scroll", 10**6))
        root.add(
            ScrollList(
                list_area,
                rows,
                offset,
                lambda off: self.set_ui("scroll", off),
                rid=RID + "message_list",
                padding_bottom=kit.dp(8),
                bg=p.surface_high,
            )
        )
        bottom = View(
            Rect(area.left, area.bottom - input_h, area.right, area.bottom),
            class_name=LINEAR,
            bg=p.background,
            rid=RID + "input_bar",
        )
        fy = area.bottom - input_h + kit.dp(10)
        bottom.add(
            self.text_field(
                Rect(area.left + kit.dp(12), fy, area.right - kit.dp(96), fy + kit.dp(52)),
                "message",
                self.t("message_hint"),
                rid=RID + "message_input",
                on_submit=self.send,
            )
        )
        bottom.add(
            Button(
                Rect(area.right - kit.dp(84), fy + kit.dp(4), area.right - kit.dp(12), fy + kit.dp(48)),
                self.t("send"),
                kit.body_medium,
                (255, 255, 255),
                (7, 193, 96),
                on_click=self.send,
                rid=RID + "send",
            )
        )
        root.add(bottom)
        return root

    def _bubble(self, area: Rect, top: int, message: Message, contact: Contact) -> View:
        kit = self.kit
        p = kit.palette
        s = kit.dp(40)
        max_w = area.width - kit.dp(140)
        if message.type == "product":
            w, h = max_w, kit.dp(104)
        else:
            shown = self.preview(message)
            w = min(max_w, round(text_width(shown, kit.body_large)) + kit.dp(28))
            h = TextView.wrapped_height(shown, kit.body_large, w - kit.dp(24), 8) + kit.dp(26)
        row_h = max(h, s) + kit.dp(12)
        row = View(
            Rect(area.left, top, area.right, top + row_h),
            class_name=LINEAR,
            rid=RID + "message_row",
            desc=self.when(message.timestamp, long=True),
        )
        me = Contact(0, ME[self.ctx.content_locale], "", "green")
        if message.outgoing:
            av = Rect(area.right - kit.dp(12) - s, top, area.right - kit.dp(12), top + s)
            box = Rect(av.left - kit.dp(8) - w, top, av.left - kit.dp(8), top + h)
        else:
            av = Rect(area.left + kit.dp(12), top, area.left + kit.dp(12) + s, top + s)
            box = Rect(av.right + kit.dp(8), top, av.right + kit.dp(8) + w, top + h)
        row.add(self.avatar(av, me if message.outgoing else contact))
        if message.type == "product":
            card = View(box, class_name=LINEAR, rid=RID + "product_card", bg=p.surface, radius=kit.dp(8))
            pic = kit.dp(64)
            card.add(
                thumbnail(
                    kit,
                    Rect(
                        box.left + kit.dp(10),
                        box.top + kit.dp(10),
                        box.left + kit.dp(10) + pic,
                        box.top + kit.dp(10) + pic,
                    ),
                    "bag",
                    "orange",
                )
            )
            left = box.left + pic + kit.dp(20)
            card.add(
                TextView(
                    Rect(left, box.top + kit.dp(8), box.right - kit.dp(8), box.top + kit.dp(56)),
                    message.body,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "product_title",
                    max_lines=2,
                )
            )
            price = price_text(message.price, self.ctx.content_locale)  # the shop's currency, not the UI's
            card.add(
                TextView(
                    Rect(left, box.top + kit.dp(56), box.right - kit.dp(8), box.top + kit.dp(80)),
                    price,
                    kit.body_large,
                    p.error,
                    rid=RID + "product_price",
                    bold=True,
                )
            )
            card.add(
                TextView(
                    Rect(box.left + kit.dp(10), box.bottom - kit.dp(22), box.right, box.bottom - kit.dp(4)),
                    self.t("product_card"),
                    kit.label,
                    p.on_surface_variant,
                )
            )
            row.add(card)
        else:
            bg = (
                GREEN
                if message.outgoing and not p.dark
                else (p.primary_container if message.outgoing else p.surface)
            )
            fg = (25, 25, 25) if message.outgoing and not p.dark else p.on_surface
            bubble = View(box, bg=bg, radius=kit.dp(8), rid=RID + "bubble")
            bubble.add(
                TextView(
                    box.inset(kit.dp(12), kit.dp(10)),
                    self.preview(message),
                    kit.body_large,
                    fg,
                    rid=RID + "message_text",
                    max_lines=8,
                )
            )
            row.add(bubble)
        return row


__all__ = ["ChatActivity", "ConversationActivity", "MainActivity"]
