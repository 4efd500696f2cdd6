"""Input: taps and swipes hit-tested on the current view tree, keys, text into the focused field,
the clipboard and ADBKeyboard's broadcasts."""

from __future__ import annotations

import base64
import binascii
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from PIL import Image

from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.system.keyboard import ADB_IME_PACKAGE, ImeState
from spa_bench.phone.system.systemui import status_bar_height
from spa_bench.phone.system.tasks import LAUNCHER, TaskManager
from spa_bench.phone.system.textselection import TOOLBAR_ID, TextSelection
from spa_bench.phone.system.touchscreen import LongPress, Swipe, Tap, Touchscreen
from spa_bench.phone.touch import Gesture, TouchAction, input_swipe
from spa_bench.phone.ui import EditText, Frame, ScrollList, View
from spa_bench.phone.ui.fling import fling_travel

if TYPE_CHECKING:
    from spa_bench.phone.apps import App
    from spa_bench.phone.ui import Kit

KEY_HOME, KEY_BACK, KEY_ENTER, KEY_DEL, KEY_APP_SWITCH, KEY_MENU = 3, 4, 66, 67, 187, 82
KEY_SPACE, KEY_FORWARD_DEL, KEY_TAB, KEY_ESCAPE = 62, 112, 61, 111
KEY_NOTIFICATION = 83
KEY_ENDCALL = 6
# KEYCODE_0..9 = 7..16, KEYCODE_A..Z = 29..54, and a few punctuation keys that `input keyevent` types.
_PRINTABLE: dict[int, str] = {
    **{7 + i: str(i) for i in range(10)},
    **{29 + i: chr(ord("a") + i) for i in range(26)},
    KEY_SPACE: " ",
    55: ",",
    56: ".",
    69: "-",
    70: "=",
    71: "[",
    72: "]",
    73: "\\",
    74: ";",
    75: "'",
    76: "/",
    77: "@",
    81: "+",
}
TOUCH_SLOP_DP = 8  # ViewConfiguration.TOUCH_SLOP


