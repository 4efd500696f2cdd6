"""What an idle phone logs by itself: the health HAL's battery line, once a minute, on the phone's clock.

A real Android 14 phone is never silent for long, and clients count on it: adbutils' logcat copier
checks its stop flag only between lines, so `StopEvent.stop()` returns once one more line comes. The
one AOSP source that logs on a timer rather than on an event is the health HAL's loop:
- hardware/interfaces/health/utils/libhealthloop/utils.cpp: DEFAULT_PERIODIC_CHORES_INTERVAL_FAST
  (60 * 1) seconds, used while the device is awake or charging (healthd.h); a virtual phone never
  suspends, so it always runs at the fast interval;
- its periodic chores call Health::update() (hardware/interfaces/health/aidl/default/Health.cpp),
  which calls BatteryMonitor::logValues();
- system/core healthd/BatteryMonitor.cpp (android14-d2-release) defines LOG_TAG "healthd" (line 17)
  and doLogValues (lines 501-535) builds "battery l=%d v=%d t=%s%d.%d h=%d st=%d" + " c=%d" / " fc=%d" /
  " cc=%d" (only for the sysfs files healthd found) + " chg=%s%s%s%s", written with KLOG_WARNING
  (line 535), i.e. "<4>healthd: ..." into the kernel log (libcutils/include/cutils/klog.h line 41);
- logd reads the kernel log back on debuggable builds (system/logging logd/main.cpp line 224:
  ro.logd.kernel defaults to ro.debuggable; the phone's ro.debuggable is 1) and LogKlog.cpp turns
  "<4>healthd: msg" into priority W (convertKernelPrioToAndroidPrio, lines 424-444), tag "healthd",
  the writer's pid from the "[  T123]" caller prefix and its uid (lines 522-526);
- logcat without -b reads main, system, crash and kernel (logcat/logcat.cpp lines 819-821).
So a `logcat` that follows the log gets `W healthd : battery l=100 v=5000 t=25.0 h=2 st=2 chg=a` at
most a minute after it starts. Other idle activity in AOSP (ActivityTaskManager's START line, logd's
"logdr:" line) follows an event, not a clock, and is not modelled here.

The values are the hardware's, as the HAL reads them from sysfs: `dumpsys battery set ...` freezes
only BatteryService's copy in system_server, so the line keeps reporting the real battery (full, on AC,
for the virtual phone) until `dumpsys battery reset`.

One `HealthHeartbeat` per phone: `VirtualPhone.start()` starts its thread, `PhoneOS.close()` stops it.
Nothing runs at import or when a PhoneOS is built (the zygote's warm-up phone has no thread; a forked
phone starts its own). `run_due()` does the work on the phone's monotonic clock, so tests drive it with
a virtual clock instead of waiting.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.phone.system.battery import Battery
from spa_bench.phone.system.logd import WARN, LogBuffer, LogEntry

HEALTHD_TAG = "healthd"  # BatteryMonitor.cpp's LOG_TAG
PERIODIC_CHORES_INTERVAL_FAST_S = 60.0  # libhealthloop's DEFAULT_PERIODIC_CHORES_INTERVAL_FAST
HEALTH_HAL_PID = 311  # the health HAL service, started by init early, before adbd (ps's 342)
AID_SYSTEM = 1000  # the health HAL runs as user system
# What the virtual battery's sysfs reports besides Battery's fields (BatteryService's dump shows the same)
HARDWARE_VOLTAGE_MV = 5000
BATTERY_HEALTH_GOOD = 2  # BatteryManager.BATTERY_HEALTH_GOOD, the dump's "health: 2"


@dataclass(frozen=True)
class HealthInfo:
    """The fields of the HAL's HealthInfo that BatteryMonitor logs. current_ua, full_charge_uah and
    cycle_count are None when healthd found no sysfs file for them (it then leaves them out)."""

    level: int
    voltage_mv: int
    temperature_tenths: int
    health: int
    status: int
    present: bool
    ac: bool
    usb: bool
    wireless: bool
    dock: bool
    current_ua: int | None = None
    full_charge_uah: int | None = None
    cycle_count: int | None = None


def battery_log_line(info: HealthInfo) -> str:
    """BatteryMonitor.cpp's doLogValues, without KLOG's trailing newline."""
    if info.present:
        t = info.temperature_tenths
        # abs(t / 10) and abs(t % 10) in C, whose division truncates toward zero; the sign printed once
        whole, tenth = abs(t) // 10, abs(t) % 10
        line = (f"battery l={info.level} v={info.voltage_mv} t={'-' if t < 0 else ''}{whole}.{tenth} "
                f"h={info.health} st={info.status}")
        if info.current_ua is not None:
            line += f" c={info.current_ua}"
        if info.full_charge_uah is not None:
            line += f" fc={info.full_charge_uah}"
        if info.cycle_count is not None:
            line += f" cc={info.cycle_count}"
    else:
        line = "battery none"
    chargers = ("a" if info.ac else "") + ("u" if info.usb else "") + ("w" if info.wireless else "") + \
        ("d" if info.dock else "")
    return f"{line} chg={chargers}"


def hardware_health(battery: Battery) -> HealthInfo:
    """What the HAL reads: the phone's battery, or, while `dumpsys battery set` has frozen BatteryService's
    values, the hardware's own (those `dumpsys battery reset` returns to). The virtual battery has no
    current_now, charge_full or cycle_count file, so those stay out of the line."""
    real = Battery() if battery.updates_stopped else battery
    return HealthInfo(level=real.level, voltage_mv=HARDWARE_VOLTAGE_MV, temperature_tenths=real.temperature,
                      health=BATTERY_HEALTH_GOOD, status=real.status, present=real.present, ac=real.ac,
                      usb=real.usb, wireless=real.wireless, dock=real.dock)


class HealthHeartbeat:
    """The health HAL's periodic chores on one phone: a `W healthd` line in the kernel buffer every
    interval of the phone's monotonic clock, from start() until stop()."""

    def __init__(self, logd: LogBuffer, read_health: Callable[[], HealthInfo], monotonic: Callable[[], float],
                 interval_s: float = PERIODIC_CHORES_INTERVAL_FAST_S) -> None:
        if interval_s <= 0:
            raise ValueError(f"invalid heartbeat interval {interval_s!r}: must be positive seconds")
        self._logd = logd
        self._read_health = read_health
        self._monotonic = monotonic
        self.interval_s = interval_s
        self._next_due: float | None = None  # None until start(): no line before the phone runs
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def schedule(self) -> None:
        """Arm the timer as the HAL's wakealarm is armed at its start: the first line one interval later."""
        with self._lock:
            self._next_due = self._monotonic() + self.interval_s

    def run_due(self) -> list[LogEntry]:
        """Write the line if its time has come. A late timer (a virtual clock that jumped, a busy host)
        gives one line, as a timerfd read reports all missed expiries at once; the next stays on the
        interval's grid from the start."""
        with self._lock:
            now = self._monotonic()
            if self._next_due is None or now < self._next_due:
                return []
            missed = int((now - self._next_due) // self.interval_s)
            self._next_due += (missed + 1) * self.interval_s
        line = battery_log_line(self._read_health())
        return [self._logd.write(WARN, HEALTHD_TAG, line, pid=HEALTH_HAL_PID, uid=AID_SYSTEM,
                                 buffer="kernel")]

    def seconds_to_next(self) -> float | None:
        with self._lock:
            return None if self._next_due is None else max(0.0, self._next_due - self._monotonic())

    def start(self) -> None:
        """Arm the timer and run it in a daemon thread of the phone (once; a second start is refused)."""
        if self._thread is not None:
            raise RuntimeError("the health heartbeat is already started")
        self.schedule()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="healthd-heartbeat", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds_to_next() or 0.0):
            self.run_due()

    def stop(self) -> None:
        """Stop the thread and wait for it (it never holds the phone's lock while waiting)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        with self._lock:
            self._next_due = None
