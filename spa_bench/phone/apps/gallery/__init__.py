"""Gallery (com.android.gallery3d): the pictures under /sdcard/DCIM and /sdcard/Pictures in a grid and
in albums (Favourites, the folder albums, the user's albums), a photo viewer with share (to Chat or
Email), favourite, details, add to album and delete to trash, and the trash with restore. What the
files do not hold lives in `databases/gallery.db` (see `store.py`).

On the phone's first start the Gallery draws every seeded picture of shared storage (the Files app's
seed gives names and dates) as a real image - a deterministic landscape JPEG or a screenshot PNG -
keeping its name and time, so the gallery, the Files app and `adb pull` all see the same real files.
"""

from __future__ import annotations

import os
from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.email import glyphs as _glyphs  # noqa: F401  (album, camera, restore)
from spa_bench.phone.apps.files import glyphs as _file_glyphs  # noqa: F401  (image)
from spa_bench.phone.apps.files.seed import seed_files
from spa_bench.phone.apps.gallery.images import seed_picture
from spa_bench.phone.apps.gallery.screens import AlbumActivity, MainActivity, PhotoActivity
from spa_bench.phone.apps.gallery.store import IMAGE_SUFFIXES, GalleryStore
from spa_bench.phone.apps.gallery.strings import STRINGS
from spa_bench.phone.apps.shop import glyphs as _shop_glyphs  # noqa: F401  (heart, share, chat)
from spa_bench.phone.vfs import VirtualFS

MARKER = "files/.pictures_drawn"


def shared_storage_seed() -> list[tuple[str, bytes, float]]:
    """(path, bytes, mtime) of every file shared storage holds after the phone's first start: the Files
    app's seed with each image drawn as a real picture. What a real device gets (spa_bench.device.seeding)."""
    drawn = [(path, seed_picture(os.path.basename(path)), when) for path, _, when in seed_files()
             if path.lower().endswith(IMAGE_SUFFIXES)]
    return [*(f for f in seed_files() if not f[0].lower().endswith(IMAGE_SUFFIXES)), *drawn]


def draw_seed_pictures(fs: VirtualFS) -> None:
    """Replace the seeded image files' filler with real pictures (same name, same time)."""
    for path, _data, when in seed_files():
        if not path.lower().endswith(IMAGE_SUFFIXES):
            continue
        host = fs.host_path(path)
        host.parent.mkdir(parents=True, exist_ok=True)
        host.write_bytes(seed_picture(os.path.basename(path)))
        os.utime(host, (when, when))


class GalleryApp(App):
    package = "com.android.gallery3d"
    label_en = "Gallery"
    label_zh = "相册"
    launcher_activity = MainActivity.name
    apk_path = "/system/app/Gallery2/Gallery2.apk"
    icon = "image"
    hue = "orange"
    strings = STRINGS
    activities = (MainActivity, AlbumActivity, PhotoActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        # the star, label, menu and mail glyphs; imported here, as the Contacts package needs the OS loaded
        from spa_bench.phone.apps.contacts import pim_icons  # noqa: F401
        self.store = GalleryStore(self._db_path, lambda: self.fs)
        marker = ctx.data_dir() / MARKER
        if not marker.exists():
            draw_seed_pictures(self.fs)
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text("1")
        self.store.ensure()

    @property
    def fs(self) -> VirtualFS:
        return VirtualFS(self.ctx.data_dir().parents[2])

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "gallery.db"

    def on_data_cleared(self) -> None:
        (self.ctx.data_dir() / MARKER).parent.mkdir(parents=True, exist_ok=True)
        (self.ctx.data_dir() / MARKER).write_text("1")  # a pm clear never redraws the user's files
        self.store.ensure()


__all__ = ["GalleryApp"]
