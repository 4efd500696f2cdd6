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
from spa_bench.phone.ui import Rect, TextView
from spa_bench.phone.ui.fontscale import convert_sp_to_dp
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
    assert size == phone.kit.dp(16)  # a 16sp list title
    rows_before = [_bounds(n) for n in _nodes(phone) if n.get("text") == title]
    assert shell.run("settings put system font_scale 1.3").exit_code == 0
    after = _text_view(phone, title)
    # Android 14 at 130 %: 16sp lies halfway between the table's 14sp -> 18.8dp and 18sp -> 21.6dp
    assert after.size == round(20.2 * phone.metrics.scale)
    assert after.bounds.height > height  # the line box grew with the text, as sp scales
    rows_after = [_bounds(n) for n in _nodes(phone) if n.get("text") == title]
    assert rows_after and rows_after[0][3] - rows_after[0][1] > rows_before[0][3] - rows_before[0][1]
    shell.run("settings put system font_scale 1.0")
    assert _text_view(phone, title).size == size  # nothing kept from the scaled frame


@pytest.mark.parametrize(
    ("scale", "sp", "dp"),
    [
        (1.3, 14, 18.8),  # FontScaleConverterFactory's 1.3 table, point for point
        (1.3, 30, 30.0),  # large text no longer grows at 130 %
        (1.3, 4, 5.2),  # below the first point: from (0, 0) to (8sp, 10.4dp)
        (1.3, 200, 200.0),  # past the last point: the last pair's ratio (1)
        (1.15, 12, 13.8),
        (1.4, 14, 20.4),  # no table: halfway between 1.3's 18.8 and 1.5's 22
        (1.1, 20, 22.0),  # below the first table: linear
        (0.85, 20, 17.0),  # shrinking is always linear
        (1.0, 57, 57.0),
    ],
)
def test_sp_converts_as_android_14(scale: float, sp: float, dp: float) -> None:
    assert convert_sp_to_dp(sp, scale) == pytest.approx(dp)


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


