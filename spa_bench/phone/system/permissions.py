"""Runtime permissions: their state, `pm grant` / `pm revoke`, and the permission controller's dialog.

The state lives where Android 11+ keeps it, /data/misc_de/0/apexdata/com.android.permission/
runtime-permissions.xml (so snapshots carry it), in the same XML shape; a permission absent from the
file is granted, which is how the phone's apps were set up. An app that needs a permission it does not
hold asks when one of its screens opens, with the permission controller's GrantPermissionsActivity
(package com.google.android.permissioncontroller on Google images; its resource ids keep the AOSP
package, `com.android.permissioncontroller:id/...`), and works only once it is granted. A second
"Don't allow" fixes the denial (USER_FIXED): the app no longer asks and only Settings could grant it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings
from spa_bench.phone.ui import FRAME, LINEAR, Button, Kit, Rect, TextView, View
from spa_bench.phone.ui.material import Scrim

STATE_PATH = "/data/misc_de/0/apexdata/com.android.permission/runtime-permissions.xml"
CONTROLLER = "com.google.android.permissioncontroller"
GRANT_ACTIVITY = "com.android.permissioncontroller.permission.ui.GrantPermissionsActivity"
RID = "com.android.permissioncontroller:id/"

# PackageManager's permission flags, as `dumpsys package` names them (PackageManager.permissionFlagToString).
USER_SET = 1 << 0
USER_FIXED = 1 << 1
USER_SENSITIVE_WHEN_GRANTED = 1 << 8
USER_SENSITIVE_WHEN_DENIED = 1 << 9
ONE_TIME = 1 << 16
_FLAG_NAMES = ((USER_SET, "USER_SET"), (USER_FIXED, "USER_FIXED"),
               (USER_SENSITIVE_WHEN_GRANTED, "USER_SENSITIVE_WHEN_GRANTED"),
               (USER_SENSITIVE_WHEN_DENIED, "USER_SENSITIVE_WHEN_DENIED"), (ONE_TIME, "ONE_TIME"))
SENSITIVE = USER_SENSITIVE_WHEN_GRANTED | USER_SENSITIVE_WHEN_DENIED

P = "android.permission."
# The runtime permissions each app requests (its manifest); the first one is what it needs to work.
REQUESTED: dict[str, tuple[str, ...]] = {
    "com.android.camera2": (P + "CAMERA", P + "RECORD_AUDIO", P + "ACCESS_FINE_LOCATION"),
    "com.spa.maps": (P + "ACCESS_FINE_LOCATION", P + "ACCESS_COARSE_LOCATION"),
    "com.android.contacts": (P + "READ_CONTACTS", P + "WRITE_CONTACTS", P + "GET_ACCOUNTS"),
    "com.android.messaging": (P + "READ_SMS", P + "SEND_SMS", P + "RECEIVE_SMS", P + "READ_CONTACTS"),
    "com.android.dialer": (P + "CALL_PHONE", P + "READ_CALL_LOG", P + "READ_CONTACTS"),
}
# Permission -> its group's dialog (the message and whether "While using the app" / "Only this time"
# are offered, as for the camera, microphone and location groups since Android 11).
GROUPS: dict[str, tuple[str, bool]] = {
    P + "CAMERA": ("camera", True), P + "RECORD_AUDIO": ("microphone", True),
    P + "ACCESS_FINE_LOCATION": ("location", True), P + "ACCESS_COARSE_LOCATION": ("location", True),
    P + "READ_CONTACTS": ("contacts", False), P + "WRITE_CONTACTS": ("contacts", False),
    P + "GET_ACCOUNTS": ("contacts", False), P + "READ_SMS": ("sms", False), P + "SEND_SMS": ("sms", False),
    P + "RECEIVE_SMS": ("sms", False), P + "CALL_PHONE": ("phone", False),
    P + "READ_CALL_LOG": ("calls", False),
}
# PermissionController's request messages (permgrouprequest_*) and buttons, English and zh-rCN.
STRINGS = Strings(
    {
        "camera": ("Allow {app} to take pictures and record video?", "要允许“{app}”拍摄照片和录制视频吗？"),
        "microphone": ("Allow {app} to record audio?", "要允许“{app}”录音吗？"),
        "location": ("Allow {app} to access this device's location?",
                     "要允许“{app}”获取此设备的位置信息吗？"),
        "contacts": ("Allow {app} to access your contacts?", "要允许“{app}”访问您的通讯录吗？"),
        "sms": ("Allow {app} to send and view SMS messages?", "要允许“{app}”发送和查看短信吗？"),
        "phone": ("Allow {app} to make and manage phone calls?", "要允许“{app}”拨打电话和管理通话吗？"),
        "calls": ("Allow {app} to access your phone call logs?", "要允许“{app}”访问您的通话记录吗？"),
        "foreground": ("While using the app", "使用应用时允许"),
        "one_time": ("Only this time", "仅限这一次"),
        "allow": ("Allow", "允许"),
        "deny": ("Don't allow", "不允许"),
        "needed": ("{app} needs this permission to work.", "“{app}”需要此权限才能正常使用。"),
        "ask_again": ("Allow access", "授予权限"),
        "open_settings": ("Open settings", "前往设置"),
    }
)


@dataclass(frozen=True)
class PermissionState:
    granted: bool
    flags: int


class RuntimePermissions:
    """The runtime-permission state of every app, read and written through the XML file."""

    def __init__(self, path: Callable[[], Path]) -> None:
        self._path = path

    def _load(self) -> dict[str, dict[str, PermissionState]]:
        path = self._path()
        if not path.is_file():
            return {}
        out: dict[str, dict[str, PermissionState]] = {}
        for pkg in ET.parse(path).getroot().iter("package"):
            perms = out.setdefault(pkg.get("name", ""), {})
            for perm in pkg.iter("permission"):
                perms[perm.get("name", "")] = PermissionState(perm.get("granted") == "true",
                                                              int(perm.get("flags", "0"), 16))
        return out

    def _save(self, table: dict[str, dict[str, PermissionState]]) -> None:
        root = ET.Element("runtime-permissions", version="1")
        for pkg in sorted(table):
            node = ET.SubElement(root, "package", name=pkg)
            for name in sorted(table[pkg]):
                state = table[pkg][name]
                ET.SubElement(node, "permission", name=name, granted="true" if state.granted else "false",
                              flags=f"{state.flags:x}")
        path = self._path()
        path.parent.mkdir(parents=True, exist_ok=True)
        ET.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)

    def state(self, package: str, permission: str) -> PermissionState:
        return self._load().get(package, {}).get(permission, PermissionState(True, SENSITIVE))

    def states(self, package: str) -> list[tuple[str, PermissionState]]:
        return [(p, self.state(package, p)) for p in REQUESTED.get(package, ())]

    def set(self, package: str, permission: str, granted: bool, flags: int) -> None:
        table = self._load()
        table.setdefault(package, {})[permission] = PermissionState(granted, flags)
        self._save(table)

    def needs(self, package: str) -> str | None:
        """The permission `package` needs to work and does not hold, if any."""
        wanted = REQUESTED.get(package, ())
        if not wanted or self.state(package, wanted[0]).granted:
            return None
        return wanted[0]


def shell_change(perms: RuntimePermissions, verb: str, package: str, permission: str) -> str | None:
    """`pm grant|revoke PACKAGE PERMISSION`: None on success, else the exception text PackageManager's
    shell prints (PermissionManagerServiceImpl's checks)."""
    if permission not in REQUESTED.get(package, ()):
        return f"java.lang.SecurityException: Package {package} has not requested permission {permission}"
    if verb == "grant":
        perms.set(package, permission, True, SENSITIVE)
    else:
        perms.set(package, permission, False, SENSITIVE)
    return None


def flags_text(flags: int) -> str:
    """PermissionManagerServiceImpl's `, flags=[ A|B ]` suffix (nothing when no flag is set)."""
    names = [name for bit, name in _FLAG_NAMES if flags & bit]
    return f", flags=[ {'|'.join(names)} ]" if names else ""


def dump_runtime(perms: RuntimePermissions, package: str, indent: str) -> list[str]:
    """The `runtime permissions:` block of `dumpsys package PACKAGE`, under `User 0:`."""
    states = perms.states(package)
    if not states:
        return []
    lines = [f"{indent}runtime permissions:"]
    for name, state in states:
        granted = "true" if state.granted else "false"
        lines.append(f"{indent}  {name}: granted={granted}{flags_text(state.flags)}")
    return lines


@dataclass(frozen=True)
class GrantChoices:
    foreground: Callable[[], None]
    one_time: Callable[[], None]
    deny: Callable[[], None]


def grant_dialog(kit: Kit, screen: Rect, locale: Locale, app_label: str, permission: str,
                 choices: GrantChoices) -> View:
    """GrantPermissionsActivity's dialog: the message, then the buttons stacked as on Android 12+."""
    p = kit.palette
    group, foreground_only = GROUPS.get(permission, ("camera", True))
    message = STRINGS.get(locale, group, app=app_label)
    buttons = ([("foreground", "permission_allow_foreground_only_button", choices.foreground),
                ("one_time", "permission_allow_one_time_button", choices.one_time)] if foreground_only
               else [("allow", "permission_allow_button", choices.foreground)])
    buttons.append(("deny", "permission_deny_button", choices.deny))
    w = screen.width - kit.dp(48)
    inner = w - kit.dp(48)
    msg_h = TextView.wrapped_height(message, kit.dp(22), inner, 4)
    bh = kit.dp(48)
    h = kit.dp(24) + msg_h + kit.dp(24) + len(buttons) * (bh + kit.dp(8)) + kit.dp(16)
    left, top = screen.left + kit.dp(24), screen.center[1] - h // 2
    scrim = Scrim(screen, None)  # a tap outside does not answer the request
    box = View(Rect(left, top, left + w, top + h), class_name=LINEAR, bg=p.surface_high, radius=kit.dp(28),
               rid=RID + "grant_dialog")
    y = top + kit.dp(24)
    box.add(TextView(Rect(left + kit.dp(24), y, left + w - kit.dp(24), y + msg_h), message, kit.dp(22),
                     p.on_surface, rid=RID + "permission_message", max_lines=4, align="center"))
    y += msg_h + kit.dp(24)
    for key, rid, callback in buttons:
        box.add(Button(Rect(left + kit.dp(24), y, left + w - kit.dp(24), y + bh), STRINGS.get(locale, key),
                       kit.body_medium, p.on_primary_container, p.primary_container, on_click=callback,
                       rid=RID + rid))
        y += bh + kit.dp(8)
    scrim.add(box)
    scrim.dialog_panel = box
    return scrim


def permission_needed_panel(kit: Kit, area: Rect, locale: Locale, app_label: str, fixed: bool,
                            action: Callable[[], None], package: str) -> View:
    """What an app without its permission shows instead of its content: why, and a way to grant it."""
    p = kit.palette
    root = View(area, class_name=FRAME, bg=p.background, rid=f"{package}:id/permission_needed")
    cy = area.center[1]
    root.add(TextView(Rect(area.left + kit.dp(32), cy - kit.dp(60), area.right - kit.dp(32), cy),
                      STRINGS.get(locale, "needed", app=app_label), kit.body_large, p.on_surface,
                      align="center", max_lines=3, rid=f"{package}:id/permission_needed_text"))
    bw = kit.dp(200)
    cx = area.center[0]
    root.add(Button(Rect(cx - bw // 2, cy + kit.dp(16), cx + bw // 2, cy + kit.dp(64)),
                    STRINGS.get(locale, "open_settings" if fixed else "ask_again"), kit.body_medium,
                    p.on_primary, p.primary, on_click=action, rid=f"{package}:id/permission_grant_button"))
    return root
