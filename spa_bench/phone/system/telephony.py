"""The phone's radio for voice calls: the emulated modem's call list and what Android makes of it.

The console's `gsm call/accept/hold/cancel` change the modem's calls as the emulator's modem does
(states incoming / waiting / active / held, as `gsm list` prints them). Android's view follows from them: the
call state TelephonyRegistry reports (TelephonyManager.CALL_STATE_IDLE 0, RINGING 1, OFFHOOK 2, with the
ringing number), the precise ringing / foreground / background call states (PreciseCallState), and a
call-log row written when a call ends: missed (never answered), rejected (declined on the phone), incoming
or outgoing with its talk time. A call from a blocked number never rings; it is logged as blocked, as
Telecom's call filter does. Outgoing calls come from the dialer (`place_call`); the emulator's modem
connects them after a short alerting phase, here at once (the talk time counts from then).
State is part of snapshots (`to_json` / `load_json`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from spa_bench.phone.system.call_log import (
    BLOCKED_TYPE,
    INCOMING_TYPE,
    MISSED_TYPE,
    OUTGOING_TYPE,
    REJECTED_TYPE,
    CallEntry,
    CallLog,
)
from spa_bench.phone.system.clock import PhoneClock, epoch_ms

CALL_STATE_IDLE, CALL_STATE_RINGING, CALL_STATE_OFFHOOK = 0, 1, 2
# PreciseCallState.PRECISE_CALL_STATE_*
PRECISE_IDLE, PRECISE_ACTIVE, PRECISE_HOLDING, PRECISE_INCOMING, PRECISE_WAITING = 0, 1, 2, 5, 6
MAX_CALLS = 4  # the emulator's modem holds at most this many calls (MAX_CALLS in android_modem.c)

ModemState = Literal["incoming", "waiting", "active", "held"]
MODEM_STATES = ("incoming", "waiting", "active", "held")


def dial_string(text: str) -> str:
    """What a dial string keeps (PhoneNumberUtils.extractNetworkPortion): digits and + * #; the spaces,
    dashes and brackets a user or a tel: URI carries are dropped."""
    return "".join(ch for ch in text if ch.isdigit() or ch in "+*#")


class TelephonyError(Exception):
    """A modem request that cannot be done; the message is the console's `KO:` text."""


@dataclass(frozen=True)
class Call:
    number: str
    inbound: bool
    state: ModemState
    started_ms: int  # wall clock when it began ringing (the call log's `date`)
    answered_at: float | None = None  # phone monotonic seconds when it became active


