"""`pm clear` of a content provider's package empties what that provider holds, as on Android: the
provider starts again on an empty database (`content query` prints AOSP's `No result found.`), the
other providers keep their rows, and `pm clear` prints `Success`. The shell audit counts installs,
uninstalls and clears as changes of the phone's state."""

from __future__ import annotations

import pytest
from conftest import PhoneHandle

from spa_bench.evaluation.tamper import classify_command


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
