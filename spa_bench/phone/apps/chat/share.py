"""The share target (`com.spa.chat.ShareActivity`): what the Share buttons of Shop, Circle, Browser, Maps
and Video open. It lists recent chats and all contacts; choosing one asks for confirmation (with an optional
note) and sends the shared item as a card, then returns to the app that shared it. Extras: `title_en` /
`title_zh`, `sku` (what is shared: a product sku, `post:<id>` for a Circle post, a picture's path), `kind`
(the message type, `product` by default; Circle sends `post`, the Gallery `image`), `price` (products),
`glyph` and `hue` (the card's picture), `caller`; `text` (a web page, a place, a video's title and link) is
sent as a text message instead of a card, as ACTION_SEND text/plain carries EXTRA_TEXT."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.chat.screens import RID, ChatActivity
from spa_bench.phone.apps.chat.store import Contact
from spa_bench.phone.apps.shop.widgets import thumbnail
from spa_bench.phone.ui import LINEAR, Rect, TextView, View


class ShareActivity(ChatActivity):
    name = "com.spa.chat.ShareActivity"

    @property
    def title(self) -> str:
        args = self.record.args
        return str(args.get("title_zh") if self.ctx.content_locale == "zh" else args.get("title_en") or "")

    def choose(self, contact: Contact) -> None:
        self.record.ui["text:note"] = ""
        self.set_ui("target", contact.id)

    def close(self) -> None:
        self.record.ui.pop("focus", None)
        self.set_ui("target", None)

    def on_back(self) -> bool:
        if self.ui("target") is not None:
            self.close()
        else:
            self.leave()
        return True

    def leave(self) -> None:
        """Go back to the app that shared, as a share target living in the caller's task does (the
        chooser is its own small task here: closing it closes that task)."""
        caller = str(self.record.args.get("caller", ""))
        self.ctx.force_stop(self.ctx.package)
        if caller:
            self.ctx.launch(caller)

    def send(self) -> None:
        contact = self.app.store.contact(int(self.ui("target", 0)))
        if contact is None:
            return
        args = self.record.args
        now = self.now_ms()
        if args.get("text"):  # shared text (a web page, a place): sent as a text message
            self.app.store.send(contact.id, now, str(args["text"]))
        else:
            kind = str(args.get("kind") or "product")
            price = float(args.get("price", 0) or 0) if kind == "product" else None
            self.app.store.send(contact.id, now, self.title, kind, str(args.get("sku", "")), price)
        note = str(self.ui("text:note", "")).strip()
        if note:
            self.app.store.send(contact.id, now + 1, note)
        self.leave()
        self.ctx.toast(self.t("sent"))

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "share")
        bar, bar_h = kit.app_bar(area, self.t("send_to"), self.leave, package="com.spa.chat")
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        sections = (
            ("recent_chats", [chat.contact for chat in self.app.store.chats()][:5]),
            ("all_contacts", self.app.store.contacts()),
        )
        for key, contacts in sections:
            rows.append(
                TextView(
                    Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(36)),
                    self.t(key),
                    kit.body_medium,
                    p.primary,
                    rid=RID + f"section_{key}",
                )
            )
            y += kit.dp(36)
            for contact in contacts:
                row = self.contact_row(
                    list_area, y, contact, "", partial(self.choose, contact), rid="share_target"
                )
                rows.append(row)
                y = row.bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=RID + "share_list"))
        target = self.app.store.contact(int(self.ui("target", 0)))
        if target is not None:
            width = area.width - kit.dp(96)
            body: list[View] = []
            card = View(
                Rect(0, 0, width, kit.dp(80)),
                class_name=LINEAR,
                bg=p.surface,
                radius=kit.dp(8),
                rid=RID + "share_preview",
            )
            pic = kit.dp(60)
            card.add(
                thumbnail(
                    kit,
                    Rect(kit.dp(10), kit.dp(10), kit.dp(10) + pic, kit.dp(10) + pic),
                    str(self.record.args.get("glyph") or "bag"),
                    str(self.record.args.get("hue") or "orange"),
                )
            )
            card.add(
                TextView(
                    Rect(pic + kit.dp(20), kit.dp(6), width - kit.dp(8), kit.dp(74)),
                    str(self.record.args.get("text") or self.title),
                    kit.body_medium,
                    p.on_surface,
                    max_lines=2,
                    rid=RID + "share_title",
                )
            )
            body.append(card)
            body.append(
                self.text_field(
                    Rect(0, kit.dp(92), width, kit.dp(144)),
                    "note",
                    self.t("leave_message"),
                    rid=RID + "share_note",
                    on_submit=self.send,
                )
            )
            root.add(
                kit.dialog(
                    area,
                    self.t("share_to", name=target.name),
                    body,
                    [(self.t("cancel"), self.close), (self.t("send"), self.send)],
                    self.close,
                    body_height=kit.dp(144),
                )
            )
        return root
