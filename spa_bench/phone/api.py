"""The contract between the virtual phone's layers.

The OS (`spa_bench.phone.system`) implements `PhoneSystem`; the shell, the ADB services, uiautomator2's
RPC server and the console only talk to the phone through it. All methods are thread-safe: ADB streams
run concurrently, and the system serialises state changes with its own lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal, Protocol

from PIL import Image

from spa_bench.phone.touch import Gesture, TouchAction
from spa_bench.phone.vfs import VirtualFS

Locale = Literal["en", "zh"]
DumpMode = Literal["active", "windows", "u2"]  # see spa_bench.phone.ui.xmldump


@dataclass(frozen=True)
class PhoneConfig:
    """What a phone is started with. The console listens on `port - 1` (5555 -> emulator-5554)."""

    port: int = 5555
    locale: Locale = "en"
    width: int = 1080
    height: int = 2400
    density: int = 420
    data_dir: Path = field(default_factory=lambda: Path("phone-data"))
    model: str = "SPA Virtual Phone"
    product: str = "spa_vphone"
    device: str = "vphone"
    manufacturer: str = "spa-bench"
    android_release: str = "14"
    sdk: int = 34
    host: str = "127.0.0.1"
    frozen_clock: datetime | None = None  # the wall clock always reads this (reproducible screens)

    @property
    def console_port(self) -> int:
        return self.port - 1

    @property
    def serial(self) -> str:
        """The serial adb shows after `adb connect`."""
        return f"{self.host}:{self.port}"


ComponentKind = Literal["activity", "service", "receiver"]


@dataclass(frozen=True)
class Component:
    """One `<activity>`, `<service>` or `<receiver>` of a package's manifest, as the activity manager
    checks it: another uid (the shell's 2000) may start it only when it is exported, and holds
    `permission` when one is required."""

    kind: ComponentKind
    name: str  # fully qualified class name
    exported: bool
    permission: str | None = None


@dataclass(frozen=True)
class PackageInfo:
    """An installed app as `pm` and the launcher see it."""

    name: str  # e.g. "com.android.settings"
    label_en: str
    label_zh: str
    launcher_activity: str | None  # fully qualified class name, None for non-launchable packages
    apk_path: str  # e.g. "/system/priv-app/Settings/Settings.apk"
    system: bool = True
    components: tuple[Component, ...] = ()

    def label(self, locale: Locale) -> str:
        return self.label_zh if locale == "zh" else self.label_en

    def component(self, kind: ComponentKind, name: str) -> Component | None:
        """The declared component (`name` fully qualified or `.Short`), None when there is none. The
        launcher activity is exported (it has the MAIN/LAUNCHER filter) whether declared or not."""
        full = self.name + name if name.startswith(".") else name
        found = next((c for c in self.components if c.kind == kind and c.name == full), None)
        if found is None and kind == "activity" and full == self.launcher_activity:
            return Component("activity", full, exported=True)
        return found


@dataclass(frozen=True)
class ProviderRow:
    """One row of a content provider answer, columns in a stable order."""

    values: dict[str, str | int | float | bytes | None]


class ProviderError(Exception):
    """A content provider call failed; the message is what `content` prints (e.g. unknown URI)."""


class PhoneSystem(Protocol):
    """The phone's OS as the other layers see it."""

    config: PhoneConfig
    fs: VirtualFS
    lock: threading.RLock
    adb_root: bool  # adbd (and so every shell and sync session) runs as root, after `adb root`

    # -- screen ---------------------------------------------------------------------------------------
    def screen_size(self) -> tuple[int, int]:
        """(width, height) of the logical display in pixels: `wm size` override applied, swapped when
        the display is rotated by 90 or 270 degrees (what screencap and uiautomator bounds use)."""
        ...

    def screenshot(self) -> Image.Image:
        """The current frame, RGB, screen-sized."""
        ...

    def screenshot_png(self) -> bytes:
        """The current frame as PNG bytes; cached until the screen changes."""
        ...

    def dump_hierarchy(self, compressed: bool = False, mode: DumpMode = "active") -> str:
        """uiautomator XML of the current screen: the active window (`uiautomator dump`), every window
        (`"windows"`: `uiautomator dump --windows`) or uiautomator2's all-window hierarchy (`"u2"`)."""
        ...

    def keyboard_shown(self) -> bool:
        ...

    # -- input ----------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        ...

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        ...

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """`input swipe`'s gesture, told apart at once without waiting: one that stays within the touch
        slop for the long-press timeout (400 ms) is a long press."""
        ...

    def perform_gesture(self, gesture: Gesture, wait: bool = True) -> None:
        """Inject the gesture's touch events at their times on the phone's clock (returns after its
        duration, as `input swipe` and uiautomator2's swipe do on a phone; at once with wait=False)."""
        ...

    def touch(self, action: TouchAction, x: float, y: float) -> None:
        """One touch event now (DOWN/MOVE/UP/CANCEL sent one call at a time)."""
        ...

    def wait_ms(self, ms: float) -> None:
        """Let `ms` pass on the phone's clock: the pauses `input keyevent --longpress/--doubletap/--delay`
        and `keycombination -t` make between their key events (a virtual clock moves instead)."""
        ...

    def press_key(self, keycode: int) -> None:
        """Android KeyEvent code (3 HOME, 4 BACK, 66 ENTER, 67 DEL, 187 APP_SWITCH, ...)."""
        ...

    def input_text(self, text: str) -> None:
        """Type text (any script) into the focused field; ignored when nothing has focus."""
        ...

    def get_clipboard(self) -> str:
        ...

    def show_toast(self, message: str, seconds: float = 2.5) -> None:
        """A toast over whatever is on screen for `seconds`."""
        ...

    def last_toast(self) -> tuple[int, str] | None:
        """(toasts shown since boot, the latest's text), kept after it fades; None before the first.
        What an accessibility listener (uiautomator2's server) has seen of toasts."""
        ...

    def set_clipboard(self, text: str) -> None:
        ...

    # -- activity manager -----------------------------------------------------------------------------
    def start_activity(self, package: str, activity: str | None = None,
                       extras: dict[str, str] | None = None) -> str:
        """Bring up `package/activity` (its launcher activity when None). Returns the resolved
        `package/activity` component. Raises KeyError for an unknown package or activity."""
        ...

    def force_stop(self, package: str) -> None:
        ...

    def current_focus(self) -> tuple[str, str]:
        """(package, fully qualified activity) of the window in front (the launcher on the home screen)."""
        ...

    def recent_tasks(self) -> list[tuple[str, str]]:
        """(package, top activity) of every task, the launcher's included, most recent first."""
        ...

    def remove_task(self, package: str) -> None:
        """Remove an app's task (swiping it away in recents, `am stack remove`)."""
        ...

    def broadcast(self, action: str, extras: dict[str, str]) -> tuple[int, str]:
        """Deliver a broadcast (e.g. ADBKeyboard's ADB_INPUT_TEXT / ADB_INPUT_B64). Returns
        (result code, result data) as `am broadcast` prints them."""
        ...

    # -- package manager ------------------------------------------------------------------------------
    def packages(self) -> list[PackageInfo]:
        ...

    def clear_package(self, package: str) -> None:
        """`pm clear`: delete the app's data (databases, prefs) and stop it. KeyError if unknown."""
        ...

    # -- settings and properties ----------------------------------------------------------------------
    def settings_get(self, namespace: str, key: str) -> str | None:
        """namespace: system | secure | global. None when unset (printed as `null`)."""
        ...

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        ...

    def settings_list(self, namespace: str) -> dict[str, str]:
        ...

    def getprop(self) -> dict[str, str]:
        """All system properties (ro.product.model, ro.build.version.sdk, persist.sys.locale, ...)."""
        ...

    # -- content providers ----------------------------------------------------------------------------
    def content_query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
                      sort: str | None = None) -> list[ProviderRow]:
        ...

    def content_insert(self, uri: str, values: dict[str, str | int | float | None]) -> str:
        """Returns the new row's URI."""
        ...

    def content_update(self, uri: str, values: dict[str, str | int | float | None],
                       where: str | None = None) -> int:
        ...

    def content_delete(self, uri: str, where: str | None = None) -> int:
        ...

    # -- snapshots ------------------------------------------------------------------------------------
    def save_state(self) -> dict[str, object]:
        """In-memory state that is not in files (activity stacks, focus, clipboard) as JSON-able data.
        Files under the data dir are saved by the snapshot code itself."""
        ...

    def load_state(self, state: dict[str, object]) -> None:
        """Restore what save_state returned, after the files were restored; re-reads databases."""
        ...

    def close(self) -> None:
        ...
