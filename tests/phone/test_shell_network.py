"""`ip` and `ifconfig` print an Android emulator's interfaces in iproute2's and toybox's formats.

The expected lines are real emulator output: `adb shell ip -4 addr show | grep 'inet '` on an API 33
sdk_gphone64 image (a public write-up on an Android security lab, found by code search) and an API 37
emulator's `ip -o -4 addr` wlan0 line (a public test fixture); the ifconfig layout is toybox's
display_ifconfig ("%-9s Link encap:%s  ", "%10c" indents, " %s:%s " address fields). adbutils'
`wlan_ip()` parses them through the real adb server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone

API33_INET_LINES = ["    inet 127.0.0.1/8 scope host lo",
                    "    inet 10.0.2.15/8 brd 10.255.255.255 scope global eth0",
                    "    inet 10.0.2.16/24 brd 10.0.2.255 scope global wlan0"]
API37_ONELINE_WLAN0 = ("wlan0    inet 10.0.2.16/24 brd 10.0.2.255 scope global wlan0\\       "
                       "valid_lft forever preferred_lft forever")
# toybox ifconfig.c display_ifconfig's printf formats
TOYBOX_IFCONFIG = {"head": "%-9s Link encap:%s  ", "indent": "%10c", "field": " %s:%s ",
                   "inet6": "%10cinet6 addr: %s/%d Scope: %s\n", "flag": "%s ", "mtu": " MTU:%d",
                   "metric": "  Metric:%d"}


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path)


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def out(sh: Shell, command: str) -> str:
    return sh.run(command).stdout.decode()


def test_ip_addr_is_an_emulators(sh: Shell, phone: FakePhone) -> None:
    assert [line for line in out(sh, "ip -4 addr show").splitlines() if "inet " in line] == API33_INET_LINES
    oneline = out(sh, "ip -o -4 addr").splitlines()
    assert oneline[-1].split(": ", 1)[1] == API37_ONELINE_WLAN0
    wlan = out(sh, "ip -4 addr show wlan0").splitlines()
    assert wlan[0].startswith("3: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 ")
    assert wlan[1:] == [API33_INET_LINES[2], "       valid_lft forever preferred_lft forever"]
    full = out(sh, "ip addr show dev wlan0")
    assert "    link/ether 02:15:b2:00:00:00 brd ff:ff:ff:ff:ff:ff\n" in full
    assert "    inet6 fe80::15:b2ff:fe00:0/64 scope link" in full  # EUI-64 of the MAC
    assert out(sh, "ip route") == ("10.0.0.0/8 dev eth0 proto kernel scope link src 10.0.2.15 \n"
                                   "10.0.2.0/24 dev wlan0 proto kernel scope link src 10.0.2.16 \n")
    assert sh.run("ip addr show nosuch").stderr == b'Device "nosuch" does not exist.\n'
    assert sh.run("ip link set wlan0 down").stderr == b"RTNETLINK answers: Operation not permitted\n"


def test_ifconfig_is_toybox(sh: Shell) -> None:
    f = TOYBOX_IFCONFIG
    text = out(sh, "ifconfig wlan0")
    expected = (f["head"] % ("wlan0", "Ethernet") + "HWaddr 02:15:b2:00:00:00\n"
                + f["indent"] % " " + "inet" + "".join(f["field"] % kv for kv in (
                    ("addr", "10.0.2.16"), ("Bcast", "10.0.2.255"), ("Mask", "255.255.255.0"))) + "\n"
                + f["inet6"] % (" ", "fe80::15:b2ff:fe00:0", 64, "Link")
                + f["indent"] % " " + "".join(f["flag"] % n for n in ("UP", "BROADCAST", "RUNNING",
                                                                     "MULTICAST"))
                + f["mtu"] % 1500 + f["metric"] % 1 + "\n")
    assert text.startswith(expected)
    assert text.endswith("RX bytes:0 TX bytes:0 \n\n")
    assert out(sh, "ifconfig").startswith(f["head"] % ("lo", "Local Loopback") + "\n")
    assert sh.run("ifconfig wlan9").stderr == b"ifconfig: wlan9: No such device\n"


def test_interfaces_follow_wifi_and_airplane_mode(sh: Shell, phone: FakePhone) -> None:
    phone.settings["global"]["wifi_on"] = "0"
    assert "inet " not in out(sh, "ip -4 addr show wlan0")
    assert "wlan0" not in out(sh, "ifconfig")  # ifconfig lists interfaces that are up
    assert "inet addr" not in out(sh, "ifconfig wlan0") and "UP" not in out(sh, "ifconfig wlan0")
    assert "state DOWN" in out(sh, "ip link show wlan0")
    phone.settings["global"]["airplane_mode_on"] = "1"
    assert out(sh, "ip route") == ""


def test_adbutils_wlan_ip(running_phone) -> None:  # type: ignore[no-untyped-def]
    d = running_phone.device()
    d.switch_wifi(True)
    assert d.wlan_ip() == "10.0.2.16"
