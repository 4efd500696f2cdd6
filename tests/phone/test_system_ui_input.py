"""Fling with momentum, and text selection with the clipboard shared with uiautomator2's."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.textselection import TOOLBAR_ID, word_at
from spa_bench.phone.ui import EditText, ScrollList
from spa_bench.phone.ui.fling import fling_distance, spline_distance
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import PhoneHandle

MESSAGES = "com.android.messaging"
KEEP = "com.google.android.keep"


@pytest.fixture
def phone(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))


def list_offset(phone: PhoneOS, rid: str) -> int:
    view = phone.frame().find(rid=rid)
    assert isinstance(view, ScrollList), rid
    return view.offset


# -- fling --------------------------------------------------------------------------------------------
def test_spline_distance_grows_with_velocity_and_is_capped() -> None:
    d = [spline_distance(v, 420) for v in (3000, 6000, 12000, 21000, 50000)]
    assert d == sorted(d) and d[0] > 0
    assert d[-1] == d[-2]  # 8000 dp/s = 21000 px/s at 420 dpi is the maximum fling velocity
    assert fling_distance(900, 400, 420) == 0 and fling_distance(1200, 300, 420) == 0  # scripted scrolls
    assert fling_distance(-600, 80, 420) < -600 < 0  # a flick travels on, in its own direction


def test_fast_swipe_scrolls_farther_than_a_slow_one(tmp_path: Path) -> None:
    rid = f"{MESSAGES}:id/list"
    offsets = []
    for duration in (400, 60):
        phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / str(duration)))
        phone.start_activity(MESSAGES)
        phone.swipe(540, 1500, 540, 1100, duration)
        offsets.append(list_offset(phone, rid))
    slow, fast = offsets
    assert slow == 400  # a slow swipe moves the list exactly as far as the finger
    assert fast > 2 * slow


def test_fling_stops_at_the_end_and_scrolls_back(phone: PhoneOS) -> None:
    rid = f"{MESSAGES}:id/list"
    phone.start_activity(MESSAGES)
    phone.swipe(540, 1800, 540, 1000, 40)
    view = phone.frame().find(rid=rid)
    assert isinstance(view, ScrollList) and view.offset == view.max_offset
    phone.swipe(540, 1000, 540, 1800, 40)
    assert list_offset(phone, rid) == 0


# -- text selection -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "index", "word"), [
    ("hello brave world", 8, "brave"), ("hello brave world", 5, "hello"), ("it's fine", 1, "it's"),
    ("买牛奶和鸡蛋", 2, "奶"), ("abc", 99, "abc"), ("a  b", 2, "a"),
])
def test_word_at(text: str, index: int, word: str) -> None:
    start, end = word_at(text, index)
    assert text[start:end] == word


def search_box(phone: PhoneOS) -> EditText:
    view = phone.frame().find(rid=f"{KEEP}:id/search_box")
    assert isinstance(view, EditText)
    return view


def toolbar(phone: PhoneOS) -> dict[str, tuple[int, int]]:
    return {v.text: v.bounds.center for v in phone.frame().views() if v.rid == TOOLBAR_ID}


def press_on_char(phone: PhoneOS, field: EditText, index: int) -> None:
    from spa_bench.phone.ui import fonts

    left = field.bounds.left + max(8, field.bounds.height // 5)
    x = left + round(fonts.text_width(field.value[: index + 1], field.size)) - 4
    phone.swipe(x, field.bounds.center[1], x, field.bounds.center[1], 800)  # `input swipe x y x y 800`


def test_long_press_selects_a_word_copy_and_replace(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    phone.tap(*search_box(phone).bounds.center)
    phone.input_text("milk bread eggs")
    press_on_char(phone, search_box(phone), 7)
    assert search_box(phone).selection == (5, 10)
    assert set(toolbar(phone)) == {"Cut", "Copy", "Select all"}  # nothing on the clipboard yet
    phone.tap(*toolbar(phone)["Copy"])
    assert phone.get_clipboard() == "bread" and toolbar(phone) == {}
    press_on_char(phone, search_box(phone), 12)
    phone.tap(*toolbar(phone)["Paste"])  # paste over the selected "eggs"
    assert search_box(phone).value == "milk bread bread"
    press_on_char(phone, search_box(phone), 1)
    phone.input_text("oat")  # typing replaces the selection
    assert search_box(phone).value == "oat bread bread"
    press_on_char(phone, search_box(phone), 1)
    phone.tap(*toolbar(phone)["Select all"])
    assert search_box(phone).selection == (0, 15)
    phone.press_key(67)  # DEL removes the selection
    assert search_box(phone).value == ""


def test_cut_and_back_ends_the_selection(phone: PhoneOS) -> None:
    phone.start_activity(KEEP)
    phone.tap(*search_box(phone).bounds.center)
    phone.input_text("keep this gone")
    press_on_char(phone, search_box(phone), 11)
    phone.tap(*toolbar(phone)["Cut"])
    assert search_box(phone).value == "keep this " and phone.get_clipboard() == "gone"
    press_on_char(phone, search_box(phone), 0)
    assert toolbar(phone)
    phone.press_key(4)
    assert toolbar(phone) == {} and search_box(phone).selection is None and phone.keyboard_shown()


def test_chinese_toolbar_and_empty_field_offers_paste(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(KEEP)
    phone.set_clipboard("旅行")
    field = search_box(phone)
    phone.swipe(*field.bounds.center, *field.bounds.center, 800)
    assert list(toolbar(phone)) == ["粘贴"]
    phone.tap(*toolbar(phone)["粘贴"])
    assert search_box(phone).value == "旅行"
    field = search_box(phone)
    phone.swipe(*field.bounds.center, *field.bounds.center, 800)
    assert toolbar(phone)
    assert search_box(phone).selection == (1, 2)  # past the text's end: its last character, 行
    phone.input_text("箱")  # typing replaces it and ends the selection: the toolbar goes
    assert search_box(phone).value == "旅箱" and toolbar(phone) == {}


@pytest.fixture
def adb_phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


def test_cmd_clipboard_has_no_shell_command(adb_phone: PhoneHandle) -> None:
    """Android 14's ClipboardService implements no shell command: `cmd clipboard` gets Binder's default."""
    proc = adb_phone.adb.run("shell", "cmd clipboard get", serial=adb_phone.serial, check=False)
    assert proc.returncode == 0 and b"No shell command implementation." in proc.stderr + proc.stdout


def test_clipboard_is_uiautomator2s(adb_phone: PhoneHandle) -> None:
    """uiautomator2's set_clipboard feeds Paste in a field, and Copy in a field is what d.clipboard reads."""
    import uiautomator2 as u2

    d = u2.connect(adb_phone.device())
    system = adb_phone.phone.system
    adb_phone.shell(f"am start -n {KEEP}/com.google.android.keep.activities.BrowseActivity")
    d.set_clipboard("sunflower")
    x, y = search_box(system).bounds.center
    adb_phone.shell(f"input swipe {x} {y} {x} {y} 800")
    px, py = toolbar(system)["Paste"]
    adb_phone.shell(f"input tap {px} {py}")
    assert search_box(system).value == "sunflower"
    adb_phone.shell(f"input swipe {x} {y} {x} {y} 800")
    cx, cy = toolbar(system)["Copy"]
    d.set_clipboard("something else")
    adb_phone.shell(f"input tap {cx} {cy}")
    assert d.clipboard == "sunflower"


def test_long_press_in_a_multi_line_note_selects_on_the_pressed_line(tmp_path: Path) -> None:
    from spa_bench.phone.ui import TextView, fonts

    phone = PhoneOS(PhoneConfig(locale="zh"), VirtualFS(tmp_path / "fs"))
    phone.start_activity(KEEP)
    note = phone.frame().find(text="会议纪要")
    assert note is not None
    phone.tap(*note.bounds.center)
    body = phone.frame().find(rid=f"{KEEP}:id/edit_note_text")
    assert isinstance(body, EditText) and body.value.count("\n") == 2
    pad, lh = max(8, body.size // 2), TextView.line_height(body.size)
    x = body.bounds.left + pad + round(fonts.text_width("3. 周五前", body.size)) - 4  # on 前, third line
    phone.swipe(x, body.bounds.top + pad + 2 * lh + lh // 2, x, body.bounds.top + pad + 2 * lh + lh // 2, 800)
    sel = phone.text_selection
    assert sel is not None and body.value[sel.start:sel.end] == "前"
    phone.tap(*toolbar(phone)["复制"])
    assert phone.get_clipboard() == "前"
