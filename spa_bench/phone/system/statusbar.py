"""SystemUI's behaviour: the shade's state, the quick-settings tiles acting on real settings, posted
notifications (heads-up, tap to open, swipe or "Clear all" to dismiss) and `cmd statusbar`.

The shade is its own window (`NotificationShade`, package com.android.systemui) above the app, as on
Android; while it is open it has input focus, so `dump_windows` and the dump code can tell it apart from
the app by `shade_open()`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from spa_bench.phone.system.clock import epoch_ms
from spa_bench.phone.system.notifications import (
    FLAG_AUTO_CANCEL,
    IMPORTANCE_DEFAULT,
    Notification,
    NotificationCenter,
)
from spa_bench.phone.system.shade import (
    HEADS_UP_WINDOW,
    SHADE_WINDOW,
    TILES,
    ShadeActions,
    ShadeEntry,
    ShadeState,
    build_shade,
    notification_row,
    relative_time,
    shade_date,
    tile,
)
from spa_bench.phone.system.systemui import STRINGS as SYSTEMUI_STRINGS
from spa_bench.phone.system.systemui import SYSTEMUI
from spa_bench.phone.system.tasks import TaskManager
from spa_bench.phone.ui import Rect, Window

if TYPE_CHECKING:
    from spa_bench.phone.api import Locale
    from spa_bench.phone.apps import App
    from spa_bench.phone.system.clock import PhoneClock
    from spa_bench.phone.system.settings_store import SettingsStore
    from spa_bench.phone.ui import Kit

_SHELL_LABELS = {"com.android.shell": "Shell", "android": "Android System"}

# StatusBarShellCommand.onHelp (AOSP services/core/.../statusbar/StatusBarShellCommand.java).
STATUSBAR_USAGE = """Status bar commands:
  help
    Print this help text.

  expand-notifications
    Open the notifications panel.

  expand-settings
    Open the notifications panel and expand quick settings if present.

  collapse
    Collapse the notifications and settings panel.

  add-tile COMPONENT
    Add a TileService of the specified component

  remove-tile COMPONENT
    Remove a TileService of the specified component

  set-tiles LIST-OF-TILES
    Sets the list of tiles as the current Quick Settings tiles

  click-tile COMPONENT
    Click on a TileService of the specified component

  check-support
    Check if this device supports QS + APIs

  NOTE: any command not listed here will be passed through to IStatusBar

  Commands implemented in SystemUI:
