"""FakePhone: a small PhoneSystem that records what the shell asks of it, for tests of shell commands.

It keeps settings in a dict, serves `content://settings/*` from them, has a fixed package list and a
one-colour screen, and appends every input or activity call to `calls`, so a test can assert that
`input tap 10 20` really reached `tap(10, 20)` without depending on how the real OS renders screens.
"""

from __future__ import annotations

import io
import threading
from datetime import datetime
from pathlib import Path

from PIL import Image

from spa_bench.phone.api import DumpMode, PackageInfo, PhoneConfig, ProviderError, ProviderRow
from spa_bench.phone.system.logd import LogBuffer
from spa_bench.phone.system.processes import ProcessTable
from spa_bench.phone.touch import Gesture, TouchAction
from spa_bench.phone.vfs import VirtualFS

LAUNCHER = ("com.google.android.apps.nexuslauncher",
            "com.google.android.apps.nexuslauncher.NexusLauncherActivity")
FAKE_PACKAGES = (
    PackageInfo("com.android.settings", "Settings", "设置", "com.android.settings.Settings",
                "/system/priv-app/Settings/Settings.apk"),
    PackageInfo(LAUNCHER[0], "Pixel Launcher", "Pixel 启动器", LAUNCHER[1],
                "/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk"),
    PackageInfo("com.android.adbkeyboard", "ADBKeyboard", "ADBKeyboard", None,
                "/data/app/com.android.adbkeyboard-1/base.apk", system=False),
    PackageInfo("com.android.inputmethod.latin", "Android Keyboard", "Android 键盘", None,
                "/system/app/LatinIME/LatinIME.apk"),
    PackageInfo("com.example.notes", "Notes", "笔记", "com.example.notes.MainActivity",
                "/data/app/com.example.notes-1/base.apk", system=False),
)
FAKE_XML = ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
            "<node index=\"0\" text=\"Fake\" resource-id=\"\" class=\"android.widget.TextView\" "
            "package=\"com.android.settings\" content-desc=\"\" checkable=\"false\" checked=\"false\" "
            "clickable=\"false\" enabled=\"true\" focusable=\"false\" focused=\"false\" scrollable=\"false\" "
            "long-clickable=\"false\" password=\"false\" selected=\"false\" bounds=\"[0,0][1080,2400]\" />"
            "</hierarchy>")


