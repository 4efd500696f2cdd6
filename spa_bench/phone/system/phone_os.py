"""PhoneOS: the virtual phone's operating system, implementing `PhoneSystem` from `phone.api`.

All state that decides what is on screen lives in a few places: the settings database, the task
stacks (with each activity's JSON screen state), the keyboard state, the clipboard and a toast. Every
change bumps `version`; the view tree and the PNG are built once per version and reused by
screenshots, dumps and hit tests, so they always describe the same screen (a whole-screen image is drawn
only when asked for: screencap's raw format, uiautomator2's takeScreenshot).
"""

from __future__ import annotations

import shutil
import threading
from typing import Any

from PIL import Image

from spa_bench.phone.api import DumpMode, Locale, PackageInfo, PhoneConfig, ProviderRow
from spa_bench.phone.apps import APPS, App
from spa_bench.phone.i18n import content_locale, locale_tag, parse_locale
from spa_bench.phone.system.blocked_numbers import AUTHORITY as BLOCKED_AUTHORITY
from spa_bench.phone.system.blocked_numbers import DB_PATH as BLOCKED_DB
from spa_bench.phone.system.blocked_numbers import BlockedNumbers
from spa_bench.phone.system.call_log import DB_PATH as CALL_LOG_DB
from spa_bench.phone.system.call_log import CallLog
from spa_bench.phone.system.clock import PhoneClock, clock_from_environment
from spa_bench.phone.system.context import OsAppContext
from spa_bench.phone.system.input import InputMixin
from spa_bench.phone.system.installed import InstalledApk, PackageStore
from spa_bench.phone.system.interrupts import InterruptionsMixin
from spa_bench.phone.system.keyboard import ImeState
from spa_bench.phone.system.location import LocationService
from spa_bench.phone.system.log_sources import HealthHeartbeat, HealthInfo, hardware_health
from spa_bench.phone.system.logd import LogBuffer
from spa_bench.phone.system.package_manager import PackageManagerMixin
from spa_bench.phone.system.packages import SYSTEM_PACKAGES, properties, with_aliases
from spa_bench.phone.system.processes import ProcessTable
from spa_bench.phone.system.providers import (
    ProviderRegistry,
    SettingsProvider,
    Value,
    database_schemas,
    recreate_empty,
)
from spa_bench.phone.system.screen import ScreenMixin
from spa_bench.phone.system.settings_store import DB_PATH, SETTINGS_PACKAGE, SettingsStore
from spa_bench.phone.system.statusbar import StatusBarMixin
from spa_bench.phone.system.tasks import LAUNCHER, ActivityRecord, TaskManager
from spa_bench.phone.system.telecom import Telecom, end_call
from spa_bench.phone.system.telephony import Telephony
from spa_bench.phone.system.textselection import TextSelectionMixin
from spa_bench.phone.ui import Metrics
from spa_bench.phone.ui.png import FrameEncoder
from spa_bench.phone.vfs import VirtualFS

STATE_VERSION = 1


