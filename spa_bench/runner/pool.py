"""The devices a run uses: virtual phones it starts itself, or devices given by serial.

Virtual phones are started in this process, connected to the adb server (adbutils' default, or
$ANDROID_ADB_SERVER_PORT) and prepared with one base snapshot per language (`spa-bench-base-en`,
`spa-bench-base-zh`), which tasks load as their reset; so is a virtual phone given by serial (one started
with `spa-bench phone`) that lacks them. Real devices and emulators are used as they are: the user
prepares their snapshots.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from spa_bench.device.device import Device, start_adb_server
from spa_bench.errors import DeviceError
from spa_bench.runner.vary import CLOCK_FORMATS, LOCALES, SIM_COUNTRIES

if TYPE_CHECKING:
    from spa_bench.phone.process import ProcessPhonePool
    from spa_bench.phone.server import PhonePool

log = logging.getLogger(__name__)
BASE_SNAPSHOT = "spa-bench-base-{language}"


@dataclass
class DevicePool:
    """Devices with their health; a device found sick is taken out and reported."""

    devices: list[Device]
    phones: PhonePool | ProcessPhonePool | None = None
    removed: dict[str, str] = field(default_factory=dict)  # serial -> reason
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take_out(self, device: Device, reason: str) -> None:
        with self._lock:
            self.removed.setdefault(device.serial, reason)

    def is_healthy(self, device: Device) -> bool:
        with self._lock:
            return device.serial not in self.removed

    def healthy(self) -> list[Device]:
        with self._lock:
            return [d for d in self.devices if d.serial not in self.removed]

    def close(self) -> None:
        for device in self.devices:
            if not device.connected_here:  # connected before the run (a user's, the studio's): left so
                continue
            with contextlib.suppress(DeviceError):
                device.disconnect()
        if self.phones is not None:
            self.phones.stop()


def prepare_virtual_phone(device: Device) -> None:
    """Save one base snapshot per language, so every task starts from a known state."""
    for language, locale in LOCALES.items():
        device.check(f"setprop persist.sys.locale {locale}")
        # The owner's SIM country and clock format, which a real phone keeps when its language changes:
        # `--vary locale` then changes labels and formats, not the apps' content or how times are typed.
        device.check(f"setprop gsm.sim.operator.iso-country {SIM_COUNTRIES[language]}")
        device.check(f"settings put system time_12_24 {CLOCK_FORMATS[language]}")
        device.press_key("home")
        device.save_snapshot(BASE_SNAPSHOT.format(language=language))
    device.load_snapshot(BASE_SNAPSHOT.format(language="en"))


def start_virtual_pool(n: int, size: str = "1080x2400", data_root: Path | None = None,
                       processes: bool = True, clock: str | None = None) -> DevicePool:
    """Start n virtual phones (each in its own process by default, so that they use every core),
    connect them over adb and prepare their base snapshots. `clock`: freeze their clocks (ISO 8601)."""
    from spa_bench.phone.process import start_phone_processes
    from spa_bench.phone.server import start_phones

    start_adb_server()
    phones: PhonePool | ProcessPhonePool
    if processes:
        phones = start_phone_processes(n, size=size, data_root=data_root, clock=clock)
        endpoints = [(p.serial, p.console_port) for p in phones.phones]
    else:
        from spa_bench.phone.api import PhoneConfig
        from spa_bench.phone.system.clock import parse_clock

        frozen = PhoneConfig(frozen_clock=parse_clock(clock)) if clock else None
        phones = start_phones(n, size=size, data_root=data_root, config=frozen)
        endpoints = [(p.serial, p.config.console_port) for p in phones.phones]
    devices: list[Device] = []
    try:
        for serial, console_port in endpoints:
            device = Device(serial, console_port=console_port)
            device.connect()
            device.health_check()
            device.become_root()  # before the base snapshots, so every task starts with adbd as root
            prepare_virtual_phone(device)
            devices.append(device)
    except BaseException:
        for device in devices:
            with contextlib.suppress(DeviceError):
                device.disconnect()
        phones.stop()
        raise
    return DevicePool(devices, phones)


def connect_devices(serials: list[str], console_ports: dict[str, int] | None = None) -> DevicePool:
    """Use devices that exist already (emulators, phones, phones over TCP). `console_ports`: the
    emulator consoles of serials that do not name their own (a farm's 127.0.0.1:PORT), for resets."""
    start_adb_server()
    devices = []
    for serial in serials:
        device = Device(serial, console_port=(console_ports or {}).get(serial))
        if ":" in serial:
            device.connect()
        device.health_check()
        device.become_root()  # emulator images allow it; a retail phone refuses (checks of app data fail)
        device.find_console()  # 127.0.0.1:P of an emulator or `spa-bench phone`: its console on P - 1
        if device.info().kind == "virtual" and device.console_port is not None:
            missing = {BASE_SNAPSHOT.format(language=lang) for lang in LOCALES} - set(device.snapshots())
            if missing:  # a phone started with `spa-bench phone`: prepared as the run's own phones are
                log.info("%s: saving the base snapshots %s", serial, ", ".join(sorted(missing)))
                prepare_virtual_phone(device)
        devices.append(device)
    return DevicePool(devices)
