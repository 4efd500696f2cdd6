"""Compose (`com.spa.social.ComposeActivity`): the post's text, an optional topic, an optional photo
picked from shared storage (Pictures and DCIM, newest first, in a simple grid picker), who can see it
(everyone or friends only), and the Post button."""

from __future__ import annotations

import os
import posixpath
from functools import partial

from spa_bench.phone.apps.shop.widgets import chip
from spa_bench.phone.apps.social.photos import IMAGE_SUFFIXES, PhotoView
from spa_bench.phone.apps.social.widgets import PACKAGE, RID, SocialActivity
from spa_bench.phone.ui import FRAME, LINEAR, Button, Rect, TextView, View

PHOTO_FOLDERS = ("/sdcard/Pictures", "/sdcard/DCIM")


class ComposeActivity(SocialActivity):
    name = "com.spa.social.ComposeActivity"

    def photos(self) -> list[str]:
        """Image files under Pictures and DCIM (any depth), newest first, as /sdcard paths."""
        fs = self.app.fs
        found: list[tuple[float, str]] = []
        for folder in PHOTO_FOLDERS:
            host = fs.host_path(folder)
            for dirpath, dirs, files in os.walk(host):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                for name in files:
                    if name.lower().endswith(IMAGE_SUFFIXES) and not name.startswith("."):
                        full = os.path.join(dirpath, name)
                        found.append((os.path.getmtime(full), fs.to_virtual(type(host)(full))))
        return [path for _, path in sorted(found, key=lambda item: (-item[0], item[1]))]

    def on_back(self) -> bool:
        if self.ui("picker"):
            self.set_ui("picker", None)
            return True
        return super().on_back()

    def pick(self, path: str) -> None:
        self.record.ui["photo"] = path
        self.set_ui("picker", None)

    def publish(self) -> None:
        text = str(self.ui("text:text", "")).strip()
        if not text:
            self.ctx.toast(self.t("empty_post"))
            return
        topic = str(self.ui("text:topic", "")).strip().strip("#").strip()
        self.app.store.create_post(
            self.lang, text, topic, str(self.ui("photo", "")), str(self.ui("visibility", "public"))
        )
        self.ctx.finish()
        self.ctx.toast(self.t("posted"))

    def build(self, area: Rect) -> View:
        if self.ui("picker"):
            return self._picker(area)
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "compose")
        bar, bar_h = kit.app_bar(area, self.t("new_post"), self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("cancel")
        bw = kit.dp(88)
        bar.add(
            Button(
                Rect(
                    area.right - kit.dp(16) - bw,
                    area.top + kit.dp(12),
                    area.right - kit.dp(16),
                    area.top + kit.dp(52),
                ),
                self.t("post_button"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self.publish,
                rid=RID + "post_button",
            )
        )
        root.add(bar)
        pad = kit.dp(16)
        left, right = area.left + pad, area.right - pad
        y = area.top + bar_h + kit.dp(8)
        root.add(
            self.text_field(
                Rect(left, y, right, y + kit.dp(56)), "text", self.t("whats_new"), rid=RID + "post_input"
            )
        )
        y += kit.dp(68)
        root.add(
            self.text_field(
                Rect(left, y, right, y + kit.dp(52)), "topic", self.t("topic_hint"), rid=RID + "topic_input"
            )
        )
        y += kit.dp(64)
        photo = str(self.ui("photo", ""))
        if photo:
            ph = kit.dp(150)
            pw = ph * 4 // 3
            root.add(
                PhotoView(
                    Rect(left, y, left + pw, y + ph),
                    photo,
                    self.app.photo_host(photo),
                    radius=kit.dp(12),
                    rid=RID + "photo_preview",
                    desc=posixpath.basename(photo),
                )
            )
            root.add(
                TextView(
                    Rect(left + pw + kit.dp(12), y, right, y + kit.dp(48)),
                    posixpath.basename(photo),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "photo_name",
                    max_lines=2,
                )
            )
            root.add(
                Button(
                    Rect(left + pw + kit.dp(12), y + kit.dp(60), right, y + kit.dp(100)),
                    self.t("remove_photo"),
                    kit.body_medium,
                    p.primary,
                    None,
                    outline=p.outline,
                    on_click=self.setter("photo", None),
                    rid=RID + "remove_photo",
                )
            )
            y += ph + kit.dp(16)
        else:
            root.add(
                Button(
                    Rect(left, y, left + kit.dp(160), y + kit.dp(44)),
                    self.t("add_photo"),
                    kit.body_medium,
                    p.primary,
                    None,
                    outline=p.outline,
                    on_click=self.setter("picker", True),
                    rid=RID + "add_photo",
                )
            )
            y += kit.dp(60)
        root.add(
            TextView(
                Rect(left, y, right, y + kit.dp(28)),
                self.t("visibility"),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "visibility_label",
            )
        )
        y += kit.dp(32)
        current = str(self.ui("visibility", "public"))
        x = left
        for key in ("public", "friends"):
            c = chip(
                kit,
                x,
                y,
                self.t(key),
                current == key,
                self.setter("visibility", key),
                rid=RID + f"visibility_{key}",
            )
            root.add(c)
            x = c.bounds.right + kit.dp(8)
        return root

    def _picker(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "photo_picker", bg=p.background)
        bar, bar_h = kit.app_bar(area, self.t("choose_photo"), self.setter("picker", None), package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        grid = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        cols = 2
        gap = kit.dp(4)
        cell_w = (grid.width - gap * (cols + 1)) // cols
        cell_h = cell_w + kit.dp(40)
        tiles: list[View] = []
        for i, path in enumerate(self.photos()):
            col, line = i % cols, i // cols
            x = grid.left + gap + col * (cell_w + gap)
            y = grid.top + gap + line * (cell_h + gap)
            name = posixpath.basename(path)
            tile = View(
                Rect(x, y, x + cell_w, y + cell_h),
                class_name=LINEAR,
                rid=RID + "photo_item",
                desc=path,
                on_click=partial(self.pick, path),
            )
            tile.add(
                PhotoView(
                    Rect(x, y, x + cell_w, y + cell_w), path, self.app.photo_host(path), radius=kit.dp(6)
                )
            )
            tile.add(
                TextView(
                    Rect(x + kit.dp(2), y + cell_w, x + cell_w - kit.dp(2), y + cell_h),
                    name,
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "photo_name",
                    align="center",
                )
            )
            tiles.append(tile)
        root.add(
            self.scroll_list(
                grid,
                tiles or [self.empty(grid, grid.top, "no_photos")],
                key="picker_scroll",
                rid=RID + "photo_grid",
            )
        )
        root.add(bar)
        return root
