"""Files (com.android.documentsui): browse shared storage (/sdcard), create folders, rename, move,
delete and search. The files are the phone's real files, so checks use `ls`, `cat` or the
`file_exists` / `file_absent` validators.

Shared storage is seeded on the phone's first start (see `seed.py`); a marker in the app's data dir
records that, so a `pm clear` of Files never brings deleted files back.
"""

from __future__ import annotations

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.files import glyphs as _glyphs  # noqa: F401  (registers the icons)
from spa_bench.phone.apps.files.picker import PickActivity, ViewerActivity
from spa_bench.phone.apps.files.screens import FilesActivity
from spa_bench.phone.apps.files.seed import seed_storage
from spa_bench.phone.apps.files.strings import STRINGS
from spa_bench.phone.vfs import VirtualFS

MARKER = "files/.storage_seeded"


class FilesApp(App):
    package = "com.android.documentsui"
    label_en = "Files"
    label_zh = "文件"
    launcher_activity = FilesActivity.name
    apk_path = "/system/priv-app/DocumentsUIGoogle/DocumentsUIGoogle.apk"
    icon = "folder"
    hue = "blue"
    strings = STRINGS
    activities = (FilesActivity, PickActivity, ViewerActivity)
    exported_activities = frozenset({PickActivity.name})  # GET_CONTENT / OPEN_DOCUMENT

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        marker = ctx.data_dir() / MARKER
        if not marker.exists():
            seed_storage(self.fs)
            self._mark()

    @property
    def fs(self) -> VirtualFS:
        """The phone's file system, reached the way the app's own data dir is (same jail root)."""
        return VirtualFS(self.ctx.data_dir().parents[2])

    def _mark(self) -> None:
        marker = self.ctx.data_dir() / MARKER
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("1")

    def on_data_cleared(self) -> None:
        self._mark()


__all__ = ["FilesApp"]
