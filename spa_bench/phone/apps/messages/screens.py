"""Messages screens: the conversation list (with search), a conversation, and the new-chat picker."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.contacts.pim import Avatar, Fab, field, format_time, icon_button, top_bar, use_24h
from spa_bench.phone.apps.contacts.store import ContactsStore
from spa_bench.phone.apps.messages.store import SENT, SmsStore
from spa_bench.phone.ui import LINEAR, Callback, Rect, ScrollList, TextView, View
from spa_bench.phone.ui.fonts import wrap
from spa_bench.phone.ui.menu import MenuItem

PACKAGE = "com.android.messaging"
ID = f"{PACKAGE}:id/"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class MessagesActivity(Activity):
    @property
    def sms(self) -> SmsStore:
        store: SmsStore = self.app.sms  # type: ignore[attr-defined]
        return store

    @property
    def contacts(self) -> ContactsStore:
        store: ContactsStore = self.app.contacts  # type: ignore[attr-defined]
        return store

    def who(self, address: str) -> str:
        return self.contacts.name_for_number(address) or address

    def when(self, ms: int) -> str:
        moment = datetime(1970, 1, 1) + timedelta(milliseconds=ms)
        now = self.ctx.clock.now()
        if moment.date() == now.date():
            return format_time(moment.hour, moment.minute, use_24h(self.ctx))
        if moment.date() == (now - timedelta(days=1)).date():
            return self.t("yesterday")
        if self.ctx.locale == "zh":
            return f"{moment.month}月{moment.day}日"
        return f"{MONTHS[moment.month - 1]} {moment.day}"

    def open_thread(self, thread_id: int) -> None:
        self.ctx.start_activity(Conversation.name, {"thread_id": thread_id})

    def row(
        self,
        area: Rect,
        top: int,
        name: str,
        text: str,
        when: str,
        bold: bool,
        on_click: Callback,
        rid: str = "conversation_row",
        on_long_click: Callback | None = None,
    ) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(80)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=f"{ID}{rid}",
            on_click=on_click,
            on_long_click=on_long_click,
        )
        s = kit.dp(48)
        cy = top + h // 2
        row.add(
            Avatar(
                kit, Rect(area.left + kit.dp(16), cy - s // 2, area.left + kit.dp(16) + s, cy + s // 2), name
            )
        )
        left, right = area.left + kit.dp(80), area.right - kit.dp(16)
        row.add(
            TextView(
                Rect(left, top + kit.dp(12), right - kit.dp(72), cy + kit.dp(2)),
                name,
                kit.body_large,
                p.on_surface,
                rid=f"{ID}conversation_name",
                bold=bold,
            )
        )
        row.add(
            TextView(
                Rect(right - kit.dp(72), top + kit.dp(12), right, cy + kit.dp(2)),
                when,
                kit.label,
                p.on_surface if bold else p.on_surface_variant,
                align="right",
                rid=f"{ID}conversation_timestamp",
                bold=bold,
            )
        )
        row.add(
            TextView(
                Rect(left, cy + kit.dp(2), right, top + h - kit.dp(12)),
                text,
                kit.body_medium,
                p.on_surface if bold else p.on_surface_variant,
                rid=f"{ID}conversation_snippet",
                bold=bold,
            )
        )
        return row


class ConversationList(MessagesActivity):
    """The inbox: newest conversation first, unread in bold; a search mode over message bodies."""

    name = "com.android.messaging.ui.conversationlist.ConversationListActivity"

    def on_back(self) -> bool:
        if self.ui("searching"):
            self.record.ui.pop("text:query", None)
            self.set_ui("searching", None)
            return True
        return super().on_back()

    def _close_search(self) -> None:
        self.on_back()

    def _start_search(self) -> None:
        self.set_ui("searching", True)
        self.request_focus("query")

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=f"{ID}conversation_list")
        if self.ui("searching"):
            return self._build_search(area, root)
        bar, h = top_bar(
            kit,
            area,
            self.t("app_name"),
            package=PACKAGE,
            actions=[("search", self.t("search"), self._start_search, "action_search")],
        )
        root.add(bar)
        list_area = Rect(area.left, area.top + h, area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        threads = {t.id: t for t in self.sms.threads()}
        by_id: dict[int, View] = {}
        for t in threads.values():
            rows.append(
                self.row(
                    list_area,
                    y,
                    self.who(t.address),
                    t.snippet,
                    self.when(t.date),
                    t.unread > 0,
                    partial(self.open_thread, t.id),
                    on_long_click=self.open_menu(t.id),
                )
            )
            by_id[t.id] = rows[-1]
            y = rows[-1].bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}list", padding_bottom=kit.dp(96)))
        root.add(
            Fab(
                kit,
                area,
                "message",
                self.t("start_chat"),
                lambda: self.ctx.start_activity(NewConversation.name),
                rid=f"{ID}start_chat_fab",
                label=self.t("start_chat"),
            )
        )
        target = self.menu_target()
        if target in by_id:
            t = threads[target]
            mark = (
                MenuItem(self.t("mark_read"), partial(self.sms.mark_read, t.id), f"{ID}action_mark_read")
                if t.unread
                else MenuItem(self.t("mark_unread"), partial(self.sms.mark_unread, t.id),
                              f"{ID}action_mark_unread")
            )
            delete = MenuItem(self.t("delete"), partial(self.sms.delete_thread, t.id), f"{ID}action_delete")
            root.add(self.context_menu(list_area, by_id[target].bounds, [mark, delete], area))
        return root

    def _build_search(self, area: Rect, root: View) -> View:
        kit = self.kit
        p = kit.palette
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        root.add(
            icon_button(
                kit,
                Rect(area.left + kit.dp(4), top, area.left + kit.dp(4) + s, top + s),
                "arrow_back",
                self.t("navigate_up"),
                self._close_search,
                color=p.on_surface,
            )
        )
        root.add(
            self.text_field(
                Rect(area.left + kit.dp(56), top, area.right - kit.dp(16), top + s),
                "query",
                self.t("search_hint"),
                rid=f"{ID}search_src_text",
            )
        )
        query = field(self, "query")
        list_area = Rect(area.left, top + s + kit.dp(8), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        if query:
            found = self.sms.search(query)
            for m in found:
                rows.append(
                    self.row(
                        list_area,
                        y,
                        self.who(m.address),
                        m.body,
                        self.when(m.date),
                        False,
                        partial(self.open_thread, m.thread_id),
                        rid="search_result",
                    )
                )
                y = rows[-1].bounds.bottom
            if not found:
                rows.append(
                    TextView(
                        Rect(list_area.left, y + kit.dp(24), list_area.right, y + kit.dp(72)),
                        self.t("no_results"),
                        kit.body_large,
                        p.on_surface_variant,
                        align="center",
                    )
                )
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}search_results"))
        return root


class Conversation(MessagesActivity):
    """One thread: bubbles (sent on the right), and the compose bar. Opening it marks it read."""

    name = "com.android.messaging.ui.conversation.ConversationActivity"

    def thread_id(self) -> int:
        tid = self.record.args.get("thread_id")
        if tid is None:
            tid = self.sms.thread_for(str(self.record.args.get("address", "")))
            self.record.args["thread_id"] = tid
        return int(tid)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        tid = self.thread_id()
        body = self.record.args.get("sms_body")
        if body and not self.record.ui.get("sms_body_used"):  # the sms_body extra prefills the compose box
            self.record.ui["sms_body_used"] = True
            self.record.ui["text:compose"] = str(body)
        self.sms.mark_read(tid)
        address = self.sms.address(tid)
        root = View(area, class_name=LINEAR, rid=f"{ID}conversation")
        bar, h = top_bar(
            kit,
            area,
            self.who(address),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        compose_h = kit.dp(72)
        list_area = Rect(area.left, area.top + h, area.right, area.bottom - compose_h)
        rows: list[View] = []
        y = list_area.top + kit.dp(8)
        max_w = round(area.width * 0.72)
        bubbles: dict[int, tuple[View, str]] = {}
        for m in self.sms.messages(tid):
            lines = wrap(m.body, kit.body_large, max_w - kit.dp(32), 12)
            bh = len(lines) * TextView.line_height(kit.body_large) + kit.dp(20)
            sent = m.type == SENT
            left = area.right - kit.dp(12) - max_w if sent else area.left + kit.dp(12)
            text_w = max(
                kit.dp(24), min(max_w, max(round(_width(ln, kit.body_large)) for ln in lines) + kit.dp(40))
            )
            rect = (
                Rect(area.right - kit.dp(12) - text_w, y, area.right - kit.dp(12), y + bh)
                if sent
                else Rect(left, y, left + text_w, y + bh)
            )
            bubble = View(
                rect,
                class_name=LINEAR,
                bg=p.primary_container if sent else p.surface_high,
                radius=kit.dp(18),
                rid=f"{ID}message_bubble",
                on_long_click=self.open_menu(m.id),
            )
            bubbles[m.id] = (bubble, m.body)
            bubble.add(
                TextView(
                    rect.inset(kit.dp(16), kit.dp(10)),
                    m.body,
                    kit.body_large,
                    p.on_primary_container if sent else p.on_surface,
                    rid=f"{ID}message_text",
                    max_lines=12,
                )
            )
            rows.append(bubble)
            y = rect.bottom + kit.dp(4)
            rows.append(
                TextView(
                    Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(18)),
                    self.when(m.date),
                    kit.label,
                    p.on_surface_variant,
                    align="right" if sent else "left",
                    rid=f"{ID}message_status",
                )
            )
            y += kit.dp(26)
        offset = int(self.ui("scroll", 10**7))
        root.add(
            ScrollList(list_area, rows, offset, lambda off: self.set_ui("scroll", off), rid=f"{ID}messages")
        )
        cy = area.bottom - compose_h // 2
        fh = kit.dp(52)
        root.add(
            self.text_field(
                Rect(area.left + kit.dp(12), cy - fh // 2, area.right - kit.dp(72), cy + fh // 2),
                "compose",
                self.t("compose_hint"),
                rid=f"{ID}compose_message_text",
                multi_line=True,  # Messages' compose box: Enter is a newline (unless "Enter is send")
            )
        )
        s = kit.dp(48)
        send = icon_button(
            kit,
            Rect(area.right - kit.dp(64), cy - s // 2, area.right - kit.dp(16), cy + s // 2),
            "send",
            self.t("send"),
            partial(self._send, tid),
            rid=f"{ID}send_message_button",
            color=p.primary,
        )
        root.add(send)
        target = self.menu_target()
        if target in bubbles:
            bubble, body = bubbles[target]
            root.add(self.context_menu(list_area, bubble.bounds, [
                MenuItem(self.t("copy_text"), partial(self.ctx.set_clipboard, body), f"{ID}action_copy_text"),
                MenuItem(self.t("delete"), partial(self.sms.delete_message, target), f"{ID}action_delete"),
            ], area))
        return root

    def _send(self, thread_id: int) -> None:
        body = field(self, "compose")
        if not body:
            return
        self.sms.send(thread_id, body)
        self.record.ui.pop("text:compose", None)
        self.record.ui.pop("scroll", None)
        self.ctx.invalidate()


def _width(text: str, size: int) -> float:
    from spa_bench.phone.ui.fonts import text_width

    return text_width(text, size)


class NewConversation(MessagesActivity):
    """Pick a contact or type a number; opens (or creates) that conversation."""

    name = "com.android.messaging.ui.conversation.NewConversationActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}contact_picker")
        bar, h = top_bar(
            kit,
            area,
            self.t("new_conversation"),
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
        )
        root.add(bar)
        top = area.top + h
        root.add(
            self.text_field(
                Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(52)),
                "to",
                self.t("to_hint"),
                rid=f"{ID}recipient_text_view",
                on_submit=self._submit,
            )
        )
        query = field(self, "to")
        list_area = Rect(area.left, top + kit.dp(60), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        digits = "".join(ch for ch in query if ch.isdigit())
        if len(digits) >= 3 and not any(ch.isalpha() for ch in query):
            rows.append(
                self.row(
                    list_area,
                    y,
                    query,
                    self.t("send_to", number=query),
                    "",
                    False,
                    partial(self._open, query),
                    rid="send_to_number",
                )
            )
            y = rows[-1].bounds.bottom
        q = query.casefold()
        for c in self.contacts.all():
            if not c.phone:
                continue
            if q and q not in c.name.casefold() and not (len(digits) >= 3 and digits in _digits(c.phone)):
                continue
            rows.append(
                self.row(
                    list_area, y, c.name, c.phone, "", False, partial(self._open, c.phone), rid="contact_row"
                )
            )
            y = rows[-1].bounds.bottom
        del p
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}contact_list"))
        return root

    def _submit(self) -> None:
        query = field(self, "to")
        if sum(ch.isdigit() for ch in query) >= 3:
            self._open(query)

    def _open(self, address: str) -> None:
        tid = self.sms.thread_for(address)
        body = self.record.args.get("sms_body")  # text shared from another app goes on to the thread
        self.ctx.finish()
        self.ctx.start_activity(Conversation.name, {"thread_id": tid, **({"sms_body": body} if body else {})})


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())
