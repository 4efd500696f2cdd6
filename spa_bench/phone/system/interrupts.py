"""What interrupts the user's work on the phone, besides calls and notifications: the low-battery
warning (battery.py), runtime-permission requests (permissions.py) and an app's own pop-ups
(app_dialogs.py). This mixin holds their state, draws them over the app and answers BACK and the
broadcast; PhoneOS lists it first among its bases so that these come before the other mixins' handlers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from spa_bench.phone.system import app_dialogs, battery, permissions
from spa_bench.phone.system.systemui import SYSTEMUI
from spa_bench.phone.system.tasks import LAUNCHER, TaskManager
from spa_bench.phone.ui import Rect, View, Window

if TYPE_CHECKING:
    from spa_bench.phone.api import Locale
    from spa_bench.phone.apps import App
    from spa_bench.phone.ui import Kit, Metrics
    from spa_bench.phone.vfs import VirtualFS

BROWSER = "com.android.browser"
BROWSER_ACTIVITY = "com.android.browser.BrowserActivity"
APP_DETAILS = "com.android.settings.applications.InstalledAppDetails"
LOW_BATTERY_WINDOW = "BatteryWarning"


class InterruptionsMixin:
    lock: threading.RLock
    fs: VirtualFS
    tasks: TaskManager
    apps: dict[str, App]
    metrics: Metrics
    invalidate: Callable[[], None]
    settings_put: Callable[[str, str, str], None]
    open_activity: Callable[[str, str, dict[str, Any]], None]
    ime: Any

    def _init_interruptions(self) -> None:
        self.battery = battery.Battery()
        self.battery_level = self.battery.level  # what the status bar draws (ScreenMixin reads it)
        self.permissions = permissions.RuntimePermissions(lambda: self.fs.host_path(permissions.STATE_PATH))
        self.permission_request: tuple[str, str] | None = None  # (package, permission) being asked

    def _ui_kit(self) -> Kit:
        return self.kit  # type: ignore[attr-defined,no-any-return]  # ScreenMixin's

    def _ui_locale(self) -> Locale:
        return self.locale  # type: ignore[attr-defined,no-any-return]

    # -- the battery ----------------------------------------------------------------------------------
    def battery_shell(self, args: list[str]) -> tuple[int, str]:
        """`dumpsys battery ARGS`: (exit code, output); no arguments (or -a) dumps the state."""
        with self.lock:
            if not args or args[0] == "-a":
                return 0, self.battery.dump()
            return battery.battery_command(self.battery, args, self._battery_changed)

    def _battery_changed(self) -> None:
        battery.update_warning(self.battery)
        self.battery_level = self.battery.level
        self.invalidate()

    def _battery_saver_on(self) -> None:
        self.battery.warning = False
        self.settings_put("global", "low_power", "1")
        self.invalidate()

    def _battery_warning_dismiss(self) -> None:
        self.battery.warning = False
        self.invalidate()

    # -- permissions ----------------------------------------------------------------------------------
    def request_permissions_for(self, package: str) -> None:
        """An app's screen opened: it asks for the permission it needs unless it holds it or the user
        fixed the denial (then it shows why it cannot work)."""
        if package == LAUNCHER or self.permission_request is not None:
            return
        needed = self.permissions.needs(package)
        if needed is None or self.permissions.state(package, needed).flags & permissions.USER_FIXED:
            return
        self.permission_request = (package, needed)
        self.ime.visible = False
        self.invalidate()

    def change_permission(self, verb: str, package: str, permission: str) -> str | None:
        """`pm grant|revoke`: None, or the exception text when the app has not requested it."""
        with self.lock:
            error = permissions.shell_change(self.permissions, verb, package, permission)
            self.invalidate()
            return error

    def _asking(self) -> tuple[str, str] | None:
        """The request on screen: GrantPermissionsActivity sits in the asking app's task, so it shows only
        while that app is in front (HOME leaves it waiting there)."""
        request = self.permission_request
        return request if request is not None and request[0] == self.tasks.front else None

    def permission_focus(self) -> tuple[str, str] | None:
        """GrantPermissionsActivity is the focused activity while it asks."""
        return (permissions.CONTROLLER, permissions.GRANT_ACTIVITY) if self._asking() else None

    def _answer_permission(self, answer: str) -> None:
        with self.lock:
            if self.permission_request is None:
                return
            package, permission = self.permission_request
            self.permission_request = None
            before = self.permissions.state(package, permission)
            sensitive = permissions.SENSITIVE
            if answer == "foreground":
                self.permissions.set(package, permission, True, sensitive | permissions.USER_SET)
            elif answer == "one_time":
                self.permissions.set(package, permission, True, sensitive | permissions.ONE_TIME)
            elif answer == "deny":
                again = not before.granted and before.flags & permissions.USER_SET
                flags = sensitive | permissions.USER_SET | (permissions.USER_FIXED if again else 0)
                self.permissions.set(package, permission, False, flags)
            self.invalidate()  # "cancel" (BACK) leaves the state as it was: the app still lacks it

    def _permission_panel_action(self, package: str) -> None:
        needed = self.permissions.needs(package)
        if needed is not None and self.permissions.state(package, needed).flags & permissions.USER_FIXED:
            self.open_activity("com.android.settings", APP_DETAILS, {"package": package})
            return
        self.request_permissions_for(package)

    # -- app dialogs ----------------------------------------------------------------------------------
    def _app_dialog_broadcast(self, extras: dict[str, str]) -> None:
        kind = extras.get("dialog", "")
        package = self.tasks.front
        if kind not in app_dialogs.KINDS or package == LAUNCHER or package not in self.apps:
            return
        self.tasks.top(package).ui[app_dialogs.UI_KEY] = kind
        self.ime.visible = False
        self.invalidate()

    def _close_app_dialog(self, package: str, accepted: bool) -> None:
        with self.lock:
            if package in self.tasks.stacks:
                self.tasks.top(package).ui.pop(app_dialogs.UI_KEY, None)
            if accepted:
                self.open_activity(BROWSER, BROWSER_ACTIVITY, {"url": app_dialogs.store_url(package)})
            self.invalidate()

    # -- drawing --------------------------------------------------------------------------------------
    def decorate_app_window(self, root: View, package: str, area: Rect) -> None:
        """Over the app's content: its permission-needed panel, then its own dialog."""
        kit, locale = self._ui_kit(), self._ui_locale()
        label = self.apps[package].info().label(locale) if package in self.apps else package
        needed = None if package == LAUNCHER else self.permissions.needs(package)
        if needed is not None and self.permission_request is None:
            fixed = bool(self.permissions.state(package, needed).flags & permissions.USER_FIXED)
            root.children = [permissions.permission_needed_panel(
                kit, area, locale, label, fixed, partial(self._permission_panel_action, package), package)]
        kind = self.tasks.top(package).ui.get(app_dialogs.UI_KEY) if package in self.tasks.stacks else None
        if kind in app_dialogs.KINDS:
            root.add(app_dialogs.app_dialog(kit, self.metrics.screen, locale, str(kind), label,
                                            accept=partial(self._close_app_dialog, package, True),
                                            dismiss=partial(self._close_app_dialog, package, False)))

    def interruption_windows(self) -> list[Window]:
        """Windows above the app: the permission controller's dialog, SystemUI's battery warning."""
        kit, locale, screen = self._ui_kit(), self._ui_locale(), self.metrics.screen
        windows: list[Window] = []
        if (asking := self._asking()) is not None:
            package, permission = asking
            label = self.apps[package].info().label(locale) if package in self.apps else package
            choices = permissions.GrantChoices(partial(self._answer_permission, "foreground"),
                                               partial(self._answer_permission, "one_time"),
                                               partial(self._answer_permission, "deny"))
            root = permissions.grant_dialog(kit, screen, locale, label, permission, choices)
            windows.append(Window(permissions.CONTROLLER, root, name=permissions.GRANT_ACTIVITY))
        if self.battery.warning:
            root = battery.low_battery_dialog(kit, screen, locale, self.battery.level,
                                              turn_on=self._battery_saver_on,
                                              dismiss=self._battery_warning_dismiss)
            windows.append(Window(SYSTEMUI, root, name=LOW_BATTERY_WINDOW))
        return windows

    # -- input ----------------------------------------------------------------------------------------
    def _key_back(self) -> None:
        """BACK closes the top-most of these first (SystemUI's dialog, the permission request, which
        counts as no answer, then the app's dialog)."""
        if self.battery.warning:
            self._battery_warning_dismiss()
            return
        if self._asking() is not None:
            self._answer_permission("cancel")
            return
        front = self.tasks.front
        if front in self.tasks.stacks and self.tasks.top(front).ui.get(app_dialogs.UI_KEY):
            self._close_app_dialog(front, False)
            return
        super()._key_back()  # type: ignore[misc]

    def broadcast(self, action: str, extras: dict[str, str]) -> tuple[int, str]:
        if action == app_dialogs.ACTION:
            with self.lock:
                self._app_dialog_broadcast(extras)
            return 0, ""
        return super().broadcast(action, extras)  # type: ignore[misc,no-any-return]

    # -- snapshots ------------------------------------------------------------------------------------
    def interruptions_state(self) -> dict[str, object]:
        return {"battery": self.battery.to_json(),
                "permission_request": list(self.permission_request) if self.permission_request else None}

    def load_interruptions_state(self, state: object) -> None:
        data = state if isinstance(state, dict) else {}
        self.battery = battery.Battery.from_json(data.get("battery"))
        self.battery_level = self.battery.level
        request = data.get("permission_request")
        self.permission_request = (str(request[0]), str(request[1])) if isinstance(request, list) else None