def test_gesture_mode_edge_swipe_goes_back_and_three_buttons_leave_the_edges_to_the_app(
    phone: PhoneOS,
) -> None:
    shell = Shell(phone)
    width, height = phone.metrics.width, phone.metrics.height
    display = phone.current_focus()
    assert display[1].endswith("DisplaySettingsActivity")
    phone.swipe(2, height // 2, width // 2, height // 2, 200)  # three buttons: the app's swipe, not back
    assert phone.current_focus() == display
    shell.run("cmd overlay enable-exclusive --category com.android.internal.systemui.navbar.gestural")
    phone.swipe(width - 2, height // 2, width // 2, height // 2, 200)  # in from the right edge
    assert phone.current_focus() != display
    phone.start_activity("com.android.settings", S + "DisplaySettingsActivity")
    assert shell.run("input keyevent KEYCODE_BACK").exit_code == 0
    assert phone.current_focus() != display
    assert shell.run("input keyevent KEYCODE_APP_SWITCH").exit_code == 0
    assert phone.recents_open


def test_overlay_refuses_unknown_packages_as_the_overlay_manager_does(phone: PhoneOS) -> None:
    shell = Shell(phone)
    exclusive = shell.run("cmd overlay enable-exclusive --category com.example.nothing")
    assert exclusive.exit_code & 0xFF == 255 and not exclusive.stdout  # -1, 255 as adb reports it
    unknown = "Unable to retrieve overlay information for com.example.nothing"
    assert exclusive.stderr.decode() == f"Error: {unknown}\n"
    enable = shell.run("cmd overlay enable com.example.nothing")
    assert enable.exit_code & 0xFF == 255
    assert f"java.lang.SecurityException: commit failed: {unknown}\n" in enable.stderr.decode()
    assert shell.run("cmd overlay enable").stderr.decode() == 'Error: Argument expected after "enable"\n'
    assert phone.settings_get("secure", "navigation_mode") in (None, "0")
    ok = shell.run("cmd overlay enable-exclusive --category com.android.internal.systemui.navbar.gestural")
    assert (ok.exit_code, ok.stdout, ok.stderr) == (0, b"", b"")  # silent on success, as on a device


def _small_dark_gestural(phone: PhoneOS) -> None:
    """The smallest device --vary draws: 720x1280 at 320 dpi (360x640 dp), font 1.3, dark, gestures."""
    shell = Shell(phone)
    for command in ("wm size 720x1280", "wm density 320", "settings put system font_scale 1.3",
                    "cmd uimode night yes", "cmd overlay enable-exclusive --category "
                    "com.android.internal.systemui.navbar.gestural"):
        assert shell.run(command).exit_code == 0, command


def test_home_grid_fits_between_the_date_and_the_dock_on_a_small_screen(phone: PhoneOS) -> None:
    _small_dark_gestural(phone)
    phone.go_home()
    nodes = _nodes(phone)
    date = next(_bounds(n) for n in nodes if n.get("resource-id", "").endswith(":id/date"))
    icons = [_bounds(n) for n in nodes if n.get("resource-id", "").endswith(":id/icon")]
    assert len(icons) > 16
    assert all(top >= date[3] for _, top, _, _ in icons)  # nothing under the date or the status bar
    rects = [Rect(*b) for b in icons]
    for i, a in enumerate(rects):
        assert all(a.intersect(b).empty for b in rects[i + 1:])


def test_custom_painted_labels_scale_and_fit(phone: PhoneOS) -> None:
    """Text a view paints itself (a chip, an extended FAB) grows with the font scale like TextView's, and
    the FAB widens so its label is not cut."""
    from spa_bench.phone.apps.shop.widgets import Chip
    from spa_bench.phone.ui import fonts

    phone.start_activity("com.spa.eats")
    base = next(v for v in phone.frame().views() if isinstance(v, Chip)).size
    _small_dark_gestural(phone)
    phone.start_activity("com.spa.eats")
    chip = next(v for v in phone.frame().views() if isinstance(v, Chip))
    assert chip.size > base * 320 / 420  # grew beyond the density change alone
    assert fonts.text_width(chip.text, chip.size) < chip.bounds.width
    phone.start_activity("com.android.email")
    label = next(v for v in phone.frame().views() if isinstance(v, TextView) and v.text == "Compose")
    assert fonts.text_width(label.text, label.size) <= label.bounds.width


def test_rows_grow_with_their_text_on_a_small_screen(tmp_path: Path) -> None:
    """Rows that wrap content: Shop's result rows keep the rating above their divider, Email's date
    column widens for a Chinese date, Clock's time dialog keeps AM/PM inside the dialog."""
    from spa_bench.phone.ui import fonts

    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "zh"))
    _small_dark_gestural(phone)
    phone.start_activity("com.spa.shop")
    audio = next(v for v in phone.frame().views() if v.text == "影音耳机")
    phone.tap(*audio.bounds.center)
    rows = [v for v in phone.frame().views() if v.rid.endswith(":id/product_item")]
    assert rows
    for row in rows:
        rating = next(c for c in row.children if c.rid.endswith(":id/product_rating"))
        divider = row.children[-1]
        assert rating.bounds.bottom <= divider.bounds.top
    phone.start_activity("com.android.email")
    dates = [v for v in phone.frame().views() if isinstance(v, TextView) and v.rid.endswith(":id/date")]
    assert dates and all(fonts.text_width(d.text, d.size) <= d.bounds.width for d in dates)
    phone.start_activity("com.android.deskclock")
    phone.settings_put("system", "time_12_24", "12")
    fab = next(v for v in phone.frame().views() if "fab" in v.rid)
    phone.tap(*fab.bounds.center)
    views = list(phone.frame().views())
    pm = next(v for v in views if v.rid.endswith(":id/pm_label"))
    dialog = next(v for v in views if v.rid == "android:id/parentPanel")
    assert dialog.bounds.contains(*pm.bounds.center)
    assert pm.bounds.right <= dialog.bounds.right


def test_a_dialog_too_tall_for_the_room_above_the_keyboard_keeps_its_buttons_and_focused_field(
    phone: PhoneOS,
) -> None:
    """Shop's filter dialog with the keyboard up on the small device: the body is cut to fit (showing the
    focused field), the buttons stay above the keyboard, so a tap on them reaches them."""
    _small_dark_gestural(phone)
    shell = Shell(phone)
    phone.start_activity("com.spa.shop")

    def tap(suffix: str) -> None:
        view = next(v for v in phone.frame().views() if v.rid.endswith(suffix))
        phone.tap(*view.bounds.center)

    tap(":id/search_bar")
    phone.input_text("earbuds")
    shell.run("input keyevent ENTER")
    tap(":id/filter")
    tap(":id/max_price")
    phone.input_text("100")
    assert phone.keyboard_shown()
    nodes = {n.get("resource-id"): _bounds(n) for n in _nodes(phone)}
    keyboard_top = min(b[1] for rid, b in nodes.items() if rid and rid.startswith("com.android.inputmethod"))
    assert nodes["android:id/button1"][3] <= keyboard_top
    assert nodes["com.spa.shop:id/max_price"][3] <= keyboard_top
    left, top, right, bottom = nodes["android:id/button1"]
    phone.tap((left + right) // 2, (top + bottom) // 2)
    assert "android:id/button1" not in {n.get("resource-id") for n in _nodes(phone)}  # applied and closed
