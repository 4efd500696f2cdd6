"""Keep-style screens: the note list (search, pinned and other notes, a drawer with labels and Trash)
and the editor, which saves as you type, like Keep (an empty new note is discarded on the way out)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.contacts.pim import Fab, field, icon_button, text_area, top_bar
from spa_bench.phone.apps.notes.store import PACKAGE, Note, NotesStore
from spa_bench.phone.ui import FRAME, LINEAR, Callback, Rect, Scrim, TextView, View
from spa_bench.phone.ui.fonts import wrap
from spa_bench.phone.ui.menu import MenuItem

ID = f"{PACKAGE}:id/"


class NotesActivity(Activity):
    @property
    def store(self) -> NotesStore:
        store: NotesStore = self.app.store  # type: ignore[attr-defined]
        return store


class Browse(NotesActivity):
    name = "com.google.android.keep.activities.BrowseActivity"

    def on_back(self) -> bool:
        if self.ui("drawer"):
            self.set_ui("drawer", None)
            return True
        return super().on_back()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{ID}browse_root")
        top = area.top + kit.dp(8)
        s = kit.dp(48)
        bar = Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(56))
        root.add(View(bar, bg=p.surface_high, radius=bar.height // 2))
        root.add(
            icon_button(
                kit,
                Rect(
                    bar.left + kit.dp(4),
                    bar.center[1] - s // 2,
                    bar.left + kit.dp(4) + s,
                    bar.center[1] + s // 2,
                ),
                "menu",
                self.t("drawer"),
                self.setter("drawer", True),
                rid=f"{ID}drawer_button",
                color=p.on_surface,
            )
        )
        root.children[-1].circle = None  # type: ignore[attr-defined]  # flat on the search bar
        search = self.text_field(
            Rect(bar.left + kit.dp(56), bar.top, bar.right - kit.dp(8), bar.bottom),
            "query",
            self.t("search_hint"),
            rid=f"{ID}search_box",
        )
        search.bg, search.underline = None, False
        root.add(search)
        view = str(self.ui("filter", ""))
        query = field(self, "query").casefold()
        notes = self.store.notes(trashed=view == "trash")
        if view.startswith("label:"):
            notes = [n for n in notes if view[6:] in n.labels]
        if query:
            notes = [n for n in notes if query in n.title.casefold() or query in n.body.casefold()]
        list_area = Rect(area.left, bar.bottom + kit.dp(8), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        if view.startswith("label:") or view == "trash":
            title = self.t("trash") if view == "trash" else view[6:]
            rows.append(self._header(list_area, y, title, "filter_title", kit.dp(20)))
            y = rows[-1].bounds.bottom
        groups = [
            (self.t("pinned"), [n for n in notes if n.pinned]),
            (self.t("others"), [n for n in notes if not n.pinned]),
        ]
        show_headers = bool(groups[0][1]) and view != "trash"
        cards: dict[int, tuple[View, Note]] = {}
        for header, group in groups:
            if show_headers and group:
                rows.append(self._header(list_area, y, header, "section_header", kit.label))
                y = rows[-1].bounds.bottom
            for n in group:
                rows.append(self._card(list_area, y, n))
                cards[n.id] = (rows[-1], n)
                y = rows[-1].bounds.bottom + kit.dp(10)
        if not notes:
            empty = self.t("no_results" if query else "empty_trash" if view == "trash" else "empty")
            rows.append(
                TextView(
                    Rect(list_area.left, y + kit.dp(48), list_area.right, y + kit.dp(96)),
                    empty,
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=f"{ID}empty",
                )
            )
        root.add(self.scroll_list(list_area, rows, rid=f"{ID}notes_list", padding_bottom=kit.dp(96)))
        if view != "trash":
            root.add(
                Fab(
                    kit,
                    area,
                    "plus",
                    self.t("new_note"),
                    lambda: self.ctx.start_activity(Editor.name),
                    rid=f"{ID}new_note_button",
                )
            )
        if self.ui("drawer"):
            root.add(self._drawer(area, view))
        target = self.menu_target()
        if target in cards:
            card, note = cards[target]
            root.add(self.context_menu(list_area, card.bounds, self._menu_items(note), area))
        return root

    def _menu_items(self, n: Note) -> list[MenuItem]:
        """The long-press menu of a note: pin or unpin, make a copy, delete (restore in the trash)."""
        store = self.store
        if n.trashed:
            return [
                MenuItem(self.t("restore"), partial(store.update, n.id, "trashed", 0), f"{ID}menu_restore"),
                MenuItem(self.t("delete_forever"), partial(store.delete_forever, n.id), f"{ID}menu_delete"),
            ]
        pin = partial(store.update, n.id, "pinned", int(not n.pinned))
        return [
            MenuItem(self.t("unpin" if n.pinned else "pin"), pin, f"{ID}menu_pin"),
            MenuItem(self.t("make_copy"), partial(store.duplicate, n.id), f"{ID}menu_copy"),
            MenuItem(self.t("delete"), partial(self._trash, n.id), f"{ID}menu_delete"),
        ]

    def _trash(self, note_id: int) -> None:
        self.store.update(note_id, "trashed", 1)
        self.ctx.toast(self.t("moved_to_trash"))

    def _header(self, area: Rect, top: int, text: str, rid: str, size: int) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left + kit.dp(24), top, area.right - kit.dp(16), top + kit.dp(40)),
            text,
            size,
            kit.palette.on_surface_variant,
            rid=f"{ID}{rid}",
            bold=True,
        )

    def _card(self, area: Rect, top: int, n: Note) -> View:
        kit = self.kit
        p = kit.palette
        left, right = area.left + kit.dp(16), area.right - kit.dp(16)
        inner = right - left - kit.dp(32)
        body_lines = wrap(n.body.replace("\n", " · "), kit.body_medium, inner, 4) if n.body else []
        h = (
            kit.dp(16)
            + (kit.dp(30) if n.title else 0)
            + len(body_lines) * TextView.line_height(kit.body_medium)
        )
        h += (kit.dp(36) if n.labels else 0) + kit.dp(16)
        card = View(
            Rect(left, top, right, top + h),
            class_name=FRAME,
            rid=f"{ID}browse_note_interior_content",
            on_click=partial(self.ctx.start_activity, Editor.name, {"id": n.id}),
            on_long_click=self.open_menu(n.id),
        )
        card.add(
            View(
                card.bounds,
                bg=p.outline,
                radius=kit.dp(12),
                children=[View(card.bounds.inset(max(1, kit.dp(1))), bg=p.background, radius=kit.dp(11))],
            )
        )
        y = top + kit.dp(16)
        x = left + kit.dp(16)
        if n.title:
            card.add(
                TextView(
                    Rect(x, y, right - kit.dp(16), y + kit.dp(26)),
                    n.title,
                    kit.body_large,
                    p.on_surface,
                    rid=f"{ID}index_note_title",
                    bold=True,
                )
            )
            y += kit.dp(30)
        if body_lines:
            bh = len(body_lines) * TextView.line_height(kit.body_medium)
            card.add(
                TextView(
                    Rect(x, y, right - kit.dp(16), y + bh),
                    n.body.replace("\n", " · "),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=f"{ID}index_note_text",
                    max_lines=4,
                )
            )
            y += bh
        if n.labels:
            cx = x
            y += kit.dp(8)
            for name in n.labels:
                w = round(_width(name, kit.label)) + kit.dp(20)
                chip = View(Rect(cx, y, cx + w, y + kit.dp(24)), bg=p.surface_high, radius=kit.dp(6))
                chip.add(
                    TextView(
                        chip.bounds, name, kit.label, p.on_surface, align="center", rid=f"{ID}label_chip"
                    )
                )
                card.add(chip)
                cx += w + kit.dp(6)
        return card

    def _drawer(self, area: Rect, view: str) -> View:
        kit = self.kit
        p = kit.palette
        scrim = Scrim(area, self.setter("drawer", None))
        panel = View(
            Rect(area.left, area.top, area.left + kit.dp(300), area.bottom),
            class_name=FRAME,
            rid=f"{ID}drawer",
            bg=p.surface,
        )
        y = area.top + kit.dp(16)
        panel.add(
            TextView(
                Rect(area.left + kit.dp(28), y, area.left + kit.dp(280), y + kit.dp(48)),
                self.t("app_name"),
                kit.dp(22),
                p.on_surface,
            )
        )
        y += kit.dp(56)
        items: list[tuple[str, str, str]] = [(self.t("notes"), "", "drawer_notes")]
        items += [(name, f"label:{name}", "drawer_label") for name in self.store.labels()]
        items.append((self.t("trash"), "trash", "drawer_trash"))
        for text, target, rid in items:
            rect = Rect(area.left + kit.dp(12), y, area.left + kit.dp(288), y + kit.dp(52))
            item = View(
                rect,
                rid=f"{ID}{rid}",
                on_click=partial(self._choose, target),
                class_name=LINEAR,
                bg=p.primary_container if target == view else None,
                radius=rect.height // 2,
                selected=target == view,
            )
            item.add(TextView(rect.inset(kit.dp(16), 0), text, kit.body_large, p.on_surface))
            panel.add(item)
            y += kit.dp(56)
        scrim.add(panel)
        return scrim

    def _choose(self, target: str) -> None:
        self.record.ui.pop("drawer", None)
        self.record.ui.pop("scroll", None)
        self.set_ui("filter", target or None)


def _width(text: str, size: int) -> float:
    from spa_bench.phone.ui.fonts import text_width

    return text_width(text, size)


class Editor(NotesActivity):
    name = "com.google.android.keep.activities.EditorActivity"

    def note_id(self, create: bool = False) -> int | None:
        nid = self.record.args.get("id")
        if nid is None and create:
            nid = self.store.create()
            self.record.args["id"] = nid
        return int(nid) if nid is not None else None

    def leave(self) -> None:
        """Keep discards a note left empty."""
        nid = self.note_id()
        n = self.store.get(nid) if nid is not None else None
        if n is not None and not n.title.strip() and not n.body.strip() and not n.labels:
            self.store.delete_forever(n.id)

    def on_back(self) -> bool:
        if super().on_back():
            return True
        self.leave()
        return False

    def _up(self) -> None:
        self.leave()
        self.ctx.finish()

    def _set(self, column: str, value: str | int) -> None:
        nid = self.note_id(create=True)
        assert nid is not None
        self.store.update(nid, column, value)

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        nid = self.note_id()
        n = self.store.get(nid) if nid is not None else None
        root = View(area, class_name=LINEAR, rid=f"{ID}editor_root")
        actions: list[tuple[str, str, Callback, str]]
        if n is not None and n.trashed:
            actions = [
                ("trash_restore", self.t("restore"), partial(self._restore, n.id), "menu_restore"),
                (
                    "delete",
                    self.t("delete_forever"),
                    partial(self._delete_forever, n.id),
                    "menu_delete_forever",
                ),
            ]
        else:
            pinned = n is not None and n.pinned
            actions = [
                (
                    "pin",
                    self.t("unpin" if pinned else "pin"),
                    partial(self._set, "pinned", int(not pinned)),
                    "menu_pin",
                ),
                ("label", self.t("labels"), self.setter("dialog", "labels"), "menu_label"),
                ("delete", self.t("delete"), self._trash, "menu_delete"),
            ]
        bar, h = top_bar(
            kit, area, "", package=PACKAGE, on_back=self._up, back_desc=self.t("navigate_up"), actions=actions
        )
        root.add(bar)
        y = area.top + h + kit.dp(8)
        focus = self.ui("focus")
        left, right = area.left + kit.dp(12), area.right - kit.dp(12)
        root.add(
            text_area(
                kit,
                Rect(left, y, right, y + kit.dp(48)),
                "title",
                n.title if n else "",
                self.t("title_hint"),
                focus == "title",
                partial(self._set, "title"),
                rid=f"{ID}editable_title",
                size=kit.dp(22),
                # Keep's title takes no newline: Enter (its IME action, next) moves on to the body
                multi_line=False,
                on_submit=self.setter("focus", "body"),
            )
        )
        y += kit.dp(56)
        labels_h = kit.dp(40) if n is not None and n.labels else 0
        root.add(
            text_area(
                kit,
                Rect(left, y, right, area.bottom - kit.dp(16) - labels_h),
                "body",
                n.body if n else "",
                self.t("body_hint"),
                focus == "body",
                partial(self._set, "body"),
                rid=f"{ID}edit_note_text",
            )
        )
        if n is not None and n.labels:
            cx, cy = left + kit.dp(8), area.bottom - kit.dp(16) - labels_h
            for name in n.labels:
                w = round(_width(name, kit.label)) + kit.dp(20)
                chip = View(Rect(cx, cy, cx + w, cy + kit.dp(28)), bg=p.surface_high, radius=kit.dp(6))
                chip.add(
                    TextView(
                        chip.bounds, name, kit.label, p.on_surface, align="center", rid=f"{ID}label_chip"
                    )
                )
                root.add(chip)
                cx += w + kit.dp(6)
        if self.ui("dialog") == "labels":
            root.add(self._labels_dialog(area, n))
        return root

    def _labels_dialog(self, area: Rect, n: Note | None) -> View:
        kit = self.kit
        p = kit.palette
        width = area.width - kit.dp(96)
        rows: list[View] = [
            self.text_field(
                Rect(0, 0, width, kit.dp(48)),
                "new_label",
                self.t("create_label"),
                rid=f"{ID}label_input",
                on_submit=self._create_label,
            )
        ]
        y = kit.dp(56)
        current = set(n.labels) if n else set()
        for name in self.store.labels():
            on = name in current
            row = View(
                Rect(0, y, width, y + kit.dp(48)),
                rid=f"{ID}label_row",
                checkable=True,
                checked=on,
                on_click=partial(self._toggle_label, name),
                class_name="android.widget.CheckBox",
            )
            box = Rect(kit.dp(4), y + kit.dp(14), kit.dp(24), y + kit.dp(34))
            row.add(
                View(
                    box,
                    bg=p.primary if on else p.outline,
                    radius=kit.dp(3),
                    children=[] if on else [View(box.inset(kit.dp(2)), bg=p.surface_high)],
                )
            )
            row.add(
                TextView(
                    Rect(kit.dp(40), y, width, y + kit.dp(48)),
                    name,
                    kit.body_large,
                    p.on_surface,
                    rid=f"{ID}label_name",
                )
            )
            rows.append(row)
            y += kit.dp(48)
        return kit.dialog(
            area,
            self.t("labels"),
            rows,
            [(self.t("done"), self._close_dialog)],
            self._close_dialog,
            body_height=y,
        )

    def _close_dialog(self) -> None:
        self.record.ui.pop("focus", None)
        self.record.ui.pop("text:new_label", None)
        self.set_ui("dialog", None)

    def _toggle_label(self, name: str) -> None:
        nid = self.note_id(create=True)
        assert nid is not None
        self.store.toggle_label(nid, name)
        self.ctx.invalidate()

    def _create_label(self) -> None:
        name = field(self, "new_label")
        if name:
            self._toggle_label(name)
            self.record.ui.pop("text:new_label", None)
            self.ctx.invalidate()

    def _trash(self) -> None:
        nid = self.note_id()
        if nid is not None:
            self.store.update(nid, "trashed", 1)
            self.ctx.toast(self.t("moved_to_trash"))
        self.ctx.finish()

    def _restore(self, nid: int) -> None:
        self.store.update(nid, "trashed", 0)
        self.ctx.toast(self.t("restored"))
        self.ctx.finish()

    def _delete_forever(self, nid: int) -> None:
        self.store.delete_forever(nid)
        self.ctx.finish()
