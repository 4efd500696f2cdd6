"""Video (com.spa.video): a video app in the style of the big streaming sites - a home feed with category
chips and upcoming premieres, search, a watch page with play/pause, seek (ten-second steps and a seek
bar), playback speed 0.5-2x, captions on/off and their language, likes, watch later, comments and a
watch history. State lives in `databases/video.db` (tables documented in `store.py`).

Share hands the title and link to the Chat app's share target (`com.spa.chat.ShareActivity`), as an
ACTION_SEND of text would.
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.contacts import pim_icons as _pim_icons  # noqa: F401  (more_vert, public)
from spa_bench.phone.apps.music import glyphs as _media_glyphs  # noqa: F401  (play, pause, captions ...)
from spa_bench.phone.apps.shop import glyphs as _shop_glyphs  # noqa: F401  (category pictograms)
from spa_bench.phone.apps.video.main import LibraryListActivity, VideoMainActivity
from spa_bench.phone.apps.video.player import PlayerActivity
from spa_bench.phone.apps.video.search import SearchActivity
from spa_bench.phone.apps.video.store import VideoStore
from spa_bench.phone.apps.video.strings import STRINGS


class VideoApp(App):
    package = "com.spa.video"
    label_en = "Video"
    label_zh = "视频"
    launcher_activity = VideoMainActivity.name
    apk_path = "/data/app/com.spa.video-1/base.apk"
    icon = "play_circle"
    hue = "red"
    strings = STRINGS
    activities = (VideoMainActivity, LibraryListActivity, SearchActivity, PlayerActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = VideoStore(self._db_path, ctx.clock.now)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "video.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["VideoApp"]
