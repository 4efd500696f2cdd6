"""The view toolkit: XML format, escaping, clipping, hit-testing, and that taps land where the XML says."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.ui import Frame, Rect, ScrollList, TextView, View, Window, dump
from spa_bench.phone.ui.fonts import ellipsize, text_width, wrap
from spa_bench.phone.ui.icons import render_icon
from spa_bench.phone.vfs import VirtualFS

AOSP_ORDER = [
    "index",
    "text",
    "resource-id",
    "class",
    "package",
    "content-desc",
    "checkable",
    "checked",
    "clickable",
    "enabled",
    "focusable",
    "focused",
    "scrollable",
    "long-clickable",
    "password",
    "selected",
    "bounds",
]
SCREEN = Rect(0, 0, 1080, 2400)


def _frame(*views: View) -> Frame:
    root = View(SCREEN, class_name="android.widget.FrameLayout", children=list(views))
    return Frame(SCREEN, [Window("com.example", root)])


def _os(tmp_path: Path) -> PhoneOS:
    return PhoneOS(PhoneConfig(data_dir=tmp_path), VirtualFS(tmp_path / "fs"))


def test_xml_header_and_attribute_order() -> None:
    xml = dump(_frame(TextView(Rect(10, 20, 300, 80), "Hello", 40, (0, 0, 0), rid="android:id/title")))
    assert xml.startswith(
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    )
    assert xml.endswith("</hierarchy>")
    for tag in re.findall(r"<node [^>]*>", xml):
        names = re.findall(r'([a-z-]+)="', tag)
        assert names == AOSP_ORDER
    node = ET.fromstring(xml).find(".//node[@text='Hello']")
    assert node is not None
    assert node.get("bounds") == "[10,20][300,80]"
    assert node.get("class") == "android.widget.TextView"
    assert node.get("package") == "com.example"
    assert node.get("resource-id") == "android:id/title"


def test_xml_escaping_round_trips() -> None:
    nasty = 'a<b>&"c"\'\nline2\x01\x1f end 中文'
    xml = dump(_frame(TextView(Rect(0, 0, 100, 100), nasty, 30, (0, 0, 0), desc="x & y")))
    node = ET.fromstring(xml).find(".//node[@content-desc='x & y']")
    assert node is not None
    # AccessibilityNodeInfoDumper.stripInvalidXMLChars writes "." for each control character
    assert node.get("text") == 'a<b>&"c"\'\nline2.. end 中文'


def test_scroll_list_clips_and_omits_rows() -> None:
    rows = [
        TextView(
            Rect(0, 100 + i * 200, 1080, 300 + i * 200), f"row {i}", 40, (0, 0, 0), on_click=lambda: None
        )
        for i in range(20)
    ]
    lst = ScrollList(Rect(0, 100, 1080, 1100), rows, offset=150, on_scroll=lambda _o: None)
    assert lst.scrollable and lst.max_offset == 20 * 200 - 1000
    tree = ET.fromstring(dump(_frame(lst)))
    texts = [n.get("text") for n in tree.iter("node") if n.get("text")]
    assert texts == [f"row {i}" for i in range(6)]  # row 0 is partly scrolled off, row 5 partly visible
    first = tree.find(".//node[@text='row 0']")
    assert first is not None and first.get("bounds") == "[0,100][1080,150]"
    # a tap above the viewport does not reach a row hidden under it
    frame = _frame(lst)
    assert frame.hit(540, 50) is None
    hit = frame.hit(540, 120)
    assert isinstance(hit, TextView) and hit.text == "row 0"


def test_scroll_offset_is_clamped() -> None:
    rows = [View(Rect(0, 0, 100, 500))]
    assert ScrollList(Rect(0, 0, 100, 1000), rows, 400, lambda _o: None).offset == 0
    moved: list[int] = []
    lst = ScrollList(Rect(0, 0, 100, 100), [View(Rect(0, 0, 100, 300))], 0, moved.append)
    assert lst.scroll_by(500) and moved == [200]
    assert not lst.scroll_by(-10)


def test_hit_test_takes_top_most_clickable() -> None:
    clicked: list[str] = []
    under = View(Rect(0, 0, 500, 500), on_click=lambda: clicked.append("under"))
    over = View(Rect(100, 100, 300, 300), on_click=lambda: clicked.append("over"))
    label = TextView(Rect(100, 100, 300, 300), "not clickable", 30, (0, 0, 0))
    frame = _frame(under, over, label)
    assert frame.hit(200, 200) is over
    assert frame.hit(50, 50) is under
    assert frame.hit(700, 700) is None


def test_compressed_dump_drops_layout_nodes() -> None:
    inner = View(
        Rect(0, 0, 500, 500),
        class_name="android.widget.LinearLayout",
        children=[TextView(Rect(0, 0, 500, 100), "kept", 30, (0, 0, 0))],
    )
    full = ET.fromstring(dump(_frame(inner)))
    small = ET.fromstring(dump(_frame(inner), compressed=True))
    assert len(list(full.iter("node"))) == 3
    assert [n.get("text") for n in small.iter("node")] == ["", "kept"]


def test_every_clickable_node_center_hits_that_node(tmp_path: Path) -> None:
    """The property that matters to agents: tapping the centre of an XML node reaches that node."""
    phone = _os(tmp_path)
    for activity in (None, "com.android.settings.Settings$DisplaySettingsActivity"):
        phone.start_activity("com.android.settings", activity)
        tree = ET.fromstring(phone.dump_hierarchy())
        clickable = [n for n in tree.iter("node") if n.get("clickable") == "true"]
        assert len(clickable) >= 5
        frame = phone.frame()
        for node in clickable:
            nums = [int(v) for v in re.findall(r"-?\d+", node.get("bounds", ""))]
            cx, cy = (nums[0] + nums[2]) // 2, (nums[1] + nums[3]) // 2
            hit = frame.hit(cx, cy)
            assert hit is not None, node.attrib
            visible = hit.bounds.intersect(SCREEN)
            assert (hit.text, hit.desc) == (node.get("text"), node.get("content-desc"))
            assert visible.contains(cx, cy)


def test_text_helpers() -> None:
    assert ellipsize("short", 40, 1000) == "short"
    cut = ellipsize("a very long line of text that cannot fit", 40, 300)
    assert cut.endswith("…") and text_width(cut, 40) <= 300
    lines = wrap("Automatically adjust screen brightness to your environment", 40, 500)
    assert len(lines) >= 2 and all(text_width(line, 40) <= 500 for line in lines)
    zh = wrap("根据环境自动调节屏幕亮度根据环境自动调节屏幕亮度", 40, 300)
    assert len(zh) >= 2


def test_icons_render_and_cache() -> None:
    a = render_icon("wifi", 48, (10, 20, 30))
    assert a.size == (48, 48) and a.mode == "RGBA"
    assert render_icon("wifi", 48, (10, 20, 30)) is a
    assert a.getbbox() is not None  # something was drawn


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_screens_fill_the_configured_size(tmp_path: Path, locale: str) -> None:
    phone = PhoneOS(
        PhoneConfig(width=720, height=1600, density=320, locale=locale),  # type: ignore[arg-type]
        VirtualFS(tmp_path / "fs"),
    )
    phone.start_activity("com.android.settings")
    assert phone.screenshot().size == (720, 1600)
    root = ET.fromstring(phone.dump_hierarchy())
    assert root[0].get("bounds") == "[0,64][720,1504]"  # app window between 32dp status and 48dp nav bars


def test_a_text_with_a_line_break_measures_as_its_widest_line() -> None:
    """FreeType's raqm layout fails on a newline; text typed with one must still lay out (screencap)."""
    from spa_bench.phone.ui.fonts import ellipsize, text_width

    assert text_width("ab\ncdefgh", 40) == text_width("cdefgh", 40) > text_width("ab", 40)
    assert ellipsize("one\ntwo", 40, 10_000) == "one\ntwo"


