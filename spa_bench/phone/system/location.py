"""The phone's GPS: fixes sent by the console's `geo fix` become the gps (and passive) provider's
last known location, printed by `dumpsys location` the way Android 12-14 print it.

Formats follow AOSP: LocationProviderManager.dump ("gps provider:", "last location=...",
"enabled=...") and Location.toString ("Location[gps 37.421998,-122.084000 et=+1m2s345ms alt=5.0]":
`%.6f` with Locale.ROOT, `et` = elapsed realtime through TimeUtils.formatDuration, `alt` as Java's
Double.toString). A fix that arrives while location is off (secure `location_mode` 0) is dropped, as a
disabled provider drops reported locations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from spa_bench.phone.system.clock import PhoneClock

PROVIDERS = ("passive", "gps")  # the providers whose last location a GPS fix sets


@dataclass(frozen=True)
class Fix:
    longitude: float
    latitude: float
    altitude: float
    satellites: int
    elapsed_ms: int  # since the phone booted


def format_duration(ms: int) -> str:
    """android.util.TimeUtils.formatDuration(ms, sb): "+1h2m3s456ms", "+5s0ms", "0"."""
    if ms == 0:
        return "0"
    sign = "+" if ms > 0 else "-"
    ms = abs(ms)
    millis, seconds = ms % 1000, ms // 1000
    days, seconds = divmod(seconds, 86400)
    hours, seconds = divmod(seconds, 3600)
    minutes, seconds = divmod(seconds, 60)
    out = [sign]
    printed = False
    for amount, suffix in ((days, "d"), (hours, "h"), (minutes, "m"), (seconds, "s")):
        if printed or amount > 0:
            out.append(f"{amount}{suffix}")
            printed = True
    out.append(f"{millis}ms")
    return "".join(out)


def java_double(value: float) -> str:
    """Double.toString for the values a GPS altitude takes (plain decimals; Java switches to
    scientific notation below 1e-3 and from 1e7)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e7):
        sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
        text = "".join(map(str, digits))
        power = len(digits) - 1 + int(exponent)
        return f"{'-' if sign else ''}{text[0]}.{text[1:] or '0'}E{power}"
    text = repr(float(value))
    return text if "." in text or "e" in text else text + ".0"


def location_string(provider: str, fix: Fix) -> str:
    """Location.toString() of a fix from the emulator's GPS (no accuracy, speed or bearing set)."""
    return (f"Location[{provider} {fix.latitude:.6f},{fix.longitude:.6f} et={format_duration(fix.elapsed_ms)}"
            f" alt={java_double(fix.altitude)}]")


class LocationService:
    """Last known locations of one phone."""

    def __init__(self, clock: PhoneClock) -> None:
        self.clock = clock
        self.booted_at = clock.monotonic()
        self.last: Fix | None = None

    def report_fix(self, longitude: float, latitude: float, altitude: float, satellites: int,
                   enabled: bool) -> None:
        if not enabled:
            return
        elapsed = int((self.clock.monotonic() - self.booted_at) * 1000)
        self.last = Fix(longitude, latitude, altitude, satellites, elapsed)

    def dump(self, enabled: bool) -> str:
        lines = ["Location Manager State:", "  Location Providers:"]
        for provider in PROVIDERS:
            last = location_string("gps", self.last) if self.last is not None else "null"
            lines += [f"    {provider} provider:", f"      last location={last}",
                      f"      enabled={'true' if enabled else 'false'}"]
        return "\n".join(lines) + "\n"

    def to_json(self) -> dict[str, object]:
        fix = self.last
        if fix is None:
            return {}
        return {"longitude": fix.longitude, "latitude": fix.latitude, "altitude": fix.altitude,
                "satellites": fix.satellites, "elapsed_ms": fix.elapsed_ms}

    def load_json(self, data: object) -> None:
        self.last = None
        if isinstance(data, dict) and {"longitude", "latitude"} <= set(data):
            try:
                self.last = Fix(float(data["longitude"]), float(data["latitude"]),
                                float(data.get("altitude", 0.0)), int(data.get("satellites", 1)),
                                int(data.get("elapsed_ms", 0)))
            except (TypeError, ValueError):
                self.last = None
