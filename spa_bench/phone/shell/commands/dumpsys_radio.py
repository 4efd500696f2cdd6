"""`dumpsys telephony.registry` and `dumpsys location`: the radio state the console's `gsm` and `geo`
commands change, in AOSP's dump formats.

telephony.registry follows TelephonyRegistry.dump (Android 10+): "last known state:", then per phone
"Phone Id=0" with 4-space-indented fields, then the global precise call states. Only the lines whose
values the virtual phone models are printed (call state, ringing number, message waiting, call
forwarding, precise call states); service state, signal strength and cell info are left out rather
than filled with invented values. `location` is in `spa_bench.phone.system.location`.
"""

from __future__ import annotations

from collections.abc import Callable

from spa_bench.phone.shell.context import CommandContext
from spa_bench.phone.system.location import LocationService
from spa_bench.phone.system.telephony import Telephony


def dump_telephony_registry(ctx: CommandContext, _args: list[str]) -> str | None:
    telephony = getattr(ctx.system, "telephony", None)
    if not isinstance(telephony, Telephony):
        return None
    with ctx.system.lock:
        state, number = telephony.call_state(), telephony.incoming_number()
        ringing, foreground, background = telephony.precise_states()
    lines = ["last known state:", "  Phone Id=0", f"    mCallState={state}",
             f"    mCallIncomingNumber={number}", "    mMessageWaiting=false", "    mCallForwarding=false",
             f"  mRingingCallState={ringing}", f"  mForegroundCallState={foreground}",
             f"  mBackgroundCallState={background}"]
    return "\n".join(lines) + "\n"


def dump_location(ctx: CommandContext, _args: list[str]) -> str | None:
    location = getattr(ctx.system, "location", None)
    if not isinstance(location, LocationService):
        return None
    with ctx.system.lock:
        enabled = (ctx.system.settings_get("secure", "location_mode") or "0") != "0"
        return location.dump(enabled)


# service name -> dump (None when this phone has no such service)
RADIO_SERVICES: dict[str, Callable[[CommandContext, list[str]], str | None]] = {
    "location": dump_location,
    "telephony.registry": dump_telephony_registry,
}
