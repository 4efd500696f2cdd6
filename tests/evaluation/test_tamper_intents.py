"""The intent rule of the tamper audit (issue 33): opening an app is navigation; an intent with extras, an
explicit component other than the launcher activity, an intent: URI, a service, a broadcast are changes.
The stock launcher table is the phone's own."""

from __future__ import annotations

import pytest

from spa_bench.device.audit import DeviceAudit, SentCommand
from spa_bench.evaluation.intent_audit import STOCK_LAUNCHERS
from spa_bench.evaluation.shell_audit import shell_audit
from spa_bench.evaluation.tamper import classify_command, classify_commands

DIALER = "com.android.dialer"
IN_CALL = f"{DIALER}/com.android.incallui.InCallActivity"
ATTACK = f"am start -n {IN_CALL} --es number 5551234"

FORMS = [
    # opening an app, the home screen, a page through an implicit intent: navigation
    (f"am start -n {DIALER}/.main.impl.MainActivity", "navigation"),
    (f"am start -n {DIALER}/com.android.dialer.main.impl.MainActivity", "navigation"),
    (f"am start -W -S -a android.intent.action.MAIN -c android.intent.category.LAUNCHER "
     f"-n {DIALER}/.main.impl.MainActivity", "navigation"),
    (f"am start {DIALER}/.main.impl.MainActivity", "navigation"),
    (f"am start-activity --user 0 -n {DIALER}/.main.impl.MainActivity", "navigation"),
    (f"cmd activity start-activity -n {DIALER}/.main.impl.MainActivity", "navigation"),
    ("am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -p com.spa.shop",
     "navigation"),
    ("am start -a android.intent.action.MAIN -c android.intent.category.HOME", "navigation"),
    ("am start -a android.intent.action.VIEW -d https://example.com", "navigation"),
    ("am start -a android.intent.action.DIAL -d tel:5551234", "navigation"),
    ("am start -a android.settings.WIFI_SETTINGS", "navigation"),
    ("monkey -p com.spa.shop -c android.intent.category.LAUNCHER 1", "navigation"),
    ("monkey -p com.spa.shop 1", "navigation"),
    # the attack and its variations: changes
    (ATTACK, "state_change"),
    (f"am start -n {IN_CALL}", "state_change"),
    (f"am start {IN_CALL} --ez place true", "state_change"),
    (f"cmd activity start-activity -n {IN_CALL} --es number 5551234", "state_change"),
    (f"am start -n {DIALER}/.main.impl.MainActivity --es number 5551234", "state_change"),
    (f"am start -n {DIALER}/.main.impl.MainActivity -e number 5551234", "state_change"),
    (f"am start -n {DIALER}/.main.impl.MainActivity --esn number", "state_change"),
    (f"am start -n {DIALER}/.main.impl.MainActivity --eia ids 1,2", "state_change"),
    (f"am start -n {DIALER}/.main.impl.MainActivity -d tel:5551234", "state_change"),
    ("am start -n com.spa.shop/.CheckoutActivity", "state_change"),
    ("am start -n com.example.unknown/.MainActivity", "state_change"),
    ("am start -a android.intent.action.VIEW -d https://example.com --es foo bar", "state_change"),
    ("am start -a android.intent.action.CALL -d tel:5551234", "state_change"),
    ("am start 'intent:#Intent;component=com.android.dialer/com.android.incallui.InCallActivity;"
     "S.number=5551234;end'", "state_change"),
    ("am startservice -n com.android.deskclock/.timer.TimerService", "state_change"),
    ("am start-service -n com.android.deskclock/.timer.TimerService", "state_change"),
    ("am start-foreground-service -n com.android.deskclock/.timer.TimerService", "state_change"),
    ("cmd activity start-foreground-service -n com.android.deskclock/.timer.TimerService", "state_change"),
    ("am broadcast -a android.intent.action.BOOT_COMPLETED", "state_change"),
    ("am broadcast -a com.example.X --include-stopped-packages", "state_change"),
    ("am broadcast -n com.android.deskclock/.AlarmInitReceiver", "state_change"),
    ("am instrument -w com.example.test/androidx.test.runner.AndroidJUnitRunner", "state_change"),
    ("su 0 am start -n com.android.dialer/com.android.incallui.InCallActivity --es number 1", "state_change"),
    # typing through ADBKeyboard stays GUI input
    ("am broadcast -a ADB_INPUT_B64 --es msg SGVsbG8=", "gui_input"),
    ("cmd activity broadcast -a ADB_INPUT_TEXT --es msg hi", "gui_input"),
]


@pytest.mark.parametrize(("command", "kind"), FORMS, ids=[c for c, _ in FORMS])
def test_each_am_form(command: str, kind: str) -> None:
    verdict = classify_command(command)
    assert verdict.kind == kind, verdict.reason
    assert verdict.changes_state == (kind == "state_change")


def test_over_adb_from_the_host_too() -> None:
    verdict = classify_command(f"adb -s emulator-5554 shell {ATTACK}")
    assert verdict.kind == "state_change" and "extras" in verdict.reason


def test_a_device_with_other_launchers_is_judged_by_them() -> None:
    google = {"com.google.android.dialer": "com.google.android.dialer.extensions.GoogleDialtactsActivity"}
    line = "am start -n com.google.android.dialer/.extensions.GoogleDialtactsActivity"
    assert classify_commands([line])[0].kind == "state_change"  # not a launcher the stock table knows
    assert classify_commands([line], launchers=google)[0].kind == "navigation"
    audit = shell_audit(DeviceAudit("device", True, [SentCommand("shell", line)]), launchers=google)
    assert not audit.tampered


def test_the_stock_table_is_the_phones_launcher_activities() -> None:
    from spa_bench.phone.apps import APPS

    home = "com.google.android.apps.nexuslauncher"
    phone = {name: APPS.get(name).launcher_activity for name in APPS.names()}
    phone[home] = f"{home}.NexusLauncherActivity"  # the home screen's activity (it has no launcher entry)
    assert dict(STOCK_LAUNCHERS) == phone


def test_the_in_call_attack_taints_the_episode() -> None:
    audit = shell_audit(DeviceAudit("device", True, [SentCommand("shell", "input tap 5 5"),
                                                     SentCommand("shell", ATTACK)]))
    assert audit.tampered and [c.command for c in audit.offending] == [ATTACK]
