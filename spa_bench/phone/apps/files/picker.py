"""The move destination picker and the plain-text viewer of the Files app."""

from __future__ import annotations

import posixpath
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.files.listing import ROOT, list_folder
from spa_bench.phone.apps.files.screens import RID, BrowserBase, PickerName, ViewerName
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View
from spa_bench.phone.vfs import VfsError

if TYPE_CHECKING:
    from spa_bench.phone.apps.files import FilesApp


class PickActivity(BrowserBase):
    """`PickActivity`: browse folders (files are shown disabled) and move the items here; or, started
    by another app in `open` mode (ACTION_OPEN_DOCUMENT: args `mode`, `caller`), pick one file, which
    goes back to the caller as its activity result (`{"path": ...}`)."""

    name = PickerName

    @property
    def items(self) -> list[str]:
        return [str(i) for i in self.record.args.get("items", [])]

    @property
    def opening(self) -> bool:
        return self.record.args.get("mode") == "open"

    def on_back(self) -> bool:
        if super().on_back() or self.up():
            return True
        if self.opening:
            self._return({})
            return True
        return False

    def _return(self, result: dict[str, str]) -> None:
        """Close the picker (its own small task here) and hand `result` to the app that asked."""
        caller = str(self.record.args.get("caller", ""))
        self.ctx.force_stop(self.ctx.package)
        if caller:
            if result:
                self.ctx.send_result(caller, result)
            else:
                self.ctx.launch(caller)

    def pick(self, path: str) -> None:
        self._return({"path": path})

    def build_open(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=RID + "picker_root")
        bar, bar_h = kit.app_bar(
            area, self.t("open_title"), self._cancel_open, package="com.android.documentsui"
        )
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        top = area.top + bar_h
        root.add(self.crumbs(area, top))
        top += kit.dp(44)
        list_area = Rect(area.left, top, area.right, area.bottom)
        rows: list[View] = []
        y = top
        for entry in list_folder(self.app.fs, self.path):
            action = partial(self.open_folder, entry.path) if entry.is_dir else partial(self.pick, entry.path)
            row = self.entry_row(list_area, y, entry, self.summary(entry), on_click=action)
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=RID + "dir_list"))
        return root

    def _cancel_open(self) -> None:
        if not self.up():
            self._return({})

    def can_move_here(self) -> bool:
        here = self.path
        return all(
            here != p and not here.startswith(p + "/") and posixpath.dirname(p) != here for p in self.items
        )

    def move_here(self) -> None:
        here = self.path
        if not self.can_move_here():
            self.ctx.toast(self.app.strings.get(self.ctx.locale, "cant_move"))
            return
        moved = 0
        for path in self.items:
            target = posixpath.join(here, posixpath.basename(path))
            if self.app.fs.exists(target):
                self.ctx.toast(self.t("exists", name=posixpath.basename(path)))
                return
            try:
                self.app.fs.move(path, target)
                moved += 1
            except VfsError:
                continue
        self.ctx.finish()
        self.ctx.toast(self.t("moved", n=moved))

    def build(self, area: Rect) -> View:
        if self.opening:
            return self.build_open(area)
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "picker_root")
        bar, bar_h = kit.app_bar(
            area,
            self.t("move_title", n=len(self.items)),
            self._back_or_cancel,
            package="com.android.documentsui",
        )
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        top = area.top + bar_h
        root.add(self.crumbs(area, top))
        top += kit.dp(44)
        footer_h = kit.dp(80)
        list_area = Rect(area.left, top, area.right, area.bottom - footer_h)
        rows: list[View] = []
        y = top
        for entry in list_folder(self.app.fs, self.path):
            row = self.entry_row(
                list_area,
                y,
                entry,
                self.summary(entry),
                enabled=entry.is_dir,
                on_click=partial(self.open_folder, entry.path) if entry.is_dir else None,
            )
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=RID + "dir_list"))
        footer = View(
            Rect(area.left, area.bottom - footer_h, area.right, area.bottom),
            class_name=LINEAR,
            bg=p.surface_high,
            rid=RID + "container_save",
        )
        bw = kit.dp(112)
        by = area.bottom - footer_h + kit.dp(18)
        footer.add(
            Button(
                Rect(area.right - kit.dp(16) - bw, by, area.right - kit.dp(16), by + kit.dp(44)),
                self.t("move_here"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self.move_here,
                rid="android:id/button1",
                enabled=self.can_move_here(),
            )
        )
        footer.add(
            Button(
                Rect(area.right - kit.dp(24) - 2 * bw, by, area.right - kit.dp(24) - bw, by + kit.dp(44)),
                self.t("cancel"),
                kit.body_medium,
                p.primary,
                None,
                on_click=self.ctx.finish,
                rid="android:id/button2",
            )
        )
        root.add(footer)
        return root

    def _back_or_cancel(self) -> None:
        if not self.up():
            self.ctx.finish()


class ViewerActivity(Activity):
    """A read-only view of a text file (what opening a .txt shows)."""

    name = ViewerName
    app: FilesApp

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        path = str(self.record.args.get("path", ROOT))
        root = View(area, class_name=LINEAR, rid=RID + "viewer")
        bar, bar_h = kit.app_bar(
            area, posixpath.basename(path), self.ctx.finish, package="com.android.documentsui"
        )
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        try:
            text = self.app.fs.read_bytes(path).decode("utf-8", "replace")
        except VfsError:
            text = ""
        rows: list[View] = []
        y = area.top + bar_h + kit.dp(8)
        width = area.width - kit.dp(32)
        for line in text.splitlines():
            h = TextView.wrapped_height(line or " ", kit.body_large, width, 6)
            rows.append(
                TextView(
                    Rect(area.left + kit.dp(16), y, area.right - kit.dp(16), y + h),
                    line,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "text_line",
                    max_lines=6,
                )
            )
            y += h
        root.add(
            self.scroll_list(
                Rect(area.left, area.top + bar_h, area.right, area.bottom), rows, rid=RID + "viewer_scroll"
            )
        )
        return root
