"""The Files browser (`com.android.documentsui.files.FilesActivity`): folders of shared storage,
long-press selection with rename / move / delete, a new-folder dialog and search.

Screen state (`record.ui`): `path` (the folder shown), `selected` (paths), `searching` and the query
field, and `dialog` (`new_folder`, `rename`, `delete`).
"""

from __future__ import annotations

import posixpath
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.files.listing import (
    ROOT,
    TEXT_SUFFIXES,
    Entry,
    breadcrumb,
    format_date,
    format_size,
    list_folder,
    search,
    valid_name,
)
from spa_bench.phone.ui import FRAME, LINEAR, Callback, ImageView, Rect, TextView, View, tone
from spa_bench.phone.vfs import VfsError

if TYPE_CHECKING:
    from spa_bench.phone.apps.files import FilesApp

PACKAGE = "com.android.documentsui"
RID = f"{PACKAGE}:id/"
_HUES = {"folder": "blue", "image": "red", "audio": "orange", "video": "purple", "file": "teal"}


class BrowserBase(Activity):
    """What the browser and the move picker share: the folder being shown and its rows."""

    app: FilesApp

    @property
    def path(self) -> str:
        return str(self.ui("path", self.record.args.get("path", ROOT)))

    def open_folder(self, path: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("path", path)

    def up(self) -> bool:
        if self.path == ROOT:
            return False
        self.open_folder(posixpath.dirname(self.path))
        return True

    def summary(self, entry: Entry) -> str:
        if entry.is_dir:
            n = entry.children
            return self.t("one_item") if n == 1 else self.t("items", n=n)
        return f"{format_date(entry.mtime, self.ctx.locale)} · {format_size(entry.size)}"

    def entry_row(
        self,
        area: Rect,
        top: int,
        entry: Entry,
        summary: str,
        selected: bool = False,
        enabled: bool = True,
        on_click: Callback | None = None,
        on_long: Callback | None = None,
    ) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "item_root",
            on_click=on_click,
            on_long_click=on_long,
            enabled=enabled,
            selected=selected,
            bg=p.primary_container if selected else None,
        )
        s = kit.dp(40)
        cy = top + h // 2
        left = area.left + kit.dp(16)
        bg, fg = tone(_HUES[entry.kind], p.dark)
        glyph = "check" if selected else {"folder": "folder", "file": "file"}.get(entry.kind, entry.kind)
        row.add(
            ImageView(
                Rect(left, cy - s // 2, left + s, cy + s // 2),
                glyph,
                fg if enabled else p.outline,
                circle=bg,
                rid=RID + "icon_mime",
                scale=0.55,
            )
        )
        text_left = left + s + kit.dp(16)
        colour = p.on_surface if enabled else p.outline
        row.add(
            TextView(
                Rect(text_left, top + kit.dp(12), area.right - kit.dp(16), top + kit.dp(38)),
                entry.name,
                kit.body_large,
                colour,
                rid="android:id/title",
            )
        )
        row.add(
            TextView(
                Rect(text_left, top + kit.dp(38), area.right - kit.dp(16), top + kit.dp(60)),
                summary,
                kit.body_medium,
                p.on_surface_variant,
                rid="android:id/summary",
            )
        )
        return row

    def crumbs(self, area: Rect, top: int) -> View:
        kit = self.kit
        p = kit.palette
        parts = [self.t("internal_storage"), *breadcrumb(self.path)]
        text = "  ›  ".join(parts)
        return TextView(
            Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(40)),
            text,
            kit.body_medium,
            p.primary,
            rid=RID + "breadcrumb",
        )


