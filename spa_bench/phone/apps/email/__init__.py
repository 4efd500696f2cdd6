"""Email (com.android.email): an inbox of conversations per folder and label, a conversation view
(reply, reply all, forward, star, labels, archive, delete), compose with attachments picked from Files,
drafts, sent mail and search. State lives in `databases/email.db` (tables documented in `store.py`).
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.email import glyphs as _glyphs  # noqa: F401  (archive, reply, attach ...)
from spa_bench.phone.apps.email.compose import ComposeActivity
from spa_bench.phone.apps.email.screens import MainActivity
from spa_bench.phone.apps.email.store import EmailStore
from spa_bench.phone.apps.email.strings import STRINGS
from spa_bench.phone.apps.email.thread import ThreadActivity
from spa_bench.phone.apps.files import glyphs as _file_glyphs  # noqa: F401  (file, image)
from spa_bench.phone.vfs import VirtualFS


class EmailApp(App):
    package = "com.android.email"
    label_en = "Email"
    label_zh = "邮件"
    launcher_activity = MainActivity.name
    apk_path = "/system/app/Email/Email.apk"
    icon = "mail"
    hue = "red"
    strings = STRINGS
    activities = (MainActivity, ThreadActivity, ComposeActivity)
    exported_activities = frozenset({ComposeActivity.name})  # SENDTO mailto:, SEND

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        # the star, label, menu and mail glyphs; imported here, as the Contacts package needs the OS loaded
        from spa_bench.phone.apps.contacts import pim_icons  # noqa: F401
        self.store = EmailStore(self._db_path)
        self.store.ensure()

    @property
    def fs(self) -> VirtualFS:
        """The phone's file system (attachments are files on /sdcard)."""
        return VirtualFS(self.ctx.data_dir().parents[2])

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "email.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["EmailApp"]
