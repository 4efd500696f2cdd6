"""Music (com.android.music): a local music player - songs, albums, playlists you create, rename,
reorder and fill, liked songs, search, and a player with play/pause, previous/next, seek, shuffle and
repeat. State lives in `databases/music.db` (tables documented in `store.py`); the playback row keeps
the position and when it was taken, so the phone's clock advances a playing song.
"""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.contacts import pim_icons as _pim_icons  # noqa: F401  (more_vert)
from spa_bench.phone.apps.music import glyphs as _glyphs  # noqa: F401  (registers the icons)
from spa_bench.phone.apps.music.detail import AlbumActivity, PlaylistActivity, SearchActivity
from spa_bench.phone.apps.music.main import MusicMainActivity
from spa_bench.phone.apps.music.player import NowPlayingActivity
from spa_bench.phone.apps.music.store import MusicStore
from spa_bench.phone.apps.music.strings import STRINGS
from spa_bench.phone.apps.shop import glyphs as _shop_glyphs  # noqa: F401  (heart)


class MusicApp(App):
    package = "com.android.music"
    label_en = "Music"
    label_zh = "音乐"
    launcher_activity = MusicMainActivity.name
    apk_path = "/system/app/Music/Music.apk"
    icon = "music_note"
    hue = "orange"
    strings = STRINGS
    activities = (MusicMainActivity, AlbumActivity, PlaylistActivity, SearchActivity, NowPlayingActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = MusicStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "music.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["MusicApp"]