"""


class StatusBarMixin:
    lock: threading.RLock
    settings: SettingsStore
    clock: PhoneClock
    apps: dict[str, App]
    tasks: TaskManager
    invalidate: Callable[[], None]
    settings_put: Callable[[str, str, str], None]
    open_activity: Callable[[str, str, dict[str, Any]], None]
    start_activity: Callable[..., str]

    @property
    def kit(self) -> Kit:
        raise NotImplementedError  # ScreenMixin's comes first in PhoneOS's MRO

    @property
    def locale(self) -> Locale:
        raise NotImplementedError

    def _init_system_ui(self) -> None:
        self.shade: ShadeState = "closed"
        self.shade_scroll = 0
        self.notifications = NotificationCenter()

    # -- the shade --------------------------------------------------------------------------------------
    def shade_open(self) -> bool:
        return self.shade != "closed"

    def expand_shade(self, state: ShadeState) -> None:
        with self.lock:
            if state == "closed":
                self.collapse_shade()
                return
            if self.shade == "closed":
                self.shade_scroll = 0
            self.shade = state
            self.notifications.heads_up_key = None  # the heads-up joins the list
            self.notifications.mark_seen()
            self.invalidate()

    def collapse_shade(self) -> None:
        with self.lock:
            if self.shade != "closed":
                self.shade = "closed"
                self.invalidate()

    def _shade_swipe(self, direction: str) -> bool:
        """Down expands one level (notifications -> quick settings); up collapses one level."""
        if direction == "down" and self.shade == "notifications":
            self.expand_shade("settings")
            return True
        if direction == "up":
            self.expand_shade("notifications" if self.shade == "settings" else "closed")
            return True
        return False

    def statusbar_command(self, args: list[str]) -> tuple[int, str, str]:
        """`cmd statusbar ARGS`: (exit code, stdout, stderr) as StatusBarShellCommand answers. No
        TileService is installed, so `click-tile`/`add-tile`/`remove-tile COMPONENT` change nothing."""
        if not args:
            return 1, STATUSBAR_USAGE, ""
        verb = args[0]
        if verb in ("help", "-h"):
            return 0, STATUSBAR_USAGE, ""
        if verb == "expand-notifications":
            self.expand_shade("notifications")
        elif verb == "expand-settings":
            self.expand_shade("settings")
        elif verb == "collapse":
            self.collapse_shade()
        elif verb == "check-support":
            return 0, "true\n", ""
        elif verb in ("click-tile", "add-tile", "remove-tile", "set-tiles") and len(args) < 2:
            return 255, "", (f"Exception occurred while executing '{verb}':\n"
                             f'java.lang.IllegalArgumentException: Argument expected after "{verb}"\n')
        elif verb not in ("click-tile", "add-tile", "remove-tile", "set-tiles"):
            return 0, STATUSBAR_USAGE, ""  # passed through to SystemUI, which answers with its help
        return 0, "", ""

    # -- tiles ----------------------------------------------------------------------------------------
    def tile_states(self) -> dict[str, bool]:
        return {t.spec: self.settings.get(t.namespace, t.key) not in (None, "", t.off) for t in TILES}

    def toggle_tile(self, spec: str) -> None:
        """What tapping the tile does: flip its setting (airplane mode also turns the radios off, as the
        Settings app's switch does)."""
        with self.lock:
            t = tile(spec)
            on = not self.tile_states()[spec]
            self.settings_put(t.namespace, t.key, t.on if on else t.off)
            if spec == "airplane" and on:
                self.settings_put("global", "wifi_on", "0")
                self.settings_put("global", "bluetooth_on", "0")
            self.invalidate()

    # -- notifications --------------------------------------------------------------------------------
    def post_notification(
        self,
        package: str,
        notification_id: int,
        tag: str | None,
        title: str,
        text: str,
        *,
        importance: int = IMPORTANCE_DEFAULT,
        channel: str = "miscellaneous",
        flags: int = FLAG_AUTO_CANCEL,
        activity: str | None = None,
        target_package: str | None = None,
        extras: dict[str, Any] | None = None,
    ) -> Notification:
        with self.lock:
            app = self.apps.get(package)
            label = app.info().label(self.locale) if app is not None else _SHELL_LABELS.get(package, package)
            n = Notification(package, notification_id, tag, title, text, self._now_ms(), channel, importance,
                             flags, app_label=label, target_activity=activity, target_package=target_package,
                             target_extras=dict(extras or {}))
            dnd = self.settings.get("global", "zen_mode") not in (None, "", "0")
            self.notifications.post(n, self.clock.monotonic(), peek=not dnd)
            self.invalidate()
            return n

    def notification_list(self) -> list[Notification]:
        with self.lock:
            return list(self.notifications.posted)

    def cancel_notification(self, key: str) -> None:
        with self.lock:
            if self.notifications.cancel(key):
                self.invalidate()

    def clear_notifications(self) -> None:
        """The shade's "Clear all": every notification goes and the shade closes."""
        with self.lock:
            self.notifications.clear_all()
            self.shade = "closed"
            self.invalidate()

    def open_notification(self, key: str) -> None:
        """A tap: the content intent starts its activity, the notification is cancelled, the shade closes."""
        with self.lock:
            n = self.notifications.get(key)
            if n is None:
                return
            if n.flags & FLAG_AUTO_CANCEL:
                self.notifications.cancel(key)
            self.shade = "closed"
            package = n.target_package or n.package
            if package in self.apps:
                try:
                    if n.target_activity is not None:
                        root = self.apps[package].launcher_activity
                        if package not in self.tasks.stacks and root and root != n.target_activity:
                            # the synthesized back stack (TaskStackBuilder): BACK leads to the app's home
                            self.open_activity(package, root, {})
                        self.open_activity(package, n.target_activity, dict(n.target_extras))
                    else:
                        self.start_activity(package)
                except KeyError:
                    pass  # the intent names no activity of that app: like a PendingIntent that fails
            self.invalidate()

    def heads_up_active(self) -> bool:
        return self.shade == "closed" and self.notifications.heads_up(self.clock.monotonic()) is not None

    def _now_ms(self) -> int:
        return epoch_ms(self.clock.now())

    # -- windows --------------------------------------------------------------------------------------
    def _entry(self, n: Notification) -> ShadeEntry:
        app = self.apps.get(n.package)
        return ShadeEntry(n.key, n.app_label or n.package, app.icon if app else "bell", n.title, n.text,
                          relative_time(self.locale, n.when_ms, self._now_ms()))

    def system_ui_windows(self, screen: Rect, status_bar: int, time: str) -> list[Window]:
        """The heads-up or the shade, to be stacked above the app and status bar, below the nav bar."""
        kit = self.kit
        if self.shade != "closed":
            root = build_shade(
                kit, screen, self.locale, self.shade,
                time=time, date=shade_date(self.locale, self.clock.now()), values=self.tile_states(),
                brightness=int(self.settings.get("system", "screen_brightness") or 102),
                entries=[self._entry(n) for n in self.notifications.posted], scroll=self.shade_scroll,
                actions=ShadeActions(
                    toggle=self.toggle_tile, open_tile_settings=self._open_tile_settings,
                    open_entry=self.open_notification,
                    dismiss_entry=self.cancel_notification, clear_all=self.clear_notifications,
                    swipe=self._shade_swipe, set_brightness=self._set_brightness,
                    open_settings=self._shade_open_settings, scroll=self._set_shade_scroll,
                ),
            )
            return [Window(SYSTEMUI, root, name=SHADE_WINDOW)]
        n = self.notifications.heads_up(self.clock.monotonic())
        if n is None:
            return []
        pad = kit.dp(8)
        rect = Rect(screen.left + pad, status_bar + pad, screen.right - pad, status_bar + pad + kit.dp(96))
        row = notification_row(kit, rect, self.locale, self._entry(n), lambda: self.open_notification(n.key),
                               bg=kit.palette.surface_high)

        def swipe_away(direction: str) -> bool:
            self.notifications.heads_up_key = None  # still in the shade, no longer popped up
            self.invalidate()
            return True

        row.on_swipe = swipe_away
        # FLAG_NOT_FOCUSABLE: the app keeps focus, so `uiautomator dump` still shows the app
        return [Window(SYSTEMUI, row, name=HEADS_UP_WINDOW, focusable=False)]

    def status_bar_icons(self) -> list[tuple[str, str]]:
        """(icon, content description) of each posted notification, newest first, for the status bar."""
        out = []
        for n in self.notifications.posted:
            app = self.apps.get(n.package)
            label = n.app_label or n.package
            out.append((app.icon if app else "bell",
                        SYSTEMUI_STRINGS.get(self.locale, "notification", app=label, title=n.title)))
        return out

    def _open_tile_settings(self, spec: str) -> None:
        page = tile(spec).settings_page
        if page is not None:
            self.shade = "closed"
            self.open_activity("com.android.settings", page, {})

    def _set_brightness(self, value: int) -> None:
        self.settings_put("system", "screen_brightness", str(value))

    def _set_shade_scroll(self, offset: int) -> None:
        self.shade_scroll = offset
        self.invalidate()

    def _shade_open_settings(self) -> None:
        self.shade = "closed"
        self.start_activity("com.android.settings")

    # -- snapshots ------------------------------------------------------------------------------------
    def system_ui_state(self) -> dict[str, object]:
        return {"shade": self.shade, "notifications": self.notifications.to_json()}

    def load_system_ui_state(self, state: dict[str, object]) -> None:
        shade = state.get("shade")
        self.shade = shade if shade in ("notifications", "settings") else "closed"
        self.shade_scroll = 0
        self.notifications.load_json(state.get("notifications"))
