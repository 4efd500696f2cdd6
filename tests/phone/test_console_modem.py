"""The console's `sms send`, `gsm ...` and `geo fix` against AOSP and the emulator.

Argument checks and replies are those of the emulator's console source (android/console.c); what the
phone then shows is read back over adb in Android's formats: content://sms and content://call_log/calls
rows (`Row: N col=value, ...`, as in the real capture shell/content_query/*), the call-log columns of
AOSP's CallLogDatabaseHelper, TelephonyRegistry.dump's `mCallState=` lines and
LocationProviderManager.dump's `last location=Location[...]` (parsed with the expressions scripts use).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from console_client import ConsoleClient

from spa_bench.phone.console_modem import gsm_number_ok, sms_address_ok, strtod_list, unescape_message
from spa_bench.phone.system.location import format_duration, java_double

if TYPE_CHECKING:
    from conftest import PhoneHandle

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "reference" / "android-captures"
# CallLogDatabaseHelper.onCreate (packages/providers/ContactsProvider), column names from CallLog.Calls.
AOSP_CALL_COLUMNS = [
    "_id", "number", "presentation", "post_dial_digits", "via_number", "date", "duration", "data_usage",
    "type", "features", "subscription_component_name", "subscription_id", "phone_account_address",
    "phone_account_hidden", "sub_id", "new", "name", "numbertype", "numberlabel", "countryiso",
    "voicemail_uri", "is_read", "geocoded_location", "lookup_uri", "matched_number", "normalized_number",
    "photo_id", "photo_uri", "formatted_number", "add_for_all_users", "last_modified", "_data",
    "has_content", "mime_type", "source_data", "source_package", "transcription", "state", "dirty",
    "deleted", "backed_up", "restored", "archived", "is_omtp_voicemail"]
# How location readers parse dumpsys location (e.g. public adb GPS scripts): Location[provider lat,lon ...]
LOCATION_RE = re.compile(r"Location\[([a-z]+)\s+(-?\d+\.\d+),(-?\d+\.\d+)([^\]]*)\]")
ROW_RE = re.compile(r"^Row: (\d+) (.*)$")


def rows(text: str) -> list[dict[str, str]]:
    """`content query` output -> dicts; values may hold ", " so split on ", name=" of known names."""
    out = []
    for line in text.splitlines():
        m = ROW_RE.match(line)
        if m:
            out.append(dict(re.findall(r"(?:^|, )(\w+)=(.*?)(?=, \w+=|$)", m.group(2))))
    return out


@pytest.fixture
def console(running_phone: PhoneHandle) -> Iterator[ConsoleClient]:

    running_phone.reset()
    client = ConsoleClient(running_phone.phone.config.console_port)
    assert client.cmd(f"auth {running_phone.phone.console_token}").endswith("OK\r\n")
    yield client
    client.close()
    running_phone.reset()


def registry(phone: PhoneHandle) -> dict[str, str]:
    out = phone.shell("dumpsys telephony.registry")
    return dict(re.findall(r"^\s*(m\w+)=(.*)$", out, re.MULTILINE))


def test_sms_send_checks_arguments_and_delivers_to_the_inbox(console: ConsoleClient,
                                                             running_phone: PhoneHandle) -> None:
    usage = "KO: missing argument, try 'sms send <phonenumber> <text message>'\r\n"
    assert console.cmd("sms send") == usage
    assert console.cmd("sms send 5550100") == usage
    assert console.cmd("sms send 555a0100 hi") == "KO: bad phone number format, must be [+](0-9)*\r\n"
    assert console.cmd("sms send + hi") == "KO: bad phone number format, must be [+](0-9)*\r\n"
    bad = console.cmd("sms send 5550100 tab\\t")
    assert bad.startswith("message must be utf8 and can use the following escapes:\r\n")
    assert bad.endswith("    anything else is an error\r\nKO: badly formatted text\r\n")
    before = len(rows(running_phone.shell("content query --uri content://sms/inbox")))
    assert console.cmd("sms send +16505550188 Meet at 5?\\nBring \\u4f60\\u597d") == "OK\r\n"
    inbox = rows(running_phone.shell("content query --uri content://sms/inbox"))
    assert len(inbox) == before + 1
    new = [r for r in inbox if r["address"] == "+16505550188"]
    assert len(new) == 1
    row = new[0]
    assert row["type"] == "1" and row["read"] == "0" and row["seen"] == "0"
    stored = running_phone.phone.system.content_query(f"content://sms/{row['_id']}")  # body has a newline
    assert stored[0].values["body"] == "Meet at 5?\nBring 你好"
    assert int(row["date_sent"]) % 1000 == 0 and int(row["date"]) >= int(row["date_sent"])
    where = f"thread_id={row['thread_id']}"
    thread = rows(running_phone.shell(f'content query --uri content://sms --where "{where}"'))
    assert [r["_id"] for r in thread] == [row["_id"]]  # a new correspondent gets a new thread


def test_gsm_call_accept_cancel_drive_call_state_and_call_log(console: ConsoleClient,
                                                              running_phone: PhoneHandle) -> None:
    assert console.cmd("gsm call") == "KO: missing argument, try 'gsm call <phonenumber>'\r\n"
    assert console.cmd("gsm call 555-0100") == "KO: bad phone number format, use digits, # and + only\r\n"
    assert console.cmd("gsm accept 5550100") == "KO: no current call to/from number '5550100'\r\n"
    assert console.cmd("gsm cancel 5550100") == "KO: could not cancel this number\r\n"
    assert registry(running_phone)["mCallState"] == "0"

    assert console.cmd("gsm call +16505550101") == "OK\r\n"  # Alice Chen in the seeded contacts
    state = registry(running_phone)
    assert state["mCallState"] == "1"  # TelephonyManager.CALL_STATE_RINGING
    assert state["mCallIncomingNumber"] == "+16505550101"
    assert state["mRingingCallState"] == "5"  # PreciseCallState.PRECISE_CALL_STATE_INCOMING
    assert console.cmd("gsm list") == "inbound from +16505550101 : incoming\r\nOK\r\n"
    assert console.cmd("gsm accept +16505550101") == "OK\r\n"
    assert registry(running_phone)["mCallState"] == "2"  # CALL_STATE_OFFHOOK
    assert registry(running_phone)["mForegroundCallState"] == "1"  # PRECISE_CALL_STATE_ACTIVE
    assert console.cmd("gsm call 5550100") == "OK\r\n"  # a second call waits beside the active one
    assert console.cmd("gsm list") == ("inbound from +16505550101 : active\r\n"
                                       "inbound from 5550100    : waiting\r\nOK\r\n")
    assert console.cmd("gsm cancel 5550100") == "OK\r\n"
    assert console.cmd("gsm cancel +16505550101") == "OK\r\n"
    state = registry(running_phone)
    assert state["mCallState"] == "0" and state["mCallIncomingNumber"] == ""
    assert console.cmd("gsm list") == "OK\r\n"

    out = running_phone.shell("content query --uri content://call_log/calls")
    first = out.splitlines()[0]
    assert [kv.split("=", 1)[0] for kv in first.split(" ", 2)[2].split(", ")] == AOSP_CALL_COLUMNS
    calls = {r["number"]: r for r in rows(out)}
    answered, missed = calls["+16505550101"], calls["5550100"]
    assert answered["type"] == "1" and answered["name"] == "Alice Chen"  # CallLog.Calls.INCOMING_TYPE
    assert missed["type"] == "3" and missed["duration"] == "0"  # MISSED_TYPE
    assert missed["new"] == "1" and missed["is_read"] == "0" and missed["name"] == "NULL"
    assert int(missed["last_modified"]) >= int(missed["date"])


def test_gsm_busy_refuses_inbound_calls(console: ConsoleClient) -> None:
    assert console.cmd("gsm busy") == "KO: missing argument, try 'gsm busy <phonenumber>'\r\n"
    assert console.cmd("gsm busy 5550100") == ("KO: no current outbound call to number '5550100' "
                                               "(call (nil))\r\n")
    assert console.cmd("gsm call 5550100") == "OK\r\n"
    assert console.cmd("gsm busy 5550100").startswith("KO: no current outbound call to number '5550100'")
    assert console.cmd("gsm hold 5550100") == "OK\r\n"
    assert console.cmd("gsm list") == "inbound from 5550100    : held\r\nOK\r\n"


def test_geo_fix_checks_arguments_and_sets_last_known_location(console: ConsoleClient,
                                                               running_phone: PhoneHandle) -> None:
    assert "last location=null" in running_phone.shell("dumpsys location")
    assert console.cmd("geo fix") == "KO: not enough arguments: see 'help geo fix' for details\r\n"
    assert console.cmd("geo fix 10") == "KO: not enough arguments: see 'help geo fix' for details\r\n"
    assert console.cmd("geo fix abc 2") == "KO: argument 'abc 2' is not a number\r\n"
    assert console.cmd("geo fix 200 10") == "KO: invalid longitude value. Should be in [-180,+180] range\r\n"
    assert console.cmd("geo fix 10 -91") == "KO: invalid latitude value. Should be in [-90,+90] range\r\n"
    assert console.cmd("geo fix 1 2 3 13") == ("KO: invalid number of satellites. Must be an integer "
                                               "between 1 and 12\r\n")
    assert console.cmd("geo fix -122.084 37.4219983 25.5 6") == "OK\r\n"
    dump = running_phone.shell("dumpsys location")
    assert "Location Manager State:" in dump and "  gps provider:" in dump
    found = [m.groups() for m in LOCATION_RE.finditer(dump)]
    assert found and all(g[:3] == ("gps", "37.421998", "-122.084000") for g in found)
    assert re.search(r" et=\+(\d+[dhm])*\d+s\d+ms| et=\+\d+ms", found[0][3])
    assert found[0][3].endswith(" alt=25.5")
    assert "enabled=true" in dump

    running_phone.shell("settings put secure location_mode 0")  # location off: fixes are dropped
    assert console.cmd("geo fix 10 20") == "OK\r\n"
    dump = running_phone.shell("dumpsys location")
    assert "37.421998" in dump and "20.000000" not in dump and "enabled=false" in dump


def test_snapshot_load_restores_radio_state(console: ConsoleClient, running_phone: PhoneHandle) -> None:
    assert console.cmd("gsm call 5550100") == "OK\r\n"
    assert console.cmd("geo fix 1 2") == "OK\r\n"
    assert console.cmd("avd snapshot load pristine") == "OK\r\n"
    assert registry(running_phone)["mCallState"] == "0"
    assert "last location=null" in running_phone.shell("dumpsys location")
    assert console.cmd("gsm list") == "OK\r\n"


def test_parsers_follow_the_emulator_and_java() -> None:
    # gsm_check_number / sms_address_from_str
    assert gsm_number_ok("+1#5550100") and not gsm_number_ok("") and not gsm_number_ok("555 0100")
    assert sms_address_ok("+" + "1" * 32) and not sms_address_ok("1" * 33) and not sms_address_ok("+")
    # sms_utf8_from_message_str escapes
    assert unescape_message(r"a\nb\\c\x41\u00e9") == "a\nb\\cAé"
    assert unescape_message(r"\q") is None and unescape_message(r"\x4") is None
    assert unescape_message(r"\xff") is None  # not UTF-8
    # strtod prefixes, as do_geo_fix tokenises
    assert strtod_list("1.5 -2e1 3", 5) == [1.5, -20.0, 3.0]
    assert strtod_list("10abc", 5) == "abc"
    # android.util.TimeUtils.formatDuration and Double.toString
    assert [format_duration(ms) for ms in (0, 500, 1500, 59_999, 3_723_456, 86_400_000)] == [
        "0", "+500ms", "+1s500ms", "+59s999ms", "+1h2m3s456ms", "+1d0h0m0s0ms"]
    assert [java_double(v) for v in (5.0, 0.0, -12.25, 0.001, 1.0e-4, 1.0e7, 123456789.0)] == [
        "5.0", "0.0", "-12.25", "0.001", "1.0E-4", "1.0E7", "1.23456789E8"]


def test_content_row_format_matches_a_real_capture() -> None:
    """Our row parser reads a real device's `content query` output; the phone's rows use the same form."""
    files = sorted((CAPTURES / "shell" / "content_query").glob("*.txt")) if CAPTURES.is_dir() else []
    if not files:
        pytest.skip(f"reference captures not found at {CAPTURES}")
    parsed = rows(files[0].read_text(encoding="utf-8"))
    assert parsed and parsed[0]["_id"] == "1" and parsed[0]["source"] == "NULL"
    assert parsed[0]["text"] == "Password: helloworld"


def test_adb_emu_reaches_the_modem_commands(running_phone: PhoneHandle) -> None:
    """`adb emu` (which reads the token file itself) drives the same commands as a telnet client."""
    running_phone.reset()
    serial = f"emulator-{running_phone.phone.config.console_port}"
    adb = running_phone.adb
    try:
        sent = adb.text("emu", "sms", "send", "5550177", "hello", "from", "adb", serial=serial)
        assert sent.split() == ["OK"]
        assert adb.text("emu", "geo", "fix", "116.397", "39.909", serial=serial).split() == ["OK"]
        assert "KO: bad phone number format" in adb.run("emu", "gsm", "call", "x1", serial=serial,
                                                         check=False).stdout.decode()
        query = "content query --uri content://sms/inbox --where \"address='5550177'\""
        inbox = rows(running_phone.shell(query))
        assert [r["body"] for r in inbox] == ["hello from adb"]
        assert "Location[gps 39.909000,116.397000 " in running_phone.shell("dumpsys location")
    finally:
        running_phone.reset()
