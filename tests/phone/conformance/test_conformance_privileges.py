"""Emulator-image privileges through the real adb client: the shell user cannot read other apps' data
until `adb root`, which restarts adbd as root (daemon/restart_service.cpp's words; the adb CLI waits for
the device to go and come back, adbutils reads the answer), as on the userdebug image of the Android 13
capture (`service.adb.root=1` after it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CAPTURES

from spa_bench.device.device import Device
from spa_bench.device.transport import AdbTransport

SETTINGS_DB = "/data/data/com.android.providers.settings/databases/settings.db"
pytestmark = [pytest.mark.conformance("AOSP documented formats"), pytest.mark.slow]


def test_shell_user_then_root(running_phone: object, tmp_path: Path) -> None:
    phone = running_phone  # tests/phone/conftest.py's PhoneHandle
    adb, serial = phone.adb, phone.serial  # type: ignore[attr-defined]

    def sh(line: str) -> str:  # stdout and stderr, whatever the exit code
        result = adb.run("shell", line, serial=serial, check=False)
        return (result.stdout + result.stderr).decode()

    assert sh("id -u; whoami; getprop service.adb.root") == "2000\nshell\n0\n"
    assert sh("ls /data/data") == "ls: /data/data: Permission denied\n"
    assert sh(f"cat {SETTINGS_DB}") == f"cat: {SETTINGS_DB}: Permission denied\n"
    assert sh(f"sqlite3 {SETTINGS_DB} 'select 1'") == \
        f'Error: unable to open database "{SETTINGS_DB}": unable to open database file\n'
    assert "/data/local/tmp" in sh("ls -d /data/local/tmp")
    pulled = adb.run("pull", SETTINGS_DB, str(tmp_path / "s.db"), serial=serial, check=False)
    assert pulled.returncode != 0 and b"Permission denied" in pulled.stdout + pulled.stderr

    root = adb.run("root", serial=serial)
    assert root.stdout.decode() == "restarting adbd as root\n"
    adb.run("wait-for-device", serial=serial, timeout=60)
    assert sh("id -u; whoami; getprop service.adb.root") == "0\nroot\n1\n"
    assert sh(f"sqlite3 {SETTINGS_DB} \"select value from global where name='wifi_on'\"") == "1\n"
    adb.run("pull", SETTINGS_DB, str(tmp_path / "s.db"), serial=serial)
    assert (tmp_path / "s.db").stat().st_size > 0
    assert phone.device().root() == "adbd is already running as root\n"  # type: ignore[attr-defined]

    unroot = adb.run("unroot", serial=serial)
    assert unroot.stdout.decode() == "restarting adbd as non root\n"
    adb.run("wait-for-device", serial=serial, timeout=60)
    assert sh("id -u") == "2000\n"

    device = Device(serial, transport=AdbTransport(port=adb.port))
    assert device.become_root() is True and sh("id -u") == "0\n"


def test_userdebug_reference_has_root_property() -> None:
    """The userdebug capture shows the property state `adb root` leaves behind."""
    path = CAPTURES / "shell" / "getprop" / "mtk_tb8168_android13_bugreport_getprop.txt"
    if not path.is_file():
        pytest.skip(f"REFERENCE CAPTURES MISSING: {path}")
    text = path.read_text(encoding="utf-8", errors="replace")
    assert "[ro.build.type]: [userdebug]" in text and "[service.adb.root]: [1]" in text


@pytest.mark.conformance("uiautomator2 / adbutils clients")
def test_clients_follow_rotation_and_size_overrides(running_phone: object) -> None:
    """adbutils' window_size/rotation and uiautomator2's info/window_size read the display as it is after
    AndroidWorld's change_orientation and after `wm size`."""
    import uiautomator2 as u2

    phone = running_phone
    d = phone.device()  # type: ignore[attr-defined]
    d.shell("settings put system accelerometer_rotation 0; settings put system user_rotation 1")
    try:
        assert d.rotation() == 1 and tuple(d.window_size()) == (2400, 1080)
        ud = u2.connect(d)
        assert ud.info["displayRotation"] == 1 and tuple(ud.window_size()) == (2400, 1080)
        assert ud.screenshot().size == (2400, 1080)
        ud.orientation = "natural"  # uiautomator2's setter: UiDevice.setOrientationNatural
        assert ud.orientation == "natural" and d.rotation() == 0
        ud.orientation = "right"
        assert ud.info["displayRotation"] == 3 and tuple(ud.window_size()) == (2400, 1080)
        ud.freeze_rotation(False)  # auto-rotate on: the phone lies still, back to natural
        assert d.rotation() == 0
        d.shell("settings put system user_rotation 0; wm size 720x1280")
        assert tuple(d.window_size()) == (720, 1280) and ud.screenshot().size == (720, 1280)
    finally:
        d.shell("settings put system user_rotation 0; wm size reset")
