"""The Phone app (com.android.dialer): its tasks through the real pipeline (oracle passes every instance,
noop none), and the app on a PhoneOS - the seeded call log as AOSP's provider serves it, an outgoing call
logged on hang-up with its talk time from the phone's monotonic clock, incoming calls from the modem
(answer, decline, blocked), the missed-call badge, and DIAL/CALL intents through `am start`."""

from __future__ import annotations

from pathlib import Path

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell.commands.intents import resolve_implicit
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.vfs import VirtualFS

PKG = "com.android.dialer"
CALLS = "content://call_log/calls"
BLOCKED = "content://com.android.blockednumber/blocked"


class Ticking:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def phone_with(tmp_path: Path, locale: str = "en") -> tuple[PhoneOS, Ticking]:
    tick = Ticking()
    config = PhoneConfig(locale=locale)  # type: ignore[arg-type]
    phone = PhoneOS(config, VirtualFS(tmp_path / "fs"), clock=PhoneClock(monotonic=tick))
    return phone, tick


def tap(phone: PhoneOS, rid: str = "", text: str = "", desc: str = "") -> None:
    full = f"{PKG}:id/{rid}" if rid and ":" not in rid else rid
    view = phone.frame().find(rid=full, text=text, desc=desc)
    assert view is not None, (rid, text, desc)
    phone.tap(*view.bounds.center)


def calls(phone: PhoneOS, where: str | None = None) -> list[dict[str, str | int | float | bytes | None]]:
    return [r.values for r in phone.content_query(CALLS, ["number", "type", "duration", "name", "is_read"],
                                                   where)]


def test_seeded_history_is_served_newest_first_with_unread_missed_badge(tmp_path: Path) -> None:
    phone, _ = phone_with(tmp_path)
    rows = calls(phone)
    assert len(rows) == 15 and {r["type"] for r in rows} == {1, 2, 3}
    assert rows[0]["number"] == "+16505550142"  # no sort given: CallLog.Calls.DEFAULT_SORT_ORDER, date DESC
    assert calls(phone, "number = '+14155550177'") == [
        {"number": "+14155550177", "type": 1, "duration": 312, "name": "Ben Carter", "is_read": None}]
    phone.start_activity(PKG)
    badge = [v.text for v in phone.frame().views() if v.text == "2"]
    assert badge, "two unread missed calls show as a badge on Recents"
    tap(phone, "nav_recents")
    names = [v.text for v in phone.frame().views() if v.rid == f"{PKG}:id/primary_text"]
    assert names[:4] == ["Anna Li", "张伟", "王芳", "Ben Carter"]  # date DESC, CallLog's default order
    assert calls(phone, "type = 3 AND is_read = 0") == []  # showing the log marks missed calls read


def test_outgoing_call_is_logged_on_hang_up_with_its_talk_time(tmp_path: Path) -> None:
    phone, tick = phone_with(tmp_path)
    phone.start_activity(PKG)
    tap(phone, "dialpad_fab")
    for key in ("four", "one", "five", "five", "five", "five", "zero", "one", "nine", "eight"):
        tap(phone, key)
    tap(phone, "dialpad_floating_action_button")
    assert phone.current_focus() == (PKG, "com.android.incallui.InCallActivity")
    assert calls(phone, "number = '4155550198'") == []  # nothing logged while the call lasts
    tick.now += 83
    tap(phone, "incall_end_call")
    assert calls(phone, "number = '4155550198'") == [
        {"number": "4155550198", "type": 2, "duration": 83, "name": None, "is_read": None}]
    assert phone.current_focus() == (PKG, "com.android.dialer.main.impl.MainActivity")


