"""One phone reachable over ADB - virtual phone, emulator or real phone - behind one seam.

All device I/O of the harness goes through `Device`: shell commands, screenshots, UI dumps, input and
resets. Device holds the policy (which commands, where a gesture lands, how output is read); its
transport (spa_bench.device.transport) moves the bytes and raises the typed errors of spa_bench.errors
(DeviceOffline, DeviceTimeout, DeviceCommandFailed), so that the scheduler can tell infrastructure
failures from agent failures. Nothing here knows whether the device is virtual.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import re
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.actions import Action, AskUser, Finish, Key, OpenApp, TypeText, Wait
from spa_bench.device.audit import (
    MARK_COMMAND,
    SINCE_COMMAND,
    DeviceAudit,
    SentCommand,
    agent_entries,
    parse_since,
)
from spa_bench.device.elements import parse_hierarchy
from spa_bench.device.gesture import Gesture, InvalidAction, resolve_gesture, target_element
from spa_bench.device.info import DeviceInfo, DeviceKind
from spa_bench.device.observation import Observation, parse_focus, split_observation
from spa_bench.device.packages import PackageMap
from spa_bench.device.transport import AdbTransport, Request, Response, Transport
from spa_bench.errors import DeviceCommandFailed, DeviceError, DeviceOffline

__all__ = ["ADB_KEYBOARD_IME", "KEYCODES", "Device", "InvalidAction", "ShellResult", "start_adb_server"]

log = logging.getLogger(__name__)

KEYCODES = {"home": 3, "back": 4, "enter": 66, "delete": 67, "app_switch": 187}
ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
DUMP_PATH = "/sdcard/window_dump.xml"
FOREGROUND_COMMAND = ("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'; "
                      "dumpsys input_method | grep mInputShown")
# One round trip for a whole observation: the PNG (its end is found by walking its chunks), the dump
# (found by its root element), then the focus and keyboard lines.
OBSERVE_COMMAND = (f"screencap -p; uiautomator dump {DUMP_PATH} >/dev/null && cat {DUMP_PATH}; echo; "
                   + FOREGROUND_COMMAND)
_SIZE = re.compile(r"(?:Override|Physical) size:\s*(\d+)x(\d+)")


@dataclass(frozen=True)
class ShellResult:
    output: str
    exit_code: int


def start_adb_server() -> None:
    """Make sure an adb server runs (adb from PATH, else the one bundled with adbutils)."""
    import subprocess

    from adbutils._utils import adb_path

    subprocess.run([adb_path(), "start-server"], capture_output=True, timeout=60, check=False)


def no_console_message(serial: str, doing: str) -> str:
    """What to do about a device without an emulator console, for the error of a reset that needs one."""
    return (f"{doing} needs an emulator console, and {serial} has none that spa-bench can find: for an "
            f"emulator reached over TCP, name its console (--device {serial}=CONSOLE_PORT); a phone cannot "
            f"load snapshots: run tasks that reset with `setup.reset: pm_clear`")


class Device:
    """A phone over ADB. Thread-safe for one episode at a time (the runner gives each episode one device).

    `transport`: how requests reach the device (default: the adb server at $ANDROID_ADB_SERVER_PORT;
    tests pass a ScriptedTransport). `console_port`: the emulator console for snapshot resets (derived
    for `emulator-N` serials).
    """

    def __init__(self, serial: str, transport: Transport | None = None, console_port: int | None = None,
                 command_timeout: float = 30.0) -> None:
        self.serial = serial
        self.transport: Transport = transport if transport is not None else AdbTransport()
        self.command_timeout = command_timeout
        if console_port is None and serial.startswith("emulator-") and serial[9:].isdigit():
            console_port = int(serial[9:])
        self.console_port = console_port
        self._info: DeviceInfo | None = None
        self._packages: set[str] | None = None
        self._package_map: PackageMap | None = None
        self._ime_ready = False
        self._audit_mark: int | None = None
        self._own: list[SentCommand] | None = None  # what this Device sent while an audit is open
        self._snapshot_ids: dict[str, str] = {}  # snapshot -> the id of the save this Device saw first
        self._snapshot_ids_known = True  # False once the console says it has no `spa snapshot id`
        self.connected_here = False  # this object's connect() made the adb server connect the device

    def _send(self, request: Request) -> Response:
        """Every request goes through here: while an audit is open, the shell, adbd service and console
        requests are noted, so that the device's record of them can be told from the agent's."""
        own = self._own
        if own is not None and request.service in ("shell", "service", "console"):
            own.append(SentCommand(request.service, request.command))
        return self.transport.handle(request)

    def _host(self, command: str, timeout: float = 10.0) -> str:
        return self._send(Request("host", command, self.serial, timeout=timeout)).text()

    def connect(self, attempts: int = 30, refused_for: float = 1.0) -> None:
        """`adb connect` a TCP device (host:port) and wait until it is online. A device adb cannot reach
        (nothing listens, the host is unknown) fails after `refused_for` seconds with adb's own reason
        ("Connection refused"), not after the whole wait for it to come online."""
        if ":" in self.serial:
            first_refusal: float | None = None
            for _ in range(attempts):
                out = self._host(f"connect:{self.serial}")
                if "connected" in out and "cannot" not in out and "failed" not in out:
                    # adb says "already connected to ..." for a device someone else connected: theirs to keep
                    self.connected_here = "already connected" not in out
                    break
                if "failed" in out or "cannot" in out:  # e.g. failed to connect to '...': Connection refused
                    now = time.monotonic()
                    first_refusal = now if first_refusal is None else first_refusal
                    if now - first_refusal >= refused_for:
                        raise DeviceOffline(f"cannot connect: {out.strip()}", self.serial)
                time.sleep(0.2)
        self.wait_online()

    def disconnect(self) -> None:
        """`adb disconnect` a TCP device; one the server does not know is disconnected already."""
        if ":" in self.serial:
            with contextlib.suppress(DeviceCommandFailed):
                self._host(f"disconnect:{self.serial}")

    def become_root(self, timeout: float = 30.0, gone_timeout: float = 3.0) -> bool:
        """`adb root`, as AndroidWorld prepares its emulators, so checks can read app databases the same
        way on an emulator image and on the virtual phone. False on a user build (a retail phone), where
        adbd refuses; then checks that read /data/data fail there, as they would for any agent."""
        reply = self._send(Request("service", "root:", self.serial, timeout=timeout)).text()
        if "already running as root" in reply:
            return True
        if "restarting" not in reply:
            log.warning("%s: adb root refused: %s", self.serial, reply.strip()[:200])
            return False
        # adbd restarts: its connections drop (the reply comes first) and the adb server reconnects. As the
        # adb CLI does, wait for the device to go away before asking again; a command that slips in
        # before the drop answers on the old connection and would make the next one fail.
        gone_deadline = time.monotonic() + gone_timeout
        while time.monotonic() < gone_deadline:
            try:
                self.shell("true", timeout=5)
            except DeviceError:
                break
            time.sleep(0.05)
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self.shell("id -u", timeout=5).strip() == "0":
                    return True
            except DeviceError:
                pass
            if time.monotonic() > deadline:
                raise DeviceOffline(f"not back as root {timeout:.0f} s after adb root", self.serial)
            time.sleep(0.2)

    def wait_online(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            listed = (line.split("\t", 1) for line in self._host("devices").splitlines())
            states = {fields[0]: fields[1].strip() for fields in listed if len(fields) == 2}
            if states.get(self.serial) == "device":
                return
            if time.monotonic() > deadline:
                raise DeviceOffline(f"not online after {timeout:.0f} s (state: "
                                    f"{states.get(self.serial, 'absent')})", self.serial)
            time.sleep(0.1)

    # -- shell ----------------------------------------------------------------------------------------
    def run(self, command: str, timeout: float | None = None) -> ShellResult:
        """Run a shell command; return its output (stdout then stderr) and exit code."""
        response = self._send(Request("shell", command, self.serial,
                                                 timeout=timeout or self.command_timeout))
        return ShellResult(response.text(), response.exit_code)

    def shell(self, command: str, timeout: float | None = None) -> str:
        """Run a shell command and return its output; exit codes are ignored (see `run`)."""
        return self.run(command, timeout).output

    def check(self, command: str, timeout: float | None = None, *, doing: str = "",
              refused: tuple[str, ...] = ()) -> str:
        """Run a shell command that must succeed; DeviceCommandFailed otherwise, its message led by `doing`.
        `refused`: words that mean failure in the output even with exit status 0, as some Android
        commands report it ("Error: ..." from am, cmd and dumpsys)."""
        result = self.run(command, timeout)
        if result.exit_code != 0 or any(word in result.output for word in refused):
            lead = f"{doing} " if doing else ""
            raise DeviceCommandFailed(f"{lead}`{command}` exited {result.exit_code}: "
                                      f"{result.output.strip()[:300]}", self.serial)
        return result.output

    # -- facts ----------------------------------------------------------------------------------------
    def health_check(self) -> None:
        """The device answers a shell command and has finished booting; raises DeviceError if not."""
        out = self.shell("echo spa-ok; getprop sys.boot_completed", timeout=15).split()
        if not out or out[0] != "spa-ok":
            raise DeviceOffline(f"unexpected answer to echo: {out!r}", self.serial)
        if len(out) < 2 or out[1] != "1":
            raise DeviceOffline("device has not finished booting", self.serial)

    def info(self) -> DeviceInfo:
        if self._info is None:
            props = self.shell("getprop ro.product.model; getprop ro.build.version.release; "
                               "getprop ro.build.version.sdk; getprop persist.sys.locale; "
                               "getprop ro.kernel.qemu; getprop ro.product.manufacturer; wm size")
            lines = props.splitlines() + [""] * 7
            width, height = self.screen_size(props)
            sdk = lines[2].strip()
            # the virtual phone presents itself as an emulator image (ro.kernel.qemu=1): its maker says which
            emulator = self.serial.startswith("emulator-") or lines[4].strip() == "1"
            kind: DeviceKind = ("virtual" if lines[5].strip() == "spa-bench"
                                else "emulator" if emulator else "physical")
            self._info = DeviceInfo(serial=self.serial, kind=kind, model=lines[0].strip() or None,
                                    android_release=lines[1].strip() or None,
                                    sdk=int(sdk) if sdk.isdigit() else None, screen_width=width,
                                    screen_height=height, locale=lines[3].strip() or None)
        return self._info

    def forget_info(self) -> None:
        """Read the device's facts again at the next info(): its screen size or density was changed."""
        self._info = None

    def screen_size(self, wm_output: str | None = None) -> tuple[int, int]:
        text = wm_output if wm_output is not None else self.shell("wm size")
        sizes = _SIZE.findall(text)
        if not sizes:
            raise DeviceCommandFailed(f"cannot read the screen size from {text.strip()[:200]!r}",
                                      self.serial)
        width, height = sizes[-1]  # an override size, when set, comes last and wins
        return int(width), int(height)

    def packages(self, refresh: bool = False) -> set[str]:
        if self._packages is None or refresh:
            out = self.shell("pm list packages")
            self._packages = {line.split(":", 1)[1].strip() for line in out.splitlines()
                              if line.startswith("package:")}
            self._package_map = None  # derived from the packages: worked out again from the new list
        return self._packages

    def package_map(self) -> PackageMap:
        """The packages this device has under other names than the tasks' (Google's builds of AOSP apps on
        a stock emulator image; none on the virtual phone). Worked out once per device: snapshot loads of
        one run do not change which apps the device has."""
        if self._package_map is None:
            self._package_map = PackageMap.for_device(self.packages())
        return self._package_map

    # -- observing ------------------------------------------------------------------------------------
    def screenshot_png(self) -> bytes:
        response = self._send(Request("shell", "screencap -p", self.serial,
                                                 timeout=self.command_timeout))
        if not response.stdout.startswith(b"\x89PNG"):
            raise DeviceCommandFailed(f"screencap returned no PNG ({response.output[:80]!r})", self.serial)
        return response.stdout

    def dump_hierarchy(self) -> str:
        out = self.shell(f"uiautomator dump {DUMP_PATH} >/dev/null && cat {DUMP_PATH}")
        start = out.find("<?xml")
        if start < 0:
            start = out.find("<hierarchy")
        if start < 0:
            raise DeviceCommandFailed(f"uiautomator dump failed: {out.strip()[:300]!r}", self.serial)
        return out[start:]

    def foreground(self) -> tuple[str | None, str | None, bool]:
        """(package, activity, keyboard shown) in one round trip."""
        return parse_focus(self.shell(FOREGROUND_COMMAND))

    def observe(self) -> Observation:
        """Screenshot, UI dump and foreground app of one moment, in one shell command."""
        info = self.info()
        response = self._send(Request("shell", OBSERVE_COMMAND, self.serial,
                                                 timeout=self.command_timeout))
        try:
            png, xml, rest = split_observation(response.stdout)
        except ValueError as exc:
            raise DeviceCommandFailed(f"observe: {exc} (stderr: {response.stderr.strip()[:300]!r})",
                                      self.serial) from None
        package, activity, keyboard = parse_focus(rest)
        return Observation(screenshot_png=png, hierarchy_xml=xml, all_elements=parse_hierarchy(xml),
                           package=package, activity=activity, keyboard_shown=keyboard,
                           width=info.screen_width or 0, height=info.screen_height or 0, taken_at=time.time())

    # -- acting ---------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        self.check(f"input tap {x} {y}")

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        self.check(f"input swipe {x} {y} {x} {y} {duration_ms}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.check(f"input swipe {x1} {y1} {x2} {y2} {duration_ms}")

    def perform(self, gesture: Gesture) -> None:
        """Touch the screen as `gesture` says (a typing gesture's focusing tap, if it has one)."""
        if gesture.kind == "long_press":
            self.long_press(*gesture.points[0], gesture.duration_ms or 1000)
        elif gesture.kind == "swipe":
            (x1, y1), (x2, y2) = gesture.points[0], gesture.points[-1]
            self.swipe(x1, y1, x2, y2, gesture.duration_ms or 300)
        elif gesture.points:  # a tap, or the tap that focuses a text field
            self.tap(*gesture.points[0])

    def press_key(self, key: str | int) -> None:
        code = KEYCODES[key] if isinstance(key, str) else key
        self.check(f"input keyevent {code}")

    def type_text(self, text: str) -> None:
        """ASCII through `input text` (escaped for the device shell); anything else through ADBKeyboard."""
        if not text:
            return
        if text.isascii() and "\n" not in text:
            # `input text` reads %s as a space; quote the rest for the device shell
            self.check(f"input text {shlex.quote(text.replace(' ', '%s'))}")
            return
        if "com.android.adbkeyboard" not in self.packages():
            raise DeviceCommandFailed("typing non-ASCII text needs ADBKeyboard (com.android.adbkeyboard); "
                                      "install it on the device", self.serial)
        if not self._ime_ready:
            self.shell(f"ime enable {ADB_KEYBOARD_IME}; ime set {ADB_KEYBOARD_IME}")
            self._ime_ready = True
        encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.check(f"am broadcast -a ADB_INPUT_B64 --es msg {encoded}")

    def clear_text(self, current: str) -> None:
        """Delete the focused field's text: move to its end, then one DEL per character."""
        count = min(len(current) + 1, 200)
        self.check("input keyevent 123 " + " ".join(["67"] * count))

    def open_app(self, package: str, activity: str | None = None) -> None:
        if activity:
            out = self.shell(f"am start -n {package}/{activity}")
            if "Error" not in out:
                return
        out = self.shell(f"monkey -p {package} -c android.intent.category.LAUNCHER 1")
        if "No activities found" in out or "Error" in out or "not found" in out:
            raise DeviceCommandFailed(f"cannot launch {package}: {out.strip()[:200]}", self.serial)

    def force_stop(self, package: str) -> None:
        self.shell(f"am force-stop {package}")

    def execute(self, action: Action, obs: Observation, resolve_app: Callable[[str], str | None]
                | None = None) -> Gesture | None:
        """Carry out an action on the screen `obs` describes and return the gesture it made (None when it
        touched nothing). InvalidAction when the action makes no sense on this screen."""
        gesture = resolve_gesture(action, obs.all_elements, obs.width, obs.height)
        if isinstance(action, TypeText):
            element = target_element(action, obs.all_elements)
            if gesture is not None:
                self.perform(gesture)
            if action.clear:
                self.clear_text(element.text if element is not None else "")
            self.type_text(action.text)
            if action.enter:
                self.press_key("enter")
        elif gesture is not None:
            self.perform(gesture)
        elif isinstance(action, Key):
            self.press_key(action.key)
        elif isinstance(action, OpenApp):
            package = resolve_app(action.app) if resolve_app else action.app
            if package is None:
                raise InvalidAction(f"no installed app called {action.app!r}")
            self.open_app(package)
        elif isinstance(action, Wait):
            time.sleep(action.seconds)
        elif not isinstance(action, Finish | AskUser):  # pragma: no cover - the union is closed
            raise InvalidAction(f"unsupported action {action!r}")
        return gesture

    # -- resets ---------------------------------------------------------------------------------------
    def load_snapshot(self, name: str) -> None:
        self._console_for("a snapshot reset")
        self._check_snapshot(name)
        self._console(f"avd snapshot load {name}")
        self._packages = None
        self._ime_ready = False

    def save_snapshot(self, name: str) -> None:
        self._console_for("saving a snapshot")
        self._console(f"avd snapshot save {name}")
        self._snapshot_ids.pop(name, None)
        self._check_snapshot(name)  # remembers the id of this save

    def _check_snapshot(self, name: str) -> None:
        """Refuse to restore a snapshot saved over since this Device saved it or first restored it: an
        agent with the console token could otherwise poison the base every later episode starts from.
        The virtual phone gives each save a new id (`spa snapshot id`); an emulator has none to check."""
        if not self._snapshot_ids_known:
            return
        try:
            ident = self._console(f"spa snapshot id {name}").strip()
        except DeviceCommandFailed as exc:
            if "unknown command" in str(exc):  # an emulator: its console has no `spa` commands
                self._snapshot_ids_known = False
            elif name in self._snapshot_ids:
                raise DeviceError(f"snapshot {name!r} that the harness restores from is gone ({exc}); "
                                  f"restart the phone to prepare its bases again", self.serial) from None
            return
        first = self._snapshot_ids.setdefault(name, ident)
        if ident != first:
            raise DeviceError(f"snapshot {name!r} was saved over since the harness took it (id "
                              f"{first or '-'} then {ident or '-'}), by something other than the harness; it "
                              f"is not restored; restart the phone to prepare its bases again", self.serial)

    def snapshots(self) -> list[str]:
        """The names `avd snapshot list` shows."""
        self._console_for("listing snapshots")
        # the emulator's table: a title, a header "ID TAG VM SIZE DATE VM CLOCK", a row per snapshot
        names, in_table = [], False
        for line in self._console("avd snapshot list").splitlines():
            words = line.split()
            if in_table and len(words) > 1:
                names.append(words[1])
            in_table = in_table or words[:2] == ["ID", "TAG"]
        return names

    def find_console(self) -> int | None:
        """The emulator console, found when the serial does not name it: an emulator or virtual phone
        reached at 127.0.0.1:P (`adb connect`, or `spa-bench phone`) listens for its console on P - 1, the
        emulator's own convention. Taken only when the device says it is one (ro.kernel.qemu) and that
        port answers as a console; None otherwise (a phone has no console)."""
        if self.console_port is not None:
            return self.console_port
        host, _, port = self.serial.rpartition(":")
        if host not in ("127.0.0.1", "localhost") or not port.isdigit():
            return None
        if self.info().kind not in ("virtual", "emulator"):
            return None
        candidate = int(port) - 1
        try:
            self._send(Request("console", "avd name", self.serial, port=candidate,
                                          timeout=self.command_timeout))
        except DeviceError:
            return None
        self.console_port = candidate
        return candidate

    def console_command(self, line: str, doing: str) -> str:
        """One command to the emulator console (`gsm call`, `sms send`, ...); its reply without the final
        OK. DeviceCommandFailed when the device has no console or the console answers KO."""
        self._console_for(doing)
        return self._console(line)

    def _console_for(self, doing: str) -> int:
        port = self.find_console()
        if port is None:
            raise DeviceCommandFailed(no_console_message(self.serial, doing), self.serial)
        return port

    def _console(self, line: str) -> str:
        return self._send(Request("console", line, self.serial, port=self.console_port,
                                             timeout=self.command_timeout)).text()

    # -- the audit of what others send -----------------------------------------------------------------
    def begin_audit(self) -> None:
        """From now on, note what reaches the device from others (spa_bench.device.audit)."""
        self._audit_mark = None
        port = self.find_console()
        if port is not None:
            try:
                self._audit_mark = int(self._console(MARK_COMMAND).strip())
            except (DeviceCommandFailed, ValueError):  # an emulator: its console has no audit
                self._audit_mark = None
        self._own = []

    def end_audit(self) -> DeviceAudit:
        """What reached the device from others since `begin_audit`; the audit is closed."""
        own, mark = self._own or [], self._audit_mark
        self._own = self._audit_mark = None
        if mark is None:
            return DeviceAudit("harness", False, [])
        recorded, dropped = parse_since(self._console(SINCE_COMMAND.format(mark=mark)))
        return DeviceAudit("device", not dropped, agent_entries(recorded, own))

    def clear_packages(self, packages: list[str]) -> None:
        for package in packages:
            out = self.shell(f"pm clear {package}")
            if "Success" not in out:
                raise DeviceCommandFailed(f"pm clear {package}: {out.strip()[:200]}", self.serial)
