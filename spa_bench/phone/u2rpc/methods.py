"""The JSON-RPC methods of uiautomator2's device server, answered by the phone's OS.

Names, parameter order and result shapes follow what uiautomator2 3.7.1 sends (see its `__init__.py`,
`_selector.py` and `_input.py`). Element lookups work on a fresh uiautomator dump of the current
screen. A missing element raises an error whose message carries `UiObjectNotFoundException`, which the
client maps to UiObjectNotFoundError; methods that make no sense on this phone say so in their error.
"""

from __future__ import annotations

import base64
import io
import math
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

from spa_bench.phone.api import PhoneSystem
from spa_bench.phone.system.display import display_state
from spa_bench.phone.touch import (
    LONG_PRESS_TIMEOUT_MS,
    REGULAR_CLICK_MS,
    TouchAction,
    press,
    uiautomator_swipe,
)
from spa_bench.phone.u2rpc.selector import SelectorError, UiNode, describe, parse_hierarchy, select

KEY_NAMES = {
    "home": 3, "back": 4, "left": 21, "right": 22, "up": 19, "down": 20, "center": 23, "menu": 82,
    "search": 84, "enter": 66, "delete": 67, "del": 67, "recent": 187, "volume_up": 24, "volume_down": 25,
    "volume_mute": 164, "camera": 27, "power": 26,
}
KEYCODE_DEL, KEYCODE_MOVE_END, KEYCODE_WAKEUP, KEYCODE_SLEEP = 67, 123, 224, 223
ERR_INVALID_PARAMS, ERR_METHOD_NOT_FOUND, ERR_NOT_FOUND, ERR_SERVER = -32602, -32601, -32002, -32001
MAX_WAIT_MS = 120_000
# MotionEvent.ACTION_DOWN 0, ACTION_UP 1, ACTION_MOVE 2 (TouchController answers false to the rest)
INJECTED_ACTIONS: dict[int, TouchAction] = {0: "down", 1: "up", 2: "move"}
POLL_S = 0.1


# uiautomator2's orientation names (and UiDevice's rotations) -> Surface.ROTATION_*
ORIENTATIONS = {"natural": 0, "n": 0, "0": 0, "left": 1, "l": 1, "1": 1, "upsidedown": 2, "u": 2, "2": 2,
                "right": 3, "r": 3, "3": 3}


class RpcError(Exception):
    """A JSON-RPC error object: {code, message, data}."""

    def __init__(self, code: int, message: str, data: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "data": self.data or self.message}


def not_found(selector: object) -> RpcError:
    message = f"androidx.test.uiautomator.UiObjectNotFoundException: {describe(selector)}"
    return RpcError(ERR_NOT_FOUND, message, message + "\n\tat com.wetest.uia2.stub.AutomatorServiceImpl")


def unsupported(method: str) -> RpcError:
    return RpcError(ERR_SERVER, f"java.lang.UnsupportedOperationException: {method} is not supported "
                                "by the spa-bench virtual phone")


