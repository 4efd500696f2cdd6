"""The settings provider's database: /data/data/com.android.providers.settings/databases/settings.db,
tables system/secure/global (name TEXT UNIQUE, value TEXT) as on Android before 6.0.

Values are cached in memory (every frame reads several) and the cache is dropped whenever the file's
(mtime, size, inode) changes, so a snapshot restore or a pushed database is seen without a restart.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from spa_bench.phone.system.stock_settings import STOCK

NAMESPACES = ("system", "secure", "global")
SETTINGS_PACKAGE = "com.android.providers.settings"
DB_PATH = f"/data/data/{SETTINGS_PACKAGE}/databases/settings.db"

PHONE_DEFAULTS: dict[str, dict[str, str | None]] = {
    "system": {
        "screen_brightness": "102",
        "screen_brightness_mode": "1",
        "screen_off_timeout": "60000",
        "font_scale": "1.0",
        "haptic_feedback_enabled": "1",
        "sound_effects_enabled": "1",
        "status_bar_show_battery_percent": "0",
        "accelerometer_rotation": "0",
    },
    "secure": {
        "ui_night_mode": "1",
        "location_mode": "3",
        "default_input_method": "com.android.inputmethod.latin/.LatinIME",
        "enabled_input_methods": "com.android.inputmethod.latin/.LatinIME:com.android.adbkeyboard/.AdbIME",
        "android_id": "5f1c0a9e2b7d4c31",
    },
    "global": {
        "wifi_on": "1",
        "bluetooth_on": "0",
        "airplane_mode_on": "0",
        "mobile_data": "1",
        "auto_time": "1",
        "auto_time_zone": "1",
        "low_power": "0",
        "zen_mode": "0",
        "adb_enabled": "1",
        "device_provisioned": "1",
        "stay_on_while_plugged_in": "0",
        "window_animation_scale": "1.0",
        "transition_animation_scale": "1.0",
        "animator_duration_scale": "1.0",
    },
}


# What a stock image has (stock_settings), with the values this phone's screens start from on top.
DEFAULTS: dict[str, dict[str, str | None]] = {
    ns: STOCK.get(ns, {}) | PHONE_DEFAULTS.get(ns, {}) for ns in NAMESPACES
}


class SettingsStore:
    """SQLite-backed settings with a validated namespace and a change-aware cache."""

    def __init__(self, host_path: Path,
                 defaults: Mapping[str, Mapping[str, str | None]] | None = None) -> None:
        self.path = host_path
        self.defaults = {ns: dict(values) for ns, values in (defaults or DEFAULTS).items()}
        self._cache: dict[str, dict[str, str | None]] | None = None
        self._stamp: tuple[int, int, int] | None = None

    @staticmethod
    def check_namespace(namespace: str) -> str:
        if namespace not in NAMESPACES:
            raise KeyError(f"Invalid namespace '{namespace}'")
        return namespace

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        # A virtual phone needs no durability against power loss; syncing every write made a snapshot load
        # (which re-runs ensure()) cost ~450 ms on a busy disk instead of ~15 ms.
        conn.execute("PRAGMA synchronous=OFF")
        return conn

    def ensure(self, overrides: Mapping[str, Mapping[str, str | None]] | None = None) -> None:
        """Create the tables and fill in defaults for missing names (never overwrites a set value)."""
        conn = self._connect()
        try:
            conn.execute("BEGIN")
            for ns in NAMESPACES:
                conn.execute(
                    f"CREATE TABLE IF NOT EXISTS {ns} (_id INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "name TEXT UNIQUE ON CONFLICT REPLACE, value TEXT)"
                )
                values = dict(self.defaults.get(ns, {}))
                values.update((overrides or {}).get(ns, {}))
                conn.executemany(f"INSERT OR IGNORE INTO {ns} (name, value) VALUES (?, ?)", values.items())
            conn.execute("COMMIT")
        finally:
            conn.close()
        self._cache = None

    def _current_stamp(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def _load(self) -> dict[str, dict[str, str | None]]:
        stamp = self._current_stamp()
        if self._cache is not None and stamp == self._stamp:
            return self._cache
        if stamp is None:
            self.ensure()
            stamp = self._current_stamp()
        cache: dict[str, dict[str, str | None]] = {}
        conn = self._connect()
        try:
            for ns in NAMESPACES:
                try:
                    rows = conn.execute(f"SELECT name, value FROM {ns}").fetchall()
                except sqlite3.OperationalError:
                    rows = []
                # a NULL value is a key that exists without a value (listed as `null`, read as unset)
                cache[ns] = {str(n): None if v is None else str(v) for n, v in rows if n is not None}
        finally:
            conn.close()
        self._cache, self._stamp = cache, stamp
        return cache

    def get(self, namespace: str, name: str) -> str | None:
        return self._load()[self.check_namespace(namespace)].get(name)

    def as_dict(self, namespace: str) -> dict[str, str]:
        """Every key of the namespace, sorted; a key with a NULL value reads `null`, as `settings list`
        prints it (SettingsService appends the value with String.valueOf)."""
        values = self._load()[self.check_namespace(namespace)]
        return {k: "null" if v is None else v for k, v in sorted(values.items())}

    def put(self, namespace: str, name: str, value: str) -> bool:
        """Store a value; returns whether it changed."""
        ns = self.check_namespace(namespace)
        if self.get(ns, name) == value:
            return False
        self.execute(f"INSERT INTO {ns} (name, value) VALUES (?, ?)", (name, value))
        return True

    def delete(self, namespace: str, name: str) -> bool:
        ns = self.check_namespace(namespace)
        return self.execute(f"DELETE FROM {ns} WHERE name = ?", (name,)) > 0

    def execute(self, sql: str, params: tuple[object, ...] = ()) -> int:
        """Run one writing statement; returns the changed row count and drops the cache."""
        conn = self._connect()
        try:
            cur = conn.execute(sql, params)
            return cur.rowcount
        finally:
            conn.close()
            self._cache = None

    def query(self, sql: str, params: tuple[object, ...] = ()) -> tuple[list[str], list[tuple[object, ...]]]:
        conn = self._connect()
        try:
            cur = conn.execute(sql, params)
            cols = [d[0] for d in cur.description or ()]
            return cols, cur.fetchall()
        finally:
            conn.close()

    def invalidate(self) -> None:
        self._cache = None
