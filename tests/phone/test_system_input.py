"""Text input: focus and the on-screen keyboard, key nodes, ADBKeyboard broadcasts, key events, clipboard."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.ui import EditText, View
from spa_bench.phone.vfs import VirtualFS

SEARCH = "com.android.settings.search.SearchActivity"


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    p = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    p.start_activity("com.android.settings")
    p.tap(*find(p, text="Search Settings").bounds.center)  # the homepage's search bar opens search
    assert p.current_focus()[1] == SEARCH
    return p


def find(phone: PhoneOS, **kw: str) -> View:
    view = phone.frame().find(**kw)
    assert view is not None, kw
    return view


def field(phone: PhoneOS) -> EditText:
    view = next(v for v in phone.frame().views() if isinstance(v, EditText))
    return view


def focus_field(phone: PhoneOS) -> None:
    phone.tap(*field(phone).bounds.center)
    assert phone.keyboard_shown()


def test_focus_shows_keyboard_with_key_nodes(phone: PhoneOS) -> None:
    assert not phone.keyboard_shown()
    phone.input_text("ignored")  # nothing has focus yet
    assert field(phone).value == ""
    focus_field(phone)
    root = ET.fromstring(phone.dump_hierarchy())
    assert [n.get("package") for n in root] == ["com.android.settings"]  # the IME is another window
    windows = ET.fromstring(phone.dump_hierarchy(mode="windows")).iter("window")
    ime = [w for w in windows if w.get("type") == "TYPE_INPUT_METHOD"]
    assert len(ime) == 1 and ime[0].find("hierarchy/node").get("package") == "com.android.inputmethod.latin"
    assert "com.android.inputmethod.latin" in {n.get("package") for n in ET.fromstring(
        phone.dump_hierarchy(mode="u2"))}
    edit = root.find(".//node[@class='android.widget.EditText']")
    assert edit is not None and edit.get("focused") == "true"
    for letter in "wifi":
        phone.tap(*find(phone, rid="com.android.inputmethod.latin:id/key", text=letter).bounds.center)
    assert field(phone).value == "wifi"
    phone.tap(*find(phone, desc="Delete").bounds.center)
    assert field(phone).value == "wif"
    phone.tap(*find(phone, desc="Shift").bounds.center)
    phone.tap(*find(phone, text="I").bounds.center)
    phone.tap(*find(phone, text="x").bounds.center)  # shift is one-shot
    assert field(phone).value == "wifIx"
    phone.tap(*find(phone, desc="Symbols").bounds.center)
    phone.tap(*find(phone, text="7").bounds.center)
    assert field(phone).value == "wifIx7"


def test_keyboard_shrinks_the_app_window(phone: PhoneOS) -> None:
    before = ET.fromstring(phone.dump_hierarchy())[0].get("bounds")
    focus_field(phone)
    after = ET.fromstring(phone.dump_hierarchy())[0].get("bounds")
    assert before != after
    kb = find(phone, rid="com.android.inputmethod.latin:id/keyboard_view").bounds
    app_bottom = int(str(after).split("][")[1].split(",")[1].rstrip("]"))
    assert app_bottom == kb.top


def test_search_filters_and_opens(phone: PhoneOS) -> None:
    focus_field(phone)
    phone.input_text("dark")
    assert find(phone, text="Dark theme")
    phone.press_key(4)  # BACK hides the keyboard first
    assert not phone.keyboard_shown()
    assert phone.current_focus()[1] == SEARCH
    phone.tap(*find(phone, text="Dark theme").bounds.center)
    assert phone.current_focus()[1] == "com.android.settings.Settings$DisplaySettingsActivity"


def test_adb_keyboard_broadcasts_only_while_it_is_the_ime(phone: PhoneOS) -> None:
    focus_field(phone)
    assert phone.broadcast("ADB_INPUT_TEXT", {"msg": "lost"}) == (0, "")  # LatinIME is current
    assert field(phone).value == ""
    phone.settings_put("secure", "default_input_method", "com.android.adbkeyboard/.AdbIME")
    assert phone.broadcast("ADB_INPUT_TEXT", {"msg": "hello "}) == (0, "")
    msg = base64.b64encode("语言 设置".encode()).decode()
    phone.broadcast("ADB_INPUT_B64", {"msg": msg})
    assert field(phone).value == "hello 语言 设置"
    phone.broadcast("ADB_INPUT_CODE", {"code": "67"})
    assert field(phone).value == "hello 语言 设"
    phone.broadcast("ADB_CLEAR_TEXT", {})
    assert field(phone).value == ""
    phone.broadcast("ADB_INPUT_TEXT", {"msg": "语言"})
    assert phone.broadcast("SOME_OTHER_ACTION", {}) == (0, "")
    phone.broadcast("ADB_INPUT_B64", {"msg": "!!not base64"})  # ignored, no crash


def test_adb_keyboard_as_default_ime(phone: PhoneOS) -> None:
    phone.settings_put("secure", "default_input_method", "com.android.adbkeyboard/.AdbIME")
    focus_field(phone)
    assert find(phone, text="ADB Keyboard {ON}")
    assert phone.frame().find(rid="com.android.inputmethod.latin:id/key") is None
    phone.broadcast("ADB_INPUT_TEXT", {"msg": "battery"})
    assert field(phone).value == "battery"


def test_key_events_edit_the_field(phone: PhoneOS) -> None:
    focus_field(phone)
    for code in (48, 33, 47, 48):  # KEYCODE_T E S T
        phone.press_key(code)
    phone.press_key(62)
    phone.press_key(8)  # KEYCODE_1
    assert field(phone).value == "test 1"
    phone.press_key(67)
    phone.press_key(67)
    assert field(phone).value == "test"
    phone.press_key(24)  # volume keys do nothing
    phone.press_key(66)  # ENTER without a submit action closes the keyboard
    assert not phone.keyboard_shown()


def test_clipboard(phone: PhoneOS) -> None:
    assert phone.get_clipboard() == ""
    phone.set_clipboard("剪贴板 text")
    assert phone.get_clipboard() == "剪贴板 text"
    focus_field(phone)
    phone.paste_clipboard()
    assert field(phone).value == "剪贴板 text"


def test_focus_is_dropped_when_the_field_goes(phone: PhoneOS) -> None:
    focus_field(phone)
    phone.press_key(3)  # HOME hides the keyboard
    assert not phone.keyboard_shown()
    phone.input_text("x")  # the launcher has no focused field
    phone.start_activity("com.android.settings")
    assert field(phone).value == ""
