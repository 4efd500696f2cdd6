"""Maps (com.spa.maps): places search over seeded places (San Francisco for an English-content phone,
Shanghai for a Chinese one: `ctx.content_locale`), place details, directions with four travel modes and
computed distances and times, saved lists, and sharing a place to Chat or Messages. State in
`databases/maps.db` (tables documented in `store.py`)."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.apps.base import App, AppContext
from spa_bench.phone.apps.maps.directions import DirectionsActivity
from spa_bench.phone.apps.maps.main import MainActivity
from spa_bench.phone.apps.maps.place import PlaceActivity
from spa_bench.phone.apps.maps.store import MapsStore
from spa_bench.phone.apps.maps.strings import STRINGS


class MapsApp(App):
    package = "com.spa.maps"
    label_en = "Maps"
    label_zh = "地图"
    launcher_activity = MainActivity.name
    apk_path = "/data/app/com.spa.maps-1/base.apk"
    icon = "location"
    hue = "green"
    strings = STRINGS
    activities = (MainActivity, PlaceActivity, DirectionsActivity)

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.store = MapsStore(self._db_path)
        self.store.ensure()

    def _db_path(self) -> Path:
        return self.ctx.data_dir() / "databases" / "maps.db"

    def on_data_cleared(self) -> None:
        self.store.ensure()


__all__ = ["MapsApp"]
