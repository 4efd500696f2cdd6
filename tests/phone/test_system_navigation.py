"""Activity stacks, keys, recents, the launcher and its drawer, and scrolling by swipes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.ui import View
from spa_bench.phone.vfs import VirtualFS

LAUNCHER = (
    "com.google.android.apps.nexuslauncher",
    "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
)
SETTINGS = "com.android.settings"
S = "com.android.settings.Settings$"
HOME, BACK, APP_SWITCH = 3, 4, 187


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(data_dir=tmp_path), VirtualFS(tmp_path / "fs"))


def tap_text(phone: PhoneOS, text: str) -> None:
    view = find(phone, text=text)
    phone.tap(*view.bounds.center)


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, f"{kw} not on screen: {visible_texts(phone)}"
    return view


def visible_texts(phone: PhoneOS) -> list[str]:
    return [n.get("text", "") for n in ET.fromstring(phone.dump_hierarchy()).iter("node") if n.get("text")]


def test_boots_to_the_home_screen(phone: PhoneOS) -> None:
    assert phone.current_focus() == LAUNCHER
    assert "Settings" in visible_texts(phone)


def test_start_activity_resolves_names(phone: PhoneOS) -> None:
    assert phone.start_activity(SETTINGS) == f"{SETTINGS}/com.android.settings.Settings"
    assert phone.start_activity(SETTINGS, ".Settings$DisplaySettingsActivity") == (
        f"{SETTINGS}/{S}DisplaySettingsActivity"
    )
    assert phone.current_focus() == (SETTINGS, S + "DisplaySettingsActivity")
    with pytest.raises(KeyError):
        phone.start_activity("com.example.missing")
    with pytest.raises(KeyError):
        phone.start_activity(SETTINGS, "com.android.settings.Nope")
    with pytest.raises(KeyError):
        phone.start_activity("com.android.adbkeyboard")  # installed, but has no launcher activity


def test_back_stack_and_task_restore(phone: PhoneOS) -> None:
    tap_text(phone, "Settings")
    assert phone.current_focus() == (SETTINGS, "com.android.settings.Settings")
    w, h = phone.screen_size()
    phone.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.3), 300)
    tap_text(phone, "System")
    tap_text(phone, "Languages")
    assert phone.current_focus()[1] == S + "LanguageSettingsActivity"
    phone.press_key(HOME)
    assert phone.current_focus() == LAUNCHER
    tap_text(phone, "Settings")  # coming back restores the task's top activity
    assert phone.current_focus()[1] == S + "LanguageSettingsActivity"
    phone.press_key(BACK)
    assert phone.current_focus()[1] == S + "SystemDashboardActivity"
    phone.tap(*find(phone, desc="Navigate up").bounds.center)  # the app bar's back arrow
    assert phone.current_focus()[1] == "com.android.settings.Settings"
    phone.press_key(BACK)
    assert phone.current_focus() == LAUNCHER
    phone.tap(*find(phone, desc="Back").bounds.center)  # the navigation bar's back button on home: no-op
    assert phone.current_focus() == LAUNCHER


def test_force_stop_discards_the_task(phone: PhoneOS) -> None:
    phone.start_activity(SETTINGS, S + "DisplaySettingsActivity")
    phone.force_stop(SETTINGS)
    assert phone.current_focus() == LAUNCHER
    phone.start_activity(SETTINGS)
    assert phone.current_focus()[1] == "com.android.settings.Settings"


def test_recents_lists_tasks_and_reopens_them(phone: PhoneOS) -> None:
    phone.start_activity(SETTINGS, S + "MyDeviceInfoActivity")
    phone.press_key(APP_SWITCH)
    assert phone.current_focus() == LAUNCHER
    card = find(phone, rid="com.google.android.apps.nexuslauncher:id/task", desc="Settings")
    phone.tap(*card.bounds.center)
    assert phone.current_focus() == (SETTINGS, S + "MyDeviceInfoActivity")
    phone.press_key(APP_SWITCH)
    tap_text(phone, "Clear all")
    assert phone.current_focus() == LAUNCHER
    phone.press_key(APP_SWITCH)
    assert "No recent items" in visible_texts(phone)
    phone.press_key(BACK)
    assert "No recent items" not in visible_texts(phone)


def test_drawer_opens_by_swipe_up_and_launches(phone: PhoneOS) -> None:
    w, h = phone.screen_size()
    phone.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.3), 300)
    assert find(phone, rid="com.google.android.apps.nexuslauncher:id/apps_view")
    phone.press_key(BACK)
    assert phone.frame().find(rid="com.google.android.apps.nexuslauncher:id/apps_view") is None
    phone.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.3), 300)
    phone.tap(*find(phone, text="Settings").bounds.center)
    assert phone.current_focus()[0] == SETTINGS
    phone.press_key(HOME)
    assert phone.frame().find(rid="com.google.android.apps.nexuslauncher:id/apps_view") is None


def test_swipe_scrolls_long_lists(phone: PhoneOS) -> None:
    phone.start_activity(SETTINGS)
    assert "About phone" not in visible_texts(phone)  # the homepage is longer than the screen
    w, h = phone.screen_size()
    phone.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.3), 300)
    texts = visible_texts(phone)
    assert "About phone" in texts and "Settings" not in texts
    phone.swipe(w // 2, int(h * 0.8), w // 2, int(h * 0.3), 300)  # already at the end: stays
    assert "About phone" in visible_texts(phone)
    tap_text(phone, "About phone")
    assert phone.current_focus()[1] == S + "MyDeviceInfoActivity"
    phone.press_key(BACK)
    assert "About phone" in visible_texts(phone)  # the scroll position survives the round trip
    phone.swipe(w // 2, int(h * 0.3), w // 2, int(h * 0.9), 300)
    assert "Settings" in visible_texts(phone)


def test_swipe_without_movement_is_tap_or_long_press(phone: PhoneOS) -> None:
    phone.start_activity(SETTINGS)
    x, y = find(phone, text="Display").bounds.center
    phone.swipe(x, y, x, y, 800)  # long press: rows have no long-click action, nothing opens
    assert phone.current_focus()[1] == "com.android.settings.Settings"
    phone.swipe(x, y, x + 3, y, 50)  # within touch slop and short: a tap
    assert phone.current_focus()[1] == S + "DisplaySettingsActivity"


def test_status_bar_reflects_state(phone: PhoneOS) -> None:
    clock = find(phone, rid="com.android.systemui:id/clock").text
    assert clock == phone.clock.status_time(False)
    assert phone.frame().find(desc="Wifi signal full.") is not None
    phone.settings_put("global", "wifi_on", "0")
    phone.settings_put("global", "airplane_mode_on", "1")
    assert phone.frame().find(desc="Wifi signal full.") is None
    assert phone.frame().find(desc="Airplane mode.") is not None
    phone.settings_put("system", "time_12_24", "24")
    assert find(phone, rid="com.android.systemui:id/clock").text == phone.clock.status_time(True)
