"""The Gallery's screens: the photo grid and the albums (main screen), one album (or Favourites, or
Trash), and one photo with its actions (share to Chat or Email, favourite, details, add to album,
delete to trash; restore or delete forever in Trash).

Screen state (`record.ui`): `tab`, `scroll`, `dialog` (`share`, `details`, `delete`, `album`,
`new_album`) and the `album_name` field.
"""

from __future__ import annotations

import posixpath
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity, TabbedActivity
from spa_bench.phone.apps.files.listing import format_date, format_size
from spa_bench.phone.apps.gallery.images import dimensions, fitted, thumbnail
from spa_bench.phone.apps.gallery.store import Album, Photo
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, icon_button
from spa_bench.phone.ui import FRAME, LINEAR, Callback, Canvas, Rect, TextView, View
from spa_bench.phone.vfs import VfsError

if TYPE_CHECKING:
    from spa_bench.phone.apps.gallery import GalleryApp

PACKAGE = "com.android.gallery3d"
RID = f"{PACKAGE}:id/"
ALBUM = f"{PACKAGE}.AlbumActivity"
PHOTO = f"{PACKAGE}.PhotoActivity"
CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")
EMAIL_COMPOSE = ("com.android.email", "com.android.email.ComposeActivity")


class PictureView(View):
    """A picture file drawn into its bounds: a square crop (grid cells) or fitted whole (the viewer)."""

    class_name = "android.widget.ImageView"

    def __init__(
        self,
        bounds: Rect,
        data: bytes,
        *,
        crop: bool,
        desc: str = "",
        rid: str = "",
        on_click: Callback | None = None,
        on_long_click: Callback | None = None,
    ) -> None:
        super().__init__(bounds, desc=desc, rid=rid, on_click=on_click, on_long_click=on_long_click)
        self.data = data
        self.crop = crop

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        if not self.data:
            canvas.fill(b, (60, 60, 60))
            return
        try:
            img = thumbnail(self.data, b.width) if self.crop else fitted(self.data, b.width, b.height)
        except OSError:  # not a picture (a truncated or foreign file): a grey tile, as a broken thumbnail
            canvas.fill(b, (90, 90, 90))
            return
        ox, oy = canvas.origin
        x = b.left + (b.width - img.width) // 2 - ox
        y = b.top + (b.height - img.height) // 2 - oy
        canvas.image.paste(img, (x, y))


