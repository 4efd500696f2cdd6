"""Google's builds of AOSP apps on a stock emulator image: the table, the resolver and the per-device
package map, on a Device whose `pm list packages` answers in AOSP's format (`package:NAME` lines, as
PackageManagerShellCommand prints them) with the package names of a stock Android 14 google_apis image
(the launch components AndroidWorld uses on it, android_world/env/adb_utils.py)."""

from __future__ import annotations

import pytest

from spa_bench.actions import OpenApp, Scroll, Selector, Tap, TypeText
from spa_bench.device.device import Device
from spa_bench.device.packages import STOCK_EQUIVALENTS, PackageMap, equivalents, resolve_package
from spa_bench.device.transport import Request, ScriptedTransport

# the apps of the stock image these tests play: Google's builds, Settings and Camera under AOSP's names,
# no calendar app (AndroidWorld installs Google Calendar itself)
STOCK_IMAGE = ["android", "com.android.settings", "com.android.camera2", "com.android.providers.contacts",
               "com.android.providers.calendar", "com.android.providers.telephony",
               "com.google.android.deskclock", "com.google.android.contacts",
               "com.google.android.apps.messaging", "com.google.android.documentsui",
               "com.google.android.dialer", "com.android.adbkeyboard"]
VIRTUAL_PHONE = ["com.android.settings", "com.android.deskclock", "com.android.contacts",
                 "com.android.messaging", "com.android.documentsui", "com.android.dialer",
                 "com.android.calendar", "com.android.camera2"]
GOOGLE_NAMES = {"com.android.deskclock": "com.google.android.deskclock",
                "com.android.contacts": "com.google.android.contacts",
                "com.android.messaging": "com.google.android.apps.messaging",
                "com.android.documentsui": "com.google.android.documentsui",
                "com.android.dialer": "com.google.android.dialer"}


def device_with(packages: list[str]) -> tuple[Device, ScriptedTransport]:
    def answer(request: Request) -> str:
        if request.service == "console":
            return "OK\r\n"
        assert request.command == "pm list packages", request.command
        return "".join(f"package:{p}\n" for p in packages)

    transport = ScriptedTransport(answer)
    return Device("emulator-5554", transport=transport), transport


def test_the_named_package_first_then_the_first_installed_equivalent() -> None:
    assert resolve_package("com.android.deskclock", VIRTUAL_PHONE) == "com.android.deskclock"
    assert resolve_package("com.android.deskclock", STOCK_IMAGE) == "com.google.android.deskclock"
    assert resolve_package("com.android.messaging", STOCK_IMAGE) == "com.google.android.apps.messaging"
    assert resolve_package("com.android.calendar", STOCK_IMAGE) is None  # not on the stock image
    assert resolve_package("com.android.settings", STOCK_IMAGE) == "com.android.settings"
    assert resolve_package("com.tencent.mm", STOCK_IMAGE) is None
    both = [*VIRTUAL_PHONE, "com.google.android.deskclock"]
    assert resolve_package("com.android.deskclock", both) == "com.android.deskclock"
    assert resolve_package("com.google.android.deskclock", both) == "com.google.android.deskclock"


def test_back_from_google_to_aosp_only_for_builds_of_aosp_code() -> None:
    # Clock, Contacts and Files: Google's builds run AOSP's activity classes
    assert resolve_package("com.google.android.deskclock", VIRTUAL_PHONE) == "com.android.deskclock"
    assert resolve_package("com.google.android.contacts", VIRTUAL_PHONE) == "com.android.contacts"
    assert resolve_package("com.google.android.documentsui", VIRTUAL_PHONE) == "com.android.documentsui"
    # Google's Messages, Dialer and Calendar are other apps: a task written for them is not AOSP's
    for google in ("com.google.android.apps.messaging", "com.google.android.dialer",
                   "com.google.android.calendar"):
        assert resolve_package(google, VIRTUAL_PHONE) is None, google
        assert equivalents(google) == ()
    assert {b.package for b in equivalents("com.android.calendar")} == {"com.google.android.calendar"}
    assert "com.android.settings" not in STOCK_EQUIVALENTS and "com.android.camera2" not in STOCK_EQUIVALENTS


def test_the_device_map_is_worked_out_once_from_pm_list_packages() -> None:
    device, transport = device_with(STOCK_IMAGE)
    assert dict(device.package_map().substitutions) == GOOGLE_NAMES
    device.load_snapshot("spa-bench-base-en")  # forgets the package list, not the map
    assert device.package_map() is device.package_map()
    assert transport.commands() == ["pm list packages"]
    on_virtual_phone, _ = device_with(VIRTUAL_PHONE)
    assert on_virtual_phone.package_map().only(VIRTUAL_PHONE).identity
    # what the virtual phone has under AOSP's names stands in for a task naming Google's Clock
    assert on_virtual_phone.package_map().only(["com.google.android.deskclock"]).substitutions == {
        "com.google.android.deskclock": "com.android.deskclock"}


