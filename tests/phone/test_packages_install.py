"""Installing a real APK on the virtual phone, through the real adb binary and adbutils.

The APK is uiautomator2's own app-uiautomator.apk (package com.github.uiautomator, versionName 2.4.0,
label ATX, launcher com.github.uiautomator.MainActivity, an AdbKeyboard input-method service), shipped
in the uiautomator2 wheel. Messages are AOSP's PackageManagerShellCommand ones: `Success`,
`Failure [not installed for 0]`, `Failure [STATUS: message]`, and `Error: Unable to open file: ...`.
"""

from __future__ import annotations

import importlib.resources
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import PhoneHandle


PACKAGE = "com.github.uiautomator"
MAIN = "com.github.uiautomator.MainActivity"


def u2_apk() -> Path:
    return Path(str(importlib.resources.files("uiautomator2") / "assets" / "app-uiautomator.apk"))


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


def test_adb_install_registers_the_manifest_and_uninstall_removes_it(phone: PhoneHandle) -> None:
    assert f"package:{PACKAGE}" not in phone.shell("pm list packages")
    out = phone.adb.text("install", "-r", "-t", "-g", str(u2_apk()), serial=phone.serial)
    assert out.strip().splitlines()[-1] == "Success"
    assert f"package:{PACKAGE}\n" in phone.shell("pm list packages -3")
    path = phone.shell(f"pm path {PACKAGE}").strip()
    assert re.fullmatch(rf"package:/data/app/~~[\w-]{{22}}==/{PACKAGE}-[\w-]{{22}}==/base\.apk", path), path
    assert f"package:{path[len('package:'):]}={PACKAGE}" in phone.shell("pm list packages -f -3")
    # adb push left nothing behind: adb removes its staging copy after pm install
    assert "app-uiautomator.apk" not in phone.shell("ls /data/local/tmp")

    dump = phone.shell(f"dumpsys package {PACKAGE}")
    assert "versionName=2.4.0" in dump and "versionCode=2004001 minSdk=19 targetSdk=32" in dump
    # the resolver tables in IntentResolver.dump's layout, from the manifest's filters
    activities = dump[dump.index("Activity Resolver Table:\n  Non-Data Actions:\n"):dump.index("Receiver")]
    assert re.search(r"\n      android.intent.action.MAIN:\n        [0-9a-f]{7} com.github.uiautomator/"
                     r"\.MainActivity filter [0-9a-f]{7}\n          Action: \"android.intent.action.MAIN\"\n"
                     r"          Action: \"android.intent.action.VIEW\"\n"
                     r"          Category: \"android.intent.category.LAUNCHER\"\n", activities), activities
    services = dump[dump.index("Service Resolver Table:"):dump.index("Packages:")]
    assert "mPriority=10000, mOrder=0" in services and "com.github.uiautomator/.AdbKeyboard" in services

    started = phone.shell(f"am start -n {PACKAGE}/.MainActivity")
    assert started == f"Starting: Intent {{ cmp={PACKAGE}/.MainActivity }}\n"
    assert "mCurrentFocus=Window{" in (focus := phone.shell("dumpsys window windows")) and MAIN in focus
    assert 'text="ATX"' in phone.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")

    phone.shell("input keyevent HOME")
    assert "Events injected: 1" in phone.shell(f"monkey -p {PACKAGE} -c android.intent.category.LAUNCHER 1")

    assert phone.adb.text("uninstall", PACKAGE, serial=phone.serial).strip() == "Success"
    assert f"package:{PACKAGE}" not in phone.shell("pm list packages")
    again = phone.adb.run("shell", f"pm uninstall {PACKAGE}", serial=phone.serial, check=False)
    assert (again.returncode, again.stdout) == (1, b"Failure [not installed for 0]\n")
    gone = phone.adb.run("shell", f"am start -n {PACKAGE}/.MainActivity", serial=phone.serial, check=False)
    assert gone.stderr.decode().startswith("Error type 3\n")