class FakePhone:
    """A recording stand-in for PhoneOS (see module docstring)."""

    def __init__(self, root: Path, width: int = 1080, height: int = 2400) -> None:
        self.config = PhoneConfig(width=width, height=height, data_dir=root)
        self.fs = VirtualFS(root)
        self.fs.ensure_layout()
        self.lock = threading.RLock()
        self.adb_root = False
        self.calls: list[tuple[object, ...]] = []
        self.focus = LAUNCHER
        self.keyboard = False
        self.clipboard = ""
        self.text = ""
        self.settings: dict[str, dict[str, str]] = {"system": {"screen_brightness": "102"},
                                                     "secure": {}, "global": {"wifi_on": "1"}}
        self.props = {"ro.product.model": self.config.model, "ro.build.version.sdk": "34",
                      "ro.build.version.release": "14", "persist.sys.locale": "en-US"}
        self.broadcast_result = (0, "")
        self.logd = LogBuffer(lambda: datetime(2026, 1, 15, 9, 30))
        self.processes = ProcessTable()

    # screen
    def screen_size(self) -> tuple[int, int]:
        return self.config.width, self.config.height

    def screenshot(self) -> Image.Image:
        return Image.new("RGB", self.screen_size(), (10, 20, 30))

    def screenshot_png(self) -> bytes:
        buf = io.BytesIO()
        self.screenshot().save(buf, format="PNG")
        return buf.getvalue()

    def dump_hierarchy(self, compressed: bool = False, mode: DumpMode = "active") -> str:
        self.calls.append(("dump", compressed) if mode == "active" else ("dump", compressed, mode))
        return FAKE_XML

    def keyboard_shown(self) -> bool:
        return self.keyboard

    # input
    def tap(self, x: int, y: int) -> None:
        self.calls.append(("tap", x, y))

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        self.calls.append(("long_press", x, y, duration_ms))

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.calls.append(("swipe", x1, y1, x2, y2, duration_ms))

    def perform_gesture(self, gesture: Gesture, wait: bool = True) -> None:
        """Recorded as a swipe from DOWN to UP lasting the gesture (nothing waits)."""
        events = list(gesture.events())
        first, last = events[0], events[-1]
        self.calls.append(("swipe", round(first.x), round(first.y), round(last.x), round(last.y),
                           round(gesture.duration_ms)))

    def touch(self, action: TouchAction, x: float, y: float) -> None:
        self.calls.append(("touch", action, round(x), round(y)))

    def wait_ms(self, ms: float) -> None:
        self.calls.append(("wait", ms))

    def press_key(self, keycode: int) -> None:
        self.calls.append(("key", keycode))
        if keycode == 3:
            self.focus = LAUNCHER

    def input_text(self, text: str) -> None:
        self.calls.append(("text", text))
        self.text += text

    def get_clipboard(self) -> str:
        return self.clipboard

    def set_clipboard(self, text: str) -> None:
        self.clipboard = text

    # activities
    def start_activity(self, package: str, activity: str | None = None,
                       extras: dict[str, str] | None = None) -> str:
        info = next((p for p in FAKE_PACKAGES if p.name == package), None)
        name = activity or (info.launcher_activity if info else None)
        if info is None or name is None or (activity and not activity.startswith(package)):
            raise KeyError(f"{package}/{activity}")
        self.calls.append(("start", package, name, dict(extras or {})))
        self.focus = (package, name)
        return f"{package}/{name}"

    def force_stop(self, package: str) -> None:
        self.calls.append(("force_stop", package))
        if self.focus[0] == package:
            self.focus = LAUNCHER

    def current_focus(self) -> tuple[str, str]:
        return self.focus

    def recent_tasks(self) -> list[tuple[str, str]]:
        return [self.focus] if self.focus != LAUNCHER else [LAUNCHER]

    def remove_task(self, package: str) -> None:
        self.calls.append(("remove_task", package))
        if self.focus[0] == package:
            self.focus = LAUNCHER

    def broadcast(self, action: str, extras: dict[str, str]) -> tuple[int, str]:
        self.calls.append(("broadcast", action, dict(extras)))
        return self.broadcast_result

    # packages, settings, properties
    def packages(self) -> list[PackageInfo]:
        return list(FAKE_PACKAGES)

    def clear_package(self, package: str) -> None:
        if not any(p.name == package for p in FAKE_PACKAGES):
            raise KeyError(package)
        self.calls.append(("clear", package))

    def settings_get(self, namespace: str, key: str) -> str | None:
        return self.settings[namespace].get(key)

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        self.settings[namespace][key] = value
        if (namespace, key) == ("system", "system_locales"):
            self.props["persist.sys.locale"] = value

    def settings_list(self, namespace: str) -> dict[str, str]:
        return dict(self.settings[namespace])

    def getprop(self) -> dict[str, str]:
        return dict(self.props)

    # content providers: content://settings/<namespace> only
    def _table(self, uri: str) -> dict[str, str]:
        prefix = "content://settings/"
        if not uri.startswith(prefix) or uri[len(prefix):] not in self.settings:
            raise ProviderError(f"Error while accessing provider:settings\n"
                                f"java.lang.IllegalArgumentException: Unknown URI {uri}")
        return self.settings[uri[len(prefix):]]

    def content_query(self, uri: str, projection: list[str] | None = None, where: str | None = None,
                      sort: str | None = None) -> list[ProviderRow]:
        table = self._table(uri)
        rows = []
        for n, (key, value) in enumerate(sorted(table.items()), 1):
            if where and where != f"name='{key}'":
                continue
            row: dict[str, str | int | float | bytes | None] = {"_id": n, "name": key, "value": value}
            rows.append(ProviderRow({k: v for k, v in row.items() if not projection or k in projection}))
        return rows

    def content_insert(self, uri: str, values: dict[str, str | int | float | None]) -> str:
        table = self._table(uri)
        table[str(values["name"])] = str(values.get("value"))
        return f"{uri}/{values['name']}"

    def content_update(self, uri: str, values: dict[str, str | int | float | None],
                       where: str | None = None) -> int:
        table = self._table(uri)
        keys = [k for k in table if not where or where == f"name='{k}'"]
        for k in keys:
            table[k] = str(values.get("value"))
        return len(keys)

    def content_delete(self, uri: str, where: str | None = None) -> int:
        table = self._table(uri)
        keys = [k for k in table if not where or where == f"name='{k}'"]
        for k in keys:
            del table[k]
        return len(keys)

    def save_state(self) -> dict[str, object]:
        return {}

    def load_state(self, state: dict[str, object]) -> None:
        return None

    def close(self) -> None:
        return None
