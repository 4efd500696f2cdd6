"""NAF="true" node for node against real dumps: every capture (uiautomator dump and uiautomator2's
dumpWindowHierarchy) is rebuilt as a view tree with the same text, content-desc, class, clickable and
enabled, dumped by our dumper in the matching mode, and its NAF flags compared with the device's
(AOSP AccessibilityNodeInfoDumper: clickable, enabled, no text, no content-desc, no labelled descendant,
not a grid/list/table)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from spa_bench.phone.api import DumpMode
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.view import Frame, View, Window
from spa_bench.phone.ui.xmldump import dump

pytestmark = pytest.mark.conformance("uiautomator dump and u2 hierarchy captures")
SCREEN = Rect(0, 0, 100, 100)
# The one device NAF node that has a labelled child in its own file: Facebook's feed row whose first child
# reads 'Group cover photo' (the dump is not atomic: the row's children were fetched after its check).
DEVICE_ANOMALIES = {"u2_facebook_720x1560_no_displayid.xml": 1}


def rebuild(node: ET.Element) -> View:
    """The node as a view: every node gets the same non-empty bounds, so none is clipped away."""
    return View(Rect(0, 0, 10, 10), rid=node.get("resource-id", ""), text=node.get("text", ""),
                desc=node.get("content-desc", ""), clickable=node.get("clickable") == "true",
                enabled=node.get("enabled") == "true", class_name=node.get("class", ""),
                children=[rebuild(c) for c in node if c.tag == "node"])


def naf_flags(root: ET.Element) -> list[bool]:
    return [n.get("NAF") == "true" for n in root.iter("node")]


def ours(roots: list[ET.Element], mode: DumpMode) -> ET.Element:
    windows = [Window(r.get("package", "") or f"w{i}", rebuild(r)) for i, r in enumerate(roots)]
    return ET.fromstring(dump(Frame(SCREEN, windows), mode=mode).encode("utf-8"))


def tally(folder: Path, mode: DumpMode) -> tuple[int, int, int]:
    """Over every capture in `folder`: (NAF nodes on the device, device NAF nodes ours misses, nodes ours
    marks that the device did not). The last can happen: the device also saw children the file leaves out
    (not visible to the user: an item cut by the screen's edge, its title out of sight), and a label
    among them spares the node; the first cannot - the device found no label anywhere below."""
    marked = missed = extra = 0
    for path in sorted(folder.glob("*.xml")):
        real = ET.fromstring(path.read_bytes())
        real_flags = naf_flags(real)
        our_flags = naf_flags(ours([n for n in real if n.tag == "node"], mode))
        assert len(our_flags) == len(real_flags), path.name
        file_missed = 0
        for real_naf, our_naf in zip(real_flags, our_flags, strict=True):
            marked += real_naf
            file_missed += real_naf and not our_naf
            extra += our_naf and not real_naf
        missed += file_missed - DEVICE_ANOMALIES.get(path.name, 0)
    return marked, missed, extra


def test_naf_flags_match_every_uiautomator_dump(captures: Path) -> None:
    marked, missed, extra = tally(captures / "uiautomator_dump", "active")
    assert marked > 20 and missed == 0 and extra <= marked // 10, (marked, missed, extra)


def test_naf_flags_match_every_u2_hierarchy(captures: Path) -> None:
    """uiautomator2's server runs the same check on every window root it dumps."""
    marked, missed, extra = tally(captures / "u2_hierarchy", "u2")
    assert marked >= 10 and missed == 0 and extra <= marked // 3, (marked, missed, extra)


def test_naf_is_the_first_attribute_in_both_dumps() -> None:
    """An unlabelled clickable icon is NAF, written first (as in the captures); a clickable row labelled by a
    child, a disabled control and a ListView subclass are not."""
    icon = View(Rect(0, 0, 10, 10), clickable=True, class_name="android.widget.ImageView", rid="a:id/more")
    row = View(Rect(0, 10, 50, 20), clickable=True, class_name="android.widget.LinearLayout",
               children=[View(Rect(0, 10, 50, 20), text="Wi-Fi", class_name="android.widget.TextView")])
    disabled = View(Rect(0, 20, 10, 30), clickable=True, enabled=False, class_name="android.widget.ImageView")
    listing = View(Rect(0, 30, 50, 90), clickable=True, class_name="com.example.android.widget.ListView")
    root = View(SCREEN, class_name="android.widget.FrameLayout", children=[icon, row, disabled, listing])
    for mode in ("active", "u2"):
        xml = dump(Frame(SCREEN, [Window("a", root)]), mode=mode)
        nodes = list(ET.fromstring(xml.encode("utf-8")).iter("node"))
        assert [n.get("NAF") for n in nodes] == [None, "true", None, None, None, None], mode
        assert '<node NAF="true" index="0" text="" resource-id="a:id/more"' in xml, mode