class Telephony:
    """Calls of one phone. Not thread-safe by itself: callers hold the OS lock."""

    def __init__(self, clock: PhoneClock, call_log: CallLog,
                 is_blocked: Callable[[str], bool] = lambda _number: False) -> None:
        self.clock = clock
        self.call_log = call_log
        self.is_blocked = is_blocked
        self.calls: list[Call] = []
        self.last_incoming_number = ""
        # The SIM's country (`gsm.sim.operator.iso-country`): where the owner's accounts and services are,
        # so it picks the apps' content (mailbox, shops, restaurants). None: the content follows the UI.
        self.sim_country: str | None = None

    def _now_ms(self) -> int:
        return epoch_ms(self.clock.now())

    def find(self, number: str) -> Call | None:
        return next((c for c in self.calls if c.number == number), None)

    def add_inbound_call(self, number: str, name: str | None = None) -> bool:
        """A new call rings; beside an answered call it is "waiting". Past MAX_CALLS the modem drops
        it silently, as the emulator's console still answers OK. A blocked caller is logged, not rung.
        Returns whether the phone rings."""
        if len(self.calls) >= MAX_CALLS:
            return False
        if self.is_blocked(number):
            now = self._now_ms()
            self.call_log.add(CallEntry(number, now, 0, BLOCKED_TYPE, now, name))
            return False
        state: ModemState = "waiting" if any(c.state == "active" for c in self.calls) else "incoming"
        self.calls.append(Call(number, inbound=True, state=state, started_ms=self._now_ms()))
        self.last_incoming_number = number
        return True

    def place_call(self, number: str) -> None:
        """An outgoing call from the dialer (TelecomManager.placeCall); connected at once."""
        if self.find(number) is not None or len(self.calls) >= MAX_CALLS:
            raise TelephonyError(f"cannot call '{number}' now")
        now = self.clock.monotonic()
        self.calls.append(Call(number, inbound=False, state="active", started_ms=self._now_ms(),
                               answered_at=now))

    def update(self, number: str, state: ModemState) -> None:
        call = self.find(number)
        if call is None:
            raise TelephonyError(f"no current call to/from number '{number}'")
        answered = call.answered_at
        if state == "active" and answered is None:
            answered = self.clock.monotonic()
        self.calls[self.calls.index(call)] = replace(call, state=state, answered_at=answered)

    def disconnect(self, number: str, name: str | None = None, rejected: bool = False) -> int:
        """End the call with `number` and log it (`rejected`: the user declined it while it rang);
        returns the call-log row id."""
        call = self.find(number)
        if call is None:
            raise TelephonyError("could not cancel this number")
        self.calls.remove(call)
        if call.answered_at is None:
            kind, duration = (REJECTED_TYPE if rejected else MISSED_TYPE), 0
        else:
            kind = INCOMING_TYPE if call.inbound else OUTGOING_TYPE
            duration = int(self.clock.monotonic() - call.answered_at)
        entry = CallEntry(call.number, call.started_ms, duration, kind, self._now_ms(), name)
        return self.call_log.add(entry)

    # -- what Android reports -----------------------------------------------------------------------------
    def call_state(self) -> int:
        """TelephonyManager's call state: OFFHOOK if any call is answered, RINGING if one rings."""
        if any(c.state in ("active", "held") for c in self.calls):
            return CALL_STATE_OFFHOOK
        if self.calls:
            return CALL_STATE_RINGING
        return CALL_STATE_IDLE

    def incoming_number(self) -> str:
        """mCallIncomingNumber: the ringing (or last ringing) number while a call exists, else ""."""
        return self.last_incoming_number if self.calls else ""

    def precise_states(self) -> tuple[int, int, int]:
        """(ringing, foreground, background) PreciseCallState values."""
        ringing = PRECISE_IDLE
        if any(c.state == "waiting" for c in self.calls):
            ringing = PRECISE_WAITING
        if any(c.state == "incoming" for c in self.calls):
            ringing = PRECISE_INCOMING
        foreground = PRECISE_ACTIVE if any(c.state == "active" for c in self.calls) else PRECISE_IDLE
        background = PRECISE_HOLDING if any(c.state == "held" for c in self.calls) else PRECISE_IDLE
        return ringing, foreground, background

    # -- snapshots ----------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, object]:
        """Calls in a snapshot; an answered call restarts its talk time at load (monotonic clocks differ)."""
        return {"calls": [{"number": c.number, "inbound": c.inbound, "state": c.state,
                           "started_ms": c.started_ms, "answered": c.answered_at is not None}
                          for c in self.calls],
                "last_incoming_number": self.last_incoming_number, "sim_country": self.sim_country}

    def load_json(self, data: object) -> None:
        self.calls = []
        self.last_incoming_number = ""
        self.sim_country = None
        if not isinstance(data, dict):
            return
        country = data.get("sim_country")
        self.sim_country = country if isinstance(country, str) and country else None
        for item in data.get("calls") or []:
            if not isinstance(item, dict) or item.get("state") not in MODEM_STATES:
                continue
            answered = self.clock.monotonic() if item.get("answered") else None
            self.calls.append(Call(str(item.get("number", "")), bool(item.get("inbound", True)),
                                   item["state"], int(item.get("started_ms") or 0), answered))
        self.last_incoming_number = str(data.get("last_incoming_number") or "")
