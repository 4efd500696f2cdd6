"""Camera (com.android.camera2): a viewfinder and a shutter. Each shot is a real JPEG written to
/sdcard/DCIM/Camera/IMG_YYYYMMDD_HHMMSS.jpg, named from the phone's clock as Android's camera names
them (`_1`, `_2` ... when two shots fall in the same second), with the EXIF date and model; the
Gallery shows it at once and the thumbnail opens it there."""

from __future__ import annotations

from spa_bench.phone.apps.base import App
from spa_bench.phone.apps.camera.screens import CameraActivity
from spa_bench.phone.apps.email import glyphs as _glyphs  # noqa: F401  (camera, flip_camera)
from spa_bench.phone.apps.gallery.strings import STRINGS
from spa_bench.phone.vfs import VirtualFS


class CameraApp(App):
    package = "com.android.camera2"
    label_en = "Camera"
    label_zh = "相机"
    launcher_activity = CameraActivity.name
    apk_path = "/system/app/Camera2/Camera2.apk"
    icon = "camera"
    hue = "blue"
    strings = STRINGS
    activities = (CameraActivity,)

    @property
    def fs(self) -> VirtualFS:
        return VirtualFS(self.ctx.data_dir().parents[2])


__all__ = ["CameraApp"]
