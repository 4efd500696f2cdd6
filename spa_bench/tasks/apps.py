"""Resolve an app given by an agent ("Settings", "设置", "com.android.settings") to an installed package.

Names come from the task's own apps (both languages), from spa_bench.tasks.known_apps, and from the
common Android system apps below, whose package names are the usual AOSP/Google ones; only installed
packages are ever returned. A package name the device has not installed gives its stock equivalent
(spa_bench.device.packages), when the device has that.
"""

from __future__ import annotations

from collections.abc import Iterable

from spa_bench.device.packages import resolve_package
from spa_bench.tasks.known_apps import KNOWN_APPS, app_key
from spa_bench.tasks.model import AppRef

# name (any language) -> candidate packages, most common first
COMMON_APPS: dict[str, tuple[str, ...]] = {
    "settings": ("com.android.settings",),
    "设置": ("com.android.settings",),
    "clock": ("com.android.deskclock", "com.google.android.deskclock"),
    "时钟": ("com.android.deskclock", "com.google.android.deskclock"),
    "contacts": ("com.android.contacts", "com.google.android.contacts"),
    "联系人": ("com.android.contacts", "com.google.android.contacts"),
    "通讯录": ("com.android.contacts", "com.google.android.contacts"),
    "messages": ("com.android.messaging", "com.google.android.apps.messaging"),
    "信息": ("com.android.messaging", "com.google.android.apps.messaging"),
    "短信": ("com.android.messaging", "com.google.android.apps.messaging"),
    "calendar": ("com.android.calendar", "com.google.android.calendar"),
    "日历": ("com.android.calendar", "com.google.android.calendar"),
    "calculator": ("com.android.calculator2", "com.google.android.calculator"),
    "计算器": ("com.android.calculator2", "com.google.android.calculator"),
    "files": ("com.android.documentsui", "com.google.android.documentsui"),
    "文件": ("com.android.documentsui", "com.google.android.documentsui"),
    "文件管理": ("com.android.documentsui", "com.google.android.documentsui"),
    "chrome": ("com.android.chrome",),
    "browser": ("com.android.browser", "com.android.chrome"),
    "浏览器": ("com.android.browser", "com.android.chrome"),
    "maps": ("com.google.android.apps.maps", "com.spa.maps"),
    "地图": ("com.google.android.apps.maps", "com.spa.maps"),
    "camera": ("com.android.camera2", "com.google.android.GoogleCamera"),
    "相机": ("com.android.camera2", "com.google.android.GoogleCamera"),
    "email": ("com.android.email", "com.google.android.gm"),
    "邮件": ("com.android.email", "com.google.android.gm"),
    "电子邮件": ("com.android.email", "com.google.android.gm"),
    "gallery": ("com.android.gallery3d", "com.google.android.apps.photos"),
    "相册": ("com.android.gallery3d", "com.google.android.apps.photos"),
    "phone": ("com.android.dialer", "com.google.android.dialer"),
    "电话": ("com.android.dialer", "com.google.android.dialer"),
    "music": ("com.android.music",),
    "音乐": ("com.android.music",),
}


def resolve_app(name: str, installed: Iterable[str], task_apps: Iterable[AppRef] = ()) -> str | None:
    """The installed package an agent means by `name`, or None."""
    packages = set(installed)
    wanted = name.strip()
    stand_in = resolve_package(wanted, packages)  # the package itself, or its stock equivalent
    if stand_in is not None:
        return stand_in
    key = app_key(wanted)
    for app in task_apps:
        if app.package in packages and key in {app_key(n) for n in app.name.values()}:
            return app.package
    for candidate in COMMON_APPS.get(key, ()):
        if candidate in packages:
            return candidate
    for known_key, known in KNOWN_APPS.items():
        if known.package in packages and key in {app_key(known_key), app_key(known.en), app_key(known.zh)}:
            return known.package
    lowered = wanted.casefold()
    matches = [p for p in packages if p.casefold() == lowered]
    return matches[0] if matches else None