class InputMixin:
    lock: threading.RLock
    clock: PhoneClock
    tasks: TaskManager
    ime: ImeState
    clipboard: str
    recents_open: bool
    recents_scroll: int
    apps: dict[str, App]
    frame: Callable[[], Frame]
    invalidate: Callable[[], None]
    go_home: Callable[[], None]
    end_call: Callable[[], bool]  # provided by PhoneOS: TelecomManager.endCall
    # provided by StatusBarMixin
    shade_open: Callable[[], bool]
    expand_shade: Callable[[str], None]
    collapse_shade: Callable[[], None]
    # provided by TextSelectionMixin
    text_selection: TextSelection | None
    select_word: Callable[[EditText, int, int], None]
    replace_selection: Callable[[EditText, str], bool]
    _default_ime: Callable[[], str]
    _thumbs: dict[str, Image.Image]
    _edge_back: Callable[[int, int, str], bool]  # provided by ScreenMixin (gesture navigation)

    @property
    def kit(self) -> Kit:
        raise NotImplementedError  # ScreenMixin's comes first in PhoneOS's MRO

    # -- touch ----------------------------------------------------------------------------------------
    def tap(self, x: int, y: int) -> None:
        with self.lock:
            view = self.frame().hit(x, y)
            if view is None or view.rid != TOOLBAR_ID:
                self.text_selection = None  # a tap anywhere but on the text toolbar ends the selection
            if view is None:
                self.invalidate()
                return
            if isinstance(view, EditText):
                self._focus(view)
            elif view.on_tap_at is not None:
                view.on_tap_at(x, y)
            elif view.on_click is not None and view.enabled:
                view.on_click()
            self.invalidate()

    def long_press(self, x: int, y: int, duration_ms: int = 1000) -> None:
        with self.lock:
            view = self.frame().hit(x, y)
            if view is None:
                return
            if view.on_long_click is not None:
                view.on_long_click()
            elif isinstance(view, EditText):
                self.select_word(view, x, y)
            self.invalidate()

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        """`input swipe`'s events, told apart on their own timeline at once (for in-process callers); the
        shell and uiautomator2's server play gestures in real time through `perform_gesture`."""
        self.perform_gesture(input_swipe(x1, y1, x2, y2, duration_ms), wait=False)

    def perform_gesture(self, gesture: Gesture, wait: bool = True) -> None:
        """Inject the gesture's events at their times on the phone's clock, so the call lasts as long as
        the gesture does on a phone. The lock is held per event only: the screen can be read meanwhile.
        Times are the planned ones (not the moment the thread woke up), so a loaded host never turns a
        scroll into a fling."""
        start_ms = self.clock.monotonic() * 1000
        previous_ms = 0.0
        for event in gesture.events():
            due_ms = start_ms + event.t_ms
            if wait:  # on schedule, and never longer than the gap (a clock that stands still)
                gap_ms = event.t_ms - previous_ms
                self.clock.sleep(min(due_ms / 1000 - self.clock.monotonic(), gap_ms / 1000))
            previous_ms = event.t_ms
            self._touch_event(event.action, event.x, event.y, due_ms)

    def wait_ms(self, ms: float) -> None:
        self.clock.sleep(ms / 1000)  # outside the lock: the screen can be read meanwhile

    def touch(self, action: TouchAction, x: float, y: float) -> None:
        """One touch event at this moment (uiautomator2's injectInputEvent, `input motionevent`)."""
        self._touch_event(action, x, y, self.clock.monotonic() * 1000)

    def _touch_event(self, action: TouchAction, x: float, y: float, t_ms: float) -> None:
        with self.lock:
            screen = self._touchscreen_state()
            screen.slop_px = self.kit.dp(TOUCH_SLOP_DP)  # follows `wm density`
            for outcome in screen.feed(action, x, y, t_ms):
                if isinstance(outcome, Tap):
                    self.tap(outcome.x, outcome.y)
                elif isinstance(outcome, LongPress):
                    self.long_press(outcome.x, outcome.y)
                else:
                    self._swipe(outcome)

    def _touchscreen_state(self) -> Touchscreen:
        screen = getattr(self, "_touchscreen", None)
        if screen is None:
            screen = Touchscreen(self.kit.dp(TOUCH_SLOP_DP))
            self._touchscreen = screen
        return screen

    def _swipe(self, swipe: Swipe) -> None:
        x1, y1, dx, dy = swipe.x1, swipe.y1, swipe.x2 - swipe.x1, swipe.y2 - swipe.y1
        direction = (
            ("up" if dy < 0 else "down") if abs(dy) >= abs(dx) else ("left" if dx < 0 else "right")
        )
        if direction == "down" and not self.shade_open() and y1 < self._status_bar_bottom():
            self.expand_shade("notifications")  # a swipe from the top edge pulls the shade down
            return
        if self._edge_back(x1, y1, direction):  # gesture navigation: a swipe in from a side edge
            return
        # A quick flick keeps the list moving after the finger lifts (Android's fling).
        travel = dy + (fling_travel(swipe.velocity_y, self.kit.metrics.density) if dy else 0)
        path = self.frame().path_to(x1, y1)
        for view in reversed(path):
            if isinstance(view, ScrollList) and direction in ("up", "down") and view.scroll_by(-travel):
                break
            if view.on_swipe is not None and view.on_swipe(direction):
                break
        self.invalidate()

    def _focus(self, field: EditText) -> None:
        record = self.tasks.top()
        record.ui["focus"] = field.key
        self.ime.visible = True

    # -- keys -----------------------------------------------------------------------------------------
    def press_key(self, keycode: int) -> None:
        with self.lock:
            if keycode == KEY_HOME:
                self._key_home()
            elif keycode in (KEY_BACK, KEY_ESCAPE):
                self._key_back()
            elif keycode == KEY_APP_SWITCH:
                self._key_recents()
            elif keycode == KEY_NOTIFICATION:  # PhoneWindowManager: toggle the notification panel
                if self.shade_open():
                    self.collapse_shade()
                else:
                    self.expand_shade("notifications")
            elif keycode == KEY_ENDCALL:  # PhoneWindowManager hands it to Telecom
                self.end_call()
            elif keycode == KEY_ENTER:
                self._edit_enter()
            elif keycode == KEY_DEL:
                self._edit_delete()
            elif keycode == KEY_TAB:
                self._edit_insert("\t")
            elif keycode in _PRINTABLE:
                self._edit_insert(_PRINTABLE[keycode])
            self.invalidate()

    def _key_home(self) -> None:
        self.go_home()

    def _status_bar_bottom(self) -> int:
        return status_bar_height(self.kit)

    def _key_recents(self) -> None:
        self.collapse_shade()
        if self.recents_open:
            self.recents_open = False
        else:
            self.recents_open = True
            self.recents_scroll = 0
            self.ime.visible = False
            self._thumbs.clear()
        self.invalidate()

    def _key_back(self) -> None:
        self.invalidate()
        if self.shade_open():
            self.collapse_shade()
            return
        if self.text_selection is not None:  # BACK first ends the selection's action mode
            self.text_selection = None
            return
        if self.recents_open:
            self.recents_open = False
            return
        record = self.tasks.top()
        if self.ime.visible and record.ui.get("focus"):
            self.ime.visible = False
            return
        app = self.apps[self.tasks.front]
        if app.create(record).on_back():
            return
        record.ui.pop("focus", None)
        if self.tasks.front == LAUNCHER:
            return
        if not self.tasks.pop():
            self.tasks.go_home()

    # -- text -----------------------------------------------------------------------------------------
    def _focused_field(self) -> EditText | None:
        frame = self.frame()
        if not frame.windows:
            return None
        for view in frame.windows[0].root.walk():
            if isinstance(view, EditText) and view.focused:
                return view
        return None

    def _edit_insert(self, text: str) -> None:
        field = self._focused_field()
        if field is not None and text and not self.replace_selection(field, text):
            field.on_change(field.value + text)
        self.text_selection = None  # typing ends the selection and its toolbar

    def _edit_delete(self) -> None:
        field = self._focused_field()
        if field is not None and field.value and not self.replace_selection(field, ""):
            field.on_change(field.value[:-1])
        self.text_selection = None

    def _edit_enter(self) -> None:
        """KEYCODE_ENTER in the focused field: a newline in a multi-line one (the keyboard stays up), the
        IME action in a single-line one."""
        field = self._focused_field()
        if field is None:
            return
        if field.multi_line:
            self._edit_insert("\n")
        else:
            self._editor_action(field)

    def perform_editor_action(self, code: int) -> None:
        """InputConnection.performEditorAction(code) on the focused field - an IME's action key, ADBKeyboard's
        ADB_EDITOR_CODE, uiautomator2's send_action: TextView.onEditorAction, which types nothing,
        multi-line field or not (without a listener, a GO/SEARCH/SEND becomes an Enter flagged as an
        editor action, which no field inserts)."""
        with self.lock:
            field = self._focused_field()
            if field is not None:
                self._editor_action(field)
            self.invalidate()

    def _editor_action(self, field: EditText) -> None:
        """TextView.onEditorAction: the app's listener (`on_submit`) when it has one, else the keyboard
        goes down. An IME's performEditorAction lands here in multi-line fields too: it types nothing."""
        if field.on_submit is not None:
            field.on_submit()
        else:
            self.ime.visible = False

    def _edit_clear(self) -> None:
        field = self._focused_field()
        if field is not None:
            field.on_change("")

    def input_text(self, text: str) -> None:
        with self.lock:
            self._edit_insert(text)
            self.invalidate()

    def get_clipboard(self) -> str:
        with self.lock:
            return self.clipboard

    def set_clipboard(self, text: str) -> None:
        with self.lock:
            self.clipboard = text

    def paste_clipboard(self) -> None:
        """Paste into the focused field (uiautomator2's send_keys path uses this)."""
        with self.lock:
            self._edit_insert(self.clipboard)
            self.invalidate()

    # -- broadcasts -----------------------------------------------------------------------------------
    def broadcast(self, action: str, extras: dict[str, str]) -> tuple[int, str]:
        """ADBKeyboard's actions type into the focused field, but only while it is the current input
        method: its receiver is registered by the running IME service, so with another keyboard the
        broadcast reaches no one (result=0 either way, as on a phone). Other actions reach no one."""
        with self.lock:
            if action.startswith("ADB_") and self._default_ime() != ADB_IME_PACKAGE:
                return 0, ""
            if action == "ADB_INPUT_TEXT":
                self._edit_insert(extras.get("msg", ""))
            elif action == "ADB_INPUT_B64":
                try:
                    text = base64.b64decode(extras.get("msg", ""), validate=False).decode("utf-8")
                except (binascii.Error, UnicodeDecodeError):
                    return 0, ""
                self._edit_insert(text)
            elif action == "ADB_CLEAR_TEXT":
                self._edit_clear()
            elif action == "ADB_INPUT_CODE":
                code = _int(extras.get("code"))
                if code is not None:
                    self.press_key(code)
            elif action == "ADB_EDITOR_CODE":
                code = _int(extras.get("code"))
                if code is not None and code != -1:  # AdbIME: getIntExtra("code", -1)
                    self.perform_editor_action(code)
            elif action == "ADB_INPUT_CHARS":
                chars = [_int(c) for c in extras.get("chars", "").split(",")]
                self._edit_insert("".join(chr(c) for c in chars if c is not None and 0 < c < 0x110000))
            self.invalidate()
            return 0, ""


def _int(value: str | None) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


__all__ = ["InputMixin", "View"]
