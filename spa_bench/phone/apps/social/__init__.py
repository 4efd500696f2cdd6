"""Circle / 圈子 (com.spa.social): a social feed in the style of Instagram/X and Weibo/Xiaohongshu -
a home feed, post pages with comments and replies, likes, saves, follows, search over people, posts
and hashtags, notifications, your profile, Compose with a photo from shared storage, and sharing a
post to Chat (com.spa.chat's share target). State lives in `databases/social.db` (see `store.py`)."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.shop import glyphs as _shop_glyphs  # noqa: F401  (heart, share)
from spa_bench.phone.apps.social import glyphs as _glyphs  # noqa: F401  (bookmark, comment)
from spa_bench.phone.apps.social.compose import ComposeActivity
from spa_bench.phone.apps.social.main import MainActivity
from spa_bench.phone.apps.social.post import PostActivity
from spa_bench.phone.apps.social.profile import ProfileActivity, TopicActivity
from spa_bench.phone.apps.social.store import SocialStore
from spa_bench.phone.apps.social.strings import STRINGS
from spa_bench.phone.vfs import VfsError, VirtualFS


class SocialApp(App):
    package = "com.spa.social"
    label_en = "Circle"
    label_zh = "圈子"
    launcher_activity = MainActivity.name
    apk_path = "/data/app/com.spa.social-1/base.apk"
    icon = "friends"
    hue = "pink"
    strings = STRINGS
    activities = (MainActivity, PostActivity, ProfileActivity, TopicActivity, ComposeActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = SocialStore(self._db_path, ctx.clock.now)
        self.store.ensure()  # seed at boot, so the data is in the runner's base snapshots

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "social.db"

    @property
    def fs(self) -> VirtualFS:
        """The phone's file system (the same jail root as the app's data dir)."""
        return VirtualFS(self.ctx.data_dir().parents[2])

    def photo_host(self, key: str) -> Path | None:
        """The host file behind a post's /sdcard photo, None for a seeded scene or a missing file."""
        if not key.startswith("/"):
            return None
        try:
            host = self.fs.host_path(key)
        except VfsError:
            return None
        return host if host.is_file() else None

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["SocialApp"]
