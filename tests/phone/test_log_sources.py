"""The health HAL's once-a-minute battery line, against AOSP's sources (Android 14):

system/core healthd/BatteryMonitor.cpp (android14-d2-release), LOG_TAG "healthd", doLogValues:
    snprintf(dmesgline, sizeof(dmesgline), "battery l=%d v=%d t=%s%d.%d h=%d st=%d",
             props.batteryLevel, props.batteryVoltageMillivolts,
             props.batteryTemperatureTenthsCelsius < 0 ? "-" : "",
             abs(props.batteryTemperatureTenthsCelsius / 10),
             abs(props.batteryTemperatureTenthsCelsius % 10), props.batteryHealth,
             props.batteryStatus);
    ... " c=%d" (batteryCurrentNowPath found), " fc=%d" (batteryFullChargePath), " cc=%d"
    (batteryCycleCountPath); without a battery "battery none"; then
    snprintf(dmesgline + len, sizeof(dmesgline) - len, " chg=%s%s%s%s",
             props.chargerAcOnline ? "a" : "", props.chargerUsbOnline ? "u" : "",
             props.chargerWirelessOnline ? "w" : "", props.chargerDockOnline ? "d" : "");
    KLOG_WARNING(LOG_TAG, "%s\\n", dmesgline);
libcutils klog.h: KLOG_WARNING(tag, x...) klog_write(KLOG_WARNING_LEVEL, "<4>" tag ": " x); logd's
LogKlog.cpp reads it back as priority W (LOG_WARNING -> ANDROID_LOG_WARN), tag "healthd"; logcat.cpp
reads main, system, crash and kernel when no -b is given, main, system and crash for `-b default`.
libhealthloop: DEFAULT_PERIODIC_CHORES_INTERVAL_FAST (60 * 1) seconds.
The clocks here are virtual: no test waits for a real minute.
"""

from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path

import pytest

from spa_bench.phone.shell import Shell
from spa_bench.phone.shell.testing import FakePhone
from spa_bench.phone.system.battery import Battery, battery_command
from spa_bench.phone.system.log_sources import (
    AID_SYSTEM,
    HEALTH_HAL_PID,
    HealthHeartbeat,
    HealthInfo,
    battery_log_line,
    hardware_health,
)
from spa_bench.phone.system.logd import WARN, LogBuffer

# BatteryMonitor.cpp's printf formats, as written there
HEAD = "battery l=%d v=%d t=%s%d.%d h=%d st=%d"
CURRENT, FULL_CHARGE, CYCLE_COUNT = " c=%d", " fc=%d", " cc=%d"
CHARGERS = " chg=%s%s%s%s"


def c_div(a: int, b: int) -> int:
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def aosp_line(info: HealthInfo) -> str:
    """doLogValues, transcribed with the formats above and C's arithmetic."""
    if info.present:
        t = info.temperature_tenths
        line = HEAD % (info.level, info.voltage_mv, "-" if t < 0 else "", abs(c_div(t, 10)),
                       abs(t - c_div(t, 10) * 10), info.health, info.status)
        if info.current_ua is not None:
            line += CURRENT % (info.current_ua,)
        if info.full_charge_uah is not None:
            line += FULL_CHARGE % (info.full_charge_uah,)
        if info.cycle_count is not None:
            line += CYCLE_COUNT % (info.cycle_count,)
    else:
        line = "battery none"
    return line + CHARGERS % ("a" if info.ac else "", "u" if info.usb else "", "w" if info.wireless else "",
                              "d" if info.dock else "")


