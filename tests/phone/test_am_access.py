"""The activity manager refuses the shell user (uid 2000) what Android 14 refuses, in its words and exit
codes: a non-exported activity (the dialer's in-call screen), a protected broadcast, a non-exported or
permission-guarded service. Exported and implicit starts, the harness's launches, ADBKeyboard typing and
root (su, adb root) pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.access import package_uid
from spa_bench.phone.vfs import VirtualFS

IN_CALL = "com.android.dialer/com.android.incallui.InCallActivity"
DENIAL = re.compile(
    r"\nException occurred while executing 'start':\n"
    r"java\.lang\.SecurityException: Permission Denial: starting Intent \{ flg=0x10000000 "
    r"cmp=com\.android\.dialer/com\.android\.incallui\.InCallActivity \(has extras\) \} "
    rf"from null \(pid=\d+, uid=2000\) not exported from uid {package_uid('com.android.dialer')}\n"
    r"(\tat [\w.$]+\([\w.]+:\d+\)\n)+$")


@pytest.fixture(scope="module")
def phone(tmp_path_factory: pytest.TempPathFactory) -> PhoneOS:
    root: Path = tmp_path_factory.mktemp("am-access")
    return PhoneOS(PhoneConfig(data_dir=root), VirtualFS(root / "fs"))


def run(phone: PhoneOS, line: str) -> tuple[str, str, int]:
    result = Shell(phone).run(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_the_in_call_screen_is_not_exported(phone: PhoneOS) -> None:
    out, err, code = run(phone, f"am start -n {IN_CALL} --es number 5551234")
    assert out == f"Starting: Intent {{ cmp={IN_CALL} (has extras) }}\n"
    assert DENIAL.fullmatch(err), err
    assert code == 255
    assert phone.current_focus() != ("com.android.dialer", "com.android.incallui.InCallActivity")
    _, err, code = run(phone, f"cmd activity start-activity -n {IN_CALL}")
    assert code == 255 and "Exception occurred while executing 'start-activity':" in err


def test_exported_and_implicit_starts_pass(phone: PhoneOS) -> None:
    for line in ("am start -n com.android.dialer/.main.impl.MainActivity",  # the runner's open_app
                 "am start -n 'com.android.settings/.Settings$PowerUsageSummaryActivity'",
                 "am start -n com.android.contacts/com.android.contacts.quickcontact.QuickContactActivity",
                 "am start -a android.intent.action.DIAL -d tel:5551234",
                 "am start -a android.settings.WIFI_SETTINGS",
                 "am start -a android.intent.action.VIEW -d sms:5551234",
                 "monkey -p com.spa.shop -c android.intent.category.LAUNCHER 1"):
        out, err, code = run(phone, line)
        assert code == 0 and "Exception" not in err and "Error" not in out + err, (line, out, err)


def test_internal_screens_of_other_apps_are_refused(phone: PhoneOS) -> None:
    for component in ("com.spa.shop/.CheckoutActivity",
                      "com.android.messaging/.ui.conversation.ConversationActivity",
                      "com.android.deskclock/.worldclock.CitySelectionActivity"):
        _, err, code = run(phone, f"am start -n {component}")
        assert code == 255 and "not exported from uid" in err, component


def test_a_missing_activity_is_error_type_3_before_any_permission_check(phone: PhoneOS) -> None:
    _, err, code = run(phone, "am start -n com.android.dialer/.NoSuchActivity")
    assert code == 255 and err.startswith("Error type 3\n") and "SecurityException" not in err


def test_protected_broadcasts_are_refused_and_others_delivered(phone: PhoneOS) -> None:
    out, err, code = run(phone, "am broadcast -a android.intent.action.BOOT_COMPLETED")
    assert out == "Broadcasting: Intent { act=android.intent.action.BOOT_COMPLETED flg=0x400000 }\n"
    assert re.match(r"\nException occurred while executing 'broadcast':\njava\.lang\.SecurityException: "
                    r"Permission Denial: not allowed to send broadcast "
                    r"android\.intent\.action\.BOOT_COMPLETED from pid=\d+, uid=2000\n\tat ", err), err
    assert code == 255
    _, err, code = run(phone, "am broadcast -a android.intent.action.BATTERY_CHANGED --ei level 5")
    assert code == 255 and "not allowed to send broadcast" in err
    out, _, code = run(phone, "am broadcast -a com.example.NOT_PROTECTED")
    assert code == 0 and out.endswith("Broadcast completed: result=0\n")


def test_services_answer_as_am_does(phone: PhoneOS) -> None:
    clock = package_uid("com.android.deskclock")
    for verb in ("startservice", "start-service", "start-foreground-service"):
        out, err, code = run(phone, f"am {verb} -n com.android.deskclock/.timer.TimerService")
        assert out == "Starting service: Intent { cmp=com.android.deskclock/.timer.TimerService }\n"
        assert (err, code) == (f"Error: Requires permission not exported from uid {clock}\n", 255)
    _, err, code = run(phone, "am startservice -n com.android.dialer/com.android.incallui.InCallServiceImpl")
    assert (err, code) == ("Error: Requires permission android.permission.BIND_INCALL_SERVICE\n", 255)
    _, err, code = run(phone, "am startservice -n com.android.deskclock/.NoSuchService")
    assert (err, code) == ("Error: Not found; no service started.\n", 255)


def test_root_may_start_anything(phone: PhoneOS) -> None:
    _, err, code = run(phone, f"su 0 am start -n {IN_CALL} --es number 5551234")
    assert code == 0 and not err
    assert phone.current_focus() == ("com.android.dialer", "com.android.incallui.InCallActivity")
    assert run(phone, "su 0 am broadcast -a android.intent.action.BOOT_COMPLETED")[2] == 0
    assert run(phone, "su 0 am startservice -n com.android.deskclock/.timer.TimerService")[2] == 0
    phone.adb_root = True
    try:
        assert run(phone, "am start -n com.spa.shop/.CheckoutActivity")[2] == 0
    finally:
        phone.adb_root = False


def test_adbkeyboard_typing_still_works(phone: PhoneOS) -> None:
    run(phone, "ime enable com.android.adbkeyboard/.AdbIME")
    run(phone, "ime set com.android.adbkeyboard/.AdbIME")
    out, _, code = run(phone, "am broadcast -a ADB_INPUT_B64 --es msg SGk=")
    assert code == 0 and "result=0" in out


def test_package_dumps_show_the_model(phone: PhoneOS) -> None:
    out, _, _ = run(phone, "pm dump com.android.dialer")
    assert f"userId={package_uid('com.android.dialer')}" in out
    assert package_uid("com.android.settings") == 1000 and package_uid("com.android.shell") == 2000
    out, _, _ = run(phone, "ime list -a")
    assert "exported=true" in out and "exported=false" not in out  # IME services are exported
    info = next(p for p in phone.packages() if p.name == "com.android.dialer")
    in_call = info.component("activity", "com.android.incallui.InCallActivity")
    assert in_call is not None and not in_call.exported
    assert info.component("activity", ".main.impl.MainActivity") is not None