def test_adbutils_install_app_info_and_list_packages(phone: PhoneHandle) -> None:
    d = phone.device()
    d.install(str(u2_apk()), nolaunch=True, silent=True)
    assert PACKAGE in d.list_packages()
    info = d.app_info(PACKAGE)
    assert info is not None and info.version_name == "2.4.0" and info.version_code == 2004001
    assert info.package_name == PACKAGE
    d.uninstall(PACKAGE)
    assert PACKAGE not in d.list_packages() and d.app_info(PACKAGE) is None


def test_pm_install_failures_are_aosps(phone: PhoneHandle) -> None:
    # not a file the system server can open (AOSP's ShellCommand.openFileForSystem lines, on stderr)
    proc = phone.adb.run("shell", "pm install /data/local/tmp/none.apk", serial=phone.serial, check=False)
    err = proc.stderr.decode() + proc.stdout.decode()
    assert "Error: Unable to open file: /data/local/tmp/none.apk\n" in err
    assert "Consider using a file under /data/local/tmp/\n" in err
    assert "java.lang.IllegalArgumentException: Error: Can't open file: /data/local/tmp/none.apk" in err
    # not an APK at all
    phone.shell("echo hello > /data/local/tmp/bad.apk")
    out = phone.adb.run("shell", "pm install /data/local/tmp/bad.apk", serial=phone.serial,
                        check=False).stdout.decode()
    session = r"/data/app/vmdl\d+\.tmp/base\.apk"
    assert re.fullmatch(rf"Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed to parse {session}: "
                        rf"Failed to load asset path {session}\]\n", out), out
    # a system app cannot be uninstalled
    system = phone.adb.run("shell", "pm uninstall com.android.settings", serial=phone.serial, check=False)
    assert system.stdout == b"Failure [DELETE_FAILED_INTERNAL_ERROR]\n"


def test_streamed_install_reads_the_apk_from_stdin(phone: PhoneHandle) -> None:
    data = u2_apk().read_bytes()
    proc = phone.adb.run("shell", f"cmd package install -S {len(data)}", serial=phone.serial, input=data)
    assert proc.stdout.decode().strip() == "Success"
    assert f"package:{PACKAGE}\n" in phone.shell("pm list packages -3")


def test_an_install_is_kept_by_snapshots(phone: PhoneHandle) -> None:
    phone.adb.text("install", str(u2_apk()), serial=phone.serial)
    phone.phone.snapshots.save("with-apk")
    phone.reset()
    assert f"package:{PACKAGE}" not in phone.shell("pm list packages")
    phone.phone.snapshots.load("with-apk")
    assert f"package:{PACKAGE}\n" in phone.shell("pm list packages")
    assert "Starting:" in phone.shell(f"am start -n {PACKAGE}/{MAIN}")


def test_camera2s_launcher_alias_starts_its_target(phone: PhoneHandle) -> None:
    out = phone.shell("am start -n com.android.camera2/com.android.camera.CameraLauncher")
    assert out == "Starting: Intent { cmp=com.android.camera2/com.android.camera.CameraLauncher }\n"
    assert "com.android.camera2/com.android.camera.CameraActivity" in phone.shell("dumpsys window windows")


def test_an_installed_input_method_can_be_selected_until_uninstalled(phone: PhoneHandle) -> None:
    ime = f"{PACKAGE}/.AdbKeyboard"  # the id uiautomator2's set_input_ime looks for in `ime list -s -a`
    phone.adb.text("install", str(u2_apk()), serial=phone.serial)
    assert ime in phone.shell("ime list -s -a").splitlines()
    assert phone.shell(f"ime enable {ime}") == f"Input method {ime}: now enabled\n"
    assert phone.shell(f"ime set {ime}") == f"Input method {ime} selected for user #0\n"
    assert phone.shell("settings get secure default_input_method").strip() == ime
    phone.adb.text("uninstall", PACKAGE, serial=phone.serial)
    assert ime not in phone.shell("ime list -s -a")
    assert phone.shell("settings get secure default_input_method").strip() == \
        "com.android.inputmethod.latin/.LatinIME"


