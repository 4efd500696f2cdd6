"""What the dialer may do with calls (TelecomManager and the InCallService's Call objects): place a
call, answer, decline or end one, and read or change the blocked-number list. It wraps the phone's
`Telephony` and `BlockedNumbers` so an app never holds the OS itself; every change redraws the screen."""

from __future__ import annotations

from collections.abc import Callable

from spa_bench.phone.system.blocked_numbers import BlockedNumbers
from spa_bench.phone.system.telephony import Call, Telephony

NameLookup = Callable[[str], str | None]


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

    def blocked_numbers(self) -> list[str]:
        return [n for _id, n in self.blocked.numbers()]

    def block(self, number: str) -> None:
        self.blocked.block(number)
        self._invalidate()

    def unblock(self, number: str) -> None:
        self.blocked.unblock(number)
        self._invalidate()
