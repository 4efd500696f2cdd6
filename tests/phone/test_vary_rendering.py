"""The device variations `--vary` applies really change the phone: font scale grows text and the rows
around it, the navigation mode swaps the 3-button bar for the gesture handle and gives the app the room,
and both are switched through the shell commands a real device takes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.ui import TextView
from spa_bench.phone.vfs import VirtualFS

S = "com.android.settings.Settings$"
NAV = "com.android.systemui:id/"


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    phone = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs"))
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    return phone


def _nodes(phone: PhoneOS) -> list[ET.Element]:
    """Every window's nodes, as uiautomator2's dump has them (the system bars are not the active window)."""
    return list(ET.fromstring(phone.dump_hierarchy(mode="windows")).iter("node"))


def _bounds(node: ET.Element) -> tuple[int, int, int, int]:
    raw = node.get("bounds", "").replace("][", ",").strip("[]")
    left, top, right, bottom = (int(v) for v in raw.split(","))
    return left, top, right, bottom


def _text_view(phone: PhoneOS, text: str) -> TextView:
    view = next(v for v in phone.frame().views() if isinstance(v, TextView) and v.text == text)
    assert isinstance(view, TextView)
    return view


def test_font_scale_grows_text_and_the_rows_in_the_dump(phone: PhoneOS) -> None:
    shell = Shell(phone)
    title = "Dark theme"
    before = _text_view(phone, title)
    size, height = before.size, before.bounds.height
    rows_before = [_bounds(n) for n in _nodes(phone) if n.get("text") == title]
    assert shell.run("settings put system font_scale 1.3").exit_code == 0
    after = _text_view(phone, title)
    assert after.size == round(size * 1.3)
    assert after.bounds.height > height  # the line box grew with the text, as sp scales
    rows_after = [_bounds(n) for n in _nodes(phone) if n.get("text") == title]
    assert rows_after and rows_after[0][3] - rows_after[0][1] > rows_before[0][3] - rows_before[0][1]
    shell.run("settings put system font_scale 1.0")
    assert _text_view(phone, title).size == size  # nothing kept from the scaled frame


def test_font_scale_is_per_phone(tmp_path: Path, phone: PhoneOS) -> None:
    """Two phones in one process: one's font scale does not leak into the other's frames."""
    other = PhoneOS(PhoneConfig(locale="en"), VirtualFS(tmp_path / "fs2"))
    other.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    size = _text_view(other, "Dark theme").size
    phone.settings_put("system", "font_scale", "1.3")
    assert _text_view(phone, "Dark theme").size > size
    other.invalidate()
    assert _text_view(other, "Dark theme").size == size


def test_three_button_bar_by_default_and_gesture_handle_through_the_overlay(phone: PhoneOS) -> None:
    shell = Shell(phone)
    ids = {n.get("resource-id") for n in _nodes(phone)}
    assert {NAV + "back", NAV + "home", NAV + "recent_apps"} <= ids
    content = next(n for n in _nodes(phone) if n.get("resource-id") == "android:id/content")
    three_button_bottom = _bounds(content)[3]

    overlay = "com.android.internal.systemui.navbar."
    result = shell.run(f"cmd overlay enable-exclusive --category {overlay}gestural")
    assert result.exit_code == 0
    assert phone.settings_get("secure", "navigation_mode") == "2"
    nodes = _nodes(phone)
    ids = {n.get("resource-id") for n in nodes}
    assert NAV + "home_handle" in ids
    assert not {NAV + "back", NAV + "home", NAV + "recent_apps"} & ids
    content = next(n for n in nodes if n.get("resource-id") == "android:id/content")
    assert _bounds(content)[3] > three_button_bottom  # the app gets the room the buttons had
    listing = shell.run("cmd overlay list").stdout.decode()
    assert "[x] com.android.internal.systemui.navbar.gestural" in listing
    assert "[ ] com.android.internal.systemui.navbar.threebutton" in listing

    shell.run(f"cmd overlay enable-exclusive --category {overlay}threebutton")
    assert phone.settings_get("secure", "navigation_mode") == "0"
    assert NAV + "back" in {n.get("resource-id") for n in _nodes(phone)}


def test_gesture_mode_swipe_up_goes_home_and_keys_still_work(phone: PhoneOS) -> None:
    shell = Shell(phone)
    shell.run("settings put secure navigation_mode 2")  # what the overlay leaves; enough on this phone
    width, height = phone.metrics.width, phone.metrics.height
    phone.swipe(width // 2, height - 5, width // 2, height // 2, 200)
    assert phone.tasks.front != "com.android.settings"
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    assert shell.run("input keyevent KEYCODE_HOME").exit_code == 0
    assert phone.tasks.front != "com.android.settings"


def test_overlay_refuses_unknown_packages(phone: PhoneOS) -> None:
    shell = Shell(phone)
    assert shell.run("cmd overlay enable com.example.nothing").exit_code != 0
    assert phone.settings_get("secure", "navigation_mode") in (None, "0")
