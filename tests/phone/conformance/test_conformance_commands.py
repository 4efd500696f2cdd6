"""Command outputs next to real ones (android-captures/shell: getprop, settings, ime, am, monkey, input,
content) and to AOSP's documented formats (service.cpp), and the typing sequences of Mobile-Agent and
SPA-Bench's AppAgent through ADBKeyboard."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import Sh
from reference_parsers import mobile_agent_type_commands, u2_broadcast_result

from spa_bench.phone.system import PhoneOS

ADB_IME = "com.android.adbkeyboard/.AdbIME"
GETPROP_LINE = re.compile(r"^\[([^\]]+)\]: \[(.*)\]$")
FINGERPRINT = re.compile(r"^[^/]+/[^/]+/[^/:]+:[^/]+/[^/]+/[^/:]+:(user|userdebug|eng)/([\w-]+)$")


def capture(captures: Path, *parts: str) -> str:
    return captures.joinpath("shell", *parts).read_bytes().decode("utf-8").replace("\r", "")


def props(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        m = GETPROP_LINE.match(line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


@pytest.mark.conformance("getprop / settings captures")
def test_getprop_format_and_emulator_build(captures: Path, sh: Sh) -> None:
    """`[name]: [value]` lines, sorted as Android 11+ prints them; the build reads as a userdebug image
    (the Android 13 userdebug capture: ro.build.type=userdebug, ro.debuggable=1), fingerprint fields
    agreeing with ro.build.type/tags, and every one of our names is a name real devices have."""
    real_names: set[str] = set()
    for path in sorted((captures / "shell" / "getprop").glob("*.txt")):
        real_names |= set(props(path.read_bytes().decode("utf-8", "replace")))
    userdebug = props(capture(captures, "getprop", "mtk_tb8168_android13_bugreport_getprop.txt"))
    out = sh("getprop")
    lines = out.splitlines()
    assert all(GETPROP_LINE.match(line) for line in lines)
    ours = props(out)
    assert list(ours) == sorted(ours)
    for key in ("ro.build.type", "ro.debuggable", "ro.secure"):
        assert ours[key] == userdebug[key], key
    assert ours["ro.kernel.qemu"] == "1" and ours["ro.boot.qemu"] == "1"
    m = FINGERPRINT.match(ours["ro.build.fingerprint"])
    assert m and m.groups() == (ours["ro.build.type"], ours["ro.build.tags"])
    assert FINGERPRINT.match(userdebug["ro.build.fingerprint"])
    assert set(ours) - real_names <= {"ro.boot.qemu", "ro.kernel.qemu", "ro.adb.secure", "ro.boot.serialno",
                                      "ro.product.cpu.abilist", "ro.product.locale", "dev.bootcomplete"}


@pytest.mark.conformance("getprop / settings captures")
def test_settings_list_format(captures: Path, sh: Sh) -> None:
    real = capture(captures, "settings_list", "redmi_9t_android12_settings_list_system.txt").splitlines()
    line = re.compile(r"^[\w.:\-]+=.*$")  # names may hold ':' (gearhead:driving_mode_settings_enabled)
    assert real and all(line.match(x) for x in real)
    ours = sh("settings list system").splitlines()
    assert ours and all(line.match(x) for x in ours)
    assert [x.split("=")[0] for x in ours] == sorted(x.split("=")[0] for x in ours)


@pytest.mark.conformance("ime / am / monkey captures")
def test_ime_list_and_set_messages(captures: Path, sh: Sh) -> None:
    """`ime list -s`: one `pkg/.Service` per line; `ime set` of an IME that is not enabled fails with
    `Unknown input method ... cannot be selected for user #0` (the Android 14 issue capture)."""
    real = capture(captures, "ime", "adbkeyboard_issue66_android14_ime_list_-s.txt")
    real_ids = re.findall(r"^([\w.]+/[\w.]+)$", real, re.M)
    assert real_ids
    ours = sh("ime list -s").splitlines()
    assert ours and all(re.match(r"^[\w.]+/\.[\w]+$", x) for x in ours)
    error = re.search(r"^Unknown input method (\S+) cannot be selected for user #0$", real, re.M)
    assert error
    sh(f"ime disable {ADB_IME}")
    assert sh(f"ime set {ADB_IME}") == f"Unknown input method {ADB_IME} cannot be selected for user #0\n"
    assert sh(f"ime enable {ADB_IME}") == f"Input method {ADB_IME}: now enabled\n"
    assert sh(f"ime set {ADB_IME}") == f"Input method {ADB_IME} selected for user #0\n"
    assert ADB_IME in sh("ime list -s").split()


def focus_search_field(phone: PhoneOS, sh: Sh) -> None:
    sh("am force-stop com.android.settings")
    sh("am start -n com.android.settings/.Settings")
    search = phone.frame().find(text="Search Settings")
    assert search is not None
    sh(f"input tap {search.bounds.center[0]} {search.bounds.center[1]}")
    field = next(v for v in phone.frame().views() if v.class_name == "android.widget.EditText")
    sh(f"input tap {field.bounds.center[0]} {field.bounds.center[1]}")


def field_text(phone: PhoneOS) -> str:
    field = next(v for v in phone.frame().views() if v.class_name == "android.widget.EditText")
    return str(getattr(field, "value", ""))


@pytest.mark.conformance("Mobile-Agent / SPA-Bench AppAgent controllers")
def test_chinese_through_adbkeyboard_as_the_agents_type_it(phone: PhoneOS, sh: Sh) -> None:
    """Mobile-Agent-v2's type() and SPA-Bench's AppAgent text(use_adb_keyboard=True): ASCII through
    `input text`, everything else one character per ADB_INPUT_TEXT broadcast. With ADBKeyboard as the
    IME the whole text arrives; with the stock keyboard the broadcasts reach no receiver (still
    `result=0`, as on a phone), so only the ASCII part does."""
    text = "蓝牙 on"
    focus_search_field(phone, sh)
    for command in mobile_agent_type_commands(text):
        out = sh(command)
        if command.startswith("am broadcast"):
            assert u2_broadcast_result(out) == (0, None)
    assert field_text(phone) == " on"
    sh(f"ime set {ADB_IME}")
    focus_search_field(phone, sh)
    for command in mobile_agent_type_commands(text):
        sh(command)
    assert field_text(phone) == text


@pytest.mark.conformance("ime / am / monkey captures")
def test_am_start_messages(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """`am start PKG` becomes a MAIN/LAUNCHER intent; an unresolvable one is refused with
    `Error: Activity not started, unable to resolve Intent { ... flg=0x10000000 ... }` (Pixel 2 capture);
    a running task is `brought to the front` (LineageOS capture)."""
    real = capture(captures, "am_start", "fenix_issue7925_pixel2_2020_am_start_pkg_unresolved.txt")
    starting = re.compile(r"^Starting: Intent \{ act=android\.intent\.action\.MAIN "
                          r"cat=\[android\.intent\.category\.LAUNCHER\] pkg=([\w.]+) \}$", re.M)
    refused = re.compile(r"^Error: Activity not started, unable to resolve Intent \{ (.*) \}$", re.M)
    assert starting.search(real) and refused.search(real)
    ours = sh("am start com.example.missing")
    assert starting.search(ours) and refused.search(ours)
    assert refused.search(real).group(1).split() == \
        ["act=android.intent.action.MAIN", "cat=[android.intent.category.LAUNCHER]", "flg=0x10000000",
         "pkg=org.mozilla.fenix.performancetest"]  # type: ignore[union-attr]
    assert refused.search(ours).group(1).split()[:3] == refused.search(real).group(1).split()[:3]  # type: ignore[union-attr]
    front = capture(captures, "am_start", "termuxam_pr14_fairphone4_lineageos23.2_am_start.txt")
    warning = "Warning: Activity not started, its current task has been brought to the front"
    assert warning in front
    sh("am start com.android.settings")
    sh("input keyevent KEYCODE_HOME")
    assert warning in sh("am start com.android.settings")


@pytest.mark.conformance("ime / am / monkey captures")
def test_implicit_intents(phone: PhoneOS, sh: Sh) -> None:
    """Settings actions open their pages; contacts/calendar VIEW and INSERT reach their apps; what no
    installed app handles is refused in Android's words, `dat=` shown as Uri.toSafeString shows it."""
    pages = {"android.settings.WIFI_SETTINGS": "NetworkDashboardActivity",
             "android.settings.BLUETOOTH_SETTINGS": "ConnectedDeviceDashboardActivity",
             "android.settings.DISPLAY_SETTINGS": "DisplaySettingsActivity",
             "android.settings.LOCALE_SETTINGS": "LanguageSettingsActivity",
             "android.settings.DATE_SETTINGS": "DateTimeSettingsActivity"}
    for action, page in pages.items():
        assert sh(f"am start -a {action}") == f"Starting: Intent {{ act={action} }}\n"
        assert phone.current_focus()[1] == f"com.android.settings.Settings${page}"
    sh("am start -a android.intent.action.INSERT -t vnd.android.cursor.dir/contact")
    assert phone.current_focus()[1] == "com.android.contacts.activities.ContactEditorActivity"
    sh("am start -a android.intent.action.VIEW -d content://com.android.contacts/contacts/1")
    assert phone.current_focus()[1] == "com.android.contacts.quickcontact.QuickContactActivity"
    sh("am start -a android.intent.action.SENDTO -d smsto:5551234")
    assert phone.current_focus()[1] == "com.android.messaging.ui.conversation.ConversationActivity"
    # http(s) opens the Browser (tests/phone/conformance/test_conformance_browser_intent.py has the
    # phone without it, where the intent is refused)
    assert sh("am start -a android.intent.action.VIEW -d 'https://example.com/a?b=c'") == (
        "Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\n")
    assert phone.current_focus() == ("com.android.browser", "com.android.browser.BrowserActivity")
    # the Phone app takes DIAL: Intent.toString masks the number (Uri.toSafeString)
    assert sh("am start -a android.intent.action.DIAL -d tel:5551234") == (
        "Starting: Intent { act=android.intent.action.DIAL dat=tel:xxxxxxx }\n")
    assert phone.current_focus()[1] == "com.android.dialer.main.impl.MainActivity"


