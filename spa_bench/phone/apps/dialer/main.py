"""The Phone app's main screen (`com.android.dialer.main.impl.MainActivity`): Favourites, Recents (the
call log, with a badge of unread missed calls) and Contacts tabs, and the dialpad the FAB opens."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.contacts.pim import Avatar, Fab, icon_button, top_bar
from spa_bench.phone.apps.contacts.store import Contact
from spa_bench.phone.apps.dialer.base import BLOCKED, DETAILS, RID, TYPE_GLYPHS, DialerActivity, dialable
from spa_bench.phone.apps.dialer.calls import CallRow
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav
from spa_bench.phone.ui import FRAME, LINEAR, ImageView, Rect, TextView, View
from spa_bench.phone.ui.menu import MenuItem

TABS = (("favourites", "star"), ("recents", "clock"), ("contacts", "person"))
KEYS = (
    ("1", "one", ""),
    ("2", "two", "ABC"),
    ("3", "three", "DEF"),
    ("4", "four", "GHI"),
    ("5", "five", "JKL"),
    ("6", "six", "MNO"),
    ("7", "seven", "PQRS"),
    ("8", "eight", "TUV"),
    ("9", "nine", "WXYZ"),
    ("*", "star", ""),
    ("0", "zero", "+"),
    ("#", "pound", ""),
)


class MainActivity(DialerActivity):
    name = "com.android.dialer.main.impl.MainActivity"

    @property
    def tab(self) -> str:
        return str(self.ui("tab", self.record.args.get("tab", "favourites")))

    def on_back(self) -> bool:
        if self.ui("dialpad"):
            self.set_ui("dialpad", None)
            return True
        return super().on_back()

    def switch(self, tab: str) -> None:
        self.record.ui.pop("scroll", None)
        self.record.ui.pop("menu", None)
        if tab == "recents":
            self.app.calls.mark_missed_read()
        self.set_ui("tab", tab)

    def build(self, area: Rect) -> View:
        kit = self.kit
        args = self.record.args
        if "number" in args and not self.ui("opened"):
            # DIAL tel:<n> opens the dialpad with the number typed in (DialtactsActivity's ACTION_DIAL)
            self.record.ui.update({"opened": 1, "dialpad": 1, "text:digits": str(args["number"])})
        elif args.get("dialpad") and not self.ui("opened"):
            self.record.ui.update({"opened": 1, "dialpad": 1})
        if self.tab == "recents" and not self.ui("seen"):
            # opened on the call log (the missed-call notification does so): the log is seen, so its
            # missed calls are read, as when the tab is chosen
            self.record.ui["seen"] = 1
            self.app.calls.mark_missed_read()
        self._row_views: dict[int, tuple[View, CallRow]] = {}
        root = View(area, class_name=FRAME, rid=RID + "main")
        missed = self.app.calls.unread_missed()
        items = [
            NavItem(
                key,
                self.t(f"tab_{key}"),
                glyph,
                key == self.tab,
                partial(self.switch, key),
                missed if key == "recents" else 0,
            )
            for key, glyph in TABS
        ]
        nav, nav_h = bottom_nav(kit, area, items, "com.android.dialer")
        bar, bar_h = top_bar(
            kit,
            area,
            self.t("app_name"),
            package="com.android.dialer",
            actions=[("more_vert", self.t("more_options"), self.setter("menu", "more"), "menu_more")],
        )
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom - nav_h)
        root.add(
            {"favourites": self._favourites, "recents": self._recents, "contacts": self._contacts}[self.tab](
                body
            )
        )
        root.add(nav)
        if self.ui("dialpad"):
            root.add(self._dialpad(area))
        else:
            root.add(
                Fab(
                    kit,
                    body,
                    "dialpad",
                    self.t("dialpad"),
                    self.setter("dialpad", 1),
                    rid=RID + "dialpad_fab",
                )
            )
        if self.ui("menu") == "more":
            anchor = Rect(area.right - kit.dp(200), area.top, area.right, area.top + kit.dp(56))
            root.add(
                self.context_menu(
                    area,
                    anchor,
                    [
                        MenuItem(
                            self.t("blocked_numbers"), partial(self._open, BLOCKED), RID + "menu_blocked"
                        ),
                        MenuItem(self.t("clear_history"), self.setter("dialog", "clear"), RID + "menu_clear"),
                    ],
                )
            )
        elif isinstance(self.ui("menu"), int):
            target = self._row_views.get(int(self.ui("menu")))
            if target is not None:
                root.add(self.context_menu(body, target[0].bounds, self._row_menu(target[1]), area))
        if self.ui("dialog") == "clear":
            root.add(
                kit.dialog(
                    area,
                    self.t("clear_history_q"),
                    self.t("clear_history_body"),
                    [(self.t("cancel"), self.setter("dialog", None)), (self.t("clear"), self._clear)],
                    self.setter("dialog", None),
                )
            )
        return root

    def _open(self, activity: str) -> None:
        self.set_ui("menu", None)
        self.ctx.start_activity(activity)

    def _clear(self) -> None:
        self.app.calls.clear()
        self.set_ui("dialog", None)

    def _empty(self, area: Rect, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, area.top + kit.dp(64), area.right, area.top + kit.dp(112)),
            text,
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )

    # -- favourites -----------------------------------------------------------------------------------
    def _favourites(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        starred = [c for c in self.app.contacts.all() if c.starred and c.phone]
        rows: list[View] = []
        cols = 3
        w = (area.width - kit.dp(16)) // cols
        h = kit.dp(132)
        for i, c in enumerate(starred):
            left = area.left + kit.dp(8) + (i % cols) * w
            top = area.top + kit.dp(8) + (i // cols) * h
            tile = View(
                Rect(left, top, left + w, top + h),
                class_name=LINEAR,
                rid=RID + "favourite_tile",
                desc=c.name,
                on_click=partial(self.place_call, c.phone),
            )
            s = kit.dp(72)
            cx = left + w // 2
            tile.add(
                Avatar(kit, Rect(cx - s // 2, top + kit.dp(12), cx + s // 2, top + kit.dp(12) + s), c.name)
            )
            tile.add(
                TextView(
                    Rect(left + kit.dp(4), top + kit.dp(90), left + w - kit.dp(4), top + kit.dp(118)),
                    c.name,
                    kit.body_medium,
                    p.on_surface,
                    align="center",
                    rid=RID + "favourite_name",
                )
            )
            rows.append(tile)
        if not rows:
            rows.append(self._empty(area, self.t("no_favourites")))
        return self.scroll_list(area, rows, rid=RID + "favourites_list", padding_bottom=kit.dp(96))

    # -- recents --------------------------------------------------------------------------------------
    def _recents(self, area: Rect) -> View:
        kit = self.kit
        rows: list[View] = []
        y = area.top
        for row in self.app.calls.rows():
            view = self._call_row(area, y, row)
            self._row_views[row.id] = (view, row)
            rows.append(view)
            y = view.bounds.bottom
        if not rows:
            rows.append(self._empty(area, self.t("no_recents")))
        return self.scroll_list(area, rows, rid=RID + "call_log_list", padding_bottom=kit.dp(96))

    def _call_row(self, area: Rect, top: int, row: CallRow) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        view = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "call_log_row",
            on_click=partial(self.ctx.start_activity, DETAILS, {"number": row.number}),
            on_long_click=self.open_menu(row.id),
        )
        s = kit.dp(40)
        cy = top + h // 2
        name = self.display_name(row)
        view.add(
            Avatar(
                kit,
                Rect(area.left + kit.dp(16), cy - s // 2, area.left + kit.dp(16) + s, cy + s // 2),
                name if row.name else "#",
            )
        )
        left = area.left + kit.dp(72)
        right = area.right - kit.dp(64)
        missed = row.type in (3, 5)
        view.add(
            TextView(
                Rect(left, top + kit.dp(12), right, top + kit.dp(38)),
                name,
                kit.body_large,
                p.error if missed else p.on_surface,
                rid=RID + "primary_text",
                bold=missed and not row.is_read,
            )
        )
        g = kit.dp(16)
        view.add(
            ImageView(
                Rect(left, top + kit.dp(44), left + g, top + kit.dp(44) + g),
                TYPE_GLYPHS.get(row.type, "call"),
                p.error if missed else p.on_surface_variant,
                desc=self.t(f"type_{row.type}"),
            )
        )
        secondary = f"{self.t('mobile') if row.name else row.number} · {self.when(row.when)}"
        view.add(
            TextView(
                Rect(left + g + kit.dp(6), top + kit.dp(38), right, top + kit.dp(66)),
                secondary,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "secondary_text",
            )
        )
        b = kit.dp(48)
        view.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(8) - b, cy - b // 2, area.right - kit.dp(8), cy + b // 2),
                "call",
                f"{self.t('call')} {name}",
                partial(self.place_call, row.number),
                rid=RID + "call_button",
                color=p.primary,
            )
        )
        return view

    def _row_menu(self, row: CallRow) -> list[MenuItem]:
        blocked = any(n == row.number for n in self.ctx.telecom.blocked_numbers())
        return [
            MenuItem(self.t("copy_number"), partial(self._copy, row.number), RID + "menu_copy"),
            MenuItem(
                self.t("unblock_number" if blocked else "block_number"),
                partial(self._toggle_block, row.number, blocked),
                RID + "menu_block",
            ),
            MenuItem(self.t("delete"), partial(self._delete, row.id), RID + "menu_delete"),
        ]

    def _copy(self, number: str) -> None:
        self.ctx.set_clipboard(number)
        self.ctx.toast(self.t("copied"))

    def _toggle_block(self, number: str, blocked: bool) -> None:
        if blocked:
            self.ctx.telecom.unblock(number)
            self.ctx.toast(self.t("unblocked", number=number))
        else:
            self.ctx.telecom.block(number)
            self.ctx.toast(self.t("blocked", number=number))

    def _delete(self, row_id: int) -> None:
        self.app.calls.delete([row_id])
        self.ctx.toast(self.t("deleted"))

    # -- contacts -------------------------------------------------------------------------------------
    def _contacts(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        frame = View(area, class_name=FRAME)
        search = Rect(
            area.left + kit.dp(16), area.top + kit.dp(4), area.right - kit.dp(16), area.top + kit.dp(56)
        )
        frame.add(self.text_field(search, "query", self.t("search_contacts"), rid=RID + "search_contacts"))
        query = str(self.ui("text:query", "")).strip().casefold()
        contacts = [c for c in self.app.contacts.all() if c.phone]
        if query:
            digits = dialable(query)
            contacts = [
                c
                for c in contacts
                if query in c.name.casefold() or (len(digits) >= 3 and digits in dialable(c.phone))
            ]
        list_area = Rect(area.left, search.bottom + kit.dp(4), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        for c in contacts:
            rows.append(self._contact_row(list_area, y, c))
            y = rows[-1].bounds.bottom
        if not rows:
            rows.append(self._empty(list_area, self.t("no_contacts")))
        frame.add(self.scroll_list(list_area, rows, rid=RID + "contacts_list", padding_bottom=kit.dp(96)))
        del p
        return frame

    def _contact_row(self, area: Rect, top: int, c: Contact) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(64)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "contact_row",
            on_click=partial(self.place_call, c.phone),
        )
        s = kit.dp(40)
        cy = top + h // 2
        row.add(
            Avatar(
                kit,
                Rect(area.left + kit.dp(16), cy - s // 2, area.left + kit.dp(16) + s, cy + s // 2),
                c.name,
            )
        )
        row.add(
            TextView(
                Rect(area.left + kit.dp(72), top + kit.dp(8), area.right - kit.dp(16), top + kit.dp(34)),
                c.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "contact_name",
            )
        )
        row.add(
            TextView(
                Rect(area.left + kit.dp(72), top + kit.dp(34), area.right - kit.dp(16), top + kit.dp(58)),
                c.phone,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "contact_number",
            )
        )
        return row

    # -- dialpad --------------------------------------------------------------------------------------
    def _press(self, char: str) -> None:
        self.set_ui("text:digits", str(self.ui("text:digits", "")) + char)

    def _backspace(self) -> None:
        self.set_ui("text:digits", str(self.ui("text:digits", ""))[:-1])

    def _call_typed(self) -> None:
        number = dialable(str(self.ui("text:digits", "")))
        if number:
            self.record.ui.pop("text:digits", None)
            self.record.ui.pop("dialpad", None)
            self.record.ui.pop("focus", None)
            self.place_call(number)

    def _dialpad(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        key_h = kit.dp(64)
        h = kit.dp(88) + 4 * key_h + kit.dp(96)
        panel = View(
            Rect(area.left, area.bottom - h, area.right, area.bottom),
            class_name=LINEAR,
            rid=RID + "dialpad_view",
            bg=p.surface_high,
            radius=kit.dp(24),
        )
        top = panel.bounds.top
        field = Rect(area.left + kit.dp(24), top + kit.dp(16), area.right - kit.dp(80), top + kit.dp(72))
        panel.add(
            self.text_field(
                field, "digits", self.t("digits_hint"), rid=RID + "digits", on_submit=self._call_typed
            )
        )
        b = kit.dp(48)
        panel.add(
            icon_button(
                kit,
                Rect(
                    area.right - kit.dp(16) - b,
                    field.center[1] - b // 2,
                    area.right - kit.dp(16),
                    field.center[1] + b // 2,
                ),
                "backspace",
                self.t("delete_digit"),
                self._backspace,
                rid=RID + "deleteButton",
            )
        )
        w = area.width // 3
        y0 = top + kit.dp(88)
        for i, (char, rid, letters) in enumerate(KEYS):
            left = area.left + (i % 3) * w
            y = y0 + (i // 3) * key_h
            key = View(
                Rect(left, y, left + w, y + key_h),
                class_name=FRAME,
                rid=RID + rid,
                desc=char,
                on_click=partial(self._press, char),
            )
            key.add(
                TextView(
                    Rect(left, y + kit.dp(4), left + w, y + kit.dp(42)),
                    char,
                    kit.dp(28),
                    p.on_surface,
                    align="center",
                    rid=RID + "dialpad_key_number",
                )
            )
            if letters:
                key.add(
                    TextView(
                        Rect(left, y + kit.dp(40), left + w, y + kit.dp(58)),
                        letters,
                        kit.dp(11),
                        p.on_surface_variant,
                        align="center",
                        rid=RID + "dialpad_key_letters",
                    )
                )
            panel.add(key)
        s = kit.dp(64)
        cx = area.center[0]
        cy = y0 + 4 * key_h + kit.dp(44)
        call = View(
            Rect(cx - s // 2, cy - s // 2, cx + s // 2, cy + s // 2),
            rid=RID + "dialpad_floating_action_button",
            desc=self.t("call"),
            on_click=self._call_typed,
            bg=(30, 142, 62),
            radius=s // 2,
            class_name="android.widget.ImageButton",
        )
        call.add(ImageView(call.bounds.inset(kit.dp(18), kit.dp(18)), "call", (255, 255, 255)))
        panel.add(call)
        return panel
