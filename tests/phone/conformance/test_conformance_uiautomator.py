"""`uiautomator dump` next to real dumps (android-captures/uiautomator_dump, 40 devices and Android
versions) and AOSP's AccessibilityNodeInfoDumper: serialisation, attribute set and order, which windows a
dump holds, bounds, NAF, index."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Sh
from reference_parsers import AndroidElement, appagent_traverse_tree

from spa_bench.phone.system import PhoneOS

PROLOG = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
BOUNDS = re.compile(r"^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$")
VENDOR_EXTRAS = {"xpos", "drawing-order", "hint"}  # Huawei's xpos; newer dumpers' drawing-order, hint
NAF_EXCLUDED = ("GridView", "GridLayout", "ListView", "TableLayout")
pytestmark = pytest.mark.conformance("uiautomator dump captures")


def real_dumps(captures: Path) -> list[tuple[str, str]]:
    files = sorted((captures / "uiautomator_dump").glob("*.xml"))
    return [(p.name, p.read_text(encoding="utf-8")) for p in files]


def our_screens(phone: PhoneOS, sh: Sh) -> Iterator[tuple[str, str]]:
    """Dumps of screens that exercise the dumper: home, a list app, a scrolled list, the keyboard up,
    a dialog-free settings page, recents."""
    sh("input keyevent KEYCODE_HOME")
    yield "home", dump(sh)
    sh("am start -n com.android.settings/.Settings")
    yield "settings", dump(sh)
    sh("input swipe 540 1800 540 600 300")
    yield "settings scrolled", dump(sh)
    sh("am start -n com.android.contacts/.activities.PeopleActivity")
    yield "contacts", dump(sh)
    sh("am start -n com.spa.chat/.MainActivity")
    yield "chat", dump(sh)
    # a product page is not exported (the shell's am start is refused, as on a phone): open it in-process
    phone.start_activity("com.spa.shop", "com.spa.shop.ProductActivity", {"sku": "PH-PB20"})
    yield "shop product", dump(sh)
    type_into_search(phone, sh)
    yield "keyboard up", dump(sh)
    sh("input keyevent KEYCODE_APP_SWITCH")
    yield "recents", dump(sh)


def type_into_search(phone: PhoneOS, sh: Sh) -> None:
    """Open Settings' search and tap its field, so the keyboard comes up."""
    sh("am force-stop com.android.settings")  # start on the homepage, not where Settings was left
    sh("am start -n com.android.settings/.Settings")
    search = phone.frame().find(text="Search Settings")
    assert search is not None
    sh(f"input tap {search.bounds.center[0]} {search.bounds.center[1]}")
    field = next(v for v in phone.frame().views() if v.class_name == "android.widget.EditText")
    sh(f"input tap {field.bounds.center[0]} {field.bounds.center[1]}")
    assert phone.keyboard_shown()


def dump(sh: Sh) -> str:
    out = sh("uiautomator dump /dev/tty")
    assert out.endswith("UI hierchary dumped to: /dev/tty\n")
    return out[: -len("UI hierchary dumped to: /dev/tty\n")]


def attribute_names(xml: str) -> list[list[str]]:
    """Attribute names of every node, in document order (ElementTree keeps the written order)."""
    return [list(n.attrib) for n in ET.fromstring(xml).iter("node")]


def has_label(node: ET.Element) -> bool:
    return any(bool(c.get("text") or c.get("content-desc")) or has_label(c) for c in node)


def naf_rule(node: ET.Element) -> bool:
    """AccessibilityNodeInfoDumper: clickable, enabled, no text, no content-desc, no labelled descendant."""
    return (node.get("clickable") == "true" and node.get("enabled") == "true" and not node.get("text")
            and not node.get("content-desc") and not has_label(node)
            and not node.get("class", "").endswith(NAF_EXCLUDED))


