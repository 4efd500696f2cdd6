"""What every Phone screen shares: the call history, the contacts, placing a call, and how calls are
written on screen (names or numbers, dates, durations) in the phone's language."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.dialer.calls import CallRow
from spa_bench.phone.system.telephony import TelephonyError, dial_string

if TYPE_CHECKING:
    from spa_bench.phone.apps.dialer import DialerApp

PACKAGE = "com.android.dialer"
RID = f"{PACKAGE}:id/"
MAIN = "com.android.dialer.main.impl.MainActivity"
IN_CALL = "com.android.incallui.InCallActivity"
DETAILS = "com.android.dialer.calldetails.CallDetailsActivity"
BLOCKED = "com.android.dialer.blocking.BlockedNumbersActivity"
TYPE_GLYPHS = {1: "call_received", 2: "call_made", 3: "call_missed", 5: "call_missed", 6: "block"}


dialable = dial_string  # the dial string Telecom places: one rule for the screens and the OS


class DialerActivity(Activity):
    app: DialerApp

    def display_name(self, row: CallRow) -> str:
        return row.name or self.app.contacts.name_for_number(row.number) or row.number or self.t("unknown")

    def when(self, moment: datetime) -> str:
        """`9:12 AM` today, `Yesterday` ..., else `Jul 20` / `7月20日` (and the time)."""
        today = self.ctx.clock.now().date()
        zh = self.ctx.locale == "zh"
        clock = (
            moment.strftime("%H:%M")
            if zh
            else f"{(moment.hour % 12) or 12}:{moment:%M} " + ("AM" if moment.hour < 12 else "PM")
        )
        if moment.date() == today:
            return clock
        days = (today - moment.date()).days
        if days == 1:
            return f"{self.t('yesterday')} {clock}"
        if moment.year != today.year:
            day = (
                f"{moment.year}年{moment.month}月{moment.day}日"
                if zh
                else f"{moment:%b} {moment.day}, {moment.year}"
            )
        else:
            day = f"{moment.month}月{moment.day}日" if zh else f"{moment:%b} {moment.day}"
        return f"{day} {clock}"

    def duration(self, seconds: int) -> str:
        """`5 min 12 sec` / `5分12秒`, or seconds alone under a minute (the call details' wording)."""
        m, s = divmod(max(0, seconds), 60)
        return self.t("duration_ms", m=m, s=s) if m else self.t("duration_s", s=s)

    def place_call(self, number: str) -> None:
        """TelecomManager.placeCall, then the in-call screen."""
        number = dialable(number)
        if not number:
            return
        try:
            self.ctx.telecom.place_call(number)
        except TelephonyError:
            self.ctx.toast(self.t("call_ended"))
            return
        self.ctx.start_activity(IN_CALL, {"number": number})