def test_package_names_are_rewritten_in_paths_commands_and_ids_not_in_classes_or_authorities() -> None:
    stock = PackageMap(GOOGLE_NAMES)
    cases = {
        "sqlite3 /data/user_de/0/com.android.deskclock/databases/alarms.db 'SELECT 1'":
            "sqlite3 /data/user_de/0/com.google.android.deskclock/databases/alarms.db 'SELECT 1'",
        "com.android.deskclock:id/fab": "com.google.android.deskclock:id/fab",
        "dumpsys package com.android.dialer | grep versionName":
            "dumpsys package com.google.android.dialer | grep versionName",
        "am start -n com.android.contacts/com.android.contacts.activities.PeopleActivity":
            "am start -n com.google.android.contacts/com.android.contacts.activities.PeopleActivity",
        # a provider authority is not the app's package: the contacts provider keeps its name
        "content query --uri content://com.android.contacts/data/phones --projection data1":
            "content query --uri content://com.android.contacts/data/phones --projection data1",
        "content query --uri 'content://com.android.calendar/events'":
            "content query --uri 'content://com.android.calendar/events'",
        # longer names that contain a mapped one are other packages
        "ls /data/data/com.android.providers.contacts /data/data/com.android.contactsx":
            "ls /data/data/com.android.providers.contacts /data/data/com.android.contactsx",
        "settings get system alarm_alert": "settings get system alarm_alert",
    }
    for before, after in cases.items():
        assert stock.text(before) == after, before
        assert stock.text(after) == after  # applying it twice changes nothing
    assert PackageMap().text(next(iter(cases))) == next(iter(cases))


def test_actions_get_the_installed_package_and_resource_id_prefix() -> None:
    stock = PackageMap(GOOGLE_NAMES)
    fab = Tap(selector=Selector(resource_id="com.android.deskclock:id/fab"))
    assert stock.action(fab) == Tap(selector=Selector(resource_id="com.google.android.deskclock:id/fab"))
    typed = TypeText(text="7", selector=Selector(resource_id="com.android.deskclock:id/hour", nth=1))
    assert stock.action(typed) == TypeText(
        text="7", selector=Selector(resource_id="com.google.android.deskclock:id/hour", nth=1))
    messages = OpenApp(app="com.google.android.apps.messaging")
    assert stock.action(OpenApp(app="com.android.messaging")) == messages
    for unchanged in (OpenApp(app="Clock"), OpenApp(app="com.android.settings"), Tap(x=1, y=2),
                      Scroll(direction="down"), Tap(selector=Selector(text="OK")),
                      Tap(selector=Selector(resource_id="android:id/button1"))):
        assert stock.action(unchanged) == unchanged


@pytest.mark.parametrize(("package", "activity", "expected"), [
    ("com.android.deskclock", None, "com.android.deskclock.DeskClock"),
    ("com.android.documentsui", "com.android.documentsui.files.FilesActivity",
     "com.android.documentsui.files.FilesActivity"),
    ("com.android.dialer", "com.android.dialer.main.impl.MainActivity",
     "com.google.android.dialer.extensions.GoogleDialtactsActivity"),
    ("com.android.settings", "com.android.settings.Settings", "com.android.settings.Settings"),
])
def test_a_substituted_app_launches_with_the_known_activity_of_its_build(
        package: str, activity: str | None, expected: str) -> None:
    assert PackageMap(GOOGLE_NAMES).activity(package, activity) == expected
    # back on AOSP's app, the launcher activity (no class name is known to exist there)
    assert PackageMap({"com.google.android.deskclock": "com.android.deskclock"}).activity(
        "com.google.android.deskclock", "com.android.deskclock.DeskClock") is None


def test_an_agent_naming_aosp_package_or_app_gets_the_installed_build() -> None:
    from spa_bench.tasks.apps import resolve_app

    assert resolve_app("com.android.deskclock", STOCK_IMAGE) == "com.google.android.deskclock"
    assert resolve_app("Contacts", STOCK_IMAGE) == "com.google.android.contacts"
    assert resolve_app("com.android.settings", STOCK_IMAGE) == "com.android.settings"
    assert resolve_app("com.android.calendar", STOCK_IMAGE) is None
    assert resolve_app("com.google.android.apps.messaging", VIRTUAL_PHONE) is None