@pytest.mark.conformance("ime / am / monkey captures")
def test_monkey_launch_output(captures: Path, sh: Sh) -> None:
    real = capture(captures, "monkey", "appium_android_driver_pr539_android4.4_emulator_monkey.txt")
    stats = re.compile(r"^## Network stats: elapsed time=\d+ms "
                       r"\(\d+ms mobile, \d+ms wifi, \d+ms not connected\)$", re.M)
    assert "Events injected: 1" in real and stats.search(real)
    ours = sh("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
    assert "Events injected: 1" in ours and stats.search(ours)


@pytest.mark.conformance("input captures")
def test_input_usage_and_errors(captures: Path, sh: Sh) -> None:
    """The Android 15 usage (sources line ending in a space, motionevent, scroll, keycombination); an
    unknown verb answers `Error: Unknown command: X` then the usage; a bad number is Java's exception,
    never host language text."""
    real = capture(captures, "input_usage", "android15_kxxt_blog_input_usage.txt")
    real_lines = {line.rstrip() for line in real.splitlines()[1:]}
    ours = sh("input")
    assert {line.rstrip() for line in ours.splitlines()} == real_lines | {""}
    assert "The sources are: \n" in ours
    help_capture = capture(captures, "input_usage", "stbtester_issue386_2016_input_-help.txt")
    assert "Error: Unknown command: -help\nUsage: input" in help_capture
    assert sh("input -help").startswith("Error: Unknown command: -help\nUsage: input")
    java = 'java.lang.NumberFormatException: For input string: ""'
    assert sh("input swipe 100 200 300 400 ''") == f"Exception occurred while executing 'swipe':\n{java}\n"
    assert "NumberFormatException: empty String" in sh("input tap '' 5")
    assert "Traceback" not in sh("input tap x y") and "could not convert" not in sh("input tap x y")


@pytest.mark.conformance("input captures")
def test_motionevent_roll_keycombination_scroll(phone: PhoneOS, sh: Sh) -> None:
    sh("am start -n com.android.settings/.Settings")
    target = phone.frame().find(text="Network & internet")
    assert target is not None
    x, y = target.bounds.center
    assert sh(f"input motionevent DOWN {x} {y}") == "" and sh(f"input motionevent UP {x} {y}") == ""
    assert phone.current_focus()[1].endswith("NetworkDashboardActivity")
    sh("input keyevent KEYCODE_BACK")
    before = phone.dump_hierarchy()
    sh("input motionevent DOWN 540 1800")
    sh("input motionevent MOVE 540 1200")
    sh("input motionevent UP 540 700")
    assert phone.dump_hierarchy() != before  # the list scrolled
    assert sh("input roll 0 3") == "" and sh("input scroll 540 1200 --axis VSCROLL,2") == ""
    focus_search_field(phone, sh)
    assert sh("input keycombination KEYCODE_SHIFT_LEFT KEYCODE_A") == ""
    assert field_text(phone) == "A"


@pytest.mark.conformance("ime / am / monkey captures")
def test_content_query_row_format(captures: Path, sh: Sh) -> None:
    """`Row: N col=value, col=value` with NULL for null, as `content query` prints."""
    real = capture(captures, "content_query", "nixawk_hellobash_pr5_content_query_row_and_error.txt")
    row = re.compile(r"^Row: \d+ (\w+=[^,]*)(, \w+=[^,]*)*$", re.M)
    assert row.search(real)
    ours = sh("content query --uri content://settings/system --projection name:value")
    assert ours and all(row.match(line) for line in ours.splitlines())


@pytest.mark.conformance("AOSP documented formats")
def test_service_command_formats(sh: Sh) -> None:
    """cmds/service/service.cpp: `Found N services:` then `i<TAB>name: [interface]`; `Service X: found`."""
    lines = sh("service list").splitlines()
    m = re.match(r"^Found (\d+) services:$", lines[0])
    assert m and int(m.group(1)) == len(lines) - 1
    assert all(re.match(rf"^{i}\t[\w.]+: \[[\w.]*\]$", line) for i, line in enumerate(lines[1:]))
    assert sh("service check window") == "Service window: found\n"
    assert sh("service check nosuch") == "Service nosuch: not found\n"
    assert sh("service call nosuch 1") == "service: Service nosuch does not exist\n"


@pytest.mark.conformance("ime / am / monkey captures")
def test_dumpsys_input_method_lines(captures: Path, phone: PhoneOS, sh: Sh) -> None:
    """The lines clients read carry the same fields, in the same order, as Android 13's dump: the
    `mShowRequested ... mInputShown` line (Mobile-Agent's get_keyboard, the harness), `mCurMethodId=`
    (uiautomator2), `mCurId=`, and each `InputMethod #N:` block's `mId=` line."""
    real = capture(captures, "ime", "mtk_tb8168_android13_bugreport_dumpsys_input_method.txt")

    def fields(text: str, marker: str) -> list[str]:
        line = next(x for x in text.splitlines() if marker in x)
        return re.findall(r"(\w+)=", line)

    ours = sh("dumpsys input_method")
    for marker in ("mInputShown=", "mCurId=", "    mId=", "mCurMethodId=", "Input Methods:"):
        assert fields(ours, marker) == fields(real, marker), marker
    assert re.findall(r"^  InputMethod #(\d+):$", ours, re.M) == ["0", "1"]
    assert "mInputShown=false" in ours
    focus_search_field(phone, sh)
    shown = next(x for x in sh("dumpsys input_method").split("\n") if "mInputShown" in x)
    assert "mInputShown=true" in shown  # what Mobile-Agent-v2's get_keyboard looks for


@pytest.mark.conformance("AOSP documented formats")
def test_run_as_refuses_release_apps(sh: Sh) -> None:
    """system/core/run-as: error(1, 0, ...) messages; the phone's apps are release (not debuggable)."""
    assert sh("run-as com.spa.shop ls") == "run-as: package not debuggable: com.spa.shop\n"
    assert sh("run-as com.android.settings ls") == \
        "run-as: package not an application: com.android.settings\n"
    assert sh("run-as com.example.none id") == "run-as: unknown package: com.example.none\n"


@pytest.mark.conformance("AOSP documented formats")
def test_shell_user_permissions_and_su(sh: Sh) -> None:
    """Before `adb root`: other apps' folders cannot be listed, read, written, globbed or redirected
    from; the userdebug image's su (system/extras/su) runs a command as root without adb root."""
    db = "/data/data/com.android.providers.settings/databases/settings.db"
    assert sh("id -u") == "2000\n"
    assert sh("ls /data/data") == "ls: /data/data: Permission denied\n"
    assert sh("echo /data/data/*") == "/data/data/*\n"  # the glob reads nothing, the word stays
    assert sh(f"cat < {db}") == f"/system/bin/sh: can't open {db}: Permission denied\n"
    assert "Permission denied" in sh("echo x > /data/data/com.spa.shop/x")
    assert sh("echo ok > /data/local/tmp/t; cat /data/local/tmp/t") == "ok\n"
    assert sh("cd /data/data && pwd") == "/data/data\n"  # passable (--x), not listable
    assert sh("cd /data/data/com.spa.shop") == \
        "/system/bin/sh: cd: /data/data/com.spa.shop: Permission denied\n"
    assert sh("su 0 id -u") == "0\n" and sh("su root sh -c 'id -u; whoami'") == "0\nroot\n"
    assert sh(f"su 0 head -c 15 {db}") == "SQLite format 3"
    assert sh("su -c id") == "su: invalid uid/gid '-c'\n"
    assert sh("id -u") == "2000\n"  # su changed nothing for the next command
