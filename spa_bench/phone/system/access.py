"""Who may start what: package uids, the shell's identity and Android 14's protected broadcasts.

The activity manager lets uid 0 (root: `adb root`, `su`) and the system uid start anything; the shell
(uid 2000) may start only exported components, may not send a protected broadcast (the
`<protected-broadcast>` list of frameworks/base/core/res/AndroidManifest.xml: only system code sends
those), and holds none of the BIND_* / BROADCAST_* permissions that guard system-facing components.
"""

from __future__ import annotations

import zlib

SHELL_UID = 2000
SHELL_PACKAGE = "com.android.shell"
SYSTEM_UID = 1000
# Packages under android.uid.system (the framework, Settings, SettingsProvider).
SYSTEM_UID_PACKAGES = frozenset({"android", "com.android.settings", "com.android.providers.settings"})


def package_uid(package: str) -> int:
    """A stable uid for a package: the system uid, the shell's, or an app uid (10000 + n), one formula
    for `dumpsys package`, `dumpsys notification` and the activity manager's refusals."""
    if package in SYSTEM_UID_PACKAGES:
        return SYSTEM_UID
    if package == SHELL_PACKAGE:
        return SHELL_UID
    return 10000 + zlib.crc32(package.encode("utf-8")) % 9000


# Permissions the Shell package is granted that guard components here (its AndroidManifest.xml);
# the BIND_* and BROADCAST_* ones are signature permissions it does not hold.
SHELL_PERMISSIONS = frozenset({"android.permission.CALL_PHONE", "com.android.alarm.permission.SET_ALARM",
                               "android.permission.SEND_SMS"})

_INTENT = "android.intent.action."
PROTECTED_BROADCASTS = frozenset({
    *(_INTENT + a for a in (
        "SCREEN_OFF", "SCREEN_ON", "USER_PRESENT", "TIME_SET", "TIME_TICK", "TIMEZONE_CHANGED",
        "DATE_CHANGED", "PRE_BOOT_COMPLETED", "BOOT_COMPLETED", "LOCKED_BOOT_COMPLETED", "PACKAGE_INSTALL",
        "PACKAGE_ADDED", "PACKAGE_REPLACED", "MY_PACKAGE_REPLACED", "PACKAGE_REMOVED",
        "PACKAGE_FULLY_REMOVED", "PACKAGE_CHANGED", "PACKAGE_RESTARTED", "PACKAGE_DATA_CLEARED",
        "PACKAGE_FIRST_LAUNCH", "PACKAGES_SUSPENDED", "PACKAGES_UNSUSPENDED", "UID_REMOVED",
        "QUERY_PACKAGE_RESTART", "CONFIGURATION_CHANGED", "LOCALE_CHANGED", "BATTERY_CHANGED",
        "BATTERY_LOW", "BATTERY_OKAY", "ACTION_POWER_CONNECTED", "ACTION_POWER_DISCONNECTED",
        "ACTION_SHUTDOWN", "CHARGING", "DISCHARGING", "DEVICE_STORAGE_LOW", "DEVICE_STORAGE_OK",
        "DEVICE_STORAGE_FULL", "DEVICE_STORAGE_NOT_FULL", "NEW_OUTGOING_CALL", "REBOOT", "DOCK_EVENT",
        "MASTER_CLEAR_NOTIFICATION", "USER_ADDED", "USER_REMOVED", "USER_STARTING", "USER_STARTED",
        "USER_STOPPING", "USER_STOPPED", "USER_BACKGROUND", "USER_FOREGROUND", "USER_SWITCHED",
        "USER_INITIALIZE", "AIRPLANE_MODE", "HEADSET_PLUG", "MEDIA_MOUNTED", "MEDIA_UNMOUNTED",
        "MEDIA_REMOVED", "MEDIA_EJECT", "MEDIA_BAD_REMOVAL", "MEDIA_CHECKING", "MEDIA_NOFS",
        "MEDIA_SHARED", "MEDIA_UNMOUNTABLE", "PHONE_STATE", "SIM_STATE_CHANGED", "SERVICE_STATE",
        "APPLICATION_RESTRICTIONS_CHANGED", "DROPBOX_ENTRY_ADDED", "DOWNLOAD_COMPLETE",
        "ACTION_IDLE_MAINTENANCE_START", "ACTION_IDLE_MAINTENANCE_END", "DYNAMIC_SENSOR_CHANGED",
        "CLEAR_DNS_CACHE", "PROXY_CHANGE", "SETTING_RESTORED")),
    "android.os.action.POWER_SAVE_MODE_CHANGED", "android.os.action.DEVICE_IDLE_MODE_CHANGED",
    "android.app.action.NEXT_ALARM_CLOCK_CHANGED", "android.app.action.ENTER_CAR_MODE",
    "android.app.action.EXIT_CAR_MODE", "android.appwidget.action.APPWIDGET_UPDATE_OPTIONS",
    "android.appwidget.action.APPWIDGET_DELETED", "android.appwidget.action.APPWIDGET_ENABLED",
    "android.appwidget.action.APPWIDGET_DISABLED", "android.bluetooth.adapter.action.STATE_CHANGED",
    "android.net.conn.CONNECTIVITY_CHANGE", "android.net.wifi.WIFI_STATE_CHANGED",
    "android.net.wifi.STATE_CHANGE", "android.net.wifi.SCAN_RESULTS", "android.location.MODE_CHANGED",
    "android.location.PROVIDERS_CHANGED", "android.media.RINGER_MODE_CHANGED",
    "android.media.VOLUME_CHANGED_ACTION", "android.media.AUDIO_BECOMING_NOISY",
    "android.provider.Telephony.SMS_RECEIVED", "android.provider.Telephony.SMS_DELIVER",
    "android.provider.Telephony.WAP_PUSH_RECEIVED", "android.provider.Telephony.WAP_PUSH_DELIVER",
    "android.telephony.action.DEFAULT_SMS_SUBSCRIPTION_CHANGED", "android.intent.action.ANY_DATA_STATE",
    "android.intent.action.SIG_STR", "android.intent.action.RADIO_TECHNOLOGY",
    "android.intent.action.EMERGENCY_CALLBACK_MODE_CHANGED",
})


def is_protected_broadcast(action: str) -> bool:
    return action in PROTECTED_BROADCASTS


__all__ = ["PROTECTED_BROADCASTS", "SHELL_PERMISSIONS", "SHELL_UID", "SYSTEM_UID", "SYSTEM_UID_PACKAGES",
           "is_protected_broadcast", "package_uid"]