class FilesActivity(BrowserBase):
    name = "com.android.documentsui.files.FilesActivity"

    @property
    def selected(self) -> list[str]:
        return [str(s) for s in self.ui("selected", [])]

    # -- actions --------------------------------------------------------------------------------------
    def on_back(self) -> bool:
        if super().on_back():
            return True
        if self.selected:
            self.set_ui("selected", None)
            return True
        if self.ui("searching"):
            self.record.ui.pop("text:query", None)
            self.set_ui("searching", None)
            return True
        return self.up()

    def tap_entry(self, entry: Entry) -> None:
        if self.selected:
            self.toggle(entry)
        elif entry.is_dir:
            self.record.ui.pop("searching", None)
            self.record.ui.pop("text:query", None)
            self.open_folder(entry.path)
        elif entry.name.lower().endswith(TEXT_SUFFIXES):
            self.ctx.start_activity(ViewerName, {"path": entry.path})
        else:
            self.ctx.toast(self.t("no_app"))

    def toggle(self, entry: Entry) -> None:
        chosen = self.selected
        if entry.path in chosen:
            chosen.remove(entry.path)
        else:
            chosen.append(entry.path)
        self.set_ui("selected", chosen or None)

    def open_dialog(self, kind: str) -> None:
        if kind == "rename":
            self.record.ui["text:rename"] = posixpath.basename(self.selected[0])
            self.record.ui["focus"] = "rename"
            self.ctx.show_keyboard()
        elif kind == "new_folder":
            self.record.ui["text:folder_name"] = ""
            self.record.ui["focus"] = "folder_name"
            self.ctx.show_keyboard()
        self.set_ui("dialog", kind)

    def close_dialog(self) -> None:
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)

    def create_folder(self) -> None:
        name = str(self.ui("text:folder_name", "")).strip()
        if not valid_name(name):
            self.ctx.toast(self.t("bad_name"))
            return
        target = posixpath.join(self.path, name)
        if self.app.fs.exists(target):
            self.ctx.toast(self.t("exists", name=name))
            return
        self.app.fs.mkdir(target)
        self.close_dialog()

    def rename(self) -> None:
        source = self.selected[0]
        name = str(self.ui("text:rename", "")).strip()
        if not valid_name(name):
            self.ctx.toast(self.t("bad_name"))
            return
        target = posixpath.join(posixpath.dirname(source), name)
        if target != source:
            if self.app.fs.exists(target):
                self.ctx.toast(self.t("exists", name=name))
                return
            self.app.fs.move(source, target)
        self.record.ui.pop("selected", None)
        self.close_dialog()

    def delete(self) -> None:
        paths = self.selected
        for path in paths:
            try:
                self.app.fs.remove(path, recursive=True)
            except VfsError:
                continue
        self.record.ui.pop("selected", None)
        self.close_dialog()
        self.ctx.toast(self.t("deleted", n=len(paths)))

    def move(self) -> None:
        self.ctx.start_activity(PickerName, {"items": self.selected, "path": ROOT})
        self.record.ui.pop("selected", None)

    # -- layout ---------------------------------------------------------------------------------------
    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "drawer_layout")
        bar_h = kit.dp(64)
        root.add(self._app_bar(area.with_height(bar_h)))
        top = area.top + bar_h
        searching = bool(self.ui("searching"))
        query = str(self.ui("text:query", ""))
        if searching:
            entries = search(self.app.fs, query)
        else:
            root.add(self.crumbs(area, top))
            top += kit.dp(44)
            entries = list_folder(self.app.fs, self.path)
        list_area = Rect(area.left, top, area.right, area.bottom)
        rows: list[View] = []
        y = top
        chosen = set(self.selected)
        for entry in entries:
            summary = self.summary(entry)
            if searching:
                summary = posixpath.dirname(entry.path).replace(ROOT, self.t("internal_storage"), 1)
            row = self.entry_row(
                list_area,
                y,
                entry,
                summary,
                selected=entry.path in chosen,
                on_click=partial(self.tap_entry, entry),
                on_long=partial(self.toggle, entry),
            )
            rows.append(row)
            y = row.bounds.bottom
        if not entries and (query or not searching):
            message = self.t("no_results") if searching else self.t("empty_folder")
            rows.append(
                TextView(
                    Rect(area.left, y + kit.dp(48), area.right, y + kit.dp(96)),
                    message,
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "message",
                )
            )
        root.add(self.scroll_list(list_area, rows, rid=RID + "dir_list", padding_bottom=kit.dp(16)))
        dialog = self._dialog(area)
        if dialog is not None:
            root.add(dialog)
        return root

    def _icon(self, rect: Rect, glyph: str, desc: str, rid: str, on_click: Callback) -> ImageView:
        return ImageView(
            rect,
            glyph,
            self.kit.palette.on_surface_variant,
            desc=desc,
            rid=RID + rid,
            on_click=on_click,
            circle=self.kit.palette.background,
            scale=0.5,
        )

    def _app_bar(self, rect: Rect) -> View:
        kit = self.kit
        p = kit.palette
        chosen = self.selected
        bar = View(
            rect, class_name=FRAME, rid=RID + "toolbar", bg=p.primary_container if chosen else p.background
        )
        s = kit.dp(48)
        top = rect.top + kit.dp(8)

        def slot(i: int) -> Rect:  # icon slots from the right edge
            right = rect.right - kit.dp(4) - i * s
            return Rect(right - s, top, right, top + s)

        left_icon = Rect(rect.left + kit.dp(4), top, rect.left + kit.dp(4) + s, top + s)
        title_left = rect.left + kit.dp(64)
        if chosen:
            bar.add(
                self._icon(
                    left_icon, "close", self.t("close_selection"), "close", self.setter("selected", None)
                )
            )
            bar.add(
                TextView(
                    Rect(title_left, rect.top, slot(2).left, rect.bottom),
                    self.t("selected", n=len(chosen)),
                    kit.title_large,
                    p.on_primary_container,
                    rid=RID + "selection_title",
                )
            )
            bar.add(
                self._icon(
                    slot(0),
                    "delete",
                    self.t("delete"),
                    "action_menu_delete",
                    partial(self.open_dialog, "delete"),
                )
            )
            bar.add(self._icon(slot(1), "move", self.t("move_to"), "action_menu_move_to", self.move))
            if len(chosen) == 1:
                bar.add(
                    self._icon(
                        slot(2),
                        "pencil",
                        self.t("rename"),
                        "action_menu_rename",
                        partial(self.open_dialog, "rename"),
                    )
                )
            return bar
        if self.ui("searching"):
            bar.add(self._icon(left_icon, "arrow_back", self.t("navigate_up"), "search_back", self._back))
            bar.add(
                self.text_field(
                    Rect(title_left, top, rect.right - kit.dp(16), top + s),
                    "query",
                    self.t("search_hint"),
                    rid=RID + "search_src_text",
                    on_submit=self.ctx.invalidate,
                )
            )
            return bar
        if self.path != ROOT:
            bar.add(self._icon(left_icon, "arrow_back", self.t("navigate_up"), "up", self._back))
        else:
            title_left = rect.left + kit.dp(16)
        title = self.t("app_name") if self.path == ROOT else posixpath.basename(self.path)
        bar.add(
            TextView(
                Rect(title_left, rect.top, slot(1).left, rect.bottom),
                title,
                kit.title_large,
                p.on_surface,
                rid="android:id/title",
            )
        )
        bar.add(
            self._icon(
                slot(0),
                "create_folder",
                self.t("new_folder"),
                "action_menu_create_dir",
                partial(self.open_dialog, "new_folder"),
            )
        )
        bar.add(self._icon(slot(1), "search", self.t("search"), "option_menu_search", self._start_search))
        return bar

    def _back(self) -> None:
        self.on_back()

    def _start_search(self) -> None:
        self.record.ui["focus"] = "query"
        self.ctx.show_keyboard()
        self.set_ui("searching", True)

    def _dialog(self, area: Rect) -> View | None:
        kit = self.kit
        kind = self.ui("dialog")
        cancel = (self.t("cancel"), self.close_dialog)
        width = area.width - kit.dp(96)
        if kind == "new_folder" or (kind == "rename" and self.selected):
            key = "folder_name" if kind == "new_folder" else "rename"
            field = self.text_field(
                Rect(0, 0, width, kit.dp(56)),
                key,
                self.t("folder_name" if kind == "new_folder" else "name_hint"),
                rid="android:id/text1",
                on_submit=self.create_folder if kind == "new_folder" else self.rename,
            )
            title = self.t("new_folder" if kind == "new_folder" else "rename_title")
            ok = (
                (self.t("create"), self.create_folder)
                if kind == "new_folder"
                else (self.t("ok"), self.rename)
            )
            return kit.dialog(area, title, [field], [cancel, ok], self.close_dialog, body_height=kit.dp(56))
        if kind == "delete" and self.selected:
            chosen = self.selected
            title = (
                self.t("delete_one", name=posixpath.basename(chosen[0]))
                if len(chosen) == 1
                else self.t("delete_many", n=len(chosen))
            )
            return kit.dialog(area, title, [], [cancel, (self.t("delete"), self.delete)], self.close_dialog)
        return None


ViewerName = "com.android.documentsui.ViewerActivity"
PickerName = "com.android.documentsui.picker.PickActivity"
