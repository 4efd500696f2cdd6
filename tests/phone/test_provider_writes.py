"""The virtual phone's providers take `content insert/delete` as AOSP's do, so that the commands that seed a
stock emulator (spa_bench.device.seeding) work on it unchanged: ContactsProvider2 puts data rows in the
data table and names the contact from its StructuredName row, SmsProvider files a message in its
correspondent's thread, CalendarProvider2 refuses an event without a calendar and deletes a calendar's
events with it (the calendar_cleanup trigger), and toybox's `touch -d` sets a file's time."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # only for the annotations: at run time `conftest` may name another folder's module
    from conftest import PhoneHandle


@pytest.fixture
def phone(running_phone: PhoneHandle) -> PhoneHandle:
    running_phone.reset()
    running_phone.shell("true")
    return running_phone


def _ids(output: str, column: str) -> list[str]:
    return re.findall(rf"\b{column}=([^,\n]*)", output)


def test_a_contact_is_a_raw_contact_then_data_rows_and_takes_its_name_from_them(phone: PhoneHandle) -> None:
    assert phone.shell("content insert --uri content://com.android.contacts/raw_contacts "
                       "--bind account_type:n: --bind account_name:n: --bind starred:i:1") == ""
    raw_id = _ids(phone.shell("content query --uri content://com.android.contacts/raw_contacts "
                              "--projection _id --sort '_id DESC'"), "_id")[0]
    name = (f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
            "--bind mimetype:s:vnd.android.cursor.item/name --bind data2:s:Ada --bind data3:s:Lovelace")
    number = (f"content insert --uri content://com.android.contacts/data --bind raw_contact_id:i:{raw_id} "
              "--bind mimetype:s:vnd.android.cursor.item/phone_v2 --bind 'data1:s:+44 20 7946 0000' "
              "--bind data2:s:2")
    assert phone.shell(name) == "" and phone.shell(number) == ""
    contact = phone.shell("content query --uri content://com.android.contacts/contacts "
                          "--projection display_name:starred:has_phone_number --where \"display_name = "
                          "'Ada Lovelace'\"")
    assert contact == "Row: 0 display_name=Ada Lovelace, starred=1, has_phone_number=1\n"
    assert "data1=+44 20 7946 0000" in phone.shell(
        "content query --uri content://com.android.contacts/data/phones "
        "--where \"display_name = 'Ada Lovelace'\"")
    # a sync adapter's delete of the raw contact takes its data rows along
    phone.shell("content delete --uri 'content://com.android.contacts/raw_contacts?caller_is_syncadapter=true'"
                f" --where '_id = {raw_id}'")
    assert phone.shell(f"content query --uri content://com.android.contacts/data --where "
                       f"'raw_contact_id = {raw_id}'") == "No result found.\n"


def test_an_sms_joins_its_correspondents_thread_or_starts_one(phone: PhoneHandle) -> None:
    def thread_of(address: str) -> set[str]:
        return set(_ids(phone.shell(f"content query --uri content://sms --projection thread_id "
                                    f"--where \"address = '{address}'\""), "thread_id"))

    existing = thread_of("+1 650-555-0101")
    assert len(existing) == 1
    phone.shell("content insert --uri content://sms/inbox --bind 'address:s:+1 650-555-0101' "
                "--bind 'body:s:See you at 12:30' --bind date:l:1768469400000")
    phone.shell("content insert --uri content://sms --bind address:s:555-0000 --bind type:i:2 "
                "--bind body:s:hello")
    assert thread_of("+1 650-555-0101") == existing
    new = thread_of("555-0000")
    assert len(new) == 1 and new != existing and "NULL" not in new
    assert "type=1" in phone.shell("content query --uri content://sms --projection type "
                                   "--where \"body = 'See you at 12:30'\"")


def test_an_event_needs_a_calendar_and_goes_with_it(phone: PhoneHandle) -> None:
    refused = phone.adb.run("shell", "content insert --uri content://com.android.calendar/events "
                            "--bind title:s:Orphan --bind dtstart:l:1768469400000 "
                            "--bind dtend:l:1768473000000",
                            serial=phone.serial, check=False)
    assert b"calendar_id" in refused.stdout + refused.stderr
    assert "Orphan" not in phone.shell("content query --uri content://com.android.calendar/events")
    assert "Row: " in phone.shell("content query --uri content://com.android.calendar/events")
    phone.shell("content delete --uri content://com.android.calendar/calendars")
    assert phone.shell("content query --uri content://com.android.calendar/events") == "No result found.\n"


def test_touch_d_sets_the_time_toybox_parses(phone: PhoneHandle) -> None:
    phone.shell("touch /sdcard/Download/t.txt")
    phone.shell("touch -d @1713867120 /sdcard/Download/t.txt")
    assert phone.shell("stat -c %Y /sdcard/Download/t.txt").strip() == "1713867120"
    phone.shell("touch -d 2024-04-23T10:12:00Z /sdcard/Download/t.txt")
    assert phone.shell("stat -c %Y /sdcard/Download/t.txt").strip() == "1713867120"
    assert "bad date" in phone.adb.run("shell", "touch -d yesterday /sdcard/Download/t.txt",
                                       serial=phone.serial, check=False).stderr.decode()
