"""The Email app's main screen: a conversation list for one folder (Inbox, Starred, Sent, Drafts,
Archive, Trash) or one label, a navigation drawer to switch, search, and the Compose button.

Screen state (`record.ui`): `folder` (a folder key or `label:<name>`), `drawer`, `searching` and the
`query` field, `scroll`.
"""

from __future__ import annotations

import math
from functools import partial

from spa_bench.phone.apps.email.base import COMPOSE, RID, THREAD, EmailActivity
from spa_bench.phone.apps.email.store import Message, Thread
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, LINEAR, ImageView, Rect, Scrim, TextView, View
from spa_bench.phone.ui.fonts import text_width

DRAWER_FOLDERS = (
    ("inbox", "mail"),
    ("starred", "star"),
    ("sent", "send"),
    ("drafts", "file"),
    ("archive", "archive"),
    ("trash", "delete"),
)


class MainActivity(EmailActivity):
    name = "com.android.email.MainActivity"

    @property
    def folder(self) -> str:
        return str(self.ui("folder", "inbox"))

    def folder_title(self) -> str:
        if self.folder.startswith("label:"):
            return self.folder.removeprefix("label:")
        return self.t(f"folder_{self.folder}")

    def on_back(self) -> bool:
        if self.ui("drawer"):
            self.set_ui("drawer", None)
            return True
        if self.ui("searching"):
            self._close_search()
            return True
        if self.folder != "inbox":
            self.choose("inbox")
            return True
        return super().on_back()

    def choose(self, folder: str) -> None:
        self.record.ui.pop("scroll", None)
        self.record.ui.pop("drawer", None)
        self.set_ui("folder", folder)

    def open_thread(self, thread: Thread) -> None:
        self.app.store.mark_read(thread.id)
        self.ctx.start_activity(THREAD, {"thread_id": thread.id})

    def open_draft(self, draft: Message) -> None:
        self.ctx.start_activity(COMPOSE, {"draft_id": draft.id})

    def toggle_star(self, thread: Thread) -> None:
        self.app.store.set_starred(thread.id, not thread.starred)
        self.ctx.invalidate()

    def _start_search(self) -> None:
        self.record.ui["focus"] = "query"
        self.ctx.show_keyboard()
        self.set_ui("searching", True)

    def _close_search(self) -> None:
        self.record.ui.pop("text:query", None)
        self.record.ui.pop("focus", None)
        self.record.ui.pop("scroll", None)
        self.set_ui("searching", None)

    def _submit(self) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("focus", None)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "main")
        bar_h = kit.dp(72)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "toolbar", bg=p.background)
        pill = Rect(
            area.left + kit.dp(16), area.top + kit.dp(12), area.right - kit.dp(16), area.top + kit.dp(60)
        )
        s = kit.dp(48)
        if self.ui("searching"):
            bar.add(
                icon_button(
                    kit,
                    Rect(pill.left, pill.top, pill.left + s, pill.bottom),
                    "arrow_back",
                    self.t("navigate_up"),
                    self._close_search,
                    rid=RID + "search_back",
                )
            )
            bar.add(
                self.text_field(
                    Rect(pill.left + s + kit.dp(8), pill.top, pill.right, pill.bottom),
                    "query",
                    self.t("search_hint"),
                    rid=RID + "search_src_text",
                    on_submit=self._submit,
                )
            )
        else:
            bar.add(View(pill, bg=p.surface_high, radius=pill.height // 2))
            menu = icon_button(
                kit,
                Rect(pill.left + kit.dp(4), pill.top, pill.left + kit.dp(4) + s, pill.bottom),
                "menu",
                self.t("open_drawer"),
                partial(self.set_ui, "drawer", True),
                rid=RID + "drawer_button",
            )
            menu.circle = p.surface_high  # the button sits on the search pill
            bar.add(menu)
            bar.add(
                TextView(
                    Rect(pill.left + kit.dp(60), pill.top, pill.right - kit.dp(56), pill.bottom),
                    self.t("search_hint"),
                    kit.body_large,
                    p.on_surface_variant,
                    on_click=self._start_search,
                    rid=RID + "search_bar",
                )
            )
            me = self.me[0]
            a = kit.dp(32)
            cy = pill.center[1]
            bar.add(
                self.avatar(
                    Rect(pill.right - kit.dp(12) - a, cy - a // 2, pill.right - kit.dp(12), cy + a // 2), me
                )
            )
        root.add(bar)
        top = area.top + bar_h
        searching = bool(self.ui("searching"))
        header = "" if searching else self.folder_title()
        if header:
            root.add(
                TextView(
                    Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(36)),
                    header,
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "folder_title",
                )
            )
            top += kit.dp(36)
        list_area = Rect(area.left, top, area.right, area.bottom)
        root.add(self._list(list_area, searching))
        if not searching:
            root.add(self._fab(area))
        if self.ui("drawer"):
            root.add(self._drawer(area))
        return root

    def _list(self, area: Rect, searching: bool) -> View:
        store = self.app.store
        rows: list[View] = []
        y = area.top
        if searching:
            query = str(self.ui("text:query", ""))
            threads = store.threads(self.account, query=query) if query.strip() else []
            if query.strip() and not threads:
                rows.append(self.empty(area, self.t("no_results")))
        elif self.folder == "drafts":
            for draft in store.drafts(self.account):
                row = self._draft_row(area, y, draft)
                rows.append(row)
                y = row.bounds.bottom
            threads = []
        elif self.folder.startswith("label:"):
            threads = store.threads(self.account, label=self.folder.removeprefix("label:"))
        else:
            threads = store.threads(self.account, self.folder)
        for thread in threads:
            row = self.thread_row(
                area, y, thread, partial(self.open_thread, thread), on_star=partial(self.toggle_star, thread)
            )
            rows.append(row)
            y = row.bounds.bottom
        if not rows and not searching:
            rows.append(self.empty(area, self.t("empty", folder=self.folder_title())))
        return self.scroll_list(area, rows, rid=RID + "thread_list", padding_bottom=self.kit.dp(88))

    def _draft_row(self, area: Rect, top: int, draft: Message) -> View:
        kit = self.kit
        p = kit.palette
        thread = Thread(draft.thread_id, draft.subject, False, (), (draft,))
        row = self.thread_row(area, top, thread, partial(self.open_draft, draft), title=self.t("draft_label"))
        row.children[1].color = p.error  # type: ignore[attr-defined]
        return row

    def _fab(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        # an extended FAB wraps its label: wider under a larger font scale instead of cutting "Compose"
        w = max(kit.dp(144), kit.dp(68) + math.ceil(text_width(self.t("compose"), kit.body_large)))
        h = kit.dp(56)
        rect = Rect(
            area.right - kit.dp(16) - w,
            area.bottom - kit.dp(16) - h,
            area.right - kit.dp(16),
            area.bottom - kit.dp(16),
        )
        fab = View(
            rect,
            class_name="android.widget.Button",
            rid=RID + "compose_button",
            bg=p.primary_container,
            radius=kit.dp(16),
            on_click=partial(self.ctx.start_activity, COMPOSE, {}),
            desc=self.t("compose"),
        )
        s = kit.dp(24)
        cy = rect.center[1]
        fab.add(
            ImageView(
                Rect(rect.left + kit.dp(16), cy - s // 2, rect.left + kit.dp(16) + s, cy + s // 2),
                "pencil",
                p.on_primary_container,
            )
        )
        fab.add(
            TextView(
                Rect(rect.left + kit.dp(52), rect.top, rect.right - kit.dp(12), rect.bottom),
                self.t("compose"),
                kit.body_large,
                p.on_primary_container,
                bold=True,
            )
        )
        return fab

    def _drawer(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        scrim = Scrim(area, partial(self.set_ui, "drawer", None))
        panel = View(
            Rect(area.left, area.top, area.left + kit.dp(300), area.bottom),
            class_name=FRAME,
            bg=p.surface,
            rid=RID + "drawer",
        )
        y = area.top + kit.dp(16)
        panel.add(
            TextView(
                Rect(area.left + kit.dp(28), y, area.left + kit.dp(280), y + kit.dp(40)),
                self.t("app_name"),
                kit.title_large,
                p.primary,
                bold=True,
                rid=RID + "drawer_title",
            )
        )
        y += kit.dp(40)
        panel.add(
            TextView(
                Rect(area.left + kit.dp(28), y, area.left + kit.dp(280), y + kit.dp(24)),
                self.account,
                kit.label,
                p.on_surface_variant,
                rid=RID + "account",
            )
        )
        y += kit.dp(32)
        entries = [(k, self.t(f"folder_{k}"), g) for k, g in DRAWER_FOLDERS]
        for key, label, glyph in entries:
            y = self._drawer_item(panel, area, y, key, label, glyph, f"drawer_{key}")
        panel.add(
            TextView(
                Rect(area.left + kit.dp(28), y + kit.dp(8), area.left + kit.dp(280), y + kit.dp(40)),
                self.t("labels"),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "labels_header",
            )
        )
        y += kit.dp(40)
        for label in self.app.store.labels(self.account):
            y = self._drawer_item(panel, area, y, f"label:{label}", label, "label", "drawer_label")
        scrim.add(panel)
        scrim.dialog_panel = panel
        return scrim

    def _drawer_item(
        self, panel: View, area: Rect, y: int, key: str, label: str, glyph: str, rid: str
    ) -> int:
        kit = self.kit
        p = kit.palette
        h = kit.dp(52)
        selected = key == self.folder
        item = View(
            Rect(area.left + kit.dp(12), y, area.left + kit.dp(288), y + h),
            class_name=LINEAR,
            rid=RID + rid,
            on_click=partial(self.choose, key),
            selected=selected,
            bg=p.primary_container if selected else None,
            radius=h // 2,
        )
        s = kit.dp(24)
        fg = p.on_primary_container if selected else p.on_surface_variant
        item.add(
            ImageView(
                Rect(area.left + kit.dp(28), y + (h - s) // 2, area.left + kit.dp(28) + s, y + (h + s) // 2),
                glyph,
                fg,
            )
        )
        item.add(
            TextView(
                Rect(area.left + kit.dp(68), y, area.left + kit.dp(276), y + h),
                label,
                kit.body_large,
                p.on_surface,
                rid="android:id/title",
                bold=selected,
            )
        )
        panel.add(item)
        return y + h


__all__ = ["MainActivity"]
