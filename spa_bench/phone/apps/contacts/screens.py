"""Contacts screens: the list with search and favourites, a contact's page, and the editor."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.contacts.pim import Avatar, Fab, field, form, icon_button, prefill, top_bar
from spa_bench.phone.apps.contacts.store import Contact, ContactsStore, section
from spa_bench.phone.ui import LINEAR, Button, Callback, ImageView, Rect, TextView, View
from spa_bench.phone.ui.menu import MenuItem

PACKAGE = "com.android.contacts"
ID = f"{PACKAGE}:id/"
MESSAGING = "com.android.messaging"
CONVERSATION = "com.android.messaging.ui.conversation.ConversationActivity"


class ContactsActivity(Activity):
    @property
    def store(self) -> ContactsStore:
        store: ContactsStore = self.app.store  # type: ignore[attr-defined]
        return store

    def open_contact(self, contact_id: int) -> None:
        self.ctx.start_activity(QuickContact.name, {"id": contact_id})


class People(ContactsActivity):
    """`PeopleActivity`: search field, favourites, then everyone under letter headers."""

    name = "com.android.contacts.activities.PeopleActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}main_content")
        search = Rect(
            area.left + kit.dp(16), area.top + kit.dp(8), area.right - kit.dp(16), area.top + kit.dp(64)
        )
        root.add(self.text_field(search, "query", self.t("search_hint"), rid=f"{ID}search_view"))
        query = field(self, "query").casefold()
        contacts = self.store.all()
        if query:
            digits = "".join(ch for ch in query if ch.isdigit())
            contacts = [
                c
                for c in contacts
                if query in c.name.casefold()
                or (len(digits) >= 3 and digits in "".join(ch for ch in c.phone if ch.isdigit()))
            ]
        list_area = Rect(area.left, search.bottom + kit.dp(8), area.right, area.bottom)
        rows: list[View] = []
        self._rows: dict[str, tuple[View, Contact]] = {}
        y = list_area.top
        if not query:
            starred = [c for c in contacts if c.starred]
            if starred:
                rows.append(self._header(list_area, y, self.t("favourites")))
                y = rows[-1].bounds.bottom
                for c in starred:
                    rows.append(self._row(list_area, y, c, "favourite_row"))
                    y = rows[-1].bounds.bottom
        last = ""
        for c in contacts:
            letter = section(c.name)
            if letter != last and not query:
                rows.append(self._header(list_area, y, letter))
                y = rows[-1].bounds.bottom
                last = letter
            rows.append(self._row(list_area, y, c, "contact_row"))
            y = rows[-1].bounds.bottom
        if not contacts:
            rows.append(
                TextView(
                    Rect(list_area.left, y + kit.dp(32), list_area.right, y + kit.dp(80)),
                    self.t("no_results"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=f"{ID}empty",
                )
            )
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}list", padding_bottom=kit.dp(96)))
        root.add(
            Fab(
                kit,
                area,
                "plus",
                self.t("create"),
                lambda: self.ctx.start_activity(Editor.name),
                rid=f"{ID}floating_action_button",
            )
        )
        target = self.menu_target()
        if target in self._rows:
            row, c = self._rows[target]
            root.add(self.context_menu(list_area, row.bounds, self._menu_items(c), area))
        return root

    def _menu_items(self, c: Contact) -> list[MenuItem]:
        """A contact row's long-press menu: favourite on/off, copy the number, delete."""
        items = [MenuItem(self.t("unstar" if c.starred else "star"),
                          partial(self.store.set_starred, c.id, not c.starred), f"{ID}menu_star")]
        if c.phone:
            items.append(MenuItem(self.t("copy_number"), partial(self.ctx.set_clipboard, c.phone),
                                  f"{ID}menu_copy"))
        items.append(MenuItem(self.t("delete"), partial(self._delete_from_list, c.id), f"{ID}menu_delete"))
        return items

    def _delete_from_list(self, contact_id: int) -> None:
        self.store.delete(contact_id)
        self.ctx.toast(self.t("deleted"))

    def _header(self, area: Rect, top: int, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left + kit.dp(24), top, area.right, top + kit.dp(40)),
            text,
            kit.body_medium,
            kit.palette.primary,
            rid=f"{ID}section_header",
            bold=True,
        )

    def _row(self, area: Rect, top: int, c: Contact, rid: str) -> View:
        kit = self.kit
        h = kit.dp(60)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=f"{ID}{rid}",
            on_click=partial(self.open_contact, c.id),
            on_long_click=self.open_menu(f"{rid}:{c.id}"),
        )
        self._rows[f"{rid}:{c.id}"] = (row, c)
        s = kit.dp(40)
        cy = top + h // 2
        row.add(
            Avatar(
                kit,
                Rect(area.left + kit.dp(24), cy - s // 2, area.left + kit.dp(24) + s, cy + s // 2),
                c.name,
            )
        )
        row.add(
            TextView(
                Rect(area.left + kit.dp(80), top, area.right - kit.dp(16), top + h),
                c.name,
                kit.body_large,
                kit.palette.on_surface,
                rid=f"{ID}cliv_name_textview",
            )
        )
        return row


class QuickContact(ContactsActivity):
    """A contact's page: favourite star, edit, delete, phone (with a message shortcut) and e-mail."""

    name = "com.android.contacts.quickcontact.QuickContactActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}quickcontact")
        c = self.store.get(int(self.record.args.get("id", 0)))
        if c is None:
            bar, _ = top_bar(
                kit, area, "", package=PACKAGE, on_back=self.ctx.finish, back_desc=self.t("navigate_up")
            )
            root.add(bar)
            return root
        star = ("star", self.t("unstar")) if c.starred else ("star_outline", self.t("star"))
        bar, h = top_bar(
            kit,
            area,
            "",
            package=PACKAGE,
            on_back=self.ctx.finish,
            back_desc=self.t("navigate_up"),
            actions=[
                (star[0], star[1], partial(self.store.set_starred, c.id, not c.starred), "menu_star"),
                (
                    "pencil",
                    self.t("edit"),
                    lambda: self.ctx.start_activity(Editor.name, {"id": c.id}),
                    "menu_edit",
                ),
                ("delete", self.t("delete"), self.setter("dialog", "delete"), "menu_delete"),
            ],
        )
        root.add(bar)
        y = area.top + h + kit.dp(8)
        s = kit.dp(112)
        cx = area.center[0]
        root.add(Avatar(kit, Rect(cx - s // 2, y, cx + s // 2, y + s), c.name))
        y += s + kit.dp(16)
        root.add(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + kit.dp(44)),
                c.name,
                kit.dp(28),
                p.on_surface,
                align="center",
                rid=f"{ID}large_title",
            )
        )
        y += kit.dp(64)
        card = View(
            Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), area.bottom - kit.dp(16)),
            class_name=LINEAR,
            bg=p.surface_high,
            radius=kit.dp(16),
        )
        card.add(
            TextView(
                Rect(card.bounds.left + kit.dp(16), y + kit.dp(8), card.bounds.right, y + kit.dp(48)),
                self.t("contact_info"),
                kit.body_large,
                p.on_surface,
                bold=True,
            )
        )
        cy = y + kit.dp(56)
        if c.phone:
            message = partial(self.ctx.start_activity, CONVERSATION, {"address": c.phone}, MESSAGING)
            card.add(
                self._info(
                    card.bounds,
                    cy,
                    "call",
                    c.phone,
                    self.t("mobile"),
                    "phone_number",
                    ("message", self.t("message"), message),
                )
            )
            cy += kit.dp(72)
        if c.email:
            card.add(self._info(card.bounds, cy, "mail", c.email, self.t("home"), "email_address", None))
            cy += kit.dp(72)
        card.bounds = Rect(card.bounds.left, card.bounds.top, card.bounds.right, cy + kit.dp(8))
        root.add(card)
        if self.ui("dialog") == "delete":
            root.add(
                kit.dialog(
                    area,
                    self.t("delete_title"),
                    self.t("delete_body"),
                    [
                        (self.t("cancel"), self.setter("dialog", None)),
                        (self.t("delete"), partial(self._delete, c.id)),
                    ],
                    self.setter("dialog", None),
                )
            )
        return root

    def _info(
        self,
        rect: Rect,
        top: int,
        icon: str,
        text: str,
        kind: str,
        rid: str,
        action: tuple[str, str, Callback] | None,
    ) -> View:
        kit = self.kit
        p = kit.palette
        row = View(Rect(rect.left, top, rect.right, top + kit.dp(72)), class_name=LINEAR)
        s = kit.dp(24)
        cy = top + kit.dp(36)
        row.add(
            ImageView(
                Rect(rect.left + kit.dp(16), cy - s // 2, rect.left + kit.dp(16) + s, cy + s // 2),
                icon,
                p.on_surface_variant,
            )
        )
        row.add(
            TextView(
                Rect(rect.left + kit.dp(56), top + kit.dp(12), rect.right - kit.dp(64), cy + kit.dp(4)),
                text,
                kit.body_large,
                p.on_surface,
                rid=f"{ID}{rid}",
            )
        )
        row.add(
            TextView(
                Rect(rect.left + kit.dp(56), cy + kit.dp(4), rect.right - kit.dp(64), top + kit.dp(60)),
                kind,
                kit.body_medium,
                p.on_surface_variant,
            )
        )
        if action is not None:
            name, desc, cb = action
            b = kit.dp(48)
            row.add(
                icon_button(
                    kit,
                    Rect(rect.right - kit.dp(8) - b, cy - b // 2, rect.right - kit.dp(8), cy + b // 2),
                    name,
                    desc,
                    cb,
                    rid=f"{ID}message_button",
                )
            )
        return row

    def _delete(self, contact_id: int) -> None:
        self.store.delete(contact_id)
        self.ctx.toast(self.t("deleted"))
        self.ctx.finish()


class Editor(ContactsActivity):
    """`ContactEditorActivity`: create (no id) or edit a contact; Save writes and shows the contact."""

    name = "com.android.contacts.activities.ContactEditorActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        contact_id = self.record.args.get("id")
        if contact_id is not None:
            c = self.store.get(int(contact_id))
            if c is not None:
                prefill(self, {"first": c.given, "last": c.family, "phone": c.phone, "email": c.email})
        root = View(area, class_name=LINEAR, rid=f"{ID}editor")
        title = self.t("edit" if contact_id is not None else "create")
        bar, h = top_bar(
            kit, area, title, package=PACKAGE, on_back=self.ctx.finish, back_desc=self.t("cancel")
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
                rid=f"{ID}editor_menu_save_button",
            )
        )
        root.add(bar)
        views, _ = form(
            self,
            area,
            area.top + h + kit.dp(16),
            [
                ("first", self.t("first_name"), "first_name"),
                ("last", self.t("last_name"), "last_name"),
                ("phone", self.t("phone"), "phone"),
                ("email", self.t("email"), "email"),
            ],
            PACKAGE,
        )
        root.extend(views)
        return root

    def _save(self) -> None:
        first, last, phone, email = (field(self, k) for k in ("first", "last", "phone", "email"))
        if not (first or last or phone):
            self.ctx.toast(self.t("name_required"))
            return
        contact_id = self.record.args.get("id")
        new_id = self.store.save(
            int(contact_id) if contact_id is not None else None, first, last, phone, email
        )
        self.ctx.toast(self.t("saved"))
        self.ctx.finish()
        if contact_id is None:
            self.ctx.start_activity(QuickContact.name, {"id": new_id})