def test_uiautomator2s_keyboard_types_through_its_broadcasts_once_selected(phone: PhoneHandle) -> None:
    import base64

    ime = f"{PACKAGE}/.AdbKeyboard"
    text = base64.b64encode("你好 u2".encode()).decode()
    phone.shell("am start -n com.android.settings/.search.SearchActivity")
    # not installed: nobody receives the broadcast
    assert phone.shell(f"am broadcast -a ADB_KEYBOARD_INPUT_TEXT --es text {text}").endswith(
        "Broadcast completed: result=0\n")
    phone.adb.text("install", str(u2_apk()), serial=phone.serial)
    phone.shell(f"ime enable {ime}; ime set {ime}")
    phone.shell("am start -n com.android.settings/.search.SearchActivity")
    _tap_first_field(phone)
    out = phone.shell(f"am broadcast -a ADB_KEYBOARD_INPUT_TEXT --es text {text}")
    assert out.endswith("Broadcast completed: result=-1\n"), out  # RESULT_OK, no data
    assert 'text="你好 u2"' in phone.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")
    assert phone.shell("am broadcast -a ADB_KEYBOARD_CLEAR_TEXT").endswith("result=-1\n")
    assert 'text="你好 u2"' not in phone.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")
    phone.shell("input keyevent HOME")  # no field in focus: the receiver answers with the action's name
    assert phone.shell("am broadcast -a ADB_KEYBOARD_HIDE").endswith(
        'Broadcast completed: result=-1, data="ADB_KEYBOARD_HIDE"\n')