class PhoneOS(InterruptionsMixin, ScreenMixin, InputMixin, StatusBarMixin, TextSelectionMixin,
              PackageManagerMixin):
    """The OS of one virtual phone. Thread-safe: every public method holds `self.lock`."""

    def __init__(self, config: PhoneConfig, fs: VirtualFS, clock: PhoneClock | None = None) -> None:
        self.config = config
        self.fs = fs
        self.lock = threading.RLock()
        self.adb_root = False  # adbd's state: survives snapshot loads, as adbd outlives app state
        self.metrics = Metrics(config.width, config.height, config.density)
        frozen = config.frozen_clock or clock_from_environment()
        self.clock = clock or (PhoneClock.frozen(frozen) if frozen else PhoneClock())
        self.version = 0
        self.tasks = TaskManager()
        self.ime = ImeState()
        self.clipboard = ""
        self.recents_open = False
        self.recents_scroll = 0
        self.toast_message: str | None = None
        self.toast_until = 0.0
        self.toasts_shown: tuple[int, str] | None = None  # (how many so far, the latest's text)
        self._frames = FrameEncoder()  # keeps the last frame's compressed bands for the next screencap
        self._init_system_ui()
        self._init_interruptions()
        self._init_text_selection()
        self._init_screen_cache()
        fs.ensure_layout()
        self.settings = SettingsStore(fs.host_path(DB_PATH))
        self.settings.ensure(self._boot_overrides())
        # The phone boots in config.locale (a UI change persists while it runs and in snapshots).
        self.settings.put("system", "system_locales", locale_tag(config.locale))
        self.apps: dict[str, App] = {}
        for name in APPS.names():
            app_cls = APPS.get(name)
            self.apps[app_cls.package] = app_cls(OsAppContext(self, app_cls.package))
        self.package_store = PackageStore(fs, self.clock.now)
        self.sync_installed_apps()
        self.blocked_numbers = BlockedNumbers(lambda: fs.host_path(BLOCKED_DB))
        self.telephony = Telephony(self.clock, CallLog(lambda: fs.host_path(CALL_LOG_DB)),
                                   self.blocked_numbers.is_blocked)
        self.telecom = Telecom(self.telephony, self.blocked_numbers, self.invalidate)
        self.location = LocationService(self.clock)
        self.logd = LogBuffer(self.clock.now)  # `log` / `logcat`; memory only, as logd's buffers are
        # the health HAL's once-a-minute battery line; its thread runs from VirtualPhone.start() to close()
        self.heartbeat = HealthHeartbeat(self.logd, self._hardware_health, self.clock.monotonic)
        self.processes = ProcessTable()  # long-running shell processes, the uiautomator2 server first
        self.providers = ProviderRegistry(clock=self.clock.now)
        self._register_providers()

    def _boot_overrides(self) -> dict[str, dict[str, str]]:
        """Settings whose first value comes from the config rather than the fixed defaults."""
        return {
            "system": {"system_locales": locale_tag(self.config.locale)},
            "global": {"device_name": self.config.model},
        }

    def _register_providers(self) -> None:
        self.providers.unregister_all()
        self.providers.register(
            "settings", SettingsProvider(lambda: self.settings.path, self._settings_changed)
        )
        for app in self.apps.values():
            for authority, provider in app.providers().items():
                self.providers.register(authority, provider)
        self.providers.register("call_log", self.telephony.call_log.provider())
        self.providers.register(BLOCKED_AUTHORITY, self.blocked_numbers.provider())

    def _hardware_health(self) -> HealthInfo:
        with self.lock:
            return hardware_health(self.battery)

    def _settings_changed(self) -> None:
        self.settings.invalidate()
        self.invalidate()

    # -- state helpers -----------------------------------------------------------------------------------
    def set_locale(self, locale: Locale) -> None:
        with self.lock:
            self.settings_put("system", "system_locales", locale_tag(locale))

    @property
    def content_locale(self) -> Locale:
        return content_locale(self.telephony.sim_country, self.locale)

    def set_sim_country(self, country: str) -> None:
        """`setprop gsm.sim.operator.iso-country cn`: another SIM, so other content in the apps."""
        with self.lock:
            self.telephony.sim_country = country.strip().lower() or None
            self.invalidate()

    def app(self, package: str) -> App:
        try:
            return self.apps[package]
        except KeyError:
            raise KeyError(package) from None

    # -- activity manager ---------------------------------------------------------------------------------
    def start_activity(
        self, package: str, activity: str | None = None, extras: dict[str, str] | None = None
    ) -> str:
        with self.lock:
            app = self.app(package)
            name = activity or app.launcher_activity
            if name is None and package == LAUNCHER:
                name = self.tasks.top(LAUNCHER).activity
            if name is None:
                raise KeyError(f"{package} has no launcher activity")
            cls = app.activity_class(name)
            self.open_activity(package, cls.name, dict(extras or {}))
            return f"{package}/{cls.name}"

    def open_activity(self, package: str, activity: str, args: dict[str, Any]) -> None:
        """Start an activity (apps call this through their context)."""
        with self.lock:
            app = self.app(package)
            cls = app.activity_class(activity)
            self._leave_screen()
            if package == LAUNCHER:
                self.tasks.go_home()
            else:
                args = self.telecom.take_call_request(package, cls.name, args)  # a CALL is placed now
                self.tasks.start(package, ActivityRecord(cls.name, args), app.launcher_activity)
                self.request_permissions_for(package)
            self.invalidate()

    def end_call(self) -> bool:
        """KEYCODE_ENDCALL: TelecomManager.endCall (see system.telecom)."""
        with self.lock:
            return end_call(self)

    def finish_activity(self, package: str) -> None:
        with self.lock:
            if self.tasks.front == package and not self.tasks.pop():
                self.tasks.go_home()
            self.ime.visible = False
            self.invalidate()

    def go_home(self) -> None:
        with self.lock:
            self._leave_screen()
            self.collapse_shade()
            self.tasks.go_home()
            launcher = self.tasks.top(LAUNCHER)
            launcher.ui.pop("drawer", None)
            launcher.ui.pop("focus", None)
            self.invalidate()

    def _leave_screen(self) -> None:
        self.recents_open = False
        self.ime.visible = False

    def force_stop(self, package: str) -> None:
        with self.lock:
            if package not in self.apps and package not in {p.name for p in SYSTEM_PACKAGES}:
                return  # `am force-stop` of an unknown package is silently ignored
            self.tasks.remove(package)
            self.invalidate()

    def current_focus(self) -> tuple[str, str]:
        with self.lock:
            if self.recents_open:  # Pixel's recents screen is part of the launcher
                return LAUNCHER, self.tasks.top(LAUNCHER).activity
            if (asking := self.permission_focus()) is not None:
                return asking
            return self.tasks.front, self.tasks.top().activity

    def recent_tasks(self) -> list[tuple[str, str]]:
        with self.lock:
            order = [self.tasks.front, *self.tasks.recent, LAUNCHER]
            seen: list[str] = []
            for package in order:
                if package not in seen and package in self.tasks.stacks:
                    seen.append(package)
            return [(p, self.tasks.top(p).activity) for p in seen]

    def remove_task(self, package: str) -> None:
        with self.lock:
            self.tasks.remove(package)
            self._thumbs.pop(package, None)
            self.invalidate()

    def show_toast(self, message: str, seconds: float = 2.5) -> None:
        with self.lock:
            self.toast_message = message
            self.toast_until = self.clock.monotonic() + seconds
            count = self.toasts_shown[0] if self.toasts_shown else 0
            self.toasts_shown = (count + 1, message)
            self.invalidate()

    def last_toast(self) -> tuple[int, str] | None:
        with self.lock:
            return self.toasts_shown

    # -- package manager ----------------------------------------------------------------------------------
    def packages(self) -> list[PackageInfo]:
        with self.lock:
            found = self.built_in_packages()
            found.update({name: r.package_info() for name, r in self.package_store.all().items()})
            return [found[n] for n in sorted(found)]

    def built_in_packages(self) -> dict[str, PackageInfo]:
        found = {a.info().name: with_aliases(a.info()) for a in self.apps.values()
                 if not getattr(a, "is_apk", False)}
        for p in SYSTEM_PACKAGES:
            found.setdefault(p.name, p)
        for name in self.package_store.removed():  # preinstalled user apps the user uninstalled
            found.pop(name, None)
        return found

    def _make_apk_app(self, record: InstalledApk) -> App:
        from spa_bench.phone.apps.installed import apk_app_class

        return apk_app_class(record)(OsAppContext(self, record.manifest.package))

    def clear_package(self, package: str) -> None:
        with self.lock:
            if package not in {p.name for p in self.packages()}:
                raise KeyError(package)
            self.force_stop(package)
            # a provider package (no app of ours) restarts on empty databases, not on the seed
            schemas = {} if package in self.apps or package == SETTINGS_PACKAGE else \
                database_schemas(self.fs.host_path(f"/data/data/{package}"))
            for storage in (f"/data/data/{package}", f"/data/user_de/0/{package}"):
                data = self.fs.host_path(storage)
                if not data.is_dir():
                    continue
                for child in data.iterdir():
                    if child.is_dir() and not child.is_symlink():
                        shutil.rmtree(child)
                    else:
                        child.unlink()
            recreate_empty(schemas)
            if package == SETTINGS_PACKAGE:
                self.settings.invalidate()
                self.settings.ensure(self._boot_overrides())
            if package in self.apps:
                self.apps[package].on_data_cleared()
            self.invalidate()

    # -- settings and properties --------------------------------------------------------------------------
    def settings_get(self, namespace: str, key: str) -> str | None:
        with self.lock:
            return self.settings.get(namespace, key)

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        with self.lock:
            if self.settings.put(namespace, key, value):
                self.invalidate()

    def settings_delete(self, namespace: str, key: str) -> bool:
        with self.lock:
            deleted = self.settings.delete(namespace, key)
            self.invalidate()
            return deleted

    def settings_list(self, namespace: str) -> dict[str, str]:
        with self.lock:
            return self.settings.as_dict(namespace)

    def getprop(self) -> dict[str, str]:
        with self.lock:
            return properties(self.config, self.locale, self.content_locale, self.adb_root)

    # -- content providers --------------------------------------------------------------------------------
    def content_query(
        self, uri: str, projection: list[str] | None = None, where: str | None = None, sort: str | None = None
    ) -> list[ProviderRow]:
        with self.lock:
            provider, path = self.providers.resolve(uri)
            return provider.query(path, projection, where, sort)

    def content_insert(self, uri: str, values: dict[str, Value]) -> str:
        with self.lock:
            provider, path = self.providers.resolve(uri)
            result = provider.insert(path, values)
            self.invalidate()
            return result

    def content_update(self, uri: str, values: dict[str, Value], where: str | None = None) -> int:
        with self.lock:
            provider, path = self.providers.resolve(uri)
            count = provider.update(path, values, where)
            self.invalidate()
            return count

    def content_delete(self, uri: str, where: str | None = None) -> int:
        with self.lock:
            provider, path = self.providers.resolve(uri)
            count = provider.delete(path, where)
            self.invalidate()
            return count

    # -- snapshots ----------------------------------------------------------------------------------------
    def save_state(self) -> dict[str, object]:
        with self.lock:
            return {
                "state_version": STATE_VERSION,
                "tasks": self.tasks.to_json(),
                "ime": self.ime.to_json(),
                "clipboard": self.clipboard,
                "locale": self.locale,
                "recents_open": self.recents_open,
                "recents_scroll": self.recents_scroll,
                "clock_offset_s": self.clock.offset.total_seconds(),
                "system_ui": self.system_ui_state(),
                "telephony": self.telephony.to_json(),
                "location": self.location.to_json(),
                "interruptions": self.interruptions_state(),
            }

    def load_state(self, state: dict[str, object]) -> None:
        from datetime import timedelta

        with self.lock:
            self.settings.invalidate()
            self.settings.ensure()
            tasks = state.get("tasks")
            self.tasks = TaskManager()
            if isinstance(tasks, dict):
                self.tasks.load_json(tasks)
            self.ime = ImeState.from_json(state.get("ime"))
            self.clipboard = str(state.get("clipboard") or "")
            self.recents_open = bool(state.get("recents_open"))
            scroll = state.get("recents_scroll")
            self.recents_scroll = int(scroll) if isinstance(scroll, int | float) else 0
            offset = state.get("clock_offset_s")
            self.clock.offset = timedelta(seconds=float(offset) if isinstance(offset, int | float) else 0.0)
            if self.settings.get("system", "system_locales") is None and state.get("locale") in ("en", "zh"):
                self.settings.put("system", "system_locales", locale_tag(parse_locale(str(state["locale"]))))
            self.toast_message = None
            self.text_selection = None
            system_ui = state.get("system_ui")
            self.load_system_ui_state(system_ui if isinstance(system_ui, dict) else {})
            self.telephony.load_json(state.get("telephony"))
            self.location.load_json(state.get("location"))
            self.load_interruptions_state(state.get("interruptions"))
            self.sync_installed_apps()
            self._register_providers()
            self._init_screen_cache()
            self.invalidate()

    def close(self) -> None:
        self.heartbeat.stop()  # outside the lock: its thread may be waiting for it to read the battery
        with self.lock:
            self._init_screen_cache()

    # -- screen (cached by version) ----------------------------------------------------------------------
    def screen_size(self) -> tuple[int, int]:
        with self.lock:
            return self.display().logical_size

    def screenshot(self) -> Image.Image:
        return self.rendered()

    def screenshot_png(self) -> bytes:
        with self.lock:
            key = self.frame_key()
            if self._png is None or self._png_key != key:
                size = (self.metrics.width, self.metrics.height)
                self._png, self._png_key = self._frames.encode_bands(size, self.rendered_bands()), key
            return self._png

    def dump_hierarchy(self, compressed: bool = False, mode: DumpMode = "active") -> str:
        from spa_bench.phone.ui import dump

        with self.lock:
            frame = self.frame()
            return dump(frame, compressed, mode, self.rotation())

    def keyboard_shown(self) -> bool:
        with self.lock:
            self.frame()
            return self._keyboard_in_frame
