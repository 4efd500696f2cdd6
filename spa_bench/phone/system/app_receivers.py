"""Broadcast receivers of helper APKs that clients install and then drive with `am broadcast`.

The phone runs no APK code, so the behaviour of the few helpers whose broadcasts clients depend on is
written here, from their sources, and reached only while the helper is installed (and, for a
keyboard, while it is the current input method, since its receiver is registered by the running
InputMethodService):

- uiautomator2's app-uiautomator (`com.github.uiautomator/.AdbKeyboard`, android-uiautomator-server
  2.4.0): ADB_KEYBOARD_INPUT_TEXT (`text` in base64), _SET_TEXT, _CLEAR_TEXT, _INPUT_KEYCODE,
  _EDITOR_CODE, _SMART_ENTER, _HIDE, _SHOW, _GET_CLIPBOARD (base64). It answers RESULT_OK (-1) with
  the handler's data, or the action's name when no field has focus (no input connection).
- AndroidWorld's Clipper (`ca.zgrs.clipper`): clipper.set (`text`) answers -1 "Text is copied into
  clipboard."; clipper.get answers -1 and the clipboard's text, or 0 and "" when it cannot read it
  (Android 10+ lets only the app in front read the clipboard, hence AndroidWorld opens Clipper first).

ADBKeyboard's own ADB_INPUT_* actions are the input system's (`system.input`).
"""

from __future__ import annotations

import base64
import binascii
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from spa_bench.phone.api import PackageInfo

U2_KEYBOARD = "com.github.uiautomator/.AdbKeyboard"
CLIPPER_PACKAGE = "ca.zgrs.clipper"
RESULT_OK = -1
RESULT_CANCELED = 0


@dataclass(frozen=True)
class BroadcastResult:
    code: int
    data: str | None  # None: am prints no `data=` part


@runtime_checkable
class ReceiverHost(Protocol):
    """What the receivers use of the phone (PhoneOS has all of it)."""

    lock: threading.RLock

    def packages(self) -> list[PackageInfo]: ...

    def settings_get(self, namespace: str, key: str) -> str | None: ...

    def current_focus(self) -> tuple[str, str]: ...

    def get_clipboard(self) -> str: ...

    def set_clipboard(self, text: str) -> None: ...

    def input_text(self, text: str) -> None: ...

    def press_key(self, keycode: int) -> None: ...

    def perform_editor_action(self, code: int) -> None: ...


def deliver(host: ReceiverHost, action: str, extras: dict[str, str]) -> BroadcastResult | None:
    """The result of the helper receiver that takes `action`, None when no installed helper does."""
    installed = {p.name for p in host.packages()}
    if action.startswith("ADB_KEYBOARD_") and U2_KEYBOARD.split("/")[0] in installed \
            and host.settings_get("secure", "default_input_method") == U2_KEYBOARD:
        return _u2_keyboard(host, action, extras)
    if action in ("clipper.set", "clipper.get") and CLIPPER_PACKAGE in installed:
        return _clipper(host, action, extras)
    return None


def _u2_keyboard(host: ReceiverHost, action: str, extras: dict[str, str]) -> BroadcastResult:
    if action == "ADB_KEYBOARD_GET_CLIPBOARD":  # works without a focused field
        return BroadcastResult(RESULT_OK, base64.b64encode(host.get_clipboard().encode()).decode())
    if not _has_input_connection(host):
        return BroadcastResult(RESULT_OK, action)
    handlers: dict[str, Callable[[], str | None]] = {
        "ADB_KEYBOARD_INPUT_TEXT": lambda: _type_base64(host, extras.get("text")),
        "ADB_KEYBOARD_SET_TEXT": lambda: _set_text(host, extras.get("text") or ""),
        "ADB_KEYBOARD_CLEAR_TEXT": lambda: _clear(host),
        "ADB_KEYBOARD_INPUT_KEYCODE": lambda: _key(host, extras.get("code")),
        "ADB_KEYBOARD_EDITOR_CODE": lambda: _editor(host, extras.get("code")),
        "ADB_KEYBOARD_SMART_ENTER": lambda: _smart_enter(host),
        "ADB_KEYBOARD_HIDE": lambda: _show(host, False),
        "ADB_KEYBOARD_SHOW": lambda: _show(host, True),
    }
    handler = handlers.get(action)
    if handler is None:  # KeyboardAction.valueOf throws: the receiver's catch answers RESULT_CANCELED
        return BroadcastResult(RESULT_CANCELED, f"error:No enum constant "
                                                f"com.github.uiautomator.AdbKeyboard.KeyboardAction.{action}")
    try:
        return BroadcastResult(RESULT_OK, handler())
    except ValueError as exc:  # android.util.Base64's IllegalArgumentException, caught the same way
        return BroadcastResult(RESULT_CANCELED, f"error:{exc}")


def _has_input_connection(host: ReceiverHost) -> bool:
    focused = getattr(host, "_focused_field", None)
    with host.lock:
        return focused is not None and focused() is not None


def _type_base64(host: ReceiverHost, text: str | None) -> str | None:
    if text is None:
        return "ADB_KEYBOARD_INPUT_TEXT"
    try:
        decoded = base64.b64decode(text).decode("utf-8", errors="replace")
    except binascii.Error as exc:
        raise ValueError("bad base-64") from exc
    host.input_text(decoded)
    return None


def _clear(host: ReceiverHost) -> None:
    clear = getattr(host, "_edit_clear", None)
    with host.lock:
        if clear is not None:
            clear()
        getattr(host, "invalidate", lambda: None)()


def _set_text(host: ReceiverHost, text: str) -> None:
    _clear(host)
    _type_base64(host, text)


def _key(host: ReceiverHost, code: str | None) -> None:
    if code is not None and code.lstrip("-").isdigit() and int(code) != -1:
        host.press_key(int(code))


def _editor(host: ReceiverHost, code: str | None) -> None:
    if code is not None and code.lstrip("-").isdigit() and int(code) != -1:
        host.perform_editor_action(int(code))


def _smart_enter(host: ReceiverHost) -> str:
    # the field's imeOptions are not modelled: AdbKeyboard's default branch,
    # ic.performEditorAction(KeyEvent.KEYCODE_ENTER)
    host.perform_editor_action(66)
    return "Enter"


def _show(host: ReceiverHost, visible: bool) -> None:
    ime = getattr(host, "ime", None)
    with host.lock:
        if ime is not None:
            ime.visible = visible
        getattr(host, "invalidate", lambda: None)()


def _clipper(host: ReceiverHost, action: str, extras: dict[str, str]) -> BroadcastResult:
    if action == "clipper.set":
        text = extras.get("text")
        if text is None:
            return BroadcastResult(RESULT_CANCELED, 'No text is provided. Use -e text "text to be pasted"')
        host.set_clipboard(text)
        return BroadcastResult(RESULT_OK, "Text is copied into clipboard.")
    clip = host.get_clipboard()
    # ClipboardManager gives a background app nothing, and an empty clipboard has no clip
    if host.current_focus()[0] != CLIPPER_PACKAGE or not clip:
        return BroadcastResult(RESULT_CANCELED, "")
    return BroadcastResult(RESULT_OK, clip)


__all__ = ["CLIPPER_PACKAGE", "U2_KEYBOARD", "BroadcastResult", "deliver"]
