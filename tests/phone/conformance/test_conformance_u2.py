"""uiautomator2's `dumpWindowHierarchy` next to real uiautomator2 server dumps (android-captures/
u2_hierarchy): extra attributes and their places, every window as a top-level node, indentation."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import Sh

from spa_bench.phone.system import PhoneOS
from spa_bench.phone.u2rpc.methods import U2Methods

pytestmark = pytest.mark.conformance("uiautomator2 hierarchy captures")


def real(captures: Path) -> list[tuple[str, str]]:
    files = sorted((captures / "u2_hierarchy").glob("*.xml"))
    # line ends are the saving host's (CRLF, even CR CR LF): read bytes, keep only the LF
    return [(p.name, p.read_bytes().decode("utf-8").replace("\r", "")) for p in files]


def ours(phone: PhoneOS, sh: Sh) -> list[tuple[str, str]]:
    u2 = U2Methods(phone)
    out = [("home", u2.dumpWindowHierarchy(False))]
    sh("am start -n com.android.settings/.Settings")
    search = phone.frame().find(text="Search Settings")
    assert search is not None
    sh(f"input tap {search.bounds.center[0]} {search.bounds.center[1]}")
    field = next(v for v in phone.frame().views() if v.class_name == "android.widget.EditText")
    sh(f"input tap {field.bounds.center[0]} {field.bounds.center[1]}")
    out.append(("keyboard up", u2.dumpWindowHierarchy(False)))
    return out


def full_order(dumps: list[tuple[str, str]]) -> list[str]:
    """The longest attribute list seen (captures from newer servers carry display-id)."""
    names = [list(n.attrib) for _f, xml in dumps for n in ET.fromstring(xml).iter("node")]
    return max((n[1:] if n[0] == "NAF" else n for n in names), key=len)


def test_attribute_order_with_the_u2_extras(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """visible-to-user just before bounds; drawing-order, hint, display-id after; NAF first."""
    order = full_order(real(captures))
    assert order[-5:] == ["visible-to-user", "bounds", "drawing-order", "hint", "display-id"]
    for name, xml in real(captures):
        for node in ET.fromstring(xml).iter("node"):
            names = list(node.attrib)
            names = names[1:] if names[0] == "NAF" else names
            assert names == order[: len(names)], name  # older servers stop earlier, never reorder
    for name, xml in ours(phone, sh):
        for node in ET.fromstring(xml).iter("node"):
            names = list(node.attrib)
            assert (names[1:] if names[0] == "NAF" else names) == order, name


def test_every_window_is_a_top_level_node(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Real u2 dumps list several windows (status bar, nav bar, keyboard...) side by side, each
    `index="0"`, `drawing-order="0"` on roots; so do ours, the keyboard included while typing."""
    multi = [name for name, xml in real(captures) if len(ET.fromstring(xml)) > 1]
    assert len(multi) >= 5
    for name, xml in real(captures) + ours(phone, sh):
        roots = list(ET.fromstring(xml))
        assert all(r.get("index") == "0" for r in roots), name
    typing = dict(ours(phone, sh))["keyboard up"]
    packages = {r.get("package") for r in ET.fromstring(typing)}
    assert {"com.android.settings", "com.android.systemui", "com.android.inputmethod.latin"} <= packages


def test_pretty_printed_like_the_server(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """Prolog, then `<hierarchy rotation=N>` on its own line, children indented by two spaces per level,
    `/>` closing leaves; no trailing text after `</hierarchy>`."""
    def layout(xml: str) -> tuple[bool, bool, bool]:
        lines = xml.split("\n")
        depth_ok = all((len(line) - len(line.lstrip(" "))) % 2 == 0 for line in lines)
        closed = xml.rstrip("\n").endswith("</hierarchy>")
        return lines[1].startswith("<hierarchy rotation="), depth_ok, closed

    for name, xml in real(captures):
        if "standalone='yes'" in xml.split("\n")[0]:  # the server's prolog (one capture is re-saved)
            assert layout(xml) == (True, True, True), name
    for name, xml in ours(phone, sh):
        assert xml.split("\n")[0] == "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
        assert layout(xml) == (True, True, True), name
        assert "\n  <node " in xml and "\n    <node " in xml


def test_hint_and_visible_to_user_values(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """visible-to-user is "true" on dumped nodes; an empty field's hint shows in `hint`."""
    for _name, xml in real(captures) + ours(phone, sh):
        assert {n.get("visible-to-user") for n in ET.fromstring(xml).iter("node")} <= {"true", "false"}
    typing = dict(ours(phone, sh))["keyboard up"]
    field = next(n for n in ET.fromstring(typing).iter("node") if n.get("class") == "android.widget.EditText")
    assert field.get("hint")