@pytest.mark.parametrize(("text", "size", "bold", "anchor"), [
    ("Network & internet", 42, False, "lm"), ("设置", 48, True, "mm"), ("9:41", 36, True, "rm"),
    ("Wi‑Fi 已连接 · 5 GHz", 30, False, "la"), ("x", 12, False, "ls"), ("…ellipsized", 31, True, "ma")])
def test_cached_text_draws_the_pixels_pillow_draws(text: str, size: int, bold: bool, anchor: str) -> None:
    """Canvas.text caches glyph masks; what it draws must be what ImageDraw.text draws, pixel for pixel,
    at whole and fractional points, in any colour, on a sub-canvas too, and twice (from the cache)."""
    from PIL import Image, ImageDraw

    from spa_bench.phone.ui import fonts
    from spa_bench.phone.ui.canvas import Canvas

    for colour in [(0, 0, 0), (26, 115, 232), (255, 255, 255)]:
        for x, y in [(100, 60), (100.5, 60.25), (333.75, 71.5)]:
            ours, theirs = Image.new("RGB", (600, 140), (240, 240, 240)), Image.new("RGB", (600, 140),
                                                                                     (240, 240, 240))
            canvas = Canvas(ours, origin=(10, 5))
            for _ in range(2):
                canvas.text(x + 10, y + 5, text, size, colour, anchor, bold)  # type: ignore[arg-type]
            for _ in range(2):
                ImageDraw.Draw(theirs).text((x, y), text, font=fonts.font(size), fill=colour, anchor=anchor,
                                            stroke_width=1 if bold and size >= 30 else 0, stroke_fill=colour)
            assert ours.tobytes() == theirs.tobytes(), (colour, x, y)
