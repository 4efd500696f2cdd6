"""One phone reachable over ADB - virtual phone, emulator or real phone - behind one seam.

All device I/O of the harness goes through `Device`: shell commands, screenshots, UI dumps, input and
resets. adbutils does the talking; its exceptions are mapped to the typed errors of spa_bench.errors
(DeviceOffline, DeviceTimeout, DeviceCommandFailed) so that the scheduler can tell infrastructure
failures from agent failures. Nothing here knows whether the device is virtual.
"""

from __future__ import annotations

import base64
import logging
import re
import shlex
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from spa_bench.actions import Action, Finish, Key, LongPress, OpenApp, Scroll, Swipe, Tap, TypeText, Wait
from spa_bench.device.console import EmulatorConsole
from spa_bench.device.elements import UIElement, find, parse_hierarchy
from spa_bench.device.observation import Observation
from spa_bench.errors import DeviceCommandFailed, DeviceError, DeviceOffline, DeviceTimeout
from spa_bench.results.schema import DeviceInfo

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    import adbutils

T = TypeVar("T")

KEYCODES = {"home": 3, "back": 4, "enter": 66, "delete": 67, "app_switch": 187}
ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
DUMP_PATH = "/sdcard/window_dump.xml"
_FOCUS = re.compile(r"mCurrentFocus=Window\{[^}]*?\s(?:u\d+\s)?([\w.]+)/([\w.$]+)")
_FOCUSED_APP = re.compile(r"mFocusedApp=.*?\s([\w.]+)/([\w.$]+)")
_SIZE = re.compile(r"(?:Override|Physical) size:\s*(\d+)x(\d+)")


class InvalidAction(ValueError):
    """The action cannot be carried out on this screen (unknown element, app not installed, ...).
    Recorded as an invalid step; not a device failure."""


@dataclass(frozen=True)
class ShellResult:
    output: str
    exit_code: int


def start_adb_server() -> None:
    """Make sure an adb server runs (adb from PATH, else the one bundled with adbutils)."""
    import subprocess

    from adbutils._utils import adb_path

    subprocess.run([adb_path(), "start-server"], capture_output=True, timeout=60, check=False)


def adb_client() -> adbutils.AdbClient:
    """A client of the adb server at $ANDROID_ADB_SERVER_HOST:$ANDROID_ADB_SERVER_PORT (default 5037)."""
    import adbutils

    return adbutils.AdbClient()


