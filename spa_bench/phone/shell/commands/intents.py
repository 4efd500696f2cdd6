"""Implicit intents: which installed app and screen an action + data + type resolves to.

The table mirrors the intent filters the real apps declare (AOSP Settings' activity aliases for the
`android.settings.*` actions, Contacts' VIEW/INSERT of contacts, Calendar's VIEW/INSERT of events,
Messaging's SENDTO/VIEW of sms:/smsto:, the Browser's VIEW of http(s), the Dialer's DIAL (with or
without tel:) and VIEW of tel:). CALL of tel: starts the call at once: on Android Telecom's
UserCallActivity places it and the dialer's in-call screen shows it; here it resolves to that in-call
screen. What no installed app handles - http(s) when the Browser is not installed, DIAL/CALL without a
dialer, SEND of text - resolves to nothing, and `am start` answers as Android does:
`Error: Activity not started, unable to resolve Intent { ... }`.
`safe_uri` is Uri.toSafeString, which Intent.toString uses for `dat=`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from spa_bench.phone.system.telecom import PLACE_REQUEST

SETTINGS = "com.android.settings"
S = "com.android.settings.Settings$"
CONTACTS = "com.android.contacts"
CALENDAR = "com.android.calendar"
MESSAGING = "com.android.messaging"
BROWSER = "com.android.browser"
ACTION_VIEW = "android.intent.action.VIEW"
ACTION_EDIT = "android.intent.action.EDIT"
ACTION_INSERT = "android.intent.action.INSERT"
ACTION_SENDTO = "android.intent.action.SENDTO"
ACTION_DIAL = "android.intent.action.DIAL"
ACTION_CALL = "android.intent.action.CALL"
DIALER = "com.android.dialer"
DIALER_MAIN = "com.android.dialer.main.impl.MainActivity"
IN_CALL = "com.android.incallui.InCallActivity"

# android.settings.* action -> Settings activity (the aliases AOSP's Settings manifest declares).
SETTINGS_ACTIONS: dict[str, str] = {
    "android.settings.SETTINGS": "com.android.settings.Settings",
    "android.settings.WIFI_SETTINGS": S + "NetworkDashboardActivity",
    "android.settings.WIRELESS_SETTINGS": S + "NetworkDashboardActivity",
    "android.settings.AIRPLANE_MODE_SETTINGS": S + "NetworkDashboardActivity",
    "android.settings.DATA_ROAMING_SETTINGS": S + "NetworkDashboardActivity",
    "android.settings.BLUETOOTH_SETTINGS": S + "ConnectedDeviceDashboardActivity",
    "android.settings.NOTIFICATION_SETTINGS": S + "ConfigureNotificationSettingsActivity",
    "android.intent.action.POWER_USAGE_SUMMARY": S + "PowerUsageSummaryActivity",
    "android.settings.BATTERY_SAVER_SETTINGS": S + "PowerUsageSummaryActivity",
    "android.settings.INTERNAL_STORAGE_SETTINGS": S + "StorageDashboardActivity",
    "android.settings.MEMORY_CARD_SETTINGS": S + "StorageDashboardActivity",
    "android.settings.SOUND_SETTINGS": S + "SoundSettingsActivity",
    "android.settings.DISPLAY_SETTINGS": S + "DisplaySettingsActivity",
    "android.settings.LOCATION_SOURCE_SETTINGS": S + "LocationSettingsActivity",
    "android.settings.LOCALE_SETTINGS": S + "LanguageSettingsActivity",
    "android.settings.DATE_SETTINGS": S + "DateTimeSettingsActivity",
    "android.settings.DEVICE_INFO_SETTINGS": S + "MyDeviceInfoActivity",
    "android.settings.APPLICATION_SETTINGS": S + "ManageApplicationsActivity",
    "android.settings.MANAGE_APPLICATIONS_SETTINGS": S + "ManageApplicationsActivity",
    "android.settings.MANAGE_ALL_APPLICATIONS_SETTINGS": S + "ManageApplicationsActivity",
    "android.settings.APPLICATION_DETAILS_SETTINGS": "com.android.settings.applications.InstalledAppDetails",
}
_SENSITIVE = ("tel", "sip", "sms", "smsto", "mailto", "nfc")
_WEB = ("http", "https", "ftp", "rtsp")
_CONTACT = re.compile(r"^content://(com\.android\.contacts/contacts|contacts/people)(/(\d+))?/?$")
_EVENT = re.compile(r"^content://com\.android\.calendar/events(/(\d+))?/?$")


@dataclass(frozen=True)
class Target:
    package: str
    activity: str
    args: dict[str, str] = field(default_factory=dict)


def safe_uri(uri: str) -> str:
    """Uri.toSafeString: phone numbers and addresses masked with x, web URIs cut to the host + `/...`,
    the fragment never shown."""
    scheme, sep, rest = uri.partition(":")
    if not sep:
        return uri
    lowered = scheme.lower()
    ssp = rest.split("#", 1)[0]
    if lowered in _SENSITIVE:
        return scheme + ":" + "".join(c if c in "-@." else "x" for c in ssp)
    if lowered in _WEB:
        parts = urlsplit(uri)
        port = f":{parts.port}" if parts.port is not None else ""
        return f"{scheme}://{parts.hostname or ''}{port}/..."
    return scheme + ":" + ssp  # the scheme-specific part keeps the query, drops the fragment


def _address(data: str) -> str:
    return unquote(data.partition(":")[2].split("?", 1)[0])


def resolve_implicit(action: str | None, data: str | None, mime: str | None,
                     installed: set[str]) -> Target | None:
    """The activity an implicit intent starts, or None when nothing installed handles it."""
    found = _match(action or "", data or "", (mime or "").lower())
    return found if found is not None and found.package in installed else None


def _match(action: str, data: str, mime: str) -> Target | None:
    if action in SETTINGS_ACTIONS:
        args = {"package": data.partition(":")[2]} if data.startswith("package:") else {}
        return Target(SETTINGS, SETTINGS_ACTIONS[action], args)
    if action.startswith("android.settings."):
        return Target(SETTINGS, "com.android.settings.Settings")  # a page this phone does not have
    scheme = data.partition(":")[0].lower() if ":" in data else ""
    if action in (ACTION_VIEW, ACTION_SENDTO) and scheme in ("sms", "smsto"):
        return Target(MESSAGING, "com.android.messaging.ui.conversation.ConversationActivity",
                      {"address": _address(data)})
    if action == ACTION_VIEW and scheme in ("http", "https"):
        return Target(BROWSER, "com.android.browser.BrowserActivity", {"url": data})
    if (action == ACTION_DIAL and scheme in ("", "tel", "voicemail")) or (action == ACTION_VIEW
                                                                           and scheme == "tel"):
        return Target(DIALER, DIALER_MAIN, {"number": _address(data)} if scheme == "tel" else {})
    if action == ACTION_CALL and scheme == "tel" and _address(data):
        return Target(DIALER, IN_CALL, {"number": _address(data), PLACE_REQUEST: "1"})
    contact, event = _CONTACT.match(data), _EVENT.match(data)
    if action == ACTION_VIEW and contact:
        if contact.group(3):
            return Target(CONTACTS, "com.android.contacts.quickcontact.QuickContactActivity",
                          {"id": contact.group(3)})
        return Target(CONTACTS, "com.android.contacts.activities.PeopleActivity")
    if action == ACTION_VIEW and event and event.group(2):
        return Target(CALENDAR, "com.android.calendar.EventInfoActivity", {"id": event.group(2)})
    if action in (ACTION_INSERT, ACTION_EDIT):
        if (contact and not contact.group(3)) or mime in ("vnd.android.cursor.dir/contact",
                                                          "vnd.android.cursor.dir/raw_contact"):
            return Target(CONTACTS, "com.android.contacts.activities.ContactEditorActivity")
        if action == ACTION_EDIT and contact and contact.group(3):
            return Target(CONTACTS, "com.android.contacts.activities.ContactEditorActivity",
                          {"id": contact.group(3)})
        if (event and not event.group(2)) or mime == "vnd.android.cursor.dir/event":
            return Target(CALENDAR, "com.android.calendar.event.EditEventActivity")
        if action == ACTION_EDIT and event and event.group(2):
            return Target(CALENDAR, "com.android.calendar.event.EditEventActivity", {"id": event.group(2)})
    return None
