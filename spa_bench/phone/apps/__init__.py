"""The phone's apps, one small module each, registered by package name.

Built-in apps are lazy `module:Class` entries; outside packages add apps through the
`spa_bench.phone_apps` entry-point group, and code can use `@register_app`.
"""

from __future__ import annotations

from typing import TypeVar

from spa_bench.phone.apps.base import Activity, App, AppContext
from spa_bench.phone.system.tasks import ActivityRecord
from spa_bench.registry import Registry

APPS: Registry[type[App]] = Registry("app", "spa_bench.phone_apps")
APPS.add_lazy("com.google.android.apps.nexuslauncher", "spa_bench.phone.apps.launcher:Launcher")
APPS.add_lazy("com.android.settings", "spa_bench.phone.apps.settings:SettingsApp")
APPS.add_lazy("com.android.contacts", "spa_bench.phone.apps.contacts:ContactsApp")
APPS.add_lazy("com.android.messaging", "spa_bench.phone.apps.messages:MessagesApp")
APPS.add_lazy("com.android.deskclock", "spa_bench.phone.apps.clock:ClockApp")
APPS.add_lazy("com.android.calendar", "spa_bench.phone.apps.calendar:CalendarApp")
APPS.add_lazy("com.google.android.keep", "spa_bench.phone.apps.notes:NotesApp")
APPS.add_lazy("com.android.calculator2", "spa_bench.phone.apps.calculator:CalculatorApp")
APPS.add_lazy("com.android.documentsui", "spa_bench.phone.apps.files:FilesApp")
APPS.add_lazy("com.spa.shop", "spa_bench.phone.apps.shop:ShopApp")
APPS.add_lazy("com.spa.chat", "spa_bench.phone.apps.chat:ChatApp")
APPS.add_lazy("com.android.email", "spa_bench.phone.apps.email:EmailApp")
APPS.add_lazy("com.android.gallery3d", "spa_bench.phone.apps.gallery:GalleryApp")
APPS.add_lazy("com.android.camera2", "spa_bench.phone.apps.camera:CameraApp")
APPS.add_lazy("com.android.browser", "spa_bench.phone.apps.browser:BrowserApp")
APPS.add_lazy("com.spa.maps", "spa_bench.phone.apps.maps:MapsApp")
APPS.add_lazy("com.spa.social", "spa_bench.phone.apps.social:SocialApp")
APPS.add_lazy("com.android.music", "spa_bench.phone.apps.music:MusicApp")
APPS.add_lazy("com.spa.video", "spa_bench.phone.apps.video:VideoApp")
APPS.add_lazy("com.android.dialer", "spa_bench.phone.apps.dialer:DialerApp")
APPS.add_lazy("com.spa.eats", "spa_bench.phone.apps.eats:EatsApp")

A = TypeVar("A", bound=type[App])


def register_app(cls: A) -> A:
    """Class decorator: install an app on every phone started afterwards."""
    APPS.add(cls.package, cls)
    return cls


__all__ = ["APPS", "Activity", "ActivityRecord", "App", "AppContext", "register_app"]
