"""The Settings app (com.android.settings): toggles and pages backed by the settings database."""

from __future__ import annotations

from spa_bench.phone.apps.base import App
from spa_bench.phone.apps.settings.screens import (
    Battery,
    ConnectedDevices,
    Display,
    Homepage,
    Location,
    NetworkDashboard,
    Notifications,
    SearchActivity,
    Sound,
    Storage,
)
from spa_bench.phone.apps.settings.strings import STRINGS
from spa_bench.phone.apps.settings.system_screens import (
    AppInfo,
    DateTimeSettings,
    LanguageSettings,
    ManageApplications,
    MyDeviceInfo,
    SystemDashboard,
)


class SettingsApp(App):
    package = "com.android.settings"
    label_en = "Settings"
    label_zh = "设置"
    launcher_activity = "com.android.settings.Settings"
    apk_path = "/system_ext/priv-app/SettingsGoogle/SettingsGoogle.apk"
    icon = "gear"
    hue = "blue"
    strings = STRINGS
    activities = (
        Homepage,
        SearchActivity,
        NetworkDashboard,
        ConnectedDevices,
        Notifications,
        Battery,
        Storage,
        Sound,
        Display,
        Location,
        SystemDashboard,
        LanguageSettings,
        DateTimeSettings,
        MyDeviceInfo,
        ManageApplications,
        AppInfo,
    )
    # Settings' pages are activities (aliases) with the android.settings.* filters: all exported.
    exported_activities = frozenset(a.name for a in activities)


__all__ = ["SettingsApp"]
