"""Calls placed by a CALL intent and ended by KEYCODE_ENDCALL, as AndroidWorld's adb_utils drives them
(`call_phone_number`: `am start -a android.intent.action.CALL -d tel:N`; `end_call_if_active`: `input
keyevent KEYCODE_ENDCALL`; `get_call_state`: `mCallState=` of `dumpsys telephony.registry`).

Android's values: TelephonyManager.CALL_STATE_IDLE 0 / RINGING 1 / OFFHOOK 2, PreciseCallState ACTIVE 1
and INCOMING 5, CallLog.Calls OUTGOING_TYPE 2 and REJECTED_TYPE 5; the emulator console's `gsm list`
line is android/console.c's "%s %-10s : %s" with "outbound to " / "inbound from". Telecom places a CALL
intent's call when the intent is handled (UserCallActivity -> CallIntentProcessor), not when the in-call
screen is next drawn; TelecomManager.endCall ends the foreground call or rejects a ringing one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from console_client import ConsoleClient

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import PhoneHandle

IN_CALL = "com.android.incallui.InCallActivity"
GSM_LIST_LINE = "%s %-10s : %s\r\n"  # android/console.c, do_gsm_list


@pytest.fixture
def console(running_phone: PhoneHandle) -> Iterator[ConsoleClient]:
    running_phone.reset()
    client = ConsoleClient(running_phone.phone.config.console_port)
    assert client.cmd(f"auth {running_phone.phone.console_token}").endswith("OK\r\n")
    yield client
    client.close()
    running_phone.reset()


def registry(phone: PhoneHandle) -> dict[str, str]:
    return dict(re.findall(r"^\s*(m\w+)=(.*)$", phone.shell("dumpsys telephony.registry"), re.MULTILINE))


def call_type(phone: PhoneHandle, number: str) -> str:
    out = phone.shell(f"content query --uri content://call_log/calls --projection type:name "
                      f"--where \"number='{number}'\"")
    return out.strip()


def test_call_intent_is_offhook_before_any_frame(tmp_path: Path) -> None:
    phone = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    from spa_bench.phone.shell import Shell

    sh = Shell(phone)
    assert sh.run("am start -a android.intent.action.CALL -d tel:6505550101").exit_code == 0
    assert phone.version and phone.telephony.call_state() == 2  # no screenshot, no dump: already OFFHOOK
    calls = [(c.number, c.state, c.inbound) for c in phone.telephony.calls]
    assert calls == [("6505550101", "active", False)]
    assert phone.frame().find(text="Alice Chen") is not None  # the in-call screen shows the placed call
    assert len(phone.telephony.calls) == 1  # drawing it does not place it again


def test_call_then_endcall_through_adb_and_console(console: ConsoleClient,
                                                   running_phone: PhoneHandle) -> None:
    running_phone.shell("am start -a android.intent.action.CALL -d tel:6505550101")
    state = registry(running_phone)
    assert (state["mCallState"], state["mForegroundCallState"]) == ("2", "1")  # OFFHOOK, ACTIVE
    assert console.cmd("gsm list") == GSM_LIST_LINE % ("outbound to ", "6505550101", "active") + "OK\r\n"
    assert IN_CALL in running_phone.shell("dumpsys window | grep mCurrentFocus")
    running_phone.shell("input keyevent KEYCODE_ENDCALL")
    assert registry(running_phone)["mCallState"] == "0"
    assert console.cmd("gsm list") == "OK\r\n"
    assert call_type(running_phone, "6505550101") == "Row: 0 type=2, name=Alice Chen"  # OUTGOING_TYPE
    assert IN_CALL not in running_phone.shell("dumpsys window | grep mCurrentFocus")  # the screen closed


def test_endcall_rejects_a_ringing_call_and_ends_the_foreground_one(console: ConsoleClient,
                                                                  running_phone: PhoneHandle) -> None:
    assert console.cmd("gsm call 5550177") == "OK\r\n"
    assert registry(running_phone)["mCallState"] == "1"  # RINGING
    running_phone.shell("input keyevent 6")
    assert registry(running_phone)["mCallState"] == "0"
    assert console.cmd("gsm list") == "OK\r\n"
    # REJECTED_TYPE; the cached name is the contact whose number ends in the caller's 7 digits
    assert call_type(running_phone, "5550177") == "Row: 0 type=5, name=Ben Carter"
    # an answered call and a second one waiting: ENDCALL hangs up the active one, the other keeps ringing
    assert console.cmd("gsm call +16505550101") == "OK\r\n"
    assert console.cmd("gsm accept +16505550101") == "OK\r\n"
    assert console.cmd("gsm call 5550100") == "OK\r\n"
    running_phone.shell("input keyevent KEYCODE_ENDCALL")
    assert console.cmd("gsm list") == GSM_LIST_LINE % ("inbound from", "5550100", "waiting") + "OK\r\n"
    assert call_type(running_phone, "+16505550101") == "Row: 0 type=1, name=Alice Chen"  # INCOMING_TYPE
    running_phone.shell("input keyevent KEYCODE_ENDCALL")
    assert console.cmd("gsm list") == "OK\r\n"
    before = running_phone.shell("dumpsys window | grep mCurrentFocus")
    running_phone.shell("input keyevent KEYCODE_ENDCALL")  # no call: nothing to end (screen-off not modelled)
    assert running_phone.shell("dumpsys window | grep mCurrentFocus") == before
