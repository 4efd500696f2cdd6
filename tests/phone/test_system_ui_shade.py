"""The notification shade and quick settings through the real adb server: `cmd statusbar`, a swipe from
the top edge, tiles that change the settings `settings get` reads, and the shade as its own window."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.shade import SHADE_WINDOW
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import PhoneHandle

SYSTEMUI = "com.android.systemui"
BOUNDS = re.compile(r"\[(\d+),(\d+)\]\[(\d+),(\d+)\]")


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


def nodes(handle: PhoneHandle) -> list[dict[str, str]]:
    xml = handle.shell("uiautomator dump /sdcard/d.xml >/dev/null && cat /sdcard/d.xml")
    return [dict(n.attrib) for n in ET.fromstring(xml[xml.index("<?xml"):]).iter("node")]


def tile(handle: PhoneHandle, label: str) -> dict[str, str] | None:
    return next((n for n in nodes(handle) if n["class"] == "android.widget.Switch"
                 and n["content-desc"] == label and n["package"] == SYSTEMUI), None)


def tap(handle: PhoneHandle, node: dict[str, str]) -> None:
    m = BOUNDS.fullmatch(node["bounds"])
    assert m is not None
    x1, y1, x2, y2 = map(int, m.groups())
    handle.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")


def test_cmd_statusbar_opens_notifications_then_quick_settings(phone: PhoneHandle) -> None:
    assert tile(phone, "Wi‑Fi") is None
    assert phone.shell("cmd statusbar expand-notifications") == ""
    quick = [n["content-desc"] for n in nodes(phone) if n["class"] == "android.widget.Switch"]
    assert quick == ["Wi‑Fi", "Bluetooth", "Do Not Disturb", "Flashlight"]  # the four quick tiles
    phone.shell("cmd statusbar expand-settings")
    labels = [n["content-desc"] for n in nodes(phone) if n["class"] == "android.widget.Switch"]
    assert labels == ["Wi‑Fi", "Bluetooth", "Do Not Disturb", "Flashlight", "Auto-rotate", "Airplane mode"]
    assert any(n["resource-id"] == f"{SYSTEMUI}:id/brightness_slider" for n in nodes(phone))
    phone.shell("cmd statusbar collapse")
    assert tile(phone, "Wi‑Fi") is None


def test_cmd_statusbar_help_and_other_verbs(phone: PhoneHandle) -> None:
    """As StatusBarShellCommand: no verb prints the help with exit 1, `help` with 0; unknown verbs go to
    SystemUI (its help); the TileService verbs need a COMPONENT and, with none installed, change nothing."""
    assert phone.shell("cmd statusbar help").startswith("Status bar commands:\n  help\n")
    bare = phone.adb.run("shell", "cmd statusbar", serial=phone.serial, check=False)
    assert bare.returncode == 1 and b"expand-notifications" in bare.stdout
    assert phone.shell("cmd statusbar check-support") == "true\n"
    missing = phone.adb.run("shell", "cmd statusbar click-tile", serial=phone.serial, check=False)
    assert missing.returncode == 255 and b'Argument expected after "click-tile"' in missing.stderr
    before = phone.shell("settings list global")
    assert phone.shell("cmd statusbar click-tile com.example/.Tile") == ""
    assert phone.shell("settings list global") == before


def test_tiles_change_the_real_settings(phone: PhoneHandle) -> None:
    phone.shell("settings put global zen_mode 0")
    phone.shell("cmd statusbar expand-settings")
    dnd = tile(phone, "Do Not Disturb")
    assert dnd is not None and dnd["checked"] == "false" and dnd["text"] == "Off"
    tap(phone, dnd)
    assert phone.shell("settings get global zen_mode").strip() == "1"
    dnd = tile(phone, "Do Not Disturb")
    assert dnd is not None and dnd["checked"] == "true" and dnd["text"] == "On"
    for label, read in (("Flashlight", "settings get secure flashlight_enabled"),
                        ("Auto-rotate", "settings get system accelerometer_rotation")):
        node = tile(phone, label)
        assert node is not None
        tap(phone, node)
        assert phone.shell(read).strip() == "1", label
    phone.shell("cmd statusbar collapse")
    windows = phone.shell("uiautomator dump --windows /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")
    assert 'content-desc="Do Not Disturb."' in windows  # the status bar's icon
    phone.shell("cmd statusbar expand-notifications")
    tap(phone, tile(phone, "Do Not Disturb") or {})
    assert phone.shell("settings get global zen_mode").strip() == "0"


def test_airplane_tile_turns_the_radios_off(phone: PhoneHandle) -> None:
    phone.shell("settings put global wifi_on 1; settings put global bluetooth_on 1")
    phone.shell("cmd statusbar expand-settings")
    tap(phone, tile(phone, "Airplane mode") or {})
    got = [phone.shell(f"settings get global {k}").strip() for k in ("airplane_mode_on", "wifi_on",
                                                                      "bluetooth_on")]
    assert got == ["1", "0", "0"]
    wifi = tile(phone, "Wi‑Fi")
    assert wifi is not None and wifi["checked"] == "false"


def test_keycode_notification_toggles_the_shade(phone: PhoneHandle) -> None:
    phone.shell("input keyevent KEYCODE_NOTIFICATION")
    assert tile(phone, "Wi‑Fi") is not None
    phone.shell("input keyevent 83")
    assert tile(phone, "Wi‑Fi") is None


def test_swipe_from_the_top_edge_and_back(phone: PhoneHandle) -> None:
    phone.shell("input swipe 540 1500 540 2000 300")  # not from the edge: no shade
    assert tile(phone, "Wi‑Fi") is None
    phone.shell("input swipe 540 10 540 1200 300")
    assert tile(phone, "Wi‑Fi") is not None and tile(phone, "Auto-rotate") is None
    phone.shell("input swipe 540 600 540 1600 300")  # again: quick settings expand
    assert tile(phone, "Auto-rotate") is not None
    phone.shell("input swipe 540 1600 540 400 300")  # up: one level back
    assert tile(phone, "Auto-rotate") is None and tile(phone, "Wi‑Fi") is not None
    phone.shell("input keyevent 4")
    assert tile(phone, "Wi‑Fi") is None


def test_uiautomator2_opens_the_shade_and_quick_settings(phone: PhoneHandle) -> None:
    import uiautomator2 as u2

    d = u2.connect(phone.device())
    d.open_notification()
    assert d(description="Do Not Disturb", className="android.widget.Switch").exists
    assert not d(description="Auto-rotate").exists
    d.press("back")
    d.open_quick_settings()
    assert d(description="Auto-rotate", className="android.widget.Switch").exists
    d(description="Auto-rotate").click()
    assert phone.shell("settings get system accelerometer_rotation").strip() == "1"


def test_the_shade_is_its_own_window_above_the_app(tmp_path: Path) -> None:
    """A separate SystemUI window named as WindowManager names it, stacked above the app and the status
    bar and below the navigation bar, which stays usable (HOME closes the shade)."""
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    phone.start_activity("com.android.settings")
    phone.expand_shade("notifications")
    names = [w.name for w in phone.frame().windows]
    assert names.index(SHADE_WINDOW) > names.index("StatusBar") and names[-1] == "NavigationBar"
    shade = phone.frame().windows[names.index(SHADE_WINDOW)]
    assert shade.package == SYSTEMUI and shade.root.bounds == phone.metrics.screen
    assert phone.shade_open()
    phone.press_key(3)
    assert not phone.shade_open() and phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"


def test_long_press_on_a_tile_opens_its_settings_page(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    phone.expand_shade("notifications")
    bt = phone.frame().find(desc="Bluetooth")
    assert bt is not None and bt.long_clickable
    phone.long_press(*bt.bounds.center)
    assert phone.current_focus() == ("com.android.settings",
                                     "com.android.settings.Settings$ConnectedDeviceDashboardActivity")
    assert not phone.shade_open() and phone.settings_get("global", "bluetooth_on") == "0"


def test_shade_state_survives_a_snapshot(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.expand_shade("settings")
    phone.post_notification("com.android.messaging", 3, None, "张伟", "晚上见")
    state = phone.save_state()
    fresh = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    fresh.load_state(state)
    assert fresh.shade == "settings"
    assert [n.title for n in fresh.notification_list()] == ["张伟"]
    assert fresh.frame().find(desc="自动旋转") is not None  # the tiles in Chinese
    assert fresh.frame().find(text="全部清除") is not None


# -- against real SystemUI dumps ------------------------------------------------------------------------
CAPTURES = (Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures"
            / "uiautomator_dump")
REAL_SHADES = ("systemui_notification_shade_pt_480x888.xml", "systemui_shade_nothing_en_1080x2412.xml",
               "systemui_quick_settings_zh_320x439.xml")


def parse(xml: str) -> ET.Element:
    return ET.fromstring(xml[xml.index("<?xml"):].encode("utf-8"))


@pytest.fixture(scope="module")
def real_shades() -> dict[str, ET.Element]:
    if not CAPTURES.is_dir():
        pytest.skip(f"reference captures not found at {CAPTURES}: the SystemUI comparisons did not run")
    return {name: parse((CAPTURES / name).read_text(encoding="utf-8")) for name in REAL_SHADES}


def our_shade(tmp_path: Path, locale: str, state: str) -> ET.Element:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / locale / state))  # type: ignore[arg-type]
    phone.post_notification("com.android.messaging", 1, None, "Alice Chen", "See you at 6")
    phone.expand_shade(state)  # type: ignore[arg-type]
    return parse(phone.dump_hierarchy())


def tiles(root: ET.Element) -> list[ET.Element]:
    return [n for n in root.iter("node") if n.get("class") == "android.widget.Switch"
            and n.get("package") == SYSTEMUI]


def test_tiles_are_exposed_as_systemui_exposes_them(real_shades: dict[str, ET.Element],
                                                    tmp_path: Path) -> None:
    """QSTileViewImpl's node: a checkable, clickable Switch named by the tile label, its state as text
    (开启/关闭 in Chinese), holding tile_label (the label) and app_label (the secondary label)."""
    real = tiles(real_shades["systemui_quick_settings_zh_320x439.xml"])
    ours = tiles(our_shade(tmp_path, "zh", "settings"))
    assert real and len(ours) == 6
    for group in (real, ours):
        for n in group:
            assert (n.get("checkable"), n.get("clickable")) == ("true", "true")
            assert n.get("text") == ("开启" if n.get("checked") == "true" else "关闭")
            ids = {c.get("resource-id"): c.get("text") for c in n.iter("node")}
            label = ids.get(f"{SYSTEMUI}:id/tile_label")
            assert label and (n.get("content-desc") or "").startswith(label.rstrip("。"))
            assert f"{SYSTEMUI}:id/app_label" in ids


def test_shade_containers_and_rows_use_systemuis_ids(real_shades: dict[str, ET.Element],
                                                     tmp_path: Path) -> None:
    def ids(root: ET.Element) -> dict[str, str]:
        return {n.get("resource-id", ""): n.get("class", "") for n in root.iter("node")}

    real: dict[str, str] = {}
    for root in real_shades.values():
        real.update(ids(root))
    ours = ids(our_shade(tmp_path, "en", "notifications"))
    for rid in ("notification_panel", "qs_frame", "notification_stack_scroller", "expandableNotificationRow",
                "tile_label", "app_label"):
        full = f"{SYSTEMUI}:id/{rid}"
        assert full in real and ours.get(full) == real[full], rid  # same id, same widget class
    row_ids = {"android:id/icon", "android:id/app_name_text", "android:id/time", "android:id/title",
               "android:id/text"}
    assert row_ids <= set(real) and row_ids <= set(ours)

    def rows(root: ET.Element) -> list[tuple[str | None, str | None]]:
        row_id = f"{SYSTEMUI}:id/expandableNotificationRow"
        return [(n.get("clickable"), n.get("content-desc")) for n in root.iter("node")
                if n.get("resource-id") == row_id and n.get("clickable") == "true"]

    real_rows = rows(real_shades["systemui_shade_nothing_en_1080x2412.xml"])
    assert real_rows and set(real_rows) == {("true", "")}  # a clickable row, named by its children only
    assert rows(our_shade(tmp_path, "zh", "settings")) == [("true", "")]


SHELL_CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures" / "shell"
REAL_WINDOW_DUMP = SHELL_CAPTURES / "dumpsys_window" / "mtk_tb8168_android13_bugreport_dumpsys_window.txt"
FOCUS_LINE = re.compile(r"^  mCurrentFocus=Window\{[0-9a-f]{7} u0 (\S+)\}$", re.M)
FOCUSED_APP = re.compile(r"^  mFocusedApp=ActivityRecord\{[0-9a-f]{7} u0 (\S+)/\S+ t\d+\}$", re.M)


def test_the_open_shade_has_the_focus_and_the_app_keeps_focused_app(phone: PhoneHandle) -> None:
    """As in a real Android 13 window dump taken with the shade down (when the capture is present, its
    focus lines must match the same expressions)."""
    if REAL_WINDOW_DUMP.exists():
        real = REAL_WINDOW_DUMP.read_text(errors="replace")
        assert {m.group(1) for m in FOCUS_LINE.finditer(real)} == {"NotificationShade"}
        assert FOCUSED_APP.search(real)
    phone.shell("am start -n com.android.settings/.Settings")
    phone.shell("cmd statusbar expand-notifications")
    dump = phone.shell("dumpsys window")
    assert {m.group(1) for m in FOCUS_LINE.finditer(dump)} == {"NotificationShade"}
    assert {m.group(1) for m in FOCUSED_APP.finditer(dump)} == {"com.android.settings"}
    assert "u0 NotificationShade}:" in phone.shell("dumpsys window windows")
    phone.shell("cmd statusbar collapse")
    dump = phone.shell("dumpsys window")
    settings = "com.android.settings/com.android.settings.Settings"
    assert {m.group(1) for m in FOCUS_LINE.finditer(dump)} == {settings}