class GalleryActivity(Activity):
    app: GalleryApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def album_name(self, album: Album) -> str:
        if album.key in ("favorites", "trash"):
            return self.t(album.key)
        if album.key.startswith("folder:"):
            return self.t(album.name) if album.name in ("Camera", "Screenshots", "Pictures") else album.name
        return album.name

    def read(self, path: str) -> bytes:
        try:
            return self.app.fs.read_bytes(path)
        except VfsError:
            return b""

    def grid(
        self, area: Rect, photos: list[Photo] | tuple[Photo, ...], album: str, top: int | None = None
    ) -> list[View]:
        """Three square cells a row; a tap opens the photo."""
        kit = self.kit
        gap = kit.dp(2)
        side = (area.width - 2 * gap) // 3
        y = area.top if top is None else top
        cells: list[View] = []
        for i, photo in enumerate(photos):
            x = area.left + (i % 3) * (side + gap)
            cy = y + (i // 3) * (side + gap)
            cells.append(
                PictureView(
                    Rect(x, cy, x + side, cy + side),
                    self.read(photo.path),
                    crop=True,
                    desc=photo.name,
                    rid=RID + "photo_thumb",
                    on_click=partial(self.open_photo, photo.path, album),
                )
            )
        return cells

    def open_photo(self, path: str, album: str) -> None:
        self.ctx.start_activity(PHOTO, {"path": path, "album": album}, package=PACKAGE)


class MainActivity(TabbedActivity, GalleryActivity):
    name = f"{PACKAGE}.GalleryActivity"
    first_tab = "photos"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "main")
        items = [
            NavItem(k, self.t(f"tab_{k}"), g, k == self.tab, partial(self.switch, k))
            for k, g in (("photos", "image"), ("albums", "album"))
        ]
        nav, nav_h = bottom_nav(kit, area, items, PACKAGE)
        bar_h = kit.dp(64)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "toolbar", bg=p.background)
        bar.add(
            TextView(
                Rect(area.left + kit.dp(16), area.top, area.right - kit.dp(16), area.top + bar_h),
                self.t("app_name") if self.tab == "photos" else self.t("tab_albums"),
                kit.title_large,
                p.on_surface,
                rid="android:id/title",
                bold=True,
            )
        )
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom - nav_h)
        photos = self.tab == "photos"
        rows = self.grid(body, self.app.store.photos(), "all") if photos else self._albums(body)
        root.add(
            self.scroll_list(
                body,
                rows,
                rid=RID + ("photo_grid" if self.tab == "photos" else "album_list"),
                padding_bottom=kit.dp(8),
            )
        )
        root.add(nav)
        if self.ui("dialog") == "new_album":
            root.add(self._new_album_dialog(area))
        return root

    def _albums(self, area: Rect) -> list[View]:
        kit = self.kit
        p = kit.palette
        gap = kit.dp(12)
        side = (area.width - 3 * gap) // 2
        views: list[View] = []
        albums = self.app.store.albums()
        y = area.top + kit.dp(8)
        for i, album in enumerate(albums):
            x = area.left + gap + (i % 2) * (side + gap)
            ty = y + (i // 2) * (side + kit.dp(64))
            name = self.album_name(album)
            tile = View(
                Rect(x, ty, x + side, ty + side + kit.dp(56)),
                class_name=LINEAR,
                rid=RID + "album_tile",
                desc=name,
                on_click=partial(self.ctx.start_activity, ALBUM, {"album": album.key}),
            )
            cover = Rect(x, ty, x + side, ty + side)
            if album.photos:
                tile.add(PictureView(cover, self.read(album.photos[0].path), crop=True))
            else:
                tile.add(View(cover, bg=p.surface_high, radius=kit.dp(12)))
            tile.add(
                TextView(
                    Rect(x, ty + side + kit.dp(4), x + side, ty + side + kit.dp(30)),
                    name,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + "album_name",
                )
            )
            n = len(album.photos)
            tile.add(
                TextView(
                    Rect(x, ty + side + kit.dp(30), x + side, ty + side + kit.dp(52)),
                    self.t("one_item") if n == 1 else self.t("n_items", n=n),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "album_count",
                )
            )
            views.append(tile)
        y += ((len(albums) + 1) // 2) * (side + kit.dp(64)) + kit.dp(8)
        for key, glyph, label, action in (
            ("new_album", "plus", self.t("new_album"), self._open_new_album),
            ("trash", "delete", self.t("trash"), partial(self.ctx.start_activity, ALBUM, {"album": "trash"})),
        ):
            views.append(
                kit.list_item(area, y, label, icon=glyph, hue="blue", on_click=action, rid=RID + key)
            )
            y += kit.dp(56)
        return views

    def _open_new_album(self) -> None:
        self.request_focus("album_name")
        self.set_ui("dialog", "new_album")

    def _new_album_dialog(self, area: Rect) -> View:
        kit = self.kit
        width = area.width - kit.dp(96)
        field = self.text_field(
            Rect(0, 0, width, kit.dp(52)),
            "album_name",
            self.t("album_name"),
            rid=RID + "album_name_input",
            on_submit=self._create,
        )
        return kit.dialog(
            area,
            self.t("new_album"),
            [field],
            [(self.t("cancel"), partial(self.set_ui, "dialog", None)), (self.t("create"), self._create)],
            partial(self.set_ui, "dialog", None),
            body_height=kit.dp(52),
        )

    def _create(self) -> None:
        name = str(self.ui("text:album_name", "")).strip()
        if not name:
            return
        album_id = self.app.store.create_album(name, self.now_ms())
        self.record.ui.pop("text:album_name", None)
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)
        self.ctx.start_activity(ALBUM, {"album": f"album:{album_id}"})


class AlbumActivity(GalleryActivity):
    name = ALBUM

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        key = str(self.record.args.get("album", ""))
        album = self.app.store.album(key)
        root = View(area, class_name=LINEAR, rid=RID + "album")
        bar, bar_h = kit.app_bar(
            area, self.album_name(album) if album else "", self.ctx.finish, package=PACKAGE
        )
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if album is None:
            return root
        top = area.top + bar_h
        views: list[View] = []
        if key == "trash":
            views.append(
                TextView(
                    Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(36)),
                    self.t("trash_note"),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + "trash_note",
                )
            )
            top += kit.dp(40)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        views += self.grid(body, album.photos, key, top=top)
        if not album.photos:
            views.append(
                TextView(
                    Rect(area.left, top + kit.dp(48), area.right, top + kit.dp(96)),
                    self.t("empty_album"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(self.scroll_list(body, views, rid=RID + "photo_grid", padding_bottom=kit.dp(8)))
        return root


class PhotoActivity(GalleryActivity):
    name = PHOTO

    @property
    def path(self) -> str:
        return str(self.record.args.get("path", ""))

    @property
    def in_trash(self) -> bool:
        return self.record.args.get("album") == "trash"

    def close_dialog(self) -> None:
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)

    def toggle_favorite(self) -> None:
        on = self.path not in self.app.store.favorites()
        self.app.store.set_favorite(self.path, on, self.now_ms())
        self.ctx.invalidate()

    def delete(self) -> None:
        self.close_dialog()
        if self.in_trash:
            self.app.store.delete_forever(self.path)
            self.ctx.finish()
            return
        self.app.store.trash_photo(self.path, self.now_ms())
        self.ctx.finish()
        self.ctx.toast(self.t("moved_to_trash"))

    def restore(self) -> None:
        self.app.store.restore(self.path)
        self.ctx.finish()
        self.ctx.toast(self.t("restored"))

    def share_to(self, target: tuple[str, str]) -> None:
        self.close_dialog()
        name = posixpath.basename(self.path)
        if target == CHAT_SHARE:  # Chat's share target: a card of kind `image`, the path as what is shared
            args: dict[str, object] = {
                "kind": "image",
                "sku": self.path,
                "title_en": name,
                "title_zh": name,
                "glyph": "image",
                "hue": "orange",
                "caller": PACKAGE,
            }
        else:
            args = {"attachments": [self.path], "caller": PACKAGE}
        self.ctx.start_activity(target[1], args, package=target[0])

    def add_to(self, album_id: int, name: str) -> None:
        self.app.store.add_to_album(album_id, self.path)
        self.close_dialog()
        self.ctx.toast(self.t("added_to", album=name))

    def create_and_add(self) -> None:
        name = str(self.ui("text:album_name", "")).strip()
        if not name:
            return
        album_id = self.app.store.create_album(name, self.now_ms())
        self.record.ui.pop("text:album_name", None)
        self.add_to(album_id, name)

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=FRAME, rid=RID + "photo_view", bg=(0, 0, 0))
        data = self.read(self.path)
        name = posixpath.basename(self.path) if not self.in_trash else self.path.split("-", 2)[-1]
        bar_h = kit.dp(64)
        actions_h = kit.dp(80)
        root.add(
            PictureView(
                Rect(area.left, area.top + bar_h, area.right, area.bottom - actions_h),
                data,
                crop=False,
                desc=name,
                rid=RID + "photo",
            )
        )
        white = (255, 255, 255)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "app_bar")
        s = kit.dp(48)
        back = icon_button(
            kit,
            Rect(
                area.left + kit.dp(4),
                area.top + kit.dp(8),
                area.left + kit.dp(4) + s,
                area.top + kit.dp(8) + s,
            ),
            "arrow_back",
            self.t("navigate_up"),
            self.ctx.finish,
            color=white,
        )
        back.circle = (0, 0, 0)
        bar.add(back)
        bar.add(
            TextView(
                Rect(area.left + kit.dp(64), area.top, area.right - kit.dp(16), area.top + bar_h),
                name,
                kit.body_large,
                white,
                rid="android:id/title",
            )
        )
        root.add(bar)
        actions: list[tuple[str, str, str, Callback]]
        if self.in_trash:
            actions = [
                ("restore", "restore", self.t("restore"), self.restore),
                ("delete", "delete", self.t("delete_forever"), partial(self.set_ui, "dialog", "delete")),
            ]
        else:
            fav = self.path in self.app.store.favorites()
            actions = [
                ("share", "share", self.t("share"), partial(self.set_ui, "dialog", "share")),
                (
                    "favorite",
                    "heart_filled" if fav else "heart",
                    self.t("unfavorite" if fav else "favorite"),
                    self.toggle_favorite,
                ),
                ("details", "info", self.t("details"), partial(self.set_ui, "dialog", "details")),
                ("add_to_album", "album", self.t("add_to_album"), partial(self.set_ui, "dialog", "album")),
                ("delete", "delete", self.t("delete"), partial(self.set_ui, "dialog", "delete")),
            ]
        strip = View(
            Rect(area.left, area.bottom - actions_h, area.right, area.bottom),
            class_name=LINEAR,
            rid=RID + "actions",
        )
        w = area.width // len(actions)
        for i, (key, glyph, desc, action) in enumerate(actions):
            cx = area.left + i * w + w // 2
            cy = area.bottom - actions_h // 2
            btn = icon_button(
                kit,
                Rect(cx - s // 2, cy - s // 2, cx + s // 2, cy + s // 2),
                glyph,
                desc,
                action,
                rid=RID + f"action_{key}",
                color=(255, 90, 110) if glyph == "heart_filled" else white,
            )
            btn.circle = (0, 0, 0)
            if key == "favorite":
                btn.checkable = True
                btn.checked = glyph == "heart_filled"
            strip.add(btn)
        root.add(strip)
        dialog = self.ui("dialog")
        if dialog == "share":
            root.add(self._share_dialog(area))
        elif dialog == "details":
            root.add(self._details_dialog(area, name, data))
        elif dialog == "delete":
            body = self.t("delete_forever_body" if self.in_trash else "move_to_trash_body")
            title = self.t("delete_forever") if self.in_trash else self.t("move_to_trash")
            root.add(
                kit.dialog(
                    area,
                    title,
                    body,
                    [(self.t("cancel"), self.close_dialog), (self.t("delete"), self.delete)],
                    self.close_dialog,
                )
            )
        elif dialog == "album":
            root.add(self._album_dialog(area))
        return root

    def _share_dialog(self, area: Rect) -> View:
        kit = self.kit
        width = area.width - kit.dp(96)
        body: list[View] = []
        for i, (key, glyph, hue, target) in enumerate(
            (("share_chat", "chat", "green", CHAT_SHARE), ("share_email", "mail", "red", EMAIL_COMPOSE))
        ):
            body.append(
                kit.list_item(
                    Rect(0, 0, width, 0),
                    i * kit.dp(56),
                    self.t(key),
                    icon=glyph,
                    hue=hue,
                    on_click=partial(self.share_to, target),
                    rid=RID + key,
                )
            )
        return kit.dialog(
            area,
            self.t("share_to"),
            body,
            [(self.t("cancel"), self.close_dialog)],
            self.close_dialog,
            body_height=2 * kit.dp(56),
        )

    def _details_dialog(self, area: Rect, name: str, data: bytes) -> View:
        kit = self.kit
        p = kit.palette
        width = area.width - kit.dp(96)
        try:
            st = self.app.fs.stat(self.path)
            size, mtime = st.size, st.mtime
        except VfsError:
            size, mtime = 0, 0
        try:
            w, h = dimensions(data)
        except OSError:
            w, h = 0, 0
        when = datetime.fromtimestamp(mtime, UTC)
        original = self.path if not self.in_trash else posixpath.join(posixpath.dirname(self.path), name)
        lines = [
            ("d_name", name),
            ("d_date", f"{format_date(mtime, self.ctx.locale)} {when:%H:%M}"),
            ("d_size", format_size(size)),
            ("d_resolution", f"{w} × {h}"),
            ("d_path", posixpath.dirname(original)),
        ]
        body: list[View] = []
        y = 0
        for key, value in lines:
            body.append(
                TextView(Rect(0, y, width, y + kit.dp(20)), self.t(key), kit.label, p.on_surface_variant)
            )
            body.append(
                TextView(
                    Rect(0, y + kit.dp(20), width, y + kit.dp(44)),
                    value,
                    kit.body_large,
                    p.on_surface,
                    rid=RID + f"detail_{key[2:]}",
                )
            )
            y += kit.dp(52)
        return kit.dialog(
            area,
            self.t("details"),
            body,
            [(self.t("close"), self.close_dialog)],
            self.close_dialog,
            body_height=y,
        )

    def _album_dialog(self, area: Rect) -> View:
        kit = self.kit
        width = area.width - kit.dp(96)
        body: list[View] = []
        y = 0
        for album in self.app.store.albums():
            if not album.key.startswith("album:"):
                continue
            body.append(
                kit.list_item(
                    Rect(0, 0, width, 0),
                    y,
                    album.name,
                    icon="album",
                    hue="purple",
                    on_click=partial(self.add_to, int(album.key[6:]), album.name),
                    rid=RID + "album_choice",
                )
            )
            y += kit.dp(56)
        body.append(
            self.text_field(
                Rect(0, y + kit.dp(4), width, y + kit.dp(56)),
                "album_name",
                self.t("new_album"),
                rid=RID + "album_name_input",
                on_submit=self.create_and_add,
            )
        )
        y += kit.dp(60)
        return kit.dialog(
            area,
            self.t("add_to_album"),
            body,
            [(self.t("cancel"), self.close_dialog), (self.t("create"), self.create_and_add)],
            self.close_dialog,
            body_height=y,
        )


__all__ = ["AlbumActivity", "GalleryActivity", "MainActivity", "PhotoActivity", "PictureView"]
