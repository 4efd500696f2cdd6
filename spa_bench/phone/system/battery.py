"""The battery: BatteryService's state and shell command, and SystemUI's low-battery warning.

`dumpsys battery set level N` / `unplug` / `reset` behave as AOSP's BatteryService.Shell: they freeze
the values (the dump then says `(UPDATES STOPPED -- use 'reset' to restart)`), print nothing unless
`-f` (then the new sequence number), and `reset` returns to the hardware's values (the virtual phone's
battery is full and on AC). PowerUI warns when the level falls to the low-warning level or below off
the charger (config_lowBatteryWarningLevel, 15 in AOSP's framework config); the warning offers Battery
Saver, which is the global setting `low_power`, so accepting it is visible to `settings get`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings
from spa_bench.phone.ui import Kit, Rect, View

LOW_WARNING_LEVEL = 15
STATUS_CHARGING = 2
SET_KEYS = ("ac", "usb", "wireless", "dock", "status", "level", "temp", "present", "counter", "invalid")

# BatteryService.dumpHelp (Android 14).
HELP = """Battery service (battery) commands:
  help
    Print this help text.
  get [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid]
  set [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid] <value>
    Force a battery property value, freezing battery state.
    -f: force a battery change broadcast be sent, prints new sequence.
  unplug [-f]
    Force battery unplugged, freezing battery state.
    -f: force a battery change broadcast be sent, prints new sequence.
  reset [-f]
    Unfreeze battery state, returning to current hardware values.
    -f: force a battery change broadcast be sent, prints new sequence.
"""

# SystemUI's strings for the low-battery warning (battery_low_title, battery_low_description,
# battery_saver_start_action, battery_saver_dismiss_action) and their zh-rCN translations.
STRINGS = Strings(
    {
        "title": ("Turn on Battery Saver?", "要开启省电模式吗？"),
        "message": ("You have {percent} battery left. Battery Saver turns on Dark theme, restricts "
                    "background activity, and delays notifications.",
                    "电池电量剩余 {percent}。省电模式会开启深色主题、限制后台活动，并延迟显示通知。"),
        "turn_on": ("Turn on", "开启"),
        "no_thanks": ("No thanks", "不用了"),
    }
)


@dataclass
class Battery:
    """What the health HAL reports, as BatteryService holds it (mHealthInfo), plus PowerUI's warning."""

    level: int = 100
    ac: bool = True
    usb: bool = False
    wireless: bool = False
    dock: bool = False
    status: int = STATUS_CHARGING
    present: bool = True
    temperature: int = 250
    counter: int = 0
    invalid: int = 0
    updates_stopped: bool = False
    sequence: int = 1
    warning: bool = False  # PowerUI's low-battery warning is showing

    def plugged(self) -> bool:
        return self.ac or self.usb or self.wireless or self.dock

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: object) -> Battery:
        if not isinstance(data, dict):
            return cls()
        fields = cls().__dict__
        return cls(**{k: type(fields[k])(v) for k, v in data.items() if k in fields})

    def dump(self) -> str:
        """BatteryService.dumpInternal with no arguments."""
        lines = ["Current Battery Service state:"]
        if self.updates_stopped:
            lines.append("  (UPDATES STOPPED -- use 'reset' to restart)")
        lines += [f"  AC powered: {_b(self.ac)}", f"  USB powered: {_b(self.usb)}",
                  f"  Wireless powered: {_b(self.wireless)}", f"  Dock powered: {_b(self.dock)}",
                  "  Max charging current: 0", "  Max charging voltage: 0",
                  f"  Charge counter: {self.counter}",
                  f"  status: {self.status}", "  health: 2", f"  present: {_b(self.present)}",
                  f"  level: {self.level}", "  scale: 100", "  voltage: 5000",
                  f"  temperature: {self.temperature}", "  technology: Li-ion"]
        return "\n".join(lines) + "\n"


def _b(value: bool) -> str:
    return "true" if value else "false"


def battery_command(battery: Battery, args: list[str], on_change: Callable[[], None]) -> tuple[int, str]:
    """`dumpsys battery ARGS` / `cmd battery ARGS`: (exit code, output). `on_change` runs after every
    change of the values (PowerUI's ACTION_BATTERY_CHANGED receiver)."""
    verb, rest = args[0], args[1:]
    force = "-f" in rest
    rest = [a for a in rest if a != "-f"]
    if verb in ("help", "-h"):
        return 0, HELP
    if verb == "get":
        if not rest:
            return 255, "No property specified\n"
        values = {"present": _b(battery.present), "ac": _b(battery.ac), "usb": _b(battery.usb),
                  "wireless": _b(battery.wireless), "dock": _b(battery.dock), "status": str(battery.status),
                  "level": str(battery.level), "counter": str(battery.counter),
                  "temp": str(battery.temperature), "invalid": str(battery.invalid)}
        return 0, (values[rest[0]] if rest[0] in values else f"Unknown get option: {rest[0]}") + "\n"
    if verb == "set":
        if not rest:
            return 255, "No property specified\n"
        if len(rest) < 2:
            return 255, "No value specified\n"
        key, value = rest[0], rest[1]
        if key not in SET_KEYS:
            return 0, f"Unknown set option: {key}\n"
        try:
            number = int(value)
        except ValueError:
            return 255, f"Bad value: {value}\n"
        _set(battery, key, number)
    elif verb == "unplug":
        battery.ac = battery.usb = battery.wireless = battery.dock = False
    elif verb == "reset":
        if not battery.updates_stopped:
            return 0, ""
        fresh = Battery(sequence=battery.sequence, warning=battery.warning)
        battery.__dict__.update(fresh.__dict__)
        battery.sequence += 1
        on_change()
        return 0, f"{battery.sequence}\n" if force else ""
    else:
        return 255, f"Unknown command: {verb}\n"
    battery.updates_stopped = True
    battery.sequence += 1
    on_change()
    return 0, f"{battery.sequence}\n" if force else ""


def _set(battery: Battery, key: str, number: int) -> None:
    if key in ("ac", "usb", "wireless", "dock", "present"):
        setattr(battery, key, number != 0)
    elif key == "temp":
        battery.temperature = number
    else:
        setattr(battery, key, number)


def update_warning(battery: Battery) -> bool:
    """PowerUI's decision after a battery change: warn when the level falls to the warning level or below
    off the charger; the warning goes when the phone is plugged in or the level rises above it. Returns
    whether the warning changed."""
    low = battery.level <= LOW_WARNING_LEVEL and not battery.plugged() and battery.present
    if low == battery.warning:
        return False
    battery.warning = low
    return True


def low_battery_dialog(kit: Kit, screen: Rect, locale: Locale, level: int, *, turn_on: Callable[[], None],
                       dismiss: Callable[[], None]) -> View:
    """The warning as SystemUI shows it over the app: Battery Saver offered, "No thanks" to dismiss."""
    percent = f"{level}%"
    return kit.dialog(screen, STRINGS.get(locale, "title"), STRINGS.get(locale, "message", percent=percent),
                      [(STRINGS.get(locale, "no_thanks"), dismiss),
                       (STRINGS.get(locale, "turn_on"), turn_on)],
                      on_dismiss=dismiss)
