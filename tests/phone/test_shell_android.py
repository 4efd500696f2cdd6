"""Android commands against a recording FakePhone: input, screencap, uiautomator, am, monkey, pm, ime,
settings, svc, content, getprop/setprop, wm, dumpsys - with adbutils' own parsers run on the output."""

from __future__ import annotations

import hashlib
import io
import re
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from adbutils._utils import list2cmdline
from adbutils.shell import ShellExtension
from PIL import Image

from spa_bench.phone import keycodes
from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.commands import misc
from spa_bench.phone.shell.testing import LAUNCHER, FakePhone


@pytest.fixture
def phone(tmp_path: Path) -> FakePhone:
    return FakePhone(tmp_path / "fs", width=108, height=240)


@pytest.fixture
def sh(phone: FakePhone) -> Shell:
    return Shell(phone)


def run(sh: Shell, line: str) -> tuple[str, str, int]:
    r = sh.run(line)
    return r.stdout.decode(), r.stderr.decode(), r.exit_code


class AdbutilsView(ShellExtension):  # type: ignore[misc]
    """adbutils' ShellExtension (window_size, app_current, ...) wired to the virtual shell."""

    def __init__(self, shell: Shell) -> None:
        self._shell = shell

    def shell(self, cmd: Any, *args: Any, **kwargs: Any) -> str:
        line = list2cmdline(cmd) if isinstance(cmd, list | tuple) else cmd
        return self._shell.run(line).stdout.decode().rstrip()

    @property
    def sync(self) -> Any:
        raise NotImplementedError


# -- input ----------------------------------------------------------------------------------------

def test_input_tap_swipe_drag(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "input tap 10 20") == ("", "", 0)
    assert run(sh, "input touchscreen tap 10.7 20.2")[2] == 0
    assert run(sh, "input -d 0 swipe 1 2 3 4 500")[2] == 0
    assert run(sh, "input swipe 5 5 5 5")[2] == 0
    assert run(sh, "input draganddrop 1 1 9 9 800")[2] == 0
    assert phone.calls == [("tap", 10, 20), ("tap", 10, 20), ("swipe", 1, 2, 3, 4, 500),
                           ("swipe", 5, 5, 5, 5, 300), ("swipe", 1, 1, 9, 9, 800)]
    _out, err, code = run(sh, "input tap 1")
    assert code == 1 and err.startswith("Error: Invalid arguments for command: tap\nUsage: input")
    assert run(sh, "input tap x y")[2] == 255
    assert run(sh, "input bogus")[1].startswith("Error: Unknown command: bogus")


def test_input_long_press_is_a_held_swipe(sh: Shell, phone: FakePhone) -> None:
    sh.run("input swipe 50 60 50 60 1000")
    assert phone.calls == [("swipe", 50, 60, 50, 60, 1000)]  # the OS turns it into a long press


def test_input_text_escaping(sh: Shell, phone: FakePhone) -> None:
    sh.run("input text 'hello%sworld'")
    sh.run("input text hi\\ there")
    sh.run("input text \"it's\"")
    sh.run("input text 'a\\%s'")
    assert [c[1] for c in phone.calls] == ["hello world", "hi there", "it's", "a\\ "]
    assert phone.text == "hello worldhi thereit'sa\\ "


def test_input_text_refuses_non_ascii_like_android(sh: Shell, phone: FakePhone) -> None:
    _out, err, code = run(sh, "input text '你好'")
    assert code == 255 and phone.calls == []
    assert err.startswith("Exception occurred while executing 'text':\njava.lang.NullPointerException")


def test_input_keyevent_names_numbers_and_characters(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "input keyevent HOME")[2] == 0
    assert run(sh, "input keyevent KEYCODE_BACK 66 keycode_del")[2] == 0
    assert run(sh, "input keyevent KEYCODE_A KEYCODE_7 SPACE KEYCODE_PERIOD")[2] == 0
    assert run(sh, "input keyevent --longpress POWER")[2] == 0
    assert phone.calls == [("key", 3), ("key", 4), ("key", 66), ("key", 67), ("text", "a"), ("text", "7"),
                           ("text", " "), ("text", "."), ("wait", 400), ("key", 26)]  # held 400 ms
    _out, err, code = run(sh, "input keyevent NOPE")
    assert code == 255 and "Unknown keycode: NOPE" in err


