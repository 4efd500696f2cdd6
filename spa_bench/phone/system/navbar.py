"""The navigation mode: AOSP's three-button bar or the gesture handle (secure `navigation_mode`).

AOSP switches the mode with a runtime resource overlay (`cmd overlay enable-exclusive --category
com.android.internal.systemui.navbar.gestural`); the framework then reports it in `secure
navigation_mode` (0 three buttons, 1 two buttons, 2 gestures), which is what this phone reads. The modes
differ in the bar's height - so in how much room the app gets - and in what the UI dump shows: the buttons
`com.android.systemui:id/back|home|recent_apps`, or the non-clickable `home_handle` that a swipe up from
the bottom edge goes home through; in gesture mode a swipe in from a side edge goes back (screen.py).
The keys (`input keyevent BACK|HOME|APP_SWITCH`) work in both modes, as on a device.
"""

from __future__ import annotations

from collections.abc import Callable

from spa_bench.phone.system.systemui import STRINGS as SYSTEMUI_STRINGS
from spa_bench.phone.system.systemui import SYSTEMUI
from spa_bench.phone.ui import FRAME, Kit, Rect, View
from spa_bench.phone.ui.canvas import Canvas

NAVIGATION_MODE_KEY = ("secure", "navigation_mode")
OVERLAY_PREFIX = "com.android.internal.systemui.navbar."
# overlay package suffix -> navigation_mode, as NavigationModeController maps them
MODES = {"threebutton": "0", "twobutton": "1", "gestural": "2"}
BACK_GESTURE_INSET_DP = 30  # NavigationBarModeGesturalOverlay's config_backGestureInset


def is_gestural(mode: str | None) -> bool:
    return (mode or "").strip() == MODES["gestural"]


def gesture_bar_height(kit: Kit) -> int:
    """The bottom inset in gesture mode (AOSP's gestural overlay: navigation_bar_height 24dp)."""
    return kit.dp(24)


class _Handle(View):
    """The pill drawn in the middle of the gesture area (AOSP's NavigationHandle)."""

    class_name = "android.view.View"

    def __init__(self, bounds: Rect, color: tuple[int, int, int], desc: str) -> None:
        super().__init__(bounds, rid=f"{SYSTEMUI}:id/home_handle", desc=desc)
        self.color = color

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        canvas.fill(b, self.color, b.height // 2)


def build_gesture_bar(
    kit: Kit,
    rect: Rect,
    *,
    home: Callable[[], None],
    light_content: bool,
    bg: tuple[int, int, int] | None,
    locale: str = "en",
) -> View:
    """The gesture area: the whole strip takes a swipe up (home); nothing in it is clickable."""
    fg = (255, 255, 255) if light_content else kit.palette.on_surface
    root = View(rect, class_name=FRAME, rid=f"{SYSTEMUI}:id/navigation_bar_frame", bg=bg)
    w, h = kit.dp(108), max(2, kit.dp(4))
    cx, cy = rect.center
    root.add(_Handle(Rect(cx - w // 2, cy - h // 2, cx - w // 2 + w, cy - h // 2 + h), fg,
                     SYSTEMUI_STRINGS.get("zh" if locale == "zh" else "en", "home")))

    def on_swipe(direction: str) -> bool:
        if direction != "up":
            return False
        home()
        return True

    root.on_swipe = on_swipe
    return root
