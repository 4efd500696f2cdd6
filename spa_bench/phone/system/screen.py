"""Composing the screen: the app's window, system bars, keyboard, recents and toast, built once per
state version (plus the minute on the status clock and whether a toast is showing)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from PIL import Image

from spa_bench.phone.api import Locale, PhoneConfig
from spa_bench.phone.i18n import parse_locale
from spa_bench.phone.system.display import DisplayState, display_state
from spa_bench.phone.system.keyboard import (
    ADB_IME_PACKAGE,
    IME_PACKAGE,
    ImeState,
    adb_keyboard_height,
    build_adb_keyboard,
    build_keyboard,
    keyboard_height,
)
from spa_bench.phone.system.navbar import (
    BACK_GESTURE_INSET_DP,
    NAVIGATION_MODE_KEY,
    build_gesture_bar,
    gesture_bar_height,
    is_gestural,
)
from spa_bench.phone.system.systemui import (
    SYSTEMUI,
    build_nav_bar,
    build_recents,
    build_status_bar,
    nav_bar_height,
    status_bar_height,
)
from spa_bench.phone.system.tasks import LAUNCHER, TaskManager
from spa_bench.phone.ui import FRAME, Canvas, EditText, Frame, Kit, Metrics, Rect, View, Window, palette
from spa_bench.phone.ui.fontscale import font_scale, parse_font_scale
from spa_bench.phone.ui.png import BAND_ROWS

if TYPE_CHECKING:
    from spa_bench.phone.apps import App
    from spa_bench.phone.system.clock import PhoneClock
    from spa_bench.phone.system.settings_store import SettingsStore

FrameKey = tuple[int, str, bool, bool]
# Rows a screenshot is drawn in at a time: a whole number of the PNG encoder's bands, and few enough bands
# (5 at 2400 rows) that walking the view tree once per band costs little.
DRAW_BAND_ROWS = 15 * BAND_ROWS
# Views within this many rows of a band are drawn into it too: a label may paint beyond its view's bounds
# (a long one on the home screen), and its overflow must show in the next band as on a whole screen.
DRAW_OVERFLOW = 3 * BAND_ROWS


class ScreenMixin:
    lock: threading.RLock
    config: PhoneConfig
    version: int
    metrics: Metrics
    tasks: TaskManager
    ime: ImeState
    clock: PhoneClock
    settings: SettingsStore
    apps: dict[str, App]
    recents_open: bool
    recents_scroll: int
    toast_message: str | None
    toast_until: float
    battery_level: int
    # provided by InputMixin (annotations only, so nothing here shadows the real methods)
    _key_back: Callable[[], None]
    _key_home: Callable[[], None]
    _key_recents: Callable[[], None]
    _edit_insert: Callable[[str], None]
    _edit_delete: Callable[[], None]
    _edit_enter: Callable[[], None]
    # provided by StatusBarMixin
    heads_up_active: Callable[[], bool]
    system_ui_windows: Callable[[Rect, int, str], list[Window]]
    status_bar_icons: Callable[[], list[tuple[str, str]]]
    shade_open: Callable[[], bool]
    # provided by TextSelectionMixin
    decorate_selection: Callable[[View, Rect], None]
    # provided by InterruptionsMixin
    decorate_app_window: Callable[[View, str, Rect], None]
    interruption_windows: Callable[[], list[Window]]

    @property
    def kit(self) -> Kit:
        return Kit(self.metrics, palette(self.settings.get("secure", "ui_night_mode") == "2"))

    @property
    def locale(self) -> Locale:
        return parse_locale(self.settings.get("system", "system_locales"), self.config.locale)

    def invalidate(self) -> None:
        with self.lock:
            self.version += 1

    def _init_screen_cache(self) -> None:
        self._frame: Frame | None = None
        self._frame_key: FrameKey | None = None
        self._band: Image.Image | None = None
        self._png: bytes | None = None
        self._png_key: FrameKey | None = None
        self._keyboard_in_frame = False
        self._thumbs: dict[str, Image.Image] = {}

    # -- cache keys -----------------------------------------------------------------------------------
    def _use_24h(self) -> bool:
        fmt = self.settings.get("system", "time_12_24")
        return fmt == "24" if fmt in ("12", "24") else self.locale == "zh"

    def toast_active(self) -> bool:
        return self.toast_message is not None and self.clock.monotonic() < self.toast_until

    def frame_key(self) -> FrameKey:
        self._sync_display()
        return (self.version, self.clock.status_time(self._use_24h()), self.toast_active(),
                self.heads_up_active())

    # -- display geometry (wm size / wm density / rotation) -------------------------------------------
    def display(self) -> DisplayState:
        return display_state(self.config, self.settings.get)

    def rotation(self) -> int:
        return self.display().rotation

    def _sync_display(self) -> None:
        """Lay the screen out again when the logical size or density changed (settings hold both)."""
        state = self.display()
        width, height = state.logical_size
        if (width, height, state.density) != (self.metrics.width, self.metrics.height, self.metrics.density):
            self.metrics = Metrics(width, height, state.density)
            self._thumbs.clear()
            self.version += 1

    def frame(self) -> Frame:
        """The view tree on screen now (built once per state version)."""
        with self.lock:
            return self._current_frame()

    def _current_frame(self) -> Frame:
        key = self.frame_key()
        if self._frame is None or self._frame_key != key:
            with self._text_scale():
                self._frame = self._build_frame()
            self._frame_key = self.frame_key()  # building may clear a stale focus and bump the version
        return self._frame

    def release_frame_buffer(self) -> None:
        """Let go of the band buffer (2 MB at 1080 wide) while nobody asks for frames; an idle phone needs
        none, and the next frame allocates it once again."""
        with self.lock:
            self._band = None

    def rendered(self) -> Image.Image:
        """The current frame as a new whole-screen image, the caller's to keep or change (screencap's raw
        format, uiautomator2's takeScreenshot); `screenshot_png` draws in bands instead."""
        with self.lock:
            frame = self.frame()
            image = Image.new("RGB", (self.metrics.width, self.metrics.height), self.kit.palette.background)
            for w in frame.windows:
                w.root.render(Canvas(image), frame.screen)
            return image

    def rendered_bands(self) -> Iterator[Image.Image]:
        """The current frame, top to bottom, in bands of DRAW_BAND_ROWS rows, each drawn into one buffer
        that the next band draws over: a band buffer is 2 MB at 1080 wide, where a whole screen would be
        10 MB (Pillow keeps RGB in 4 bytes a pixel), which a phone stepped back to back would hold between
        its steps. Each band draws the views that cross it, clipped to it (View.render skips the others),
        so a label that crosses a band's edge is drawn twice, in halves. Iterate with the lock held."""
        frame = self.frame()
        width, height = self.metrics.width, self.metrics.height
        background = self.kit.palette.background
        for top in range(0, height, DRAW_BAND_ROWS):
            rows = min(DRAW_BAND_ROWS, height - top)
            band = self._band
            if band is None or band.size != (width, DRAW_BAND_ROWS):
                band = self._band = Image.new("RGB", (width, DRAW_BAND_ROWS), background)
            else:  # drawn over: a new buffer per band would grow the heap (glibc keeps them)
                band.paste(background, (0, 0, width, DRAW_BAND_ROWS))
            canvas = Canvas(band, (0, top))
            clip = frame.screen.intersect(Rect(0, top - DRAW_OVERFLOW, width, top + rows + DRAW_OVERFLOW))
            for w in frame.windows:
                w.root.render(canvas, clip)
            yield band if rows == DRAW_BAND_ROWS else band.crop((0, 0, width, rows))

    # -- composition ----------------------------------------------------------------------------------
    def _text_scale(self) -> AbstractContextManager[None]:
        """Build under the system font scale (text sizes as sp at this screen's density)."""
        scale = parse_font_scale(self.settings.get("system", "font_scale"))
        return font_scale(scale, self.metrics.scale)

    def _gestural(self) -> bool:
        return is_gestural(self.settings.get(*NAVIGATION_MODE_KEY))

    def _edge_back(self, x: int, y: int, direction: str) -> bool:
        """Gesture navigation's back: a swipe inward from within 30dp of a side edge (the gestural
        overlay's config_backGestureInset), above the gesture strip, goes back (EdgeBackGestureHandler);
        with three buttons the edges belong to the app."""
        if not self._gestural():
            return False
        inset, width = self.kit.dp(BACK_GESTURE_INSET_DP), self.metrics.screen.width
        from_edge = (direction == "right" and x < inset) or (direction == "left" and x >= width - inset)
        if not from_edge or y >= self.metrics.screen.height - self._bars()[1]:
            return False
        self._key_back()
        return True

    def _bars(self) -> tuple[int, int]:
        kit = self.kit
        return status_bar_height(kit), gesture_bar_height(kit) if self._gestural() else nav_bar_height(kit)

    def _app_window(self, package: str, area: Rect) -> tuple[Window, bool, bool]:
        """The app's window for `area`, whether it is full-bleed (wallpaper) and wants white bar icons."""
        app = self.apps[package]
        record = self.tasks.top(package)
        activity = app.create(record)
        fullscreen = activity.fullscreen
        content = activity.build(area)
        bounds = self.metrics.screen if fullscreen else area
        root = View(
            bounds,
            class_name=FRAME,
            rid="android:id/content",
            bg=None if fullscreen else self.kit.palette.background,
            children=[content],
        )
        return Window(package, root, name=record.activity), fullscreen, activity.light_system_bars

    def _build_frame(self) -> Frame:
        for _attempt in range(2):
            frame = self._compose()
            record = self.tasks.top()
            focus = record.ui.get("focus")
            if focus is None or self.recents_open:
                return frame
            if any(isinstance(v, EditText) and v.key == focus for v in frame.windows[0].root.walk()):
                return frame
            record.ui.pop("focus", None)  # the focused field is gone (dialog closed ...)
            self.ime.visible = False
        return self._compose()

    def _default_ime(self) -> str:
        return (self.settings.get("secure", "default_input_method") or "").split("/")[0]

    def _compose(self) -> Frame:
        kit = self.kit
        p = kit.palette
        screen = self.metrics.screen
        sb, nav = self._bars()
        record = self.tasks.top()
        ime_pkg = self._default_ime()
        kb_shown = self.ime.visible and bool(record.ui.get("focus")) and not self.recents_open
        kb_h = 0
        if kb_shown:
            kb_h = adb_keyboard_height(kit) if ime_pkg == ADB_IME_PACKAGE else keyboard_height(kit)
        area = Rect(0, sb, screen.width, screen.height - nav - kb_h)
        app_window, fullscreen, light_icons = self._app_window(self.tasks.front, area)
        self.decorate_selection(app_window.root, area)
        self.decorate_app_window(app_window.root, self.tasks.front, area)
        windows = [app_window]
        transparent = fullscreen and not self.recents_open
        light_content = p.dark or (light_icons and not self.recents_open)
        if self.recents_open:
            windows.append(self._recents_window(Rect(0, sb, screen.width, screen.height - nav)))
        windows.append(
            Window(
                SYSTEMUI,
                build_status_bar(
                    kit,
                    Rect(0, 0, screen.width, sb),
                    time=self.clock.status_time(self._use_24h()),
                    wifi=self.settings.get("global", "wifi_on") == "1",
                    airplane=self.settings.get("global", "airplane_mode_on") == "1",
                    bluetooth=self.settings.get("global", "bluetooth_on") == "1",
                    battery=self.battery_level,
                    show_percent=self.settings.get("system", "status_bar_show_battery_percent") == "1",
                    dnd=self.settings.get("global", "zen_mode") not in (None, "", "0"),
                    notifications=self.status_bar_icons(),
                    light_content=light_content,
                    locale=self.locale,
                    bg=None
                    if transparent
                    else (p.surface_high if self.recents_open and not p.dark else p.background),
                ),
                name="StatusBar",
            )
        )
        if kb_shown:
            kb_area = Rect(0, area.bottom, screen.width, screen.height - nav)
            if ime_pkg == ADB_IME_PACKAGE:
                windows.append(Window(ADB_IME_PACKAGE, build_adb_keyboard(kit, kb_area), name="InputMethod"))
            else:
                windows.append(Window(IME_PACKAGE, self._keyboard_view(kb_area), name="InputMethod"))
        self._keyboard_in_frame = kb_shown
        windows.extend(self.system_ui_windows(screen, sb, self.clock.status_time(self._use_24h())))
        windows.extend(self.interruption_windows())
        nav_bg = None if transparent or self.shade_open() else (p.keyboard if kb_shown else p.background)
        nav_rect = Rect(0, screen.height - nav, screen.width, screen.height)
        if self._gestural():
            nav_bar = build_gesture_bar(kit, nav_rect, home=lambda: self._key_home(),
                                        light_content=light_content, bg=nav_bg, locale=self.locale)
        else:
            nav_bar = build_nav_bar(kit, nav_rect, back=lambda: self._key_back(),
                                    home=lambda: self._key_home(), recents=lambda: self._key_recents(),
                                    light_content=light_content, locale=self.locale, bg=nav_bg)
        windows.append(Window(SYSTEMUI, nav_bar, name="NavigationBar"))
        if self.toast_active() and self.toast_message:
            toast = kit.toast(screen, self.toast_message, screen.height - nav)
            windows.append(Window(self.tasks.front, toast, name="Toast", touchable=False))
        return Frame(screen, windows)

    def _keyboard_view(self, area: Rect) -> View:
        zh = self.locale == "zh"
        return build_keyboard(
            self.kit,
            area,
            self.ime,
            type_text=self._ime_type,
            delete=lambda: self._edit_delete(),
            enter=lambda: self._edit_enter(),
            toggle_shift=self._ime_shift,
            toggle_symbols=self._ime_symbols,
            hide=self._ime_hide,
            enter_label="完成" if zh else "Done",
        )

    def _ime_type(self, text: str) -> None:
        self._edit_insert(text)
        if self.ime.shift:
            self.ime.shift = False
        self.invalidate()

    def _ime_shift(self) -> None:
        if self.ime.symbols:
            return
        self.ime.shift = not self.ime.shift
        self.invalidate()

    def _ime_symbols(self) -> None:
        self.ime.symbols = not self.ime.symbols
        self.ime.shift = False
        self.invalidate()

    def _ime_hide(self) -> None:
        self.ime.visible = False
        self.invalidate()

    # -- recents --------------------------------------------------------------------------------------
    def _recents_window(self, area: Rect) -> Window:
        entries: list[tuple[str, str, str, str]] = []
        for package in self.tasks.recent:
            app = self.apps.get(package)
            if app is not None:
                entries.append((package, app.info().label(self.locale), app.icon, app.hue))
        root = build_recents(
            self.kit,
            area,
            self.locale,
            entries,
            self._thumbnail,
            open_app=self._recents_open_app,
            remove_app=self._recents_remove,
            clear_all=self._recents_clear,
            offset=self.recents_scroll,
            on_scroll=self._recents_set_scroll,
        )
        return Window(LAUNCHER, root, name="Recents")

    def _thumbnail(self, package: str) -> Image.Image | None:
        if package in self._thumbs:
            return self._thumbs[package]
        sb, nav = self._bars()
        screen = self.metrics.screen
        try:
            with self._text_scale():
                window, _, _ = self._app_window(package, Rect(0, sb, screen.width, screen.height - nav))
        except (KeyError, IndexError):
            return None
        image = Image.new("RGB", (screen.width, screen.height), self.kit.palette.background)
        with font_scale(1.0):  # drawn as built (recents ask for thumbnails while their frame is built)
            window.root.render(Canvas(image), screen)
        thumb = image.crop((0, sb, screen.width, screen.height - nav)).reduce(3)
        self._thumbs[package] = thumb
        return thumb

    def _recents_open_app(self, package: str) -> None:
        self.recents_open = False
        self.tasks.bring_to_front(package)
        self.invalidate()

    def _recents_remove(self, package: str) -> None:
        self.tasks.remove(package)
        self._thumbs.pop(package, None)
        self.invalidate()

    def _recents_clear(self) -> None:
        for package in list(self.tasks.recent):
            self.tasks.remove(package)
        self.recents_open = False
        self.tasks.go_home()
        self.invalidate()

    def _recents_set_scroll(self, offset: int) -> None:
        self.recents_scroll = offset
        self.invalidate()