class U2Methods:
    """One instance per phone; its state is the server's listener's: the last traversed text, and how
    many toasts had been shown when it started or was last cleared."""

    def __init__(self, system: PhoneSystem) -> None:
        self.system = system
        self._last_traversed_text = ""  # QueryController keeps "" for "none"
        self._toasts_seen_before = 0  # the server starts with the phone: it has seen every toast
        self.table: dict[str, Callable[..., Any]] = {
            name: getattr(self, name) for name in dir(self)
            if not name.startswith("_") and name[0].islower() and name not in ("system", "table", "call")
            and callable(getattr(self, name))
        }

    def call(self, method: str, params: object) -> Any:
        fn = self.table.get(method)
        if fn is None:
            raise RpcError(ERR_METHOD_NOT_FOUND, f"Method not found: {method}")
        try:
            if isinstance(params, dict):
                return fn(**params)
            if isinstance(params, list):
                return fn(*params)
            return fn() if params is None else fn(params)
        except TypeError as exc:
            raise RpcError(ERR_INVALID_PARAMS, f"Invalid params for {method}: {exc}") from None
        except SelectorError as exc:
            raise RpcError(ERR_INVALID_PARAMS, f"java.lang.IllegalArgumentException: {exc}") from None

    # -- helpers --------------------------------------------------------------------------------------
    def _nodes(self) -> list[UiNode]:
        return parse_hierarchy(self.system.dump_hierarchy(mode="u2"))

    def _find_all(self, selector: object) -> list[UiNode]:
        return select(self._nodes(), selector)

    def _find(self, selector: object) -> UiNode:
        found = self._find_all(selector)
        if not found:
            raise not_found(selector)
        return found[0]

    def _wait(self, selector: object, timeout_ms: object, present: bool) -> bool:
        deadline = time.monotonic() + min(max(int(float(str(timeout_ms or 0))), 0), MAX_WAIT_MS) / 1000
        while True:
            if bool(self._find_all(selector)) == present:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(POLL_S)

    def _clear_node(self, node: UiNode) -> None:
        """Focus the field, jump to its end and delete what it holds (the dump shows the hint when empty)."""
        if not node.flag("focused"):
            self.system.tap(*node.center)
        self.system.press_key(KEYCODE_MOVE_END)
        for _ in range(len(node.get("text"))):
            self.system.press_key(KEYCODE_DEL)

    # -- device ---------------------------------------------------------------------------------------
    def deviceInfo(self) -> dict[str, Any]:  # noqa: N802 - RPC method names are uiautomator2's
        width, height = self.system.screen_size()  # the logical display: rotated, wm size applied
        display = display_state(self.system.config, self.system.settings_get)
        density = display.density / 160
        return {
            "currentPackageName": self.system.current_focus()[0],
            "displayWidth": width, "displayHeight": height, "displayRotation": display.rotation,
            "displaySizeDpX": round(width / density), "displaySizeDpY": round(height / density),
            "productName": self.system.config.product, "screenOn": True,
            "sdkInt": self.system.config.sdk, "naturalOrientation": True,
        }

    def dumpWindowHierarchy(self, compressed: bool = False, maxDepth: int | None = None,  # noqa: N802, N803
                            rootInActive: bool | None = None) -> str:  # noqa: N803
        xml = self.system.dump_hierarchy(bool(compressed), mode="u2")
        if maxDepth is not None and int(maxDepth) > 0:
            xml = _prune(xml, int(maxDepth))
        return xml

    def takeScreenshot(self, scale: float = 1.0, quality: int = 100) -> str:  # noqa: N802
        """The screen as base64 JPEG. The real server (android-uiautomator-server's AutomatorServiceImpl)
        ignores `scale` and answers at the screen's size, and Bitmap.compress refuses a quality outside
        0-100; so here a scale above 1 gives the screen's size (never larger: scale 40 would be GBs) and
        one below 1 a smaller picture, and a scale or quality that is no number in range is refused."""
        if isinstance(scale, bool) or not isinstance(scale, int | float) or not math.isfinite(scale) \
                or scale <= 0:
            raise RpcError(ERR_INVALID_PARAMS, f"java.lang.IllegalArgumentException: scale must be a number "
                                               f"> 0, got {scale!r}")
        if isinstance(quality, bool) or not isinstance(quality, int) or not 0 <= quality <= 100:
            raise RpcError(ERR_INVALID_PARAMS, f"java.lang.IllegalArgumentException: quality must be 0..100, "
                                               f"got {quality!r}")
        image = self.system.screenshot().convert("RGB")
        if scale < 1:
            w, h = image.size
            image = image.resize((max(1, round(w * scale)), max(1, round(h * scale))))
        buf = io.BytesIO()
        image.save(buf, format="JPEG", quality=max(1, quality))
        return base64.b64encode(buf.getvalue()).decode("ascii")

    def wakeUp(self) -> None:  # noqa: N802
        self.system.press_key(KEYCODE_WAKEUP)

    def sleep(self) -> None:
        self.system.press_key(KEYCODE_SLEEP)

    def setOrientation(self, orientation: str) -> None:  # noqa: N802
        """UiDevice.setOrientationNatural/Left/Right/...: auto-rotate off, then the user rotation."""
        rotation = ORIENTATIONS.get(str(orientation).lower())
        if rotation is None:
            raise RpcError(ERR_INVALID_PARAMS, f"java.lang.IllegalArgumentException: {orientation}")
        self.system.settings_put("system", "accelerometer_rotation", "0")
        self.system.settings_put("system", "user_rotation", str(rotation))

    def freezeRotation(self, freeze: bool = True) -> None:  # noqa: N802
        """UiDevice.freezeRotation / unfreezeRotation: auto-rotate off or on (the phone lies still, so
        with auto-rotate on it turns back to its natural orientation)."""
        self.system.settings_put("system", "accelerometer_rotation", "0" if freeze else "1")

    def getLastTraversedText(self) -> str | None:  # noqa: N802
        """QueryController: the text of the last TYPE_VIEW_TEXT_TRAVERSED_AT_MOVEMENT_GRANULARITY event,
        None while there is none. Such events come from an accessibility service moving through text by
        character/word/line (TalkBack); nothing on this phone traverses text so, so none is recorded."""
        return self._last_traversed_text or None

    def clearLastTraversedText(self) -> None:  # noqa: N802
        self._last_traversed_text = ""

    def makeToast(self, text: str, duration: float = 1000) -> bool:  # noqa: N802
        """ToastHelper.makeText(context, text, duration).show(): a toast for `duration` ms."""
        self.system.show_toast(str(text), max(0.0, float(duration)) / 1000)
        return True

    def getLastToast(self, cache_duration: float | None = None) -> str | None:  # noqa: N802
        """The text of the last toast the server's accessibility listener saw since it started or was
        cleared (it stays after the toast fades), None when none."""
        shown = self.system.last_toast()
        return shown[1] if shown is not None and shown[0] > self._toasts_seen_before else None

    def clearLastToast(self) -> bool:  # noqa: N802
        shown = self.system.last_toast()
        self._toasts_seen_before = shown[0] if shown is not None else 0
        return True

    def openNotification(self) -> bool:  # noqa: N802
        width, height = self.system.screen_size()
        self.system.swipe(width // 2, 5, width // 2, height // 2, 300)
        return True

    def openQuickSettings(self) -> bool:  # noqa: N802
        """The shade's second step: a further swipe down expands the quick settings."""
        width, height = self.system.screen_size()
        self.openNotification()
        self.system.swipe(width // 2, height // 4, width // 2, height * 3 // 4, 300)
        return True

    # -- input ----------------------------------------------------------------------------------------
    # The server's gestures last as on a phone: a click holds the finger 100 ms (REGULAR_CLICK_LENGTH),
    # click(x, y, ms) for ms, a swipe 5 ms per step (u2's duration is steps / 200), a drag the long-press
    # time first. They are played on the phone's clock, one touch event at a time.
    def click(self, *args: Any) -> bool:
        if len(args) == 1:  # click(selector), the old UiObject API: UiObject.click's clickRunnable
            x, y = self._find(args[0]).center
            self.system.perform_gesture(press(x, y, REGULAR_CLICK_MS))
            return True
        x, y = int(args[0]), int(args[1])
        if x < 0 or y < 0:  # AutomatorServiceImpl.click refuses negative points
            return False
        hold = int(args[2]) if len(args) == 3 else REGULAR_CLICK_MS
        self.system.perform_gesture(press(x, y, hold))
        return True

    def longClick(self, *args: Any) -> bool:  # noqa: N802
        """UiObject.longClick: InteractionController.longTapNoSync holds for the system's long-press time."""
        x, y = self._find(args[0]).center if len(args) == 1 else (int(args[0]), int(args[1]))
        self.system.perform_gesture(press(x, y, LONG_PRESS_TIMEOUT_MS))
        return True

    def swipe(self, fx: int, fy: int, tx: int, ty: int, steps: int = 55) -> bool:
        self.system.perform_gesture(uiautomator_swipe([(int(fx), int(fy)), (int(tx), int(ty))], int(steps)))
        return True

    def swipePoints(self, points: list[int], steps: int = 55) -> bool:  # noqa: N802
        """UiDevice.swipe(Point[], segmentSteps): the flat [x0, y0, x1, y1, ...] list, steps per segment."""
        if len(points) < 2 or len(points) % 2:
            raise RpcError(ERR_INVALID_PARAMS, f"swipePoints: points must be x, y pairs, got {points!r}")
        pairs = [(int(points[i]), int(points[i + 1])) for i in range(0, len(points), 2)]
        self.system.perform_gesture(uiautomator_swipe(pairs, int(steps)))
        return True

    def drag(self, sx: int, sy: int, ex: int, ey: int, steps: int = 100) -> bool:
        self.system.perform_gesture(uiautomator_swipe([(int(sx), int(sy)), (int(ex), int(ey))], int(steps),
                                                      drag=True))
        return True

    def dragTo(self, selector: object, *target: Any) -> bool:  # noqa: N802
        sx, sy = self._find(selector).center
        if len(target) == 3:
            ex, ey, steps = int(target[0]), int(target[1]), int(target[2])
        else:
            (ex, ey), steps = self._find(target[0]).center, int(target[1]) if len(target) > 1 else 100
        self.system.perform_gesture(uiautomator_swipe([(sx, sy), (ex, ey)], steps, drag=True))
        return True

    def pressKey(self, key: str) -> bool:  # noqa: N802
        code = KEY_NAMES.get(str(key).lower())
        if code is None:
            return False
        self.system.press_key(code)
        return True

    def pressKeyCode(self, code: int, meta: int = 0) -> bool:  # noqa: N802
        self.system.press_key(int(code))
        return True

    def injectInputEvent(self, action: int, x: float, y: float, meta: int = 0) -> bool:  # noqa: N802
        """TouchController: touch down/move/up as separate calls, each at the moment it arrives (held still
        past the long-press time it is a long press, as on a phone); other actions are refused."""
        kind = INJECTED_ACTIONS.get(int(action))
        if kind is None:
            return False
        self.system.touch(kind, float(x), float(y))
        return True

    # -- clipboard and text ---------------------------------------------------------------------------
    def setClipboard(self, label: str | None, text: str) -> None:  # noqa: N802
        self.system.set_clipboard(str(text))

    def getClipboard(self) -> str:  # noqa: N802
        return self.system.get_clipboard()

    def pasteClipboard(self) -> None:  # noqa: N802
        self.system.input_text(self.system.get_clipboard())

    def clearInputText(self) -> None:  # noqa: N802
        focused = [n for n in self._nodes() if n.flag("focused")]
        if focused:
            self._clear_node(focused[-1])

    def setText(self, selector: object, text: str) -> bool:  # noqa: N802
        node = self._find(selector)
        self._clear_node(node)
        if text:
            self.system.input_text(str(text))
        return True

    def clearTextField(self, selector: object) -> None:  # noqa: N802
        self._clear_node(self._find(selector))

    def getText(self, selector: object) -> str:  # noqa: N802
        return self._find(selector).get("text")

    # -- queries --------------------------------------------------------------------------------------
    def exist(self, selector: object) -> bool:
        return bool(self._find_all(selector))

    def count(self, selector: object) -> int:
        return len(self._find_all(selector))

    def objInfo(self, selector: object) -> dict[str, Any]:  # noqa: N802
        return self._find(selector).info(self.system.screen_size())

    def objInfoOfAllInstances(self, selector: object) -> list[dict[str, Any]]:  # noqa: N802
        screen = self.system.screen_size()
        return [node.info(screen) for node in self._find_all(selector)]

    def waitForExists(self, selector: object, timeout: int = 0) -> bool:  # noqa: N802
        return self._wait(selector, timeout, present=True)

    def waitUntilGone(self, selector: object, timeout: int = 0) -> bool:  # noqa: N802
        return self._wait(selector, timeout, present=False)

    # -- scrolling ------------------------------------------------------------------------------------
    def _scroll(self, selector: object, vertical: bool, forward: bool, steps: int) -> bool:
        """One swipe inside the scrollable; True when the screen changed (more content was there)."""
        left, top, right, bottom = self._find(selector).bounds
        before = self.system.dump_hierarchy(mode="u2")
        cx, cy = (left + right) // 2, (top + bottom) // 2
        if vertical:
            near, far = top + (bottom - top) // 5, bottom - (bottom - top) // 5
            y1, y2 = (far, near) if forward else (near, far)
            self.system.perform_gesture(uiautomator_swipe([(cx, y1), (cx, y2)], int(steps)))
        else:
            near, far = left + (right - left) // 5, right - (right - left) // 5
            x1, x2 = (far, near) if forward else (near, far)
            self.system.perform_gesture(uiautomator_swipe([(x1, cy), (x2, cy)], int(steps)))
        return self.system.dump_hierarchy(mode="u2") != before

    def scrollForward(self, selector: object, vertical: bool = True, steps: int = 55) -> bool:  # noqa: N802
        return self._scroll(selector, vertical, True, steps)

    def scrollBackward(self, selector: object, vertical: bool = True, steps: int = 55) -> bool:  # noqa: N802
        return self._scroll(selector, vertical, False, steps)

    def scrollToBeginning(self, selector: object, vertical: bool = True, max_swipes: int = 500,  # noqa: N802
                          steps: int = 55) -> bool:
        for _ in range(min(int(max_swipes), 100)):
            if not self._scroll(selector, vertical, False, steps):
                break
        return True

    def scrollToEnd(self, selector: object, vertical: bool = True, max_swipes: int = 500,  # noqa: N802
                    steps: int = 55) -> bool:
        for _ in range(min(int(max_swipes), 100)):
            if not self._scroll(selector, vertical, True, steps):
                break
        return True

    def scrollTo(self, selector: object, target: object, vertical: bool = True) -> bool:  # noqa: N802
        for _ in range(30):
            if self._find_all(target):
                return True
            if not self._scroll(selector, vertical, True, 55):
                break
        return bool(self._find_all(target))

    def flingForward(self, selector: object, vertical: bool = True) -> bool:  # noqa: N802
        return self._scroll(selector, vertical, True, 10)

    def flingBackward(self, selector: object, vertical: bool = True) -> bool:  # noqa: N802
        return self._scroll(selector, vertical, False, 10)

    def flingToBeginning(self, selector: object, vertical: bool = True, max_swipes: int = 500) -> bool:  # noqa: N802
        return self.scrollToBeginning(selector, vertical, max_swipes, 10)

    def flingToEnd(self, selector: object, vertical: bool = True, max_swipes: int = 500) -> bool:  # noqa: N802
        return self.scrollToEnd(selector, vertical, max_swipes, 10)


def _prune(xml: str, max_depth: int) -> str:
    """Drop nodes deeper than max_depth (1 = children of <hierarchy>) if there are any."""
    root = ET.fromstring(xml.encode("utf-8"))
    pruned = False

    def walk(element: ET.Element, depth: int) -> None:
        nonlocal pruned
        for child in list(element):
            if depth >= max_depth:
                element.remove(child)
                pruned = True
            else:
                walk(child, depth + 1)

    walk(root, 0)
    if not pruned:
        return xml
    body = ET.tostring(root, encoding="unicode")
    return "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" + body
