"""save_state/load_state rebuild the exact screen; frames are cached per state version; thread safety."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

S = "com.android.settings.Settings$"


def make(root: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(root))


def test_state_round_trip_rebuilds_the_exact_screen(tmp_path: Path) -> None:
    phone = make(tmp_path / "a")
    phone.start_activity("com.android.settings")
    phone.swipe(540, 1800, 540, 1200, 300)
    phone.start_activity("com.android.settings", S + "MyDeviceInfoActivity")
    rename = phone.frame().find(text="Device name")
    assert rename is not None
    phone.tap(*rename.bounds.center)  # a dialog with a focused field and the keyboard
    phone.input_text(" 2")
    phone.set_clipboard("clip")
    phone.settings_put("secure", "ui_night_mode", "2")
    state = phone.save_state()
    json.dumps(state)  # JSON-able
    xml, png = phone.dump_hierarchy(), phone.screenshot_png()

    shutil.copytree(tmp_path / "a", tmp_path / "b")
    other = make(tmp_path / "b")
    assert other.current_focus()[0] == "com.google.android.apps.nexuslauncher"
    other.load_state(state)
    assert other.dump_hierarchy() == xml
    assert other.screenshot_png() == png
    assert other.get_clipboard() == "clip"
    assert other.keyboard_shown()
    other.press_key(4)  # hides the keyboard
    other.press_key(4)  # closes the dialog
    assert other.current_focus()[1] == S + "MyDeviceInfoActivity"
    other.press_key(4)  # pops to the (scrolled) homepage
    assert other.current_focus() == ("com.android.settings", "com.android.settings.Settings")


def test_load_state_rereads_restored_files(tmp_path: Path) -> None:
    phone = make(tmp_path / "p")
    state = phone.save_state()
    saved = tmp_path / "saved"
    shutil.copytree(tmp_path / "p", saved)
    phone.settings_put("global", "wifi_on", "0")
    phone.set_locale("zh")
    phone.start_activity("com.android.settings")
    shutil.rmtree(tmp_path / "p")
    shutil.copytree(saved, tmp_path / "p")
    phone.load_state(state)
    assert phone.settings_get("global", "wifi_on") == "1"
    assert phone.getprop()["persist.sys.locale"] == "en-US"
    assert phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"


def test_frames_are_cached_until_state_changes(tmp_path: Path) -> None:
    phone = make(tmp_path / "p")
    phone.start_activity("com.android.settings")
    first = phone.screenshot_png()
    again = phone.screenshot_png()
    assert again is first  # the same bytes object: no render, no encode
    assert phone.dump_hierarchy() == phone.dump_hierarchy()
    phone.settings_put("global", "wifi_on", "0")
    assert phone.screenshot_png() != first
    phone.settings_put("global", "wifi_on", "1")  # same picture again, newly rendered
    assert phone.screenshot_png() == first


def test_concurrent_use(tmp_path: Path) -> None:
    phone = make(tmp_path / "p")
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            for _ in range(5):
                if i % 2:
                    phone.start_activity("com.android.settings")
                    phone.swipe(540, 1800, 540, 900, 200)
                    phone.press_key(4)
                else:
                    phone.screenshot_png()
                    phone.dump_hierarchy(compressed=True)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