def info(**changes: object) -> HealthInfo:
    values: dict[str, object] = dict(level=100, voltage_mv=5000, temperature_tenths=250, health=2, status=2,
                                     present=True, ac=True, usb=False, wireless=False, dock=False)
    values.update(changes)
    return HealthInfo(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("health", [
    info(),  # the virtual phone: full, on AC, 25.0 C
    info(temperature_tenths=-5, ac=False, status=3),  # below zero: "-0.5", no charger: "chg="
    info(temperature_tenths=-123, level=7),
    info(temperature_tenths=301, usb=True, wireless=True, dock=True),
    info(current_ua=-523000, full_charge_uah=4400000, cycle_count=123),  # a phone with those sysfs files
    info(current_ua=0, cycle_count=0),
    info(present=False, usb=True),
])
def test_battery_line_is_batterymonitors(health: HealthInfo) -> None:
    assert battery_log_line(health) == aosp_line(health)


def test_the_virtual_phones_line() -> None:
    assert battery_log_line(hardware_health(Battery())) == "battery l=100 v=5000 t=25.0 h=2 st=2 chg=a"


def test_the_hal_reports_the_hardware_not_batteryservices_frozen_values() -> None:
    """`dumpsys battery set/unplug` freeze BatteryService's copy in system_server; the HAL still reads
    sysfs. After `reset` both agree again."""
    battery = Battery()
    battery_command(battery, ["set", "level", "5"], lambda: None)
    battery_command(battery, ["unplug"], lambda: None)
    assert battery.level == 5 and not battery.ac
    assert battery_log_line(hardware_health(battery)) == "battery l=100 v=5000 t=25.0 h=2 st=2 chg=a"
    battery_command(battery, ["reset"], lambda: None)
    assert hardware_health(battery) == hardware_health(Battery())


class VirtualClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def heartbeat_on(logd: LogBuffer, clock: VirtualClock) -> HealthHeartbeat:
    return HealthHeartbeat(logd, lambda: hardware_health(Battery()), clock)


def test_one_line_a_minute_on_the_phones_monotonic_clock() -> None:
    clock = VirtualClock()
    logd = LogBuffer(lambda: datetime(2026, 1, 15, 9, 30))
    beat = heartbeat_on(logd, clock)
    clock.now += 600
    assert beat.run_due() == []  # not started: a PhoneOS that is only built logs nothing
    beat.schedule()
    assert beat.seconds_to_next() == 60.0
    clock.now += 59.9
    assert beat.run_due() == []
    clock.now += 0.1
    (entry,) = beat.run_due()
    assert (entry.buffer, entry.priority, entry.tag, entry.pid, entry.tid, entry.uid) == \
        ("kernel", WARN, "healthd", HEALTH_HAL_PID, HEALTH_HAL_PID, AID_SYSTEM)
    assert entry.message == "battery l=100 v=5000 t=25.0 h=2 st=2 chg=a"
    assert beat.run_due() == []  # once per expiry
    clock.now += 250  # a late timer (4 expiries missed): one line, the next on the 60 s grid
    assert len(beat.run_due()) == 1
    assert beat.seconds_to_next() == pytest.approx(50.0)
    assert [e.tag for e in logd.entries(["main", "system", "crash"])] == []  # kernel buffer only


def test_bad_interval_is_refused() -> None:
    with pytest.raises(ValueError, match="invalid heartbeat interval 0"):
        HealthHeartbeat(LogBuffer(lambda: datetime(2026, 1, 15)), lambda: info(),
                        VirtualClock(), interval_s=0)


def test_logcat_without_b_reads_the_kernel_buffer(tmp_path: Path) -> None:
    phone = FakePhone(tmp_path)
    sh = Shell(phone)
    clock = VirtualClock()
    beat = heartbeat_on(phone.logd, clock)
    beat.schedule()
    clock.now += 60
    beat.run_due()
    out = sh.run("logcat -d -v brief").stdout.decode()
    assert out == f"--------- beginning of kernel\nW/healthd ({HEALTH_HAL_PID:5d}): " \
                  "battery l=100 v=5000 t=25.0 h=2 st=2 chg=a\n"
    assert sh.run("logcat -d -b default").stdout == b""  # -b default is main, system and crash
    assert "W healthd :" in sh.run("logcat -d -b kernel").stdout.decode()  # threadtime
    assert sh.run("logcat -c").exit_code == 0  # without -b, clears the kernel buffer too
    assert sh.run("logcat -d").stdout == b""


def test_the_thread_runs_from_start_to_stop_only() -> None:
    clock = VirtualClock()
    beat = heartbeat_on(LogBuffer(lambda: datetime(2026, 1, 15)), clock)
    names = {t.name for t in threading.enumerate()}
    assert "healthd-heartbeat" not in names
    beat.start()
    try:
        assert any(t.name == "healthd-heartbeat" for t in threading.enumerate())
        with pytest.raises(RuntimeError, match="already started"):
            beat.start()
    finally:
        beat.stop()
    assert all(t.name != "healthd-heartbeat" for t in threading.enumerate())
    assert beat.seconds_to_next() is None


def test_a_running_phone_has_one_heartbeat_and_stops_it(tmp_path: Path) -> None:
    """PhoneOS alone starts no thread (the zygote forks from a warmed-up PhoneOS and refuses threads);
    VirtualPhone.start starts the phone's heartbeat, stop ends it."""
    from dataclasses import replace

    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import AUTO_PORT, VirtualPhone

    def heartbeats() -> int:
        return sum(t.name == "healthd-heartbeat" for t in threading.enumerate())

    before = heartbeats()
    phone = VirtualPhone(replace(PhoneConfig(), port=AUTO_PORT, data_dir=tmp_path / "phone"))
    phone.start()
    try:
        assert heartbeats() == before + 1
        assert phone.system is not None and phone.system.heartbeat.seconds_to_next() is not None
    finally:
        phone.stop()
    assert heartbeats() == before
