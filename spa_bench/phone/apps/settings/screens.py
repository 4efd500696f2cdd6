"""The Settings homepage and its device pages: network, connected devices, notifications, battery,
storage, sound, display and location."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.settings.prefs import PACKAGE, Pref, PreferenceActivity
from spa_bench.phone.ui import LINEAR, Rect, TextView, View

S = "com.android.settings.Settings$"


class Homepage(Activity):
    """`com.android.settings.Settings`: title, search bar and the top-level categories."""

    name = "com.android.settings.Settings"

    def entries(self) -> list[tuple[str, str, str, str, str]]:
        """(title key, summary, icon, hue, activity) of each homepage row."""
        t = self.t
        wifi_on = self.ctx.settings_get("global", "wifi_on") == "1"
        return [
            (
                "network",
                t("network_summary") if wifi_on else t("airplane") if self._airplane() else t("off"),
                "wifi",
                "blue",
                S + "NetworkDashboardActivity",
            ),
            ("connected", t("connected_summary"), "devices", "green", S + "ConnectedDeviceDashboardActivity"),
            ("apps", t("apps_summary"), "apps", "orange", S + "ManageApplicationsActivity"),
            (
                "notifications",
                t("notifications_summary"),
                "bell",
                "purple",
                S + "ConfigureNotificationSettingsActivity",
            ),
            ("battery", f"{self.ctx.battery_level()}%", "battery", "green", S + "PowerUsageSummaryActivity"),
            ("storage", "", "storage", "teal", S + "StorageDashboardActivity"),
            ("sound", t("sound_summary"), "volume", "teal", S + "SoundSettingsActivity"),
            ("display", t("display_summary"), "display", "orange", S + "DisplaySettingsActivity"),
            (
                "location",
                t("on") if self.ctx.settings_get("secure", "location_mode") != "0" else t("off"),
                "location",
                "yellow",
                S + "LocationSettingsActivity",
            ),
            ("system", t("system_summary"), "info", "grey", S + "SystemDashboardActivity"),
            (
                "about",
                self.ctx.settings_get("global", "device_name") or "",
                "phone_device",
                "blue",
                S + "MyDeviceInfoActivity",
            ),
        ]

    def _airplane(self) -> bool:
        return self.ctx.settings_get("global", "airplane_mode_on") == "1"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=f"{PACKAGE}:id/settings_homepage_container")
        rows: list[View] = []
        title_h = kit.dp(120)
        rows.append(
            TextView(
                Rect(
                    area.left + kit.dp(24), area.top + kit.dp(40), area.right - kit.dp(24), area.top + title_h
                ),
                self.t("app_name"),
                kit.dp(36),
                p.on_surface,
                rid=f"{PACKAGE}:id/homepage_title",
            )
        )
        search = Rect(
            area.left + kit.dp(16),
            area.top + title_h + kit.dp(8),
            area.right - kit.dp(16),
            area.top + title_h + kit.dp(64),
        )
        rows.append(
            kit.search_bar(
                search,
                self.t("search_hint"),
                rid=f"{PACKAGE}:id/search_action_bar",
                on_click=lambda: self.ctx.start_activity(SearchActivity.name),
            )
        )
        y = search.bottom + kit.dp(16)
        for key, summary, icon, hue, target in self.entries():
            row = kit.list_item(
                area,
                y,
                self.t(key),
                summary,
                icon=icon,
                hue=hue,
                on_click=partial(self.ctx.start_activity, target),
            )
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(area, rows, rid=f"{PACKAGE}:id/recycler_view", padding_bottom=kit.dp(16)))
        return root


class SearchActivity(PreferenceActivity):
    """Settings search: a field and the pages whose titles match."""

    name = "com.android.settings.search.SearchActivity"
    title_key = "search_hint"

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=f"{PACKAGE}:id/search_panel")
        field_rect = Rect(
            area.left + kit.dp(16), area.top + kit.dp(12), area.right - kit.dp(16), area.top + kit.dp(68)
        )
        bar, _ = kit.app_bar(area, "", self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        field = self.text_field(
            Rect(field_rect.left + kit.dp(48), field_rect.top, field_rect.right, field_rect.bottom),
            "query",
            self.t("search_hint"),
            rid="android:id/search_src_text",
        )
        root.add(field)
        list_area = Rect(area.left, field_rect.bottom + kit.dp(16), area.right, area.bottom)
        rows: list[View] = []
        y = list_area.top
        for pref in self.prefs():
            row = self.row(pref, list_area, y)
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(list_area, rows, rid=f"{PACKAGE}:id/list_results"))
        return root

    def prefs(self) -> Sequence[Pref]:
        query = str(self.ui("text:query", "")).strip().casefold()
        if not query:
            return []
        found: list[Pref] = []
        for key, title_key, icon, hue, target in _SEARCH_INDEX:
            title = self.t(title_key)
            if query in title.casefold() or query in self.app.strings.get("en", title_key).casefold():
                crumb = self.t(key)
                found.append(self.link(title, target, crumb if crumb != title else "", icon, hue))
        return found or [Pref("text", self.t("search_none"))]


_SEARCH_INDEX: tuple[tuple[str, str, str, str, str], ...] = (
    ("network", "network", "wifi", "blue", S + "NetworkDashboardActivity"),
    ("network", "wifi", "wifi", "blue", S + "NetworkDashboardActivity"),
    ("network", "airplane", "airplane", "blue", S + "NetworkDashboardActivity"),
    ("network", "mobile_data", "signal", "blue", S + "NetworkDashboardActivity"),
    ("connected", "bluetooth", "bluetooth", "green", S + "ConnectedDeviceDashboardActivity"),
    ("apps", "apps", "apps", "orange", S + "ManageApplicationsActivity"),
    ("notifications", "dnd", "bell", "purple", S + "ConfigureNotificationSettingsActivity"),
    ("battery", "battery_saver", "battery", "green", S + "PowerUsageSummaryActivity"),
    ("battery", "battery_percentage", "battery", "green", S + "PowerUsageSummaryActivity"),
    ("storage", "storage", "storage", "teal", S + "StorageDashboardActivity"),
    ("sound", "touch_sounds", "volume", "teal", S + "SoundSettingsActivity"),
    ("display", "brightness", "sun", "orange", S + "DisplaySettingsActivity"),
    ("display", "dark_theme", "moon", "orange", S + "DisplaySettingsActivity"),
    ("display", "adaptive_brightness", "sun", "orange", S + "DisplaySettingsActivity"),
    ("display", "screen_timeout", "clock", "orange", S + "DisplaySettingsActivity"),
    ("location", "use_location", "location", "yellow", S + "LocationSettingsActivity"),
    ("system", "languages", "globe", "grey", S + "LanguageSettingsActivity"),
    ("system", "date_time", "clock", "grey", S + "DateTimeSettingsActivity"),
    ("system", "keyboard", "info", "grey", S + "SystemDashboardActivity"),
    ("about", "about", "phone_device", "blue", S + "MyDeviceInfoActivity"),
    ("about", "device_name", "phone_device", "blue", S + "MyDeviceInfoActivity"),
    ("about", "android_version", "phone_device", "blue", S + "MyDeviceInfoActivity"),
)


class NetworkDashboard(PreferenceActivity):
    name = S + "NetworkDashboardActivity"
    title_key = "network"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        wifi = self.flag("global", "wifi_on")
        return [
            Pref(
                "switch",
                t("wifi"),
                t("wifi_connected") if wifi else t("off"),
                icon="wifi",
                checked=wifi,
                on_click=self.toggle("global", "wifi_on"),
                key="wifi_on",
            ),
            self.switch(t("mobile_data"), "global", "mobile_data", t("mobile_data_summary"), icon="signal"),
            Pref(
                "switch",
                t("airplane"),
                t("airplane_summary"),
                icon="airplane",
                checked=self.flag("global", "airplane_mode_on"),
                on_click=self._toggle_airplane,
                key="airplane_mode_on",
            ),
        ]

    def _toggle_airplane(self) -> None:
        """Airplane mode turns the radios off (they stay off when it is turned off again)."""
        if self.flag("global", "airplane_mode_on"):
            self.ctx.settings_put("global", "airplane_mode_on", "0")
            return
        self.ctx.settings_put("global", "airplane_mode_on", "1")
        self.ctx.settings_put("global", "wifi_on", "0")
        self.ctx.settings_put("global", "bluetooth_on", "0")


class ConnectedDevices(PreferenceActivity):
    name = S + "ConnectedDeviceDashboardActivity"
    title_key = "bluetooth"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        on = self.flag("global", "bluetooth_on")
        name = self.ctx.settings_get("global", "device_name") or ""
        return [
            self.switch(t("use_bluetooth"), "global", "bluetooth_on", kind="main_switch"),
            Pref("text", t("bluetooth_visible", name=name) if on else t("bluetooth_off_summary")),
        ]


class Notifications(PreferenceActivity):
    name = S + "ConfigureNotificationSettingsActivity"
    title_key = "notifications"

    def prefs(self) -> Sequence[Pref]:
        return [self.switch(self.t("dnd"), "global", "zen_mode", self.t("dnd_summary"), icon="bell")]


class Battery(PreferenceActivity):
    name = S + "PowerUsageSummaryActivity"
    title_key = "battery"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        return [
            Pref("info", t("battery_level"), f"{self.ctx.battery_level()}%", icon="battery", hue="green"),
            self.switch(t("battery_saver"), "global", "low_power", t("battery_saver_summary")),
            self.switch(
                t("battery_percentage"),
                "system",
                "status_bar_show_battery_percent",
                t("battery_percentage_summary"),
            ),
        ]


def human_size(n: int) -> str:
    value = float(n)
    for unit in ("B", "kB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.2f} {unit}"
        value /= 1000
    return f"{n} B"


class Storage(PreferenceActivity):
    name = S + "StorageDashboardActivity"
    title_key = "storage"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        used = self.ctx.storage_used
        parts = [
            ("images", "display", used("/sdcard/DCIM") + used("/sdcard/Pictures")),
            ("videos", "display", used("/sdcard/Movies")),
            ("audio", "volume", used("/sdcard/Music")),
            ("documents", "storage", used("/sdcard/Documents") + used("/sdcard/Download")),
            ("app_data", "apps", used("/data/data")),
        ]
        total = sum(size for _k, _i, size in parts)
        return [
            Pref("header", t("storage_used", used=human_size(total))),
            *[Pref("info", t(key), human_size(size), icon=icon, hue="teal") for key, icon, size in parts],
        ]


class Sound(PreferenceActivity):
    name = S + "SoundSettingsActivity"
    title_key = "sound"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        return [
            self.switch(t("dnd"), "global", "zen_mode", t("dnd_summary")),
            self.switch(t("touch_sounds"), "system", "sound_effects_enabled"),
            self.switch(t("haptics"), "system", "haptic_feedback_enabled"),
        ]


TIMEOUTS = (15000, 30000, 60000, 120000, 300000, 600000, 1800000)


class Display(PreferenceActivity):
    name = S + "DisplaySettingsActivity"
    title_key = "display"

    def _timeout_label(self, ms: int) -> str:
        if ms < 60000:
            return self.t("seconds", n=ms // 1000)
        return self.t("minute") if ms == 60000 else self.t("minutes", n=ms // 60000)

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        level = int(self.ctx.settings_get("system", "screen_brightness") or "102")
        timeout = int(self.ctx.settings_get("system", "screen_off_timeout") or "60000")
        return [
            Pref(
                "slider",
                t("brightness"),
                value=level,
                maximum=255,
                key="screen_brightness",
                on_set=lambda v: self.ctx.settings_put("system", "screen_brightness", str(v)),
                extra={"down": t("brightness_down"), "up": t("brightness_up")},
            ),
            self.switch(
                t("adaptive_brightness"), "system", "screen_brightness_mode", t("adaptive_brightness_summary")
            ),
            self.switch(t("dark_theme"), "secure", "ui_night_mode", t("dark_theme_summary"), on="2", off="1"),
            Pref(
                "link",
                t("screen_timeout"),
                t("after", t=self._timeout_label(timeout)),
                on_click=self.setter("dialog", "timeout"),
            ),
        ]

    def overlay(self, area: Rect) -> View | None:
        if self.ui("dialog") != "timeout":
            return None
        kit = self.kit
        current = int(self.ctx.settings_get("system", "screen_off_timeout") or "60000")
        rows: list[View] = []
        width = area.width - kit.dp(96)
        y = 0
        for ms in TIMEOUTS:

            def choose(value: int = ms) -> None:
                self.ctx.settings_put("system", "screen_off_timeout", str(value))
                self.set_ui("dialog", None)

            row = self.row(
                Pref("radio", self._timeout_label(ms), checked=ms == current, on_click=choose),
                Rect(-kit.dp(16), 0, width + kit.dp(16), 0),
                y,
            )
            rows.append(row)
            y = row.bounds.bottom
        return kit.dialog(
            area,
            self.t("screen_timeout"),
            rows,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=y,
        )


class Location(PreferenceActivity):
    name = S + "LocationSettingsActivity"
    title_key = "location"

    def prefs(self) -> Sequence[Pref]:
        return [
            self.switch(
                self.t("use_location"), "secure", "location_mode", on="3", off="0", kind="main_switch"
            ),
            Pref("text", self.t("location_summary")),
        ]