def _tap_first_field(phone: PhoneHandle) -> None:
    dump = phone.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")
    m = re.search(r'class="android.widget.EditText"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert m is not None, dump
    x1, y1, x2, y2 = map(int, m.groups())
    phone.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")


def test_resolve_activity_names_the_launcher_alias_and_installed_components(phone: PhoneHandle) -> None:
    brief = phone.shell("cmd package resolve-activity --brief com.android.camera2")
    assert brief == ("priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n"
                     "com.android.camera2/com.android.camera.CameraLauncher\n")
    assert phone.shell("pm resolve-activity --components -c android.intent.category.LAUNCHER "
                       "com.android.settings") == "com.android.settings/.Settings\n"
    assert phone.shell(f"pm resolve-activity --brief {PACKAGE}") == "No activity found\n"
    phone.adb.text("install", str(u2_apk()), serial=phone.serial)
    assert phone.shell(f"pm resolve-activity --components {PACKAGE}") == f"{PACKAGE}/.MainActivity\n"


def test_the_preinstalled_adbkeyboard_can_be_uninstalled_like_a_user_app(phone: PhoneHandle) -> None:
    ime = "com.android.adbkeyboard/.AdbIME"
    assert "package:com.android.adbkeyboard\n" in phone.shell("pm list packages -3")
    phone.shell(f"ime enable {ime}; ime set {ime}")
    assert phone.shell("pm uninstall com.android.adbkeyboard") == "Success\n"
    assert "adbkeyboard" not in phone.shell("pm list packages")
    assert ime not in phone.shell("ime list -s -a")
    assert phone.shell("settings get secure default_input_method").strip() == \
        "com.android.inputmethod.latin/.LatinIME"
    phone.reset()  # a snapshot brings it back, as it brings back everything else
    assert "package:com.android.adbkeyboard\n" in phone.shell("pm list packages -3")


def test_uiautomator2_types_with_its_keyboard_once_installed(phone: PhoneHandle) -> None:
    """uiautomator2 3.7 types with com.github.uiautomator/.AdbKeyboard when app-uiautomator.apk is
    installed: it enables and selects it, then sends ADB_KEYBOARD_INPUT_TEXT and ADB_KEYBOARD_HIDE, each of
    which must answer result=-1 (else it retries and falls back); clear_text sends ADB_KEYBOARD_CLEAR_TEXT."""
    import uiautomator2 as u2

    d = u2.connect(phone.device())
    d.adb_device.install(str(u2_apk()), nolaunch=True, uninstall=True, silent=True)  # what _setup_ime does
    assert d.is_input_ime_installed()
    phone.shell("am start -n com.android.settings/.search.SearchActivity")
    _tap_first_field(phone)
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        d.send_keys("你好")
    assert not [w for w in caught if "failed" in str(w.message)]  # no fallback to set_text
    assert d.current_ime() == f"{PACKAGE}/.AdbKeyboard"
    assert d(textContains="你好").exists
    d.clear_text()
    assert not d(textContains="你好").exists


def test_contacts_aliases_start_people_and_a_private_alias_is_refused(phone: PhoneHandle) -> None:
    """AOSP Contacts' ContactsFrontDoor and DialtactsContactsEntryActivity (exported) open PeopleActivity;
    ContactsListActivity (no filter, no android:exported) is not exported: the shell is refused."""
    for alias in ("com.android.contacts/.activities.ContactsFrontDoor",
                  "com.android.contacts/.DialtactsContactsEntryActivity"):
        phone.shell("input keyevent HOME")
        assert phone.shell(f"am start -n {alias}") == f"Starting: Intent {{ cmp={alias} }}\n"
        assert "com.android.contacts.activities.PeopleActivity" in phone.shell("dumpsys window windows")
    refused = phone.adb.run("shell", "am start -n com.android.contacts/.ContactsListActivity",
                            serial=phone.serial, check=False)
    assert "java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 " \
           "cmp=com.android.contacts/.ContactsListActivity }" in refused.stderr.decode()


def test_install_sessions_as_install_multiple_drives_them(phone: PhoneHandle) -> None:
    data = u2_apk().read_bytes()
    phone.adb.run("push", str(u2_apk()), "/data/local/tmp/u2.apk", serial=phone.serial)
    created = phone.shell("pm install-create -r -t")
    m = re.fullmatch(r"Success: created install session \[(\d+)\]\n", created)
    assert m is not None, created
    session = m.group(1)
    assert phone.shell(f"pm install-write -S {len(data)} {session} base /data/local/tmp/u2.apk") == \
        f"Success: streamed {len(data)} bytes\n"
    assert phone.shell(f"pm install-commit {session}") == "Success\n"
    assert f"package:{PACKAGE}\n" in phone.shell("pm list packages -3")
    # the APK from stdin (`-`), then an abandoned session and one that is not open
    session = re.findall(r"\d+", phone.shell("cmd package install-create"))[0]
    written = phone.adb.run("shell", f"pm install-write -S {len(data)} {session} base -", serial=phone.serial,
                            input=data)
    assert written.stdout.decode() == f"Success: streamed {len(data)} bytes\n"
    assert phone.shell(f"pm install-abandon {session}") == "Success\n"
    gone = phone.adb.run("shell", f"pm install-commit {session}", serial=phone.serial, check=False)
    assert gone.returncode == 255
    assert f"java.lang.SecurityException: Caller has no access to session {session}" in gone.stderr.decode()


def test_the_launcher_shows_an_installed_app_and_opens_it(phone: PhoneHandle) -> None:
    phone.adb.text("install", str(u2_apk()), serial=phone.serial)
    phone.shell("input keyevent HOME")
    dump = phone.shell("uiautomator dump /sdcard/w.xml >/dev/null; cat /sdcard/w.xml")
    m = re.search(r'text="ATX"[^>]*clickable="true"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', dump)
    assert m is not None, dump
    x1, y1, x2, y2 = map(int, m.groups())
    phone.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    assert f"{PACKAGE}/{MAIN}" in phone.shell("dumpsys window windows")