def test_keycode_table() -> None:
    expected = {"HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6, "0": 7, "9": 16, "DPAD_UP": 19,
                "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27,
                "CLEAR": 28, "A": 29, "Z": 54, "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62,
                "ENTER": 66, "DEL": 67, "MENU": 82, "SEARCH": 84, "MEDIA_PLAY_PAUSE": 85, "PAGE_UP": 92,
                "PAGE_DOWN": 93, "ESCAPE": 111, "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123,
                "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224, "VOLUME_MUTE": 164, "F12": 142}
    for name, code in expected.items():
        assert keycodes.KEYCODES[name] == code, name
        assert keycodes.keycode_from_string(f"KEYCODE_{name}") == code
    assert keycodes.keycode_from_string("3") == 3
    assert keycodes.keycode_from_string("nope") is None
    assert keycodes.keycode_name(66) == "KEYCODE_ENTER"
    assert keycodes.KEY_CHARS[keycodes.KEYCODES["Q"]] == "q"
    assert len(set(keycodes.KEYCODES.values())) == len(keycodes.KEYCODES)


# -- screen ---------------------------------------------------------------------------------------

def test_screencap_png_and_raw(sh: Shell, phone: FakePhone) -> None:
    png = sh.run("screencap -p").stdout
    assert png == phone.screenshot_png()
    assert Image.open(io.BytesIO(png)).size == (108, 240)
    raw = sh.run("screencap").stdout
    w, h, fmt, space = struct.unpack("<IIII", raw[:16])
    assert (w, h, fmt, space) == (108, 240, 1, 1)
    assert len(raw) == 16 + 108 * 240 * 4
    assert raw[16:20] == bytes([10, 20, 30, 255])
    assert sh.run("screencap -p /sdcard/s.png").stdout == b""
    assert phone.fs.read_bytes("/sdcard/s.png") == png
    sh.run("screencap /sdcard/s2.png")  # the .png name implies PNG
    assert phone.fs.read_bytes("/sdcard/s2.png") == png
    assert run(sh, "screencap /nodir/x.png")[1] == \
        "Error opening file: /nodir/x.png (No such file or directory)\n"


def test_uiautomator_dump(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "uiautomator dump") == ("UI hierchary dumped to: /sdcard/window_dump.xml\n", "", 0)
    assert phone.fs.read_bytes("/sdcard/window_dump.xml").startswith(b"<?xml")
    assert run(sh, "uiautomator dump --compressed /sdcard/x.xml")[0] == \
        "UI hierchary dumped to: /sdcard/x.xml\n"
    assert phone.calls[-1] == ("dump", True)
    # adbutils' dump_hierarchy command line
    target = "/data/local/tmp/uidump.xml"
    out = run(sh, f"rm -f {target}; uiautomator dump {target} && echo success")
    assert "success" in out[0] and "ERROR" not in out[0]
    text = run(sh, "uiautomator dump /dev/tty")[0]
    assert text.startswith("<?xml") and text.endswith("UI hierchary dumped to: /dev/tty\n")


def test_wm_and_display_through_adbutils(sh: Shell) -> None:
    assert run(sh, "wm size")[0] == "Physical size: 108x240\n"
    assert run(sh, "wm density")[0] == "Physical density: 420\n"
    view = AdbutilsView(sh)
    assert tuple(view.window_size()) == (108, 240)
    assert view.rotation() == 0


# -- activity manager -----------------------------------------------------------------------------

def test_am_start(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "am start -n com.android.settings/.Settings") == \
        ("Starting: Intent { cmp=com.android.settings/.Settings }\n", "", 0)
    assert phone.calls[-1] == ("start", "com.android.settings", "com.android.settings.Settings", {})
    out = run(sh, "am start -W -S -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
                  "-n com.example.notes/com.example.notes.MainActivity --es note hi --ei n 3")[0]
    assert out.startswith("Starting: Intent { act=android.intent.action.MAIN "
                          "cat=[android.intent.category.LAUNCHER] cmp=com.example.notes/.MainActivity "
                          "(has extras) }\nStatus: ok\nLaunchState: COLD\n"
                          "Activity: com.example.notes/.MainActivity\n")
    assert out.endswith("Complete\n")
    assert ("force_stop", "com.example.notes") in phone.calls
    assert phone.calls[-1] == ("start", "com.example.notes", "com.example.notes.MainActivity",
                               {"note": "hi", "n": "3"})
    out, err, code = run(sh, "am start -n com.nope/.Main")
    assert out == "Starting: Intent { cmp=com.nope/.Main }\n"
    assert err == "Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n"
    assert code == 255
    out, err, code = run(sh, "am start -a android.intent.action.VIEW -d https://example.com")
    # Intent.toString shows dat= through Uri.toSafeString: web URIs as scheme://host/...
    assert err == ("Error: Activity not started, unable to resolve Intent { act=android.intent.action.VIEW "
                   "dat=https://example.com/... flg=0x10000000 }\n")


def test_am_force_stop_and_broadcast(sh: Shell, phone: FakePhone) -> None:
    sh.run("am start -n com.android.settings/.Settings")
    assert run(sh, "am force-stop com.android.settings") == ("", "", 0)
    assert phone.focus == LAUNCHER
    out = run(sh, "am broadcast -a ADB_INPUT_TEXT --es msg 'hello world'")[0]
    assert out == ("Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }\n"
                   "Broadcast completed: result=0\n")
    assert phone.calls[-1] == ("broadcast", "ADB_INPUT_TEXT", {"msg": "hello world"})
    phone.broadcast_result = (-1, "success")
    out = run(sh, "am broadcast -a ADB_KEYBOARD_INPUT_TEXT --es text aGk=")[0]
    # uiautomator2's _broadcast regexes
    assert re.search(r"result=(-?\d+)", out).group(1) == "-1"  # type: ignore[union-attr]
    assert re.search(r'data="([^"]+)"', out).group(1) == "success"  # type: ignore[union-attr]


def test_monkey_launch(sh: Shell, phone: FakePhone) -> None:
    out, _, code = run(sh, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert code == 0 and "Events injected: 1\n" in out and out.startswith("  bash arg: -p\n")
    assert phone.focus == ("com.android.settings", "com.android.settings.Settings")
    assert run(sh, "monkey -p com.android.adbkeyboard 1") == \
        ("  bash arg: -p\n  bash arg: com.android.adbkeyboard\n  bash arg: 1\n",
         "** No activities found to run, monkey aborted.\n", 252)


def test_app_current_through_adbutils(sh: Shell, phone: FakePhone) -> None:
    view = AdbutilsView(sh)
    sh.run("am start -n com.example.notes/.MainActivity")
    info = view.app_current()
    assert (info.package, info.activity) == ("com.example.notes", "com.example.notes.MainActivity")
    # the fallbacks parse too
    activities = run(sh, "dumpsys activity activities")[0]
    m = re.search(r"mResumedActivity: ActivityRecord\{.*?\s+(?P<package>[^\s]+)/(?P<activity>[^\s]+)\s.*?\}",
                  activities)
    assert m is not None  # adbutils keeps only the package; on Android 13 the record reads `pkg/.Act} tN}`
    assert (m.group("package"), m.group("activity")) == ("com.example.notes", ".MainActivity}")
    top = run(sh, "dumpsys activity top")[0]
    m = re.search(r"ACTIVITY (?P<package>[^\s]+)/(?P<activity>[^/\s]+) \w+ pid=(?P<pid>\d+)", top)
    assert m is not None and m.group("package") == "com.example.notes"
    assert run(sh, "pidof com.example.notes")[0] == m.group("pid") + "\n"
    windows = run(sh, "dumpsys window windows")[0]
    assert "mFocusedApp=ActivityRecord{" in windows and " u0 com.example.notes/.MainActivity} t" in windows


def test_dumpsys_input_method_and_others(sh: Shell, phone: FakePhone) -> None:
    assert "mInputShown=false" in run(sh, "dumpsys input_method")[0]
    phone.keyboard = True
    assert run(sh, "dumpsys input_method | grep mInputShown")[0] == \
        "  mShowRequested=true mShowExplicitlyRequested=false mShowForced=false mInputShown=true\n"
    assert "mInputMethodWindow=" in run(sh, "dumpsys window")[0]
    assert "mHoldingDisplaySuspendBlocker=true" in run(sh, "dumpsys power")[0]
    assert "  level: 100\n" in run(sh, "dumpsys battery")[0]
    assert run(sh, "dumpsys nosuch") == ("", "Can't find service: nosuch\n", 0)


# -- package manager and IMEs ---------------------------------------------------------------------

def test_pm(sh: Shell, phone: FakePhone) -> None:
    view = AdbutilsView(sh)
    assert view.list_packages() == sorted(p.name for p in phone.packages())
    assert run(sh, "pm list packages -3")[0] == "package:com.android.adbkeyboard\npackage:com.example.notes\n"
    assert run(sh, "pm list packages -s settings")[0] == "package:com.android.settings\n"
    assert run(sh, "pm list packages -f notes")[0] == \
        "package:/data/app/com.example.notes-1/base.apk=com.example.notes\n"
    assert run(sh, "pm path com.android.settings")[0] == "package:/system/priv-app/Settings/Settings.apk\n"
    assert run(sh, "pm path com.nope") == ("", "", 1)
    assert run(sh, "pm clear com.example.notes") == ("Success\n", "", 0)
    assert ("clear", "com.example.notes") in phone.calls
    assert run(sh, "pm clear com.nope")[2] != 0
    info = view.app_info("com.android.settings")
    assert info is not None and info.path == "/system/priv-app/Settings/Settings.apk"
    assert info.version_name == "14" and "SYSTEM" in info.flags
    assert run(sh, "cmd package list packages notes")[0] == "package:com.example.notes\n"
    # system_server cannot read shared storage (FUSE): AOSP's openFileForSystem lines, exit 255
    _, err, code = run(sh, "pm install /sdcard/x.apk")
    assert code == 255
    assert "Error: Unable to open file: /sdcard/x.apk\nConsider using a file under /data/local/tmp/\n" in err


def test_ime(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "ime list -s -a")[0] == \
        "com.android.inputmethod.latin/.LatinIME\ncom.android.adbkeyboard/.AdbIME\n"
    assert run(sh, "ime enable com.android.adbkeyboard/.AdbIME")[0] == \
        "Input method com.android.adbkeyboard/.AdbIME: now enabled\n"
    assert run(sh, "ime enable com.android.adbkeyboard/.AdbIME")[0].endswith("already enabled\n")
    assert run(sh, "ime set com.android.adbkeyboard/.AdbIME")[0] == \
        "Input method com.android.adbkeyboard/.AdbIME selected for user #0\n"
    assert run(sh, "settings get secure default_input_method")[0] == "com.android.adbkeyboard/.AdbIME\n"
    assert "mCurMethodId=com.android.adbkeyboard/.AdbIME" in run(sh, "dumpsys input_method")[0]
    assert run(sh, "ime set com.github.uiautomator/.AdbKeyboard")[2] == 255


# -- settings, svc, content, props ----------------------------------------------------------------

def test_settings(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "settings get global wifi_on") == ("1\n", "", 0)
    assert run(sh, "settings get secure nothing_here")[0] == "null\n"
    assert run(sh, "settings put system screen_brightness 200") == ("", "", 0)
    assert phone.settings["system"]["screen_brightness"] == "200"
    assert run(sh, "settings --user 0 get system screen_brightness")[0] == "200\n"
    assert run(sh, "settings list global")[0] == "wifi_on=1\n"
    assert run(sh, "settings delete global wifi_on")[0] == "Deleted 1 rows\n"
    assert run(sh, "settings delete global wifi_on")[0] == "Deleted 0 rows\n"
    assert run(sh, "settings get bogus x")[2] == 255
    assert run(sh, "svc wifi enable; settings get global wifi_on")[0] == "1\n"
    assert run(sh, "svc wifi disable; settings get global wifi_on")[0] == "0\n"
    assert run(sh, "svc bluetooth enable; settings get global bluetooth_on")[0] == "1\n"


def test_content(sh: Shell, phone: FakePhone) -> None:
    assert run(sh, "content query --uri content://settings/global")[0] == \
        "Row: 0 _id=1, name=wifi_on, value=1\n"
    assert run(sh, "content query --uri content://settings/global --projection name:value "
                   "--where \"name='wifi_on'\"")[0] == "Row: 0 name=wifi_on, value=1\n"
    assert run(sh, "content query --uri content://settings/secure")[0] == "No result found.\n"
    assert run(sh, "content insert --uri content://settings/secure --bind name:s:a --bind value:i:5")[2] == 0
    assert phone.settings["secure"]["a"] == "5"
    update = "content update --uri content://settings/secure --bind value:s:6 --where \"name='a'\""
    assert run(sh, update)[2] == 0
    assert phone.settings["secure"]["a"] == "6"
    assert run(sh, "content delete --uri content://settings/secure --where \"name='a'\"")[2] == 0
    assert "a" not in phone.settings["secure"]
    _out, err, code = run(sh, "content query --uri content://nope/x")
    assert code == 1 and "Unknown URI content://nope/x" in err
    assert run(sh, "content insert --uri content://settings/secure --bind bad")[1].startswith(
        "[ERROR] Binding not well formed: bad")
    assert run(sh, "content query")[1].startswith("[ERROR] Content provider URI not specified")


def test_getprop_setprop(sh: Shell, phone: FakePhone) -> None:
    listing = run(sh, "getprop")[0]
    assert "[ro.product.model]: [SPA Virtual Phone]\n" in listing
    assert all(re.fullmatch(r"\[[^\]]+\]: \[.*\]", line) for line in listing.splitlines())
    assert run(sh, "getprop ro.build.version.sdk")[0] == "34\n"
    assert run(sh, "getprop no.such.prop")[0] == "\n"
    assert run(sh, "getprop no.such.prop fallback")[0] == "fallback\n"
    assert run(sh, "setprop persist.sys.locale zh-CN; getprop persist.sys.locale")[0] == "zh-CN\n"
    assert phone.settings["system"]["system_locales"] == "zh-CN"
    assert run(sh, "setprop debug.x 1; getprop debug.x")[0] == "1\n"
    assert run(sh, "getprop debug.x")[0] == "1\n"  # kept by the shell across command lines
    _out, err, code = run(sh, "setprop ro.product.model X")
    assert code == 1 and err.startswith("Failed to set property 'ro.product.model' to 'X'.")


def test_date_and_sleep(sh: Shell, monkeypatch: pytest.MonkeyPatch) -> None:
    now = int(time.time())
    assert abs(int(run(sh, "date +%s")[0]) - now) <= 2
    assert re.fullmatch(r"\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \w+ \d{4}\n", run(sh, "date")[0])
    assert re.fullmatch(r"\d{4}-\d\d-\d\d\n", run(sh, "date +%Y-%m-%d")[0])
    started = time.monotonic()
    assert run(sh, "sleep 0.2")[2] == 0
    assert time.monotonic() - started >= 0.19
    monkeypatch.setattr(misc, "MAX_SLEEP_S", 0.05)
    started = time.monotonic()
    sh.run("sleep 3600")
    assert time.monotonic() - started < 1.0
    assert run(sh, "sleep abc")[2] == 1


def test_u2_md5_check_and_app_process_fallback(sh: Shell, phone: FakePhone) -> None:
    """uiautomator2 looks for the md5 of its u2.jar in `toybox md5sum` output, then pushes if absent."""
    missing = run(sh, "toybox md5sum /data/local/tmp/u2.jar")
    assert "No such file" in missing[1] and missing[0] == ""
    phone.fs.write_bytes("/data/local/tmp/u2.jar", b"jar")
    assert hashlib.md5(b"jar").hexdigest() in run(sh, "toybox md5sum /data/local/tmp/u2.jar")[0]
    _, err, code = run(sh, "CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main -p 9008")
    assert code == 1 and "already registered" in err  # the phone's own server runs from boot
    runner = "com.github.uiautomator.test/androidx.test.runner.AndroidJUnitRunner"
    assert run(sh, f"am instrument -w {runner}")[2] == 1
