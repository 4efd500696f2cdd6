"""What the dialer may do with calls (TelecomManager and the InCallService's Call objects): place a
call, answer, decline or end one, and read or change the blocked-number list. It wraps the phone's
`Telephony` and `BlockedNumbers` so an app never holds the OS itself; every change redraws the screen.

Two of Telecom's paths start outside the dialer. A CALL intent (`am start -a android.intent.action.CALL
-d tel:N`) reaches Telecom's UserCallActivity, which places the call at once (CallIntentProcessor), so
the phone is OFFHOOK as soon as `am start` returns and the in-call screen only shows it
(`take_call_request`). KEYCODE_ENDCALL makes PhoneWindowManager call TelecomManager.endCall, which
ends the foreground call or rejects a ringing one (TelecomServiceImpl.endCallInternal) and the in-call
screen closes (`end_call`, `close_in_call_screen`). With no call the key would turn the screen off
(END_BUTTON_BEHAVIOR sleep), which the virtual phone does not model: it does nothing then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from spa_bench.phone.api import ProviderError, ProviderRow
from spa_bench.phone.system.blocked_numbers import BlockedNumbers
from spa_bench.phone.system.tasks import TaskManager
from spa_bench.phone.system.telephony import Call, Telephony, TelephonyError, dial_string

NameLookup = Callable[[str], str | None]
DIALER_PACKAGE = "com.android.dialer"
IN_CALL_ACTIVITY = "com.android.incallui.InCallActivity"
# the in-call screen's argument that asks Telecom to place the call (intents.py); a name no other app's
# activity uses ("place" was Maps' place page's, whose key it took away)
PLACE_REQUEST = "telecom_place_call"


class Telecom:
    def __init__(self, telephony: Telephony, blocked: BlockedNumbers, invalidate: Callable[[], None]) -> None:
        self.telephony = telephony
        self.blocked = blocked
        self._invalidate = invalidate

    def calls(self) -> list[Call]:
        return list(self.telephony.calls)

    def place_call(self, number: str) -> None:
        self.telephony.place_call(number)
        self._invalidate()

    def answer(self, number: str) -> None:
        self.telephony.update(number, "active")
        self._invalidate()

    def end(self, number: str, name: str | None, rejected: bool = False) -> int:
        """Hang up (or decline a ringing call); returns the call-log row id Telecom wrote."""
        row = self.telephony.disconnect(number, name, rejected=rejected)
        self._invalidate()
        return row

    def take_call_request(self, package: str, activity: str, args: dict[str, Any]) -> dict[str, Any]:
        """A CALL intent's in-call screen arguments: the call is placed now (a number that cannot be
        called now stays unplaced and the screen says the call ended); the request is consumed. Any
        other activity's arguments are its own and pass unchanged."""
        if (package, activity) != (DIALER_PACKAGE, IN_CALL_ACTIVITY) or not args.get(PLACE_REQUEST):
            return args
        number = dial_string(str(args.get("number", "")))
        if number:
            try:
                self.place_call(number)
            except TelephonyError:
                pass
        return {k: v for k, v in args.items() if k != PLACE_REQUEST}

    def foreground_call(self) -> Call | None:
        """The call endCall acts on: the foreground (active) call, else the first call that is active,
        ringing or held, in the order the modem lists them."""
        calls = self.telephony.calls
        return next((c for c in calls if c.state == "active"), None) or next(iter(calls), None)

    def blocked_numbers(self) -> list[str]:
        return [n for _id, n in self.blocked.numbers()]

    def block(self, number: str) -> None:
        self.blocked.block(number)
        self._invalidate()

    def unblock(self, number: str) -> None:
        self.blocked.unblock(number)
        self._invalidate()


CONTACT_PHONES = "content://com.android.contacts/data/phones"
MIN_MATCH = 7  # PhoneNumberUtils' loose match: the last 7 digits


class InCallHost(Protocol):
    """What ending a call needs of the OS: its calls, tasks, activity manager and content providers."""

    telecom: Telecom
    tasks: TaskManager

    def content_query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
                      sort: str | None = None) -> list[ProviderRow]: ...

    def finish_activity(self, package: str) -> None: ...

    def invalidate(self) -> None: ...

    def start_activity(self, package: str, activity: str | None = None,
                       extras: dict[str, str] | None = None) -> str: ...


def close_in_call_screen(host: InCallHost) -> None:
    """The call went away: the in-call UI finishes itself, as InCallActivity does, and the user is back
    where they were (`return_to`, the app an incoming call rang over)."""
    stack = host.tasks.stacks.get(DIALER_PACKAGE) or []
    live = {c.number for c in host.telecom.telephony.calls}
    if not stack or stack[-1].activity != IN_CALL_ACTIVITY or stack[-1].args.get("number") in live:
        return
    back = str(stack[-1].args.get("return_to") or "")
    if len(stack) == 1:  # a CALL intent's in-call screen is its task's only one: the task goes with it
        host.tasks.remove(DIALER_PACKAGE)
    elif host.tasks.front == DIALER_PACKAGE:
        host.finish_activity(DIALER_PACKAGE)
    else:
        stack.pop()
        back = ""
    if back:
        host.start_activity(back)
    host.invalidate()


def caller_name(host: InCallHost, number: str) -> str | None:
    """The contact name Telecom caches in the call log (CallerInfo's lookup in the Contacts provider):
    the same number ignoring punctuation and a leading +, or the same last digits when 7 or more."""
    def digits(text: object) -> str:
        return "".join(ch for ch in str(text or "") if ch.isdigit())

    want = digits(number)
    if not want:
        return None
    try:
        rows = host.content_query(CONTACT_PHONES, ["display_name", "data1"])
    except (KeyError, ProviderError):  # no Contacts provider on this phone
        return None
    for row in rows:
        have = digits(row.values.get("data1"))
        if have == want or (len(want) >= MIN_MATCH and have.endswith(want)):
            return str(row.values.get("display_name"))
    return None


def end_call(host: InCallHost) -> bool:
    """TelecomManager.endCall: end the foreground call, or reject it when it is ringing; True when
    there was a call. Telecom writes the call-log row with the caller's cached name."""
    call = host.telecom.foreground_call()
    if call is None:
        return False
    name = caller_name(host, call.number)
    host.telecom.end(call.number, name, rejected=call.state in ("incoming", "waiting"))
    close_in_call_screen(host)
    return True
