"""The camera's one screen (`com.android.camera.CameraActivity`): a live-looking viewfinder (the
scene the next shot will hold), the shutter, the front/back switch and the latest-photo thumbnail."""

from __future__ import annotations

import os
import posixpath
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.gallery.images import encode, preview, scene
from spa_bench.phone.apps.gallery.screens import PictureView
from spa_bench.phone.apps.gallery.store import scan
from spa_bench.phone.ui import FRAME, Canvas, ImageView, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.camera import CameraApp

FOLDER = "/sdcard/DCIM/Camera"
GALLERY_PHOTO = ("com.android.gallery3d", "com.android.gallery3d.PhotoActivity")


class Shutter(View):
    """The round white shutter button."""

    class_name = "android.widget.ImageButton"

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        canvas.ellipse(b, (255, 255, 255))
        inner = b.inset(b.width // 12, b.height // 12)
        canvas.ellipse(inner, None, outline=(0, 0, 0), width=max(2, b.width // 40))


class CameraActivity(Activity):
    name = "com.android.camera.CameraActivity"
    fullscreen = False
    app: CameraApp

    def next_name(self) -> str:
        stamp = self.ctx.clock.now().strftime("%Y%m%d_%H%M%S")
        name = f"IMG_{stamp}.jpg"
        k = 0
        while self.app.fs.exists(posixpath.join(FOLDER, name)):
            k += 1
            name = f"IMG_{stamp}_{k}.jpg"
        return name

    def capture(self) -> None:
        fs = self.app.fs
        name = self.next_name()
        path = posixpath.join(FOLDER, name)
        now = self.ctx.clock.now()
        model = self.ctx.getprop().get("ro.product.model", "")
        fs.mkdir(FOLDER, parents=True)
        fs.write_bytes(path, encode(scene(self._scene_seed()), "jpeg", now, model))
        when = now.timestamp()
        os.utime(fs.host_path(path), (when, when))
        self.record.ui["last"] = path
        self.set_ui("shots", int(self.ui("shots", 0)) + 1)

    def _scene_seed(self) -> str:
        """What the lens sees: the same scene for a while, another after each shot or camera switch."""
        return f"view-{self.ui('facing', 'back')}-{self.ui('shots', 0)}"

    def open_last(self) -> None:
        last = self._last()
        if last:
            self.ctx.start_activity(
                GALLERY_PHOTO[1], {"path": last, "album": "all"}, package=GALLERY_PHOTO[0]
            )

    def _last(self) -> str:
        mine = str(self.ui("last", ""))
        if mine and self.app.fs.exists(mine):
            return mine
        shots = [p for p in scan(self.app.fs) if p.folder == FOLDER]
        return shots[0].path if shots else ""

    def flip(self) -> None:
        self.set_ui("facing", "front" if self.ui("facing", "back") == "back" else "back")

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=FRAME, rid="com.android.camera2:id/activity_root_view", bg=(0, 0, 0))
        view_h = area.width * 4 // 3
        finder = Rect(area.left, area.top + kit.dp(56), area.right, area.top + kit.dp(56) + view_h)
        root.add(
            PictureView(
                finder,
                preview(self._scene_seed(), finder.width, finder.height),
                crop=False,
                rid="com.android.camera2:id/preview_content",
            )
        )
        bottom = Rect(area.left, finder.bottom, area.right, area.bottom)
        cy = (bottom.top + bottom.bottom) // 2
        s = kit.dp(76)
        root.add(
            Shutter(
                Rect(area.center[0] - s // 2, cy - s // 2, area.center[0] + s // 2, cy + s // 2),
                rid="com.android.camera2:id/shutter_button",
                desc=self.t("shutter"),
                on_click=self.capture,
            )
        )
        t = kit.dp(52)
        last = self._last()
        if last:
            data = self.app.fs.read_bytes(last)
            root.add(
                PictureView(
                    Rect(area.left + kit.dp(40), cy - t // 2, area.left + kit.dp(40) + t, cy + t // 2),
                    data,
                    crop=True,
                    rid="com.android.camera2:id/rounded_thumbnail_view",
                    desc=self.t("last_photo"),
                    on_click=self.open_last,
                )
            )
        root.add(
            ImageView(
                Rect(area.right - kit.dp(40) - t, cy - t // 2, area.right - kit.dp(40), cy + t // 2),
                "flip_camera",
                (255, 255, 255),
                circle=(60, 60, 60),
                desc=self.t("switch_camera"),
                rid="com.android.camera2:id/camera_switch_button",
                on_click=self.flip,
            )
        )
        root.add(
            TextView(
                Rect(area.left, bottom.top + kit.dp(4), area.right, bottom.top + kit.dp(32)),
                self.t("mode_photo").upper() if self.ctx.locale == "en" else self.t("mode_photo"),
                kit.body_medium,
                (255, 214, 0),
                align="center",
                bold=True,
                rid="com.android.camera2:id/mode_photo",
            )
        )
        return root


__all__ = ["CameraActivity"]