def clipped_by_a_list(node: ET.Element, parents: dict[ET.Element, ET.Element]) -> bool:
    top, bottom = node.get("bounds", "").split("][")[0].split(",")[1], node.get("bounds", "").split(",")[-1]
    up = parents.get(node)
    while up is not None and up.tag == "node":
        if up.get("scrollable") == "true":
            b = up.get("bounds", "")
            return b.split("][")[0].split(",")[1] == top or b.split(",")[-1] == bottom
        up = parents.get(up)
    return False


def test_serialisation_matches_the_device_serializer(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Prolog, one line, no trailing newline, `" />` self-closing, `<hierarchy rotation=N>` only."""
    def shape(xml: str) -> tuple[bool, bool, bool, bool, tuple[str, ...]]:
        root = ET.fromstring(xml)
        return (xml.startswith(PROLOG + "<hierarchy "), "\n" not in xml, xml.endswith("</hierarchy>"),
                '" />' in xml, tuple(sorted(root.attrib)))

    real = {shape(xml) for _name, xml in real_dumps(captures)}
    assert real == {(True, True, True, True, ("rotation",))}
    for name, xml in our_screens(phone, sh):
        assert shape(xml) in real, name


def test_attribute_set_and_order(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """The attribute list of every real node (vendor extras aside, NAF aside) is one and the same; ours
    is that list, NAF first when present."""
    orders = set()
    for _name, xml in real_dumps(captures):
        for names in attribute_names(xml):
            if names[0] == "NAF":
                names = names[1:]
            assert "NAF" not in names  # NAF is only ever first
            orders.add(tuple(n for n in names if n not in VENDOR_EXTRAS))
    assert len(orders) == 1
    aosp = list(next(iter(orders)))
    assert len(aosp) == 17
    for screen, xml in our_screens(phone, sh):
        for names in attribute_names(xml):
            assert (names[1:] if names[0] == "NAF" else names) == aosp, screen


def test_a_dump_holds_only_the_active_window(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Every real dump has exactly one top-level node (the active window); with the keyboard up only the
    app's window is there (the API 34 emulator capture), never the status bar, nav bar or IME."""
    for name, xml in real_dumps(captures):
        assert len(ET.fromstring(xml)) == 1, name
    ime_capture = (captures / "uiautomator_dump" / "app_with_ime_open_resized_1080x2225.xml").read_text()
    assert {n.get("package") for n in ET.fromstring(ime_capture).iter("node")} == {
        ET.fromstring(ime_capture)[0].get("package")}
    system_packages = {"com.android.systemui", "com.android.inputmethod.latin", "com.android.adbkeyboard"}
    for screen, xml in our_screens(phone, sh):
        root = ET.fromstring(xml)
        assert len(root) == 1, screen
        assert not {n.get("package") for n in root.iter("node")} & system_packages, screen


def test_windows_option_lists_every_window(phone: PhoneOS, sh: Sh) -> None:
    """`uiautomator dump --windows`: AOSP's dumpWindowsToFile layout, `<displays><display id>` then a
    `<window>` per window with its own `<hierarchy>`; the IME and system bars are there."""
    type_into_search(phone, sh)
    sh("uiautomator dump --windows /sdcard/w.xml")
    root = ET.fromstring(sh("cat /sdcard/w.xml"))
    assert root.tag == "displays" and [d.tag for d in root] == ["display"]
    windows = list(root[0])
    assert all(list(w.attrib) == ["index", "title", "bounds", "active", "focused", "accessibility-focused",
                                  "id", "layer", "type"] for w in windows)
    types = {w.get("type") for w in windows}
    assert {"TYPE_APPLICATION", "TYPE_INPUT_METHOD", "TYPE_SYSTEM"} <= types
    assert [w.get("active") for w in windows].count("true") == 1
    assert all(w[0].tag == "hierarchy" and len(w[0]) == 1 for w in windows)


def test_bounds_format_and_screen_extent(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    for name, xml in [*real_dumps(captures), *our_screens(phone, sh)]:
        for node in ET.fromstring(xml).iter("node"):
            m = BOUNDS.match(node.get("bounds", ""))
            assert m, (name, node.get("bounds"))
            left, top, right, bottom = map(int, m.groups())
            assert left <= right and top <= bottom, name


def test_naf_where_the_dumper_sets_it(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Every NAF node meets AOSP's rule; most rule-meeting nodes carry it (the dumper also sees children
    that are out of sight, which the file does not show, e.g. a row cut by the screen edge). The same
    holds for the phone, whose apps have such unlabelled controls."""
    def tally(dumps: list[tuple[str, str]]) -> tuple[int, int, int]:
        marked = meeting = both = 0
        for name, xml in dumps:
            for node in ET.fromstring(xml).iter("node"):
                rule, naf = naf_rule(node), node.get("NAF") == "true"
                assert rule or not naf, (name, node.attrib)
                marked += naf
                meeting += rule
                both += rule and naf
        return marked, meeting, both

    marked, meeting, both = tally(real_dumps(captures))
    assert marked > 20 and both / meeting > 0.9
    ours = list(our_screens(phone, sh))
    marked, meeting, both = tally(ours)
    assert marked >= 4
    for name, xml in ours:  # the exceptions are rows cut by their list's edge, their labels out of sight
        root = ET.fromstring(xml)
        parents = {c: p for p in root.iter() for c in p}
        for node in root.iter("node"):
            if naf_rule(node) and node.get("NAF") != "true":
                assert clipped_by_a_list(node, parents), (name, node.attrib)


def test_index_counts_every_child(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """`index` is the position among all children, invisible ones too: indexes only ever increase, and
    layouts with hidden children show gaps; a RecyclerView holds only its attached rows, so its children
    count from 0 (28 of 29 real ones), also after scrolling."""
    def parents(xml: str) -> list[tuple[str, list[int]]]:
        return [(n.get("class", ""), [int(c.get("index", "-1")) for c in n])
                for n in ET.fromstring(xml).iter("node") if len(n)]

    gaps = recyclers = contiguous_recyclers = 0
    for _name, xml in real_dumps(captures):
        for cls, idx in parents(xml):
            assert idx == sorted(set(idx)) and all(i >= 0 for i in idx)
            gaps += idx != list(range(len(idx)))
            if cls.endswith("RecyclerView"):
                recyclers += 1
                contiguous_recyclers += idx == list(range(len(idx)))
    assert gaps > 50 and contiguous_recyclers / recyclers > 0.9
    scrolled = False
    for screen, xml in our_screens(phone, sh):
        for cls, idx in parents(xml):
            assert idx == sorted(set(idx)), screen
            if cls.endswith("RecyclerView"):
                assert idx == list(range(len(idx))), screen
        scrolled |= screen == "settings scrolled"
    assert scrolled
    assert "Network & internet" not in dict(our_screens(phone, sh))["settings scrolled"]  # rows did go


def test_escaping_follows_the_serializer(captures: Path, phone: PhoneOS) -> None:
    """A value with `"` is single-quoted and never uses &quot; (18 real files); newline is &#10;."""
    quoted = [xml for _n, xml in real_dumps(captures) if "='" in xml]
    assert quoted and not any("&quot;" in xml for _n, xml in real_dumps(captures))
    from spa_bench.phone.ui import Frame, Rect, TextView, View, Window
    from spa_bench.phone.ui import dump as xml_dump

    label = TextView(Rect(0, 0, 100, 50), 'Say "Ok Google"\n5\' 2"', 30, (0, 0, 0))
    frame = Frame(Rect(0, 0, 100, 100), [Window("com.example", View(Rect(0, 0, 100, 100), children=[label]))])
    xml = xml_dump(frame)
    assert "text='Say \"Ok Google\"&#10;5&apos; 2\"'" in xml and "&quot;" not in xml
    assert ET.fromstring(xml).find(".//node[@class='android.widget.TextView']").get("text") == \
        'Say "Ok Google"\n5\' 2"'


def test_console_line_and_tty(captures: Path, sh: Sh) -> None:
    """`UI hierchary dumped to: FILE` (sic); with /dev/tty the line follows `</hierarchy>` directly."""
    console = captures / "shell" / "uiautomator_console"
    real_tty = (console / "clarithromycine_uiautomator_dump_dev_tty_stdout.txt").read_text(encoding="utf-8")
    real_line = (console / "soapgu_playpen153_2022_uiautomator_dump.txt").read_text(encoding="utf-8")
    assert "</hierarchy>UI hierchary dumped to: /dev/tty" in real_tty
    ours_tty = sh("uiautomator dump /dev/tty")
    assert "</hierarchy>UI hierchary dumped to: /dev/tty" in ours_tty
    ours_line = sh("uiautomator dump")
    assert ours_line.strip() in real_line


@pytest.mark.conformance("AppAgent and_controller.py")
def test_appagent_element_list_with_the_keyboard_up(phone: PhoneOS, sh: Sh, tmp_path: Path) -> None:
    """AppAgent's traverse_tree over a dump taken while typing: only the app's own elements (no keys,
    no Back/Home), as on a phone, and none of them lies under the keyboard."""
    type_into_search(phone, sh)
    sh("uiautomator dump /sdcard/window_dump.xml")
    path = tmp_path / "window_dump.xml"
    path.write_text(sh("cat /sdcard/window_dump.xml"), encoding="utf-8")
    clickable: list[AndroidElement] = []
    focusable: list[AndroidElement] = []
    appagent_traverse_tree(path, clickable, "clickable", True)
    appagent_traverse_tree(path, focusable, "focusable", True)
    elements = clickable + focusable
    assert elements
    assert not any(".inputmethod." in e.uid or "systemui" in e.uid or "Back" in e.uid for e in elements)
    ime = next(w for w in phone.frame().windows if w.name == "InputMethod")
    keyboard_top = ime.root.bounds.top
    assert all(e.bbox[1][1] <= keyboard_top for e in elements)


def dialog_root(root: ET.Element) -> bool:
    """A FrameLayout the dialog's size: not anchored at the screen's corner."""
    bounds = root.get("bounds", "")
    return root.get("class") == "android.widget.FrameLayout" and not bounds.startswith("[0,0]")


def test_a_dialog_is_its_own_window(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Real dialog dumps hold only the dialog's window: a FrameLayout root the dialog's size, far from the
    screen's corner, holding android:id/content then the panel (Gmail, Settings, Google Maps captures).
    A dialog on the phone dumps the same way; `--windows` lists it above its activity's window."""
    def roots(xml: str) -> list[ET.Element]:
        return list(ET.fromstring(xml))

    for name in ("gmail_alert_dialog_en_1080.xml", "settings_usb_alert_dialog_vi_720.xml",
                 "google_maps_dialog_llamatouch_1080.xml"):
        (root,) = roots((captures / "uiautomator_dump" / name).read_text(encoding="utf-8"))
        assert dialog_root(root), name
        assert any(n.get("resource-id") == "android:id/content" for n in root.iter("node")), name
    sh("am start -n com.android.documentsui/.files.FilesActivity")
    phone.tasks.top().ui["dialog"] = "new_folder"  # the overflow menu's "New folder"
    phone.invalidate()
    (root,) = roots(dump(sh))
    assert dialog_root(root)
    assert [c.get("resource-id") for c in root] == ["android:id/content"]
    ids = {n.get("resource-id") for n in root.iter("node")}
    assert {"android:id/button1", "android:id/text1"} <= ids
    assert not any("documentsui:id" in i for i in ids)  # nothing of the activity behind it
    sh("uiautomator dump --windows /sdcard/w.xml")
    windows = list(ET.fromstring(sh("cat /sdcard/w.xml")).iter("window"))
    apps = [w for w in windows if w.get("type") == "TYPE_APPLICATION"]
    assert [w.get("active") for w in apps] == ["true", "false"]  # the dialog above its activity
