"""`pm clear` of a content provider's package empties what that provider holds, as on Android: the
provider starts again on an empty database (`content query` prints AOSP's `No result found.`), the
other providers keep their rows, and `pm clear` prints `Success`. The shell audit counts installs,
uninstalls and clears as changes of the phone's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from spa_bench.evaluation.tamper import classify_command

if TYPE_CHECKING:
    from conftest import PhoneHandle


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    return running_phone


def test_pm_clear_of_the_contacts_provider_empties_contacts_and_call_log(phone: PhoneHandle) -> None:
    assert "Row: 0" in phone.shell("content query --uri content://com.android.contacts/raw_contacts")
    sms_before = phone.shell("content query --uri content://sms --projection _id")
    assert "package:com.android.providers.contacts\n" in phone.shell("pm list packages providers")
    assert phone.shell("pm clear com.android.providers.contacts") == "Success\n"
    raw_contacts = "content query --uri content://com.android.contacts/raw_contacts"
    assert phone.shell(raw_contacts) == "No result found.\n"
    assert phone.shell("content query --uri content://call_log/calls") == "No result found.\n"
    # the schema is there (a new contact can be written), the other providers are untouched
    phone.shell("content insert --uri content://com.android.contacts/raw_contacts --bind display_name:s:Ann")
    assert "display_name=Ann" in phone.shell("content query --uri content://com.android.contacts/raw_contacts")
    assert phone.shell("content query --uri content://sms --projection _id") == sms_before


def test_pm_clear_of_the_telephony_provider_empties_sms(phone: PhoneHandle) -> None:
    assert "Row: 0" in phone.shell("content query --uri content://sms")
    assert phone.shell("pm clear com.android.providers.telephony") == "Success\n"
    assert phone.shell("content query --uri content://sms") == "No result found.\n"


@pytest.mark.parametrize("command", [
    "pm install -r -t /data/local/tmp/app.apk", "cmd package install -S 1000", "pm uninstall com.x",
    "pm clear com.android.providers.contacts", "adb install app.apk", "adb uninstall com.x"])
def test_the_audit_counts_package_changes_as_state_changes(command: str) -> None:
    assert classify_command(command).kind == "state_change", command


def test_the_phones_audit_shows_an_adb_install_as_a_change(running_phone: PhoneHandle) -> None:
    """`adb install` reaches the phone as a push and a `pm install` shell line (adb 36 with the phone's
    features); the audit records both, and the tamper verdict of the install is a state change."""
    import importlib.resources
    import json
    from pathlib import Path

    from console_client import ConsoleClient

    from spa_bench.evaluation.tamper import classify_commands

    running_phone.reset()
    client = ConsoleClient(running_phone.phone.config.console_port)
    assert client.cmd(f"auth {running_phone.phone.console_token}").endswith("OK\r\n")
    mark = int(client.cmd("spa audit mark").split("\r\n")[0])
    apk = Path(str(importlib.resources.files("uiautomator2") / "assets" / "app-uiautomator.apk"))
    running_phone.adb.run("install", str(apk), serial=running_phone.serial)
    running_phone.adb.run("uninstall", "com.github.uiautomator", serial=running_phone.serial)
    lines = [json.loads(line) for line in client.cmd(f"spa audit since {mark}").split("\r\n")[:-2]]
    client.close()
    entries = [(e["channel"], e["command"]) for e in lines[:-1]]
    assert ("push", "/data/local/tmp/app-uiautomator.apk") in entries, entries
    shell = [command for channel, command in entries if channel == "shell"]
    verdicts = {v.command: v.kind for v in classify_commands(shell)}
    installs = [c for c in shell if "pm" in c and "install" in c]
    assert installs and all(verdicts[c] == "state_change" for c in installs), verdicts


def test_pm_clear_of_the_calendar_provider_empties_events(phone: PhoneHandle) -> None:
    events = "content query --uri content://com.android.calendar/events --projection _id"
    assert "Row: 0" in phone.shell(events)
    assert phone.shell("pm clear com.android.providers.calendar") == "Success\n"
    assert phone.shell(events) == "No result found.\n"
    # the Calendar app still opens on the emptied provider
    assert "Starting:" in phone.shell("am start -n com.android.calendar/.AllInOneActivity")
    assert "com.android.calendar.AllInOneActivity" in phone.shell("dumpsys window windows")
