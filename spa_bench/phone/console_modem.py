"""The console's radio commands, `sms`, `gsm` and `geo`, with the emulator's argument checks and wording
(android/console.c: do_sms_send, do_gsm_call/accept/hold/busy/cancel/list, do_geo_fix).

`Modem` is what they need from a phone; `PhoneModem` is it over a running PhoneOS: an SMS goes to the
Messages app through `deliver_incoming_sms`, calls to `PhoneOS.telephony`, fixes to `PhoneOS.location`.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Protocol

from spa_bench.phone.console import CommandDef, Handler, Session
from spa_bench.phone.system.telecom import DIALER_PACKAGE, IN_CALL_ACTIVITY, close_in_call_screen
from spa_bench.phone.system.telephony import ModemState, TelephonyError

if TYPE_CHECKING:
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.system.telephony import Call

MESSAGES_PACKAGE = "com.android.messaging"
DIALER_MAIN_ACTIVITY = "com.android.dialer.main.impl.MainActivity"
SMS_ADDRESS_MAX_DIGITS = 32  # SMS_ADDRESS_MAX_SIZE 16 bytes of two BCD digits
# strtod(): the longest prefix that reads as a number (decimal, exponent, inf, nan).
_STRTOD = re.compile(r"[ \t]*[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan)", re.IGNORECASE)
_ESCAPE_HELP = ("message must be utf8 and can use the following escapes:\n"
                "    \\n      for a newline\n"
                "    \\xNN    where NN are two hexadecimal numbers\n"
                "    \\uNNNN  where NNNN are four hexadecimal numbers\n"
                "    \\\\     to send a '\\' character\n\n"
                "    anything else is an error\n"
                "KO: badly formatted text\n")


class Modem(Protocol):
    """The phone's side of the modem commands; TelephonyError carries the console's KO text."""

    def receive_sms(self, sender: str, text: str) -> None: ...

    def calls(self) -> list[Call]: ...

    def add_inbound_call(self, number: str) -> None: ...

    def update_call(self, number: str, state: ModemState) -> None: ...

    def disconnect_call(self, number: str) -> None: ...

    def gps_fix(self, longitude: float, latitude: float, altitude: float, satellites: int) -> None: ...


class PhoneModem:
    """`Modem` over a running PhoneOS; every call holds the OS lock."""

    def __init__(self, system: PhoneOS) -> None:
        self.system = system

    def receive_sms(self, sender: str, text: str) -> None:
        from spa_bench.phone.apps.messages import MessagesApp
        from spa_bench.phone.apps.messages.delivery import deliver_incoming_sms

        with self.system.lock:
            app = self.system.app(MESSAGES_PACKAGE)
            assert isinstance(app, MessagesApp)
            deliver_incoming_sms(app, sender, text)

    def calls(self) -> list[Call]:
        with self.system.lock:
            return list(self.system.telephony.calls)

    def add_inbound_call(self, number: str) -> None:
        with self.system.lock:
            before = self.system.tasks.front
            rings = self.system.telephony.add_inbound_call(number, self._name_for(number))
            if rings and DIALER_PACKAGE in self.system.apps:
                # the InCallService's full-screen incoming-call UI, over the dialer's main screen; hanging
                # up returns to the app the user was in (`return_to`). A phone in use shows it too here:
                # the heads-up form of it is not modelled.
                if not self.system.tasks.stacks.get(DIALER_PACKAGE):
                    self.system.open_activity(DIALER_PACKAGE, DIALER_MAIN_ACTIVITY, {})
                back = "" if before == DIALER_PACKAGE else before
                self.system.open_activity(DIALER_PACKAGE, IN_CALL_ACTIVITY,
                                          {"number": number, "return_to": back})
            self.system.invalidate()

    def _name_for(self, number: str) -> str | None:
        from spa_bench.phone.apps.messages import MessagesApp

        app = self.system.apps.get(MESSAGES_PACKAGE)
        return app.contacts.name_for_number(number) if isinstance(app, MessagesApp) else None

    def update_call(self, number: str, state: ModemState) -> None:
        with self.system.lock:
            self.system.telephony.update(number, state)
            self.system.invalidate()

    def disconnect_call(self, number: str) -> None:
        with self.system.lock:
            call = self.system.telephony.find(number)
            name = self._name_for(number)
            self.system.telephony.disconnect(number, name)
            if DIALER_PACKAGE in self.system.apps:
                close_in_call_screen(self.system)
                if call is not None and call.inbound and call.answered_at is None:
                    self._notify_missed(number, name)
            self.system.invalidate()

    def _notify_missed(self, number: str, name: str | None) -> None:
        """The dialer's missed-call notification (MissedCallNotifier): the caller's name or number; it
        opens the call log."""
        strings = self.system.apps[DIALER_PACKAGE].strings
        self.system.post_notification(
            DIALER_PACKAGE, 1, "missed_call", strings.get(self.system.locale, "missed_call"), name or number,
            importance=4, channel="phone_missed_call", activity=DIALER_MAIN_ACTIVITY,
            extras={"tab": "recents"})

    def gps_fix(self, longitude: float, latitude: float, altitude: float, satellites: int) -> None:
        with self.system.lock:
            enabled = (self.system.settings_get("secure", "location_mode") or "0") != "0"
            self.system.location.report_fix(longitude, latitude, altitude, satellites, enabled)


# -- parsing as the emulator does ----------------------------------------------------------------------
def gsm_number_ok(number: str) -> bool:
    """gsm_check_number: digits, '+' and '#' only, at least one."""
    return bool(number) and all((c.isdigit() and c.isascii()) or c in "+#" for c in number)


def sms_address_ok(number: str) -> bool:
    """sms_address_from_str: an optional '+' then 1-32 decimal digits."""
    digits = number[1:] if number.startswith("+") else number
    return 0 < len(digits) <= SMS_ADDRESS_MAX_DIGITS and digits.isascii() and digits.isdigit()


def unescape_message(text: str) -> str | None:
    """sms_utf8_from_message_str: \\n, \\xNN (a byte), \\uNNNN, \\\\; anything else -> None."""
    out = bytearray()
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        kind = text[i + 1:i + 2]
        if kind == "n":
            out += b"\n"
            i += 2
        elif kind == "\\":
            out += b"\\"
            i += 2
        elif kind in ("x", "u"):
            width = 2 if kind == "x" else 4
            digits = text[i + 2:i + 2 + width]
            if len(digits) != width or not all(c in "0123456789abcdefABCDEF" for c in digits):
                return None
            value = int(digits, 16)
            out += bytes([value]) if kind == "x" else chr(value).encode("utf-8", "surrogatepass")
            i += 2 + width
        else:
            return None
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def strtod_list(text: str, limit: int) -> list[float] | str:
    """Numbers at the start of `text` as do_geo_fix reads them, or the rest that is not a number."""
    values: list[float] = []
    rest = text
    while rest and len(values) < limit:
        m = _STRTOD.match(rest)
        if m is None:
            return rest
        values.append(float(m.group().strip()))
        rest = rest[m.end():].lstrip(" \t")
    return values


# -- the command tables --------------------------------------------------------------------------------
def modem_commands(modem: Modem | None) -> tuple[CommandDef, CommandDef, CommandDef]:
    """The `geo`, `gsm` and `sms` rows of the main command table."""

    def no_modem(session: Session) -> bool:
        session.write("KO: modem emulation not running\n")
        return False

    def number_arg(session: Session, args: str | None, usage: str) -> str | None:
        if args is None:
            session.write(f"KO: missing argument, try '{usage}'\n")
            return None
        if not gsm_number_ok(args):
            session.write("KO: bad phone number format, use digits, # and + only\n")
            return None
        return args

    def gsm_call(session: Session, args: str | None) -> bool:
        number = number_arg(session, args, "gsm call <phonenumber>")
        if number is None:
            return False
        if modem is None:
            return no_modem(session)
        modem.add_inbound_call(number)
        return True

    def gsm_cancel(session: Session, args: str | None) -> bool:
        number = number_arg(session, args, "gsm call <phonenumber>")  # sic, the emulator's hint
        if number is None:
            return False
        if modem is None:
            return no_modem(session)
        try:
            modem.disconnect_call(number)
        except TelephonyError:
            session.write("KO: could not cancel this number\n")
            return False
        return True

    def gsm_to_state(state: ModemState, verb: str, failure: str) -> Handler:
        def handler(session: Session, args: str | None) -> bool:
            if args is None:
                session.write(f"KO: missing argument, try 'gsm {verb} <phonenumber>'\n")
                return False
            if modem is None:
                return no_modem(session)
            if not any(c.number == args for c in modem.calls()):
                session.write(f"KO: no current call to/from number '{args}'\n")
                return False
            try:
                modem.update_call(args, state)
            except TelephonyError:
                session.write(f"KO: {failure}\n")
                return False
            return True
        return handler

    def gsm_busy(session: Session, args: str | None) -> bool:
        if args is None:
            session.write("KO: missing argument, try 'gsm busy <phonenumber>'\n")
            return False
        if modem is None:
            return no_modem(session)
        call = next((c for c in modem.calls() if c.number == args), None)
        if call is None or call.inbound:
            pointer = "(nil)" if call is None else hex(id(call))
            session.write(f"KO: no current outbound call to number '{args}' (call {pointer})\n")
            return False
        modem.disconnect_call(args)
        return True

    def gsm_list(session: Session, _args: str | None) -> bool:
        if modem is None:
            return no_modem(session)
        for call in modem.calls():
            direction = "inbound from" if call.inbound else "outbound to "
            session.write(f"{direction} {call.number:<10} : {call.state}\n")
        return True

    def sms_send(session: Session, args: str | None) -> bool:
        if args is None or " " not in args:
            session.write("KO: missing argument, try 'sms send <phonenumber> <text message>'\n")
            return False
        number, text = args.split(" ", 1)
        if not sms_address_ok(number):
            session.write("KO: bad phone number format, must be [+](0-9)*\n")
            return False
        message = unescape_message(text)
        if message is None:
            session.write(_ESCAPE_HELP)
            return False
        if modem is None:
            return no_modem(session)
        modem.receive_sms(number, message)
        return True

    def geo_fix(session: Session, args: str | None) -> bool:
        params = strtod_list(args or "", 5)
        if isinstance(params, str):
            session.write(f"KO: argument '{params}' is not a number\n")
            return False
        if len(params) < 2:
            session.write("KO: not enough arguments: see 'help geo fix' for details\n")
            return False
        longitude, latitude = params[0], params[1]
        if not -180.0 <= longitude <= 180.0:  # also refuses NaN, which the emulator lets through
            session.write("KO: invalid longitude value. Should be in [-180,+180] range\n")
            return False
        if not -90.0 <= latitude <= 90.0:
            session.write("KO: invalid latitude value. Should be in [-90,+90] range\n")
            return False
        satellites = 1
        if len(params) >= 4:
            wanted = params[4] if len(params) >= 5 else params[3]
            if not math.isfinite(wanted) or wanted != int(wanted) or not 1 <= wanted <= 12:
                session.write("KO: invalid number of satellites. Must be an integer between 1 and 12\n")
                return False
            satellites = int(wanted)
        altitude = params[2] if len(params) >= 3 else 0.0
        if modem is None:
            session.write("KO: no GPS emulation in this virtual device\n")
            return False
        modem.gps_fix(longitude, latitude, altitude, satellites)
        return True

    geo = CommandDef("geo", "Geo-location commands",
                     "allows you to change Geo-related settings, or to send GPS NMEA sentences\n",
                     subcommands=(CommandDef(
                         "fix", "send a simple GPS fix",
                         "'geo fix <longitude> <latitude> [<altitude> [<satellites>]]'\n"
                         " allows you to send a simple GPS fix to the emulated system.\n"
                         " The parameters are:\n\n"
                         "  <longitude>   longitude, in decimal degrees\n"
                         "  <latitude>    latitude, in decimal degrees\n"
                         "  <altitude>    optional altitude in meters\n"
                         "  <satellites>  number of satellites being tracked (1-12)\n\n", geo_fix),))
    gsm = CommandDef("gsm", "GSM related commands",
                     "allows you to change GSM-related settings, or to make a new inbound phone call\n",
                     subcommands=(
                         CommandDef("list", "list current phone calls",
                                    "'gsm list' lists all inbound and outbound calls and their state\n",
                                    gsm_list),
                         CommandDef("call", "create inbound phone call",
                                    "'gsm call <phonenumber>' allows you to simulate a new inbound call\n",
                                    gsm_call),
                         CommandDef("busy", "close waiting outbound call as busy",
                                    "'gsm busy <remoteNumber>' closes an outbound call, reporting\n"
                                    "the remote phone as busy. only possible if the call is 'waiting'.\n",
                                    gsm_busy),
                         CommandDef("hold", "change the state of an outbound call to 'held'",
                                    "'gsm hold <remoteNumber>' change the state of a call to 'held'. this is "
                                    "only possible\nif the call in the 'waiting' or 'active' state\n",
                                    gsm_to_state("held", "hold", "could put this call on hold")),
                         CommandDef("accept", "change the state of an outbound call to 'active'",
                                    "'gsm accept <remoteNumber>' change the state of a call to 'active'. "
                                    "this is only possible\n"
                                    "if the call is in the 'waiting' or 'held' state\n",
                                    gsm_to_state("active", "accept", "could not activate this call")),
                         CommandDef("cancel", "disconnect an inbound or outbound phone call",
                                    "'gsm cancel <phonenumber>' allows you to simulate the end of an inbound "
                                    "or outbound call\n", gsm_cancel),
                     ))
    sms = CommandDef("sms", "SMS related commands", "allows you to simulate an inbound SMS\n",
                     subcommands=(CommandDef(
                         "send", "send inbound SMS text message",
                         "'sms send <phonenumber> <message>' allows you to simulate a new inbound sms "
                         "message\n",
                         sms_send),))
    return geo, gsm, sms
