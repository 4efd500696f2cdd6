"""Which `am` / `cmd activity` command lines reach an app behind its GUI.

A tap can only open an app at its launcher activity, with no extras; from there the app decides what
the user sees. An intent built on the command line can do what no tap does: start an internal screen
with arguments (the dialer's in-call screen with `--es number N`), hand an activity data it trusts,
run a service or a receiver. So:

- opening an app stays navigation: `am start -n PKG/LAUNCHER_ACTIVITY`, `am start -a MAIN -c LAUNCHER
  -p PKG`, the home screen, and implicit intents without extras (a web page, the dialer with a number to
  review, a Settings page), which the phone resolves only to exported activities as Android does;
- everything else that starts something is a state change: an intent with extras (`-e`, `--es`, `--ei`,
  `--ez`, `--eia`, `--esn` ...), an explicit component other than the package's launcher activity, an
  explicit component with data, an `intent:` URI (it can carry a component and extras), CALL (it
  places a call), a service start, a broadcast (ADBKeyboard's typing and Clipper's read aside),
  instrumentation.

The launcher activity of a package comes from `launchers` (package -> fully qualified class). The
classifier is pure, so it cannot ask the device: the default is the virtual phone's stock apps
(STOCK_LAUNCHERS, kept equal to the phone's app registry by a test), and a caller that knows the
device's launchers passes them. An explicit component of a package not in the table is a state change:
an agent opens such an app with `monkey -p PKG 1` or `-a MAIN -c LAUNCHER -p PKG` instead.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Literal

AmKind = Literal["read", "gui_input", "navigation", "state_change"]
ACTION_MAIN = "android.intent.action.MAIN"
_EXTRA = re.compile(r"--e[a-z]+|-e")  # -e/--es/--ei/--ez/--el/--ef/--ed/--eu/--ecn/--esn/--e?a/--e?al
_ADB_KEYBOARD = frozenset({"ADB_INPUT_TEXT", "ADB_INPUT_B64", "ADB_INPUT_CHARS", "ADB_INPUT_CODE",
                           "ADB_INPUT_MCODE", "ADB_EDITOR_CODE", "ADB_CLEAR_TEXT"})
# uiautomator2's own keyboard (app-uiautomator 2.4.0, com.github.uiautomator/.AdbKeyboard): what
# d.send_keys / clear_text / send_action broadcast, with no component, once it is the input method
_U2_KEYBOARD = frozenset(f"ADB_KEYBOARD_{name}" for name in (
    "INPUT_TEXT", "SET_TEXT", "CLEAR_TEXT", "INPUT_KEYCODE", "EDITOR_CODE", "SMART_ENTER", "HIDE", "SHOW"))
_START = frozenset({"start", "start-activity"})
_SERVICE = frozenset({"startservice", "start-service", "startforegroundservice", "start-foreground-service",
                      "stopservice", "stop-service"})
# am options that take a value (so that the value is not read as a component or a URI)
_VALUED = frozenset({"-a", "-d", "-t", "-c", "-n", "-p", "-f", "-i", "--user", "-P", "--start-profiler",
                     "--sampling", "-R", "--display", "--windowingMode", "--activityType", "--task",
                     "--attach-agent", "--attach-agent-bind", "--receiver-permission", "--identifier"})

STOCK_LAUNCHERS: Mapping[str, str] = {
    "com.android.browser": "com.android.browser.BrowserActivity",
    "com.android.calculator2": "com.android.calculator2.Calculator",
    "com.android.calendar": "com.android.calendar.AllInOneActivity",
    "com.android.camera2": "com.android.camera.CameraActivity",
    "com.android.contacts": "com.android.contacts.activities.PeopleActivity",
    "com.android.deskclock": "com.android.deskclock.DeskClock",
    "com.android.dialer": "com.android.dialer.main.impl.MainActivity",
    "com.android.documentsui": "com.android.documentsui.files.FilesActivity",
    "com.android.email": "com.android.email.MainActivity",
    "com.android.gallery3d": "com.android.gallery3d.GalleryActivity",
    "com.android.messaging": "com.android.messaging.ui.conversationlist.ConversationListActivity",
    "com.android.music": "com.android.music.MusicActivity",
    "com.android.settings": "com.android.settings.Settings",
    "com.google.android.apps.nexuslauncher": "com.google.android.apps.nexuslauncher.NexusLauncherActivity",
    "com.google.android.keep": "com.google.android.keep.activities.BrowseActivity",
    "com.spa.chat": "com.spa.chat.MainActivity",
    "com.spa.eats": "com.spa.eats.MainActivity",
    "com.spa.maps": "com.spa.maps.MainActivity",
    "com.spa.shop": "com.spa.shop.MainActivity",
    "com.spa.social": "com.spa.social.MainActivity",
    "com.spa.video": "com.spa.video.MainActivity",
}
"""The virtual phone's launcher activities (the home screen's, for `am start -n` of the launcher)."""


def classify_am(name: str, args: list[str], launchers: Mapping[str, str] | None = None) -> tuple[AmKind, str]:
    """(kind, reason) of `am ARGS` (`name` is how it was called: am, cmd activity)."""
    sub, rest = (args[0] if args else ""), args[1:]
    table = STOCK_LAUNCHERS if launchers is None else launchers
    if sub in _START:
        return _start(f"{name} {sub}", rest, table)
    if sub in ("force-stop", "kill", "kill-all", "stop-app") or (
            sub in ("stack", "task") and rest[:1] == ["remove"]):
        return ("navigation", f"{name} {sub}: closes an app")
    if sub.startswith("get-") or (sub in ("stack", "task") and rest[:1] in (["list"], ["info"])):
        return ("read", f"{name} {sub}: reads only")
    if sub == "broadcast":
        return _broadcast(name, rest)
    if sub in _SERVICE:
        return ("state_change", f"{name} {sub}: starts or stops an app's service behind its GUI")
    return ("state_change", f"{name} {sub}: instrumentation or activity-manager state, counted as a change")


def _value(args: list[str], flag: str) -> str:
    return args[args.index(flag) + 1] if flag in args[:-1] else ""


def _positional(args: list[str]) -> list[str]:
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if _EXTRA.fullmatch(a) or a in ("--esn",):
            i += 2 if a == "--esn" else 3  # --esn KEY; the others KEY VALUE
            continue
        if a in _VALUED:
            i += 2
            continue
        if not a.startswith("-"):
            out.append(a)
        i += 1
    return out


def _component(args: list[str]) -> tuple[str, str] | None:
    """The explicit component (-n, or a bare PKG/CLASS argument), class made fully qualified."""
    raw = _value(args, "-n") or next((a for a in _positional(args) if "/" in a and ":" not in a), "")
    package, sep, cls = raw.partition("/")
    if not sep:
        return None
    return package, package + cls if cls.startswith(".") else cls


def _start(name: str, args: list[str], launchers: Mapping[str, str]) -> tuple[AmKind, str]:
    action = _value(args, "-a")
    extras = [a for a in args if _EXTRA.fullmatch(a) or a == "--esn"]
    uris = [a for a in [_value(args, "-d"), *_positional(args)] if a.lower().startswith("intent:")
            or "#intent;" in a.lower()]
    component = _component(args)
    if action.startswith("android.intent.action.CALL"):
        return ("state_change", f"{name} {action}: places a phone call")
    if uris:
        return ("state_change", f"{name}: an intent: URI, which can name any component and carry extras")
    if extras:
        return ("state_change", f"{name} {extras[0]}: hands the activity extras no tap gives it")
    if component is not None:
        package, cls = component
        data = _value(args, "-d") or _value(args, "-t") or next(
            (a for a in _positional(args) if ":" in a), "")
        if launchers.get(package) != cls:
            return ("state_change", f"{name} -n {package}/{cls}: starts a screen other than the app's "
                                    "launcher activity (or of a package whose launcher is not known)")
        if data:
            return ("state_change", f"{name} -n {package}/{cls}: hands the launcher activity data")
        return ("navigation", f"{name} -n {package}/{cls}: opens the app")
    if action in ("", ACTION_MAIN) and not _value(args, "-d"):
        return ("navigation", f"{name}: opens an app or the home screen")
    return ("navigation", f"{name} {action}: an implicit intent without extras (resolves to an exported "
                          "screen, as a link or a share would)")


def _broadcast(name: str, args: list[str]) -> tuple[AmKind, str]:
    action = _value(args, "-a")
    target = _value(args, "-n") or _value(args, "-p") or "com.android.adbkeyboard"
    if action in _ADB_KEYBOARD and target.startswith("com.android.adbkeyboard"):
        return ("gui_input", f"{name} broadcast {action}: ADBKeyboard types text, like input text")
    if action in _U2_KEYBOARD and target.startswith(("com.android.adbkeyboard", "com.github.uiautomator")):
        return ("gui_input", f"{name} broadcast {action}: uiautomator2's keyboard types into the focused "
                             "field, like input text")
    if action == "ADB_KEYBOARD_GET_CLIPBOARD":
        return ("read", f"{name} broadcast {action}: reads the clipboard (uiautomator2's keyboard)")
    if action == "clipper.get":
        return ("read", f"{name} broadcast clipper.get: reads the clipboard (Clipper app)")
    return ("state_change", f"{name} broadcast {action}: runs app code with the intent")


__all__ = ["STOCK_LAUNCHERS", "classify_am"]