def test_incoming_calls_answered_declined_and_blocked(tmp_path: Path) -> None:
    from spa_bench.phone.console_modem import PhoneModem

    phone, tick = phone_with(tmp_path)
    modem = PhoneModem(phone)
    phone.start_activity("com.spa.eats")
    modem.add_inbound_call("+16505550188")  # Grace Lee, while the user is in Eats
    assert phone.current_focus() == (PKG, "com.android.incallui.InCallActivity")
    assert phone.frame().find(text="Grace Lee") is not None
    tap(phone, "answer_button")
    tick.now += 40
    tap(phone, "incall_end_call")
    assert phone.current_focus()[0] == "com.spa.eats"  # hanging up returns to the app it rang over
    phone.go_home()
    assert calls(phone, "number = '+16505550188'") == [
        {"number": "+16505550188", "type": 1, "duration": 40, "name": "Grace Lee", "is_read": None}]
    modem.add_inbound_call("5550177")
    tap(phone, "decline_button")
    assert calls(phone, "number = '5550177'")[0]["type"] == 5  # CallLog.Calls.REJECTED_TYPE
    modem.add_inbound_call("+14085550166")  # Kevin Liu, who hangs up before it is answered
    modem.disconnect_call("+14085550166")
    assert phone.current_focus()[0] == "com.google.android.apps.nexuslauncher"  # back where it rang
    assert phone.tasks.top(PKG).activity == "com.android.dialer.main.impl.MainActivity"  # in-call UI gone
    assert calls(phone, "number = '+14085550166'")[0]["type"] == 3  # MISSED_TYPE
    missed = [n for n in phone.notifications.posted if n.package == PKG]
    assert [(n.title, n.text) for n in missed] == [("Missed call", "Kevin Liu")]
    phone.content_insert(BLOCKED, {"original_number": "+1 415-555-0133"})
    modem.add_inbound_call("4155550133")
    assert phone.telephony.calls == []  # a blocked caller never rings
    assert calls(phone, "number = '4155550133'")[0]["type"] == 6  # BLOCKED_TYPE


def test_block_from_call_details_and_unblock_from_the_list(tmp_path: Path) -> None:
    phone, _ = phone_with(tmp_path)
    phone.start_activity(PKG)
    tap(phone, "nav_recents")
    tap(phone, "primary_text", text="Anna Li")
    tap(phone, "call_detail_action_block")
    tap(phone, "android:id/button1")
    rows = [r.values for r in phone.content_query(BLOCKED)]
    assert rows == [{"_id": 1, "original_number": "+16505550142", "e164_number": "+16505550142"}]
    phone.press_key(4)
    tap(phone, "menu_more")
    tap(phone, "menu_blocked")
    tap(phone, desc="Unblock +16505550142")
    assert phone.content_query(BLOCKED) == []


def test_dial_and_call_intents_resolve_to_the_dialer(tmp_path: Path) -> None:
    installed = {PKG}
    dial = resolve_implicit("android.intent.action.DIAL", "tel:5551234", None, installed)
    assert dial is not None and dial.activity == "com.android.dialer.main.impl.MainActivity"
    assert resolve_implicit("android.intent.action.DIAL", None, None, installed) is not None
    assert resolve_implicit("android.intent.action.DIAL", "tel:5551234", None, set()) is None
    phone, _ = phone_with(tmp_path)
    from spa_bench.phone.shell.executor import Shell

    shell = Shell(phone)
    out = shell.run("am start -a android.intent.action.DIAL -d tel:5551234")
    # Intent.toString masks the number as Uri.toSafeString does: `dat=tel:xxxxxxx`
    assert out.stdout.decode() == "Starting: Intent { act=android.intent.action.DIAL dat=tel:xxxxxxx }\n"
    assert phone.current_focus() == (PKG, "com.android.dialer.main.impl.MainActivity")
    digits = phone.frame().find(rid=f"{PKG}:id/digits")
    assert digits is not None and digits.text == "5551234"
    shell.run("am start -a android.intent.action.CALL -d tel:5559876")
    assert phone.current_focus() == (PKG, "com.android.incallui.InCallActivity")
    phone.frame()  # the in-call screen places the call as it comes up (asynchronously on Android too)
    assert [c.number for c in phone.telephony.calls] == ["5559876"]
