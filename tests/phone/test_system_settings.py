"""Settings: the SQLite database, UI toggles <-> settings_get/put, providers, locale, packages, props."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig, ProviderError
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.ui import SeekBar, View
from spa_bench.phone.vfs import VirtualFS

S = "com.android.settings.Settings$"
DB = "/data/data/com.android.providers.settings/databases/settings.db"


def make(tmp_path: Path, locale: str = "en") -> PhoneOS:
    return PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return make(tmp_path)


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, kw
    return view


def switch_of(phone: PhoneOS, title: str) -> bool:
    """The checked state of the switch in the row titled `title`, read from the XML."""
    root = ET.fromstring(phone.dump_hierarchy())
    for row in root.iter("node"):
        kids = list(row)
        if any(k.get("text") == title for k in kids):
            for k in kids:
                if k.get("class") == "android.widget.Switch":
                    return k.get("checked") == "true"
    raise AssertionError(f"no switch row {title!r}")


def test_database_layout_and_defaults(phone: PhoneOS) -> None:
    path = phone.fs.host_path(DB)
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"system", "secure", "global"} <= tables
        cols = [r[1] for r in conn.execute("PRAGMA table_info(global)")]
        assert cols == ["_id", "name", "value"]
        assert conn.execute("SELECT value FROM global WHERE name='wifi_on'").fetchone() == ("1",)
    conn.close()
    assert phone.settings_get("secure", "ui_night_mode") == "1"
    assert phone.settings_get("global", "no_such_key") is None
    with pytest.raises(KeyError):
        phone.settings_get("bogus", "x")


def test_wifi_toggle_round_trip(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "NetworkDashboardActivity")
    assert switch_of(phone, "Wi‑Fi") is True
    phone.tap(*find(phone, text="Wi‑Fi").bounds.center)
    assert phone.settings_get("global", "wifi_on") == "0"
    with sqlite3.connect(phone.fs.host_path(DB)) as conn:
        assert conn.execute("SELECT value FROM global WHERE name='wifi_on'").fetchone() == ("0",)
    conn.close()
    assert switch_of(phone, "Wi‑Fi") is False
    phone.settings_put("global", "wifi_on", "1")  # `settings put` changes what the UI shows
    assert switch_of(phone, "Wi‑Fi") is True


def test_external_database_writes_are_seen(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "ConnectedDeviceDashboardActivity")
    assert find(phone, rid="com.android.settings:id/switch_widget").checked is False
    with sqlite3.connect(phone.fs.host_path(DB)) as conn:
        conn.execute("UPDATE global SET value='1' WHERE name='bluetooth_on'")
    conn.close()
    phone.invalidate()
    assert phone.settings_get("global", "bluetooth_on") == "1"
    assert find(phone, rid="com.android.settings:id/switch_widget").checked is True


def test_airplane_mode_turns_radios_off(phone: PhoneOS) -> None:
    phone.settings_put("global", "bluetooth_on", "1")
    phone.start_activity("com.android.settings", S + "NetworkDashboardActivity")
    phone.tap(*find(phone, text="Airplane mode").bounds.center)
    assert [phone.settings_get("global", k) for k in ("airplane_mode_on", "wifi_on", "bluetooth_on")] == [
        "1",
        "0",
        "0",
    ]
    phone.tap(*find(phone, text="Airplane mode").bounds.center)
    assert phone.settings_get("global", "airplane_mode_on") == "0"


def test_dark_theme_and_brightness(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    light_bg = phone.screenshot().getpixel((540, 1800))
    phone.tap(*find(phone, text="Dark theme").bounds.center)
    assert phone.settings_get("secure", "ui_night_mode") == "2"
    dark_bg = phone.screenshot().getpixel((540, 1800))
    assert sum(dark_bg) < 150 < sum(light_bg)  # type: ignore[arg-type]
    bar = next(v for v in phone.frame().views() if isinstance(v, SeekBar))
    phone.tap(bar.bounds.right - bar.bounds.height // 2, bar.bounds.center[1])
    assert phone.settings_get("system", "screen_brightness") == "255"
    phone.tap(bar.bounds.left + bar.bounds.height // 2, bar.bounds.center[1])
    assert phone.settings_get("system", "screen_brightness") == "0"
    phone.tap(*find(phone, desc="Increase brightness").bounds.center)
    assert phone.settings_get("system", "screen_brightness") == "16"
    phone.tap(*find(phone, text="Adaptive brightness").bounds.center)
    assert phone.settings_get("system", "screen_brightness_mode") == "0"


def test_screen_timeout_dialog(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    phone.tap(*find(phone, text="Screen timeout").bounds.center)
    assert find(phone, rid="android:id/alertTitle").text == "Screen timeout"
    phone.press_key(4)
    assert phone.frame().find(rid="android:id/alertTitle") is None
    assert phone.current_focus()[1] == S + "DisplaySettingsActivity"
    phone.tap(*find(phone, text="Screen timeout").bounds.center)
    phone.tap(*find(phone, text="5 minutes").bounds.center)
    assert phone.settings_get("system", "screen_off_timeout") == "300000"
    assert phone.frame().find(rid="android:id/alertTitle") is None
    assert find(phone, text="After 5 minutes of inactivity")


def test_content_provider_settings(phone: PhoneOS) -> None:
    rows = phone.content_query("content://settings/global", ["name", "value"], "name='wifi_on'")
    assert [r.values for r in rows] == [{"name": "wifi_on", "value": "1"}]
    assert phone.content_query("content://settings/system/screen_brightness")[0].values["value"] == "102"
    uri = phone.content_insert("content://settings/secure", {"name": "my_key", "value": "7"})
    assert uri == "content://settings/secure/my_key"
    assert phone.settings_get("secure", "my_key") == "7"
    assert phone.content_update("content://settings/secure", {"value": "8"}, "name='my_key'") == 1
    assert phone.settings_get("secure", "my_key") == "8"
    assert phone.content_delete("content://settings/secure/my_key") == 1
    assert phone.settings_get("secure", "my_key") is None
    with pytest.raises(ProviderError):
        phone.content_query("content://nope/x")
    with pytest.raises(ProviderError):
        phone.content_query("content://settings/global", where="no_such_column = 1")


def test_locale_switch_from_settings(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "SystemDashboardActivity")
    phone.tap(*find(phone, text="Languages").bounds.center)
    phone.tap(*find(phone, text="简体中文（中国）").bounds.center)
    assert phone.settings_get("system", "system_locales") == "zh-CN"
    assert phone.getprop()["persist.sys.locale"] == "zh-CN"
    assert find(phone, rid="android:id/title", text="语言")
    phone.press_key(4)
    assert find(phone, text="语言")  # System page, now in Chinese
    phone.press_key(3)
    assert find(phone, text="设置")  # the launcher label too


def test_locale_from_config(tmp_path: Path) -> None:
    phone = make(tmp_path, "zh")
    assert phone.getprop()["persist.sys.locale"] == "zh-CN"
    phone.start_activity("com.android.settings")
    assert find(phone, text="网络和互联网")
    phone.settings_put("system", "system_locales", "en-US")
    assert find(phone, text="Network & internet")


def test_about_phone_and_rename(phone: PhoneOS) -> None:
    phone.start_activity("com.android.settings", S + "MyDeviceInfoActivity")
    props = phone.getprop()
    assert find(phone, text=props["ro.build.display.id"])
    assert find(phone, text="14")
    phone.settings_put("secure", "default_input_method", "com.android.adbkeyboard/.AdbIME")  # for its CLEAR
    phone.tap(*find(phone, text="Device name").bounds.center)
    assert phone.keyboard_shown()
    phone.broadcast("ADB_CLEAR_TEXT", {})
    phone.input_text("Lab phone")
    phone.tap(*find(phone, text="OK").bounds.center)
    assert phone.settings_get("global", "device_name") == "Lab phone"
    assert not phone.keyboard_shown()
    assert find(phone, text="Lab phone")


def test_packages_and_clear(phone: PhoneOS) -> None:
    names = {p.name for p in phone.packages()}
    assert {
        "com.google.android.apps.nexuslauncher",
        "com.android.settings",
        "com.android.adbkeyboard",
        "com.android.systemui",
        "android",
    } <= names
    settings = next(p for p in phone.packages() if p.name == "com.android.settings")
    assert settings.launcher_activity == "com.android.settings.Settings"
    phone.fs.write_bytes("/data/data/com.android.settings/shared_prefs/x.xml", b"<map/>", make_parents=True)
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    phone.clear_package("com.android.settings")
    assert phone.fs.listdir("/data/data/com.android.settings") == []
    assert phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"
    with pytest.raises(KeyError):
        phone.clear_package("com.example.none")


def test_clear_settings_provider_restores_defaults(phone: PhoneOS) -> None:
    phone.settings_put("global", "wifi_on", "0")
    phone.clear_package("com.android.providers.settings")
    assert phone.settings_get("global", "wifi_on") == "1"


def test_getprop(phone: PhoneOS) -> None:
    props = phone.getprop()
    cfg = phone.config
    assert props["ro.product.model"] == cfg.model
    assert props["ro.build.version.release"] == cfg.android_release
    assert props["ro.build.version.sdk"] == str(cfg.sdk)
    assert props["sys.boot_completed"] == "1"
    assert props["persist.sys.locale"] == "en-US"
    assert props["ro.build.fingerprint"].startswith(f"{cfg.manufacturer}/{cfg.product}/{cfg.device}:")


def test_app_info_force_stop_with_toast(phone: PhoneOS) -> None:
    now = [0.0]
    phone.clock._monotonic = lambda: now[0]
    phone.start_activity(
        "com.android.settings",
        "com.android.settings.applications.InstalledAppDetails",
        {"package": "com.android.settings"},
    )
    phone.tap(*find(phone, text="Force stop").bounds.center)
    assert find(phone, text="Force stop?")
    phone.tap(*find(phone, text="OK").bounds.center)
    assert phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"
    assert find(phone, text="Settings stopped")  # the toast
    now[0] = 10.0
    assert phone.frame().find(text="Settings stopped") is None


def test_cmd_uimode_night_switches_the_dark_theme(phone: PhoneOS) -> None:
    """UiModeManagerService's shell: `cmd uimode night yes|no|auto` prints the mode it leaves
    ("Night mode: yes"); the theme follows."""
    from spa_bench.phone.shell import Shell

    shell = Shell(phone)
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    light = phone.screenshot().getpixel((540, 1800))
    result = shell.run("cmd uimode night yes")
    assert (result.stdout, result.exit_code) == (b"Night mode: yes\n", 0)
    assert phone.settings_get("secure", "ui_night_mode") == "2"
    assert sum(phone.screenshot().getpixel((540, 1800))) < 150 < sum(light)  # type: ignore[arg-type]
    assert shell.run("cmd uimode night").stdout == b"Night mode: yes\n"
    assert shell.run("cmd uimode night no").stdout == b"Night mode: no\n"
    bad = shell.run("cmd uimode night dim")
    assert bad.exit_code != 0 and bad.stderr.startswith(b"Error: mode must be 'yes', 'no', or 'auto'")