class Device:
    """A phone over ADB. Thread-safe for one episode at a time (the runner gives each episode one device).

    `console_port`: the emulator console for snapshot resets (derived for `emulator-N` serials).
    """

    def __init__(self, serial: str, client: adbutils.AdbClient | None = None,
                 console_port: int | None = None, command_timeout: float = 30.0) -> None:
        self.serial = serial
        self._client = client
        self.command_timeout = command_timeout
        if console_port is None and serial.startswith("emulator-") and serial[9:].isdigit():
            console_port = int(serial[9:])
        self.console_port = console_port
        self._info: DeviceInfo | None = None
        self._packages: set[str] | None = None
        self._ime_ready = False
        self._lock = threading.RLock()

    # -- plumbing -------------------------------------------------------------------------------------
    @property
    def client(self) -> adbutils.AdbClient:
        if self._client is None:
            self._client = adb_client()
        return self._client

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Map adbutils and socket errors to spa-bench's device errors."""
        import adbutils

        try:
            yield
        except DeviceError:
            raise
        except adbutils.AdbTimeout as exc:
            raise DeviceTimeout(f"{what} timed out ({exc})", self.serial) from None
        except adbutils.AdbError as exc:
            text = str(exc)
            if re.search(r"not found|offline|closed|unauthorized|refused|connect", text, re.I):
                raise DeviceOffline(f"{what}: {text}", self.serial) from None
            raise DeviceCommandFailed(f"{what}: {text}", self.serial) from None
        except TimeoutError:
            raise DeviceTimeout(f"{what} timed out", self.serial) from None
        except (ConnectionError, OSError, EOFError) as exc:
            raise DeviceOffline(f"{what}: {exc}", self.serial) from None

    def _call(self, what: str, fn: Callable[[adbutils.AdbDevice], T]) -> T:
        with self._errors(what):
            return fn(self.client.device(self.serial))

    def connect(self, attempts: int = 30) -> None:
        """`adb connect` a TCP device (host:port) and wait until it is online."""
        if ":" in self.serial:
            with self._errors("adb connect"):
                for _ in range(attempts):
                    out = self.client.connect(self.serial, timeout=10)
                    if "connected" in out and "cannot" not in out and "failed" not in out:
                        break
                    time.sleep(0.2)
        self.wait_online()

    def disconnect(self) -> None:
        if ":" in self.serial:
            with self._errors("adb disconnect"):
                self.client.disconnect(self.serial)

    def become_root(self, timeout: float = 30.0) -> bool:
        """`adb root`, as AndroidWorld prepares its emulators, so checks can read app databases the same
        way on an emulator image and on the virtual phone. False on a user build (a retail phone), where
        adbd refuses; then checks that read /data/data fail there, as they would for any agent."""
        def go(d: adbutils.AdbDevice) -> str:
            return str(d.root())

        reply = self._call("adb root", go)
        if "already running as root" in reply:
            return True
        if "restarting" not in reply:
            log.warning("%s: adb root refused: %s", self.serial, reply.strip()[:200])
            return False
        deadline = time.monotonic() + timeout
        while True:  # adbd restarts: the connection drops and the adb server reconnects
            time.sleep(0.2)
            try:
                if self.shell("id -u", timeout=5).strip() == "0":
                    return True
            except DeviceError:
                pass
            if time.monotonic() > deadline:
                raise DeviceOffline(f"not back as root {timeout:.0f} s after adb root", self.serial)

    def wait_online(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            with self._errors("adb devices"):
                states = {d.serial: d.state for d in self.client.list()}
            if states.get(self.serial) == "device":
                return
            if time.monotonic() > deadline:
                raise DeviceOffline(f"not online after {timeout:.0f} s (state: "
                                    f"{states.get(self.serial, 'absent')})", self.serial)
            time.sleep(0.1)

    # -- shell ----------------------------------------------------------------------------------------
    def run(self, command: str, timeout: float | None = None) -> ShellResult:
        """Run a shell command; return its output (stdout then stderr) and exit code."""
        limit = timeout or self.command_timeout

        def go(d: adbutils.AdbDevice) -> ShellResult:
            r = d.shell2(command, timeout=limit, v2=True)
            return ShellResult(r.output, r.returncode)

        return self._call(f"shell {command[:60]!r}", go)

    def shell(self, command: str, timeout: float | None = None) -> str:
        """Run a shell command and return its output; exit codes are ignored (see `run`)."""
        return self.run(command, timeout).output

    def check(self, command: str, timeout: float | None = None) -> str:
        """Run a shell command that must succeed; DeviceCommandFailed otherwise."""
        result = self.run(command, timeout)
        if result.exit_code != 0:
            raise DeviceCommandFailed(f"`{command}` exited {result.exit_code}: {result.output.strip()[:300]}",
                                      self.serial)
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
            kind: Any = ("virtual" if lines[5].strip() == "spa-bench"
                         else "emulator" if self.serial.startswith("emulator-") or lines[4].strip() == "1"
                         else "physical")
            self._info = DeviceInfo(serial=self.serial, kind=kind, model=lines[0].strip() or None,
                                    android_release=lines[1].strip() or None,
                                    sdk=int(sdk) if sdk.isdigit() else None, screen_width=width,
                                    screen_height=height, locale=lines[3].strip() or None)
        return self._info

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
        return self._packages

    # -- observing ------------------------------------------------------------------------------------
    def screenshot_png(self) -> bytes:
        def go(d: adbutils.AdbDevice) -> bytes:
            data: bytes = d.shell("screencap -p", encoding=None, timeout=self.command_timeout)
            return data

        data = self._call("screencap", go)
        if not data.startswith(b"\x89PNG"):
            raise DeviceCommandFailed(f"screencap returned no PNG ({data[:80]!r})", self.serial)
        return data

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
        out = self.shell("dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'; "
                         "dumpsys input_method | grep mInputShown")
        match = _FOCUS.search(out) or _FOCUSED_APP.search(out)
        package, activity = (match.group(1), match.group(2)) if match else (None, None)
        if package and activity and activity.startswith("."):
            activity = package + activity
        return package, activity, "mInputShown=true" in out

    def observe(self) -> Observation:
        png = self.screenshot_png()
        xml = self.dump_hierarchy()
        package, activity, keyboard = self.foreground()
        width, height = self.info().screen_width or 0, self.info().screen_height or 0
        return Observation(screenshot_png=png, hierarchy_xml=xml, all_elements=parse_hierarchy(xml),
                           package=package, activity=activity, keyboard_shown=keyboard, width=width,
                           height=height, taken_at=time.time())

    # -- acting ---------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        self.check(f"input tap {x} {y}")

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        self.check(f"input swipe {x} {y} {x} {y} {duration_ms}")

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.check(f"input swipe {x1} {y1} {x2} {y2} {duration_ms}")

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

    def _target(self, action: Tap | LongPress | TypeText | Scroll, obs: Observation) -> UIElement | None:
        if getattr(action, "element", None) is not None:
            element = obs.element(action.element)  # type: ignore[arg-type]
            if element is None:
                raise InvalidAction(f"no element {action.element} on this screen "
                                    f"({len(obs.elements)} elements)")
            return element
        selector = getattr(action, "selector", None)
        if selector is not None:
            element = find(obs.all_elements, selector)
            if element is None:
                raise InvalidAction(f"no element matches {selector.model_dump(exclude_defaults=True)}")
            return element
        return None

    def _point(self, action: Tap | LongPress, obs: Observation) -> tuple[int, int]:
        element = self._target(action, obs)
        if element is not None:
            return element.center
        assert action.x is not None and action.y is not None
        if obs.width and obs.height and not (action.x < obs.width and action.y < obs.height):
            raise InvalidAction(f"({action.x}, {action.y}) is outside the {obs.width}x{obs.height} screen")
        return action.x, action.y

    def execute(self, action: Action, obs: Observation, resolve_app: Callable[[str], str | None]
                | None = None) -> None:
        """Carry out an action on the screen `obs` describes. InvalidAction when it makes no sense here."""
        if isinstance(action, Tap):
            self.tap(*self._point(action, obs))
        elif isinstance(action, LongPress):
            self.long_press(*self._point(action, obs), action.duration_ms)
        elif isinstance(action, Swipe):
            self.swipe(action.x1, action.y1, action.x2, action.y2, action.duration_ms)
        elif isinstance(action, Scroll):
            self._scroll(action, obs)
        elif isinstance(action, TypeText):
            element = self._target(action, obs)
            if element is not None and not element.focused:
                self.tap(*element.center)
            if action.clear:
                self.clear_text(element.text if element is not None else "")
            self.type_text(action.text)
            if action.enter:
                self.press_key("enter")
        elif isinstance(action, Key):
            self.press_key(action.key)
        elif isinstance(action, OpenApp):
            package = resolve_app(action.app) if resolve_app else action.app
            if package is None:
                raise InvalidAction(f"no installed app called {action.app!r}")
            self.open_app(package)
        elif isinstance(action, Wait):
            time.sleep(action.seconds)
        elif isinstance(action, Finish):
            return
        else:  # pragma: no cover - the union is closed
            raise InvalidAction(f"unsupported action {action!r}")

    def _scroll(self, action: Scroll, obs: Observation) -> None:
        element = self._target(action, obs)
        if element is not None:
            left, top, right, bottom = element.bounds
        else:
            left, top, right, bottom = 0, int(obs.height * 0.25), obs.width, int(obs.height * 0.75)
        cx, cy = (left + right) // 2, (top + bottom) // 2
        dx, dy = (right - left) * 3 // 8, (bottom - top) * 3 // 8
        # "down" shows what is further down: the finger moves up
        start, end = {"down": ((cx, cy + dy), (cx, cy - dy)), "up": ((cx, cy - dy), (cx, cy + dy)),
                      "right": ((cx + dx, cy), (cx - dx, cy)), "left": ((cx - dx, cy), (cx + dx, cy))
                      }[action.direction]
        self.swipe(*start, *end, 400)

    # -- resets ---------------------------------------------------------------------------------------
    def load_snapshot(self, name: str) -> None:
        if self.console_port is None:
            raise DeviceCommandFailed("snapshot reset needs an emulator console (emulator-N serial or "
                                      "a console port)", self.serial)
        EmulatorConsole(self.console_port).snapshot_load(name)
        self._packages = None
        self._ime_ready = False

    def save_snapshot(self, name: str) -> None:
        if self.console_port is None:
            raise DeviceCommandFailed("saving a snapshot needs an emulator console", self.serial)
        EmulatorConsole(self.console_port).snapshot_save(name)

    def clear_packages(self, packages: list[str]) -> None:
        for package in packages:
            out = self.shell(f"pm clear {package}")
            if "Success" not in out:
                raise DeviceCommandFailed(f"pm clear {package}: {out.strip()[:200]}", self.serial)
