"""The shell on the real PhoneOS (in process), and through the real adb server (C's fixtures)."""

from __future__ import annotations

import re
import sqlite3
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from adbutils._utils import list2cmdline
from adbutils.shell import ShellExtension

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

SETTINGS = ("com.android.settings", "com.android.settings.Settings")
LAUNCHER = ("com.google.android.apps.nexuslauncher",
            "com.google.android.apps.nexuslauncher.NexusLauncherActivity")
SETTINGS_DB = "/data/data/com.android.providers.settings/databases/settings.db"


@pytest.fixture
def system(tmp_path: Path) -> Iterator[PhoneOS]:
    os_ = PhoneOS(PhoneConfig(data_dir=tmp_path), VirtualFS(tmp_path / "fs"))
    os_.adb_root = True  # these tests read app databases, which needs `adb root` on an emulator image
    try:
        yield os_
    finally:
        os_.close()


@pytest.fixture
def sh(system: PhoneOS) -> Shell:
    return Shell(system)


class AdbutilsView(ShellExtension):  # type: ignore[misc]
    def __init__(self, shell: Shell) -> None:
        self._shell = shell

    def shell(self, cmd: Any, *args: Any, **kwargs: Any) -> str:
        line = list2cmdline(cmd) if isinstance(cmd, list | tuple) else cmd
        return self._shell.run(line).stdout.decode().rstrip()

    @property
    def sync(self) -> Any:
        raise NotImplementedError


def out(sh: Shell, line: str) -> str:
    r = sh.run(line)
    assert r.exit_code == 0, (line, r)
    return r.stdout.decode()


def center_of(xml: str, label: str) -> tuple[int, int]:
    m = re.search(r'text="' + re.escape(label) + r'"[^>]*?bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
    assert m is not None, label
    left, top, right, bottom = map(int, m.groups())
    return (left + right) // 2, (top + bottom) // 2


def test_tap_from_a_dump_opens_the_app(sh: Shell, system: PhoneOS) -> None:
    view = AdbutilsView(sh)
    assert (view.app_current().package, view.app_current().activity) == LAUNCHER
    x, y = center_of(out(sh, "uiautomator dump /dev/tty"), "Settings")
    out(sh, f"input tap {x} {y}")
    assert system.current_focus() == SETTINGS
    assert (view.app_current().package, view.app_current().activity) == SETTINGS
    out(sh, "input keyevent KEYCODE_HOME")
    assert system.current_focus() == LAUNCHER


def test_am_monkey_and_errors_on_the_real_os(sh: Shell, system: PhoneOS) -> None:
    assert out(sh, "am start -n com.android.settings/.Settings") == \
        "Starting: Intent { cmp=com.android.settings/.Settings }\n"
    assert system.current_focus() == SETTINGS
    out(sh, "am force-stop com.android.settings")
    assert system.current_focus() == LAUNCHER
    r = sh.run("am start -n com.android.settings/.NoSuchActivity")
    assert r.exit_code == 255 and b"Error type 3" in r.stderr
    launch = "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1"
    assert "Events injected: 1" in out(sh, launch)
    assert system.current_focus() == SETTINGS


def test_settings_state_is_real_sqlite(sh: Shell, system: PhoneOS) -> None:
    out(sh, "settings put global wifi_on 0")
    assert system.settings_get("global", "wifi_on") == "0"
    assert out(sh, f"sqlite3 {SETTINGS_DB} \"select value from global where name='wifi_on'\"") == "0\n"
    query = "content query --uri content://settings/global --projection name:value --where \"name='wifi_on'\""
    rows = out(sh, query)
    assert rows == "Row: 0 name=wifi_on, value=0\n"
    out(sh, "svc wifi enable")
    assert out(sh, "settings get global wifi_on") == "1\n"
    out(sh, "settings put secure spa_test_key v")
    assert out(sh, "settings delete secure spa_test_key") == "Deleted 1 rows\n"
    assert out(sh, "settings get secure spa_test_key") == "null\n"
    host = system.fs.host_path(SETTINGS_DB)
    with sqlite3.connect(host) as conn:
        assert conn.execute("select value from global where name='wifi_on'").fetchone() == ("1",)
    conn.close()


def test_locale_switch_by_setprop(sh: Shell) -> None:
    out(sh, "setprop persist.sys.locale zh-CN")
    assert out(sh, "getprop persist.sys.locale") == "zh-CN\n"
    assert "设置" in out(sh, "uiautomator dump /dev/tty")
    out(sh, "setprop persist.sys.locale en-US")
    assert 'text="Settings"' in out(sh, "uiautomator dump /dev/tty")


def test_screencap_matches_the_os(sh: Shell, system: PhoneOS) -> None:
    assert sh.run("screencap -p").stdout == system.screenshot_png()
    raw = sh.run("screencap").stdout
    assert struct.unpack("<IIII", raw[:16]) == (1080, 2400, 1, 1)
    assert len(raw) == 16 + 1080 * 2400 * 4


def test_packages_and_imes_on_the_real_os(sh: Shell) -> None:
    view = AdbutilsView(sh)
    packages = view.list_packages()
    assert {"com.android.settings", "com.android.adbkeyboard", LAUNCHER[0]} <= set(packages)
    assert out(sh, "pm clear com.android.settings") == "Success\n"
    assert "com.android.adbkeyboard/.AdbIME" in out(sh, "ime list -s -a").split()
    assert "mInputShown=false" in out(sh, "dumpsys input_method")
    assert view.rotation() == 0 and tuple(view.window_size()) == (1080, 2400)


def test_adb_input_text_broadcast(sh: Shell, system: PhoneOS) -> None:
    text = out(sh, "am broadcast -a ADB_INPUT_TEXT --es msg hello")
    assert text.endswith("Broadcast completed: result=0\n")


# -- through the real adb server ------------------------------------------------------------------

def test_through_real_adb(running_phone: Any) -> None:
    running_phone.reset()
    adb = running_phone.adb
    serial = running_phone.serial
    r = adb.run("-s", serial, "shell", "echo out; echo err >&2; exit 3", check=False)
    assert (r.stdout, r.stderr, r.returncode) == (b"out\n", b"err\n", 3)
    r = adb.run("-s", serial, "shell", "nosuchcommand", check=False)
    assert r.returncode == 127 and b"/system/bin/sh: nosuchcommand: not found" in r.stderr
    png = adb.run("-s", serial, "exec-out", "screencap", "-p").stdout
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert running_phone.shell("cd /sdcard && pwd && echo 'a  b' \"$HOME\"") == "/sdcard\na  b /\n"
    device = running_phone.device()
    assert device.shell2("ls /nope").returncode == 1
    assert device.window_size() == (1080, 2400)
