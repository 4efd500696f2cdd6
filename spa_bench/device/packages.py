"""AOSP apps under Google's package names: which package stands in for a task's app on a device.

Built-in tasks name AOSP packages (com.android.deskclock, com.android.contacts, ...), as the virtual
phone does. A stock Android 14 `google_apis` emulator image ships Google's builds of several of these
apps instead, under Google's package names. `STOCK_EQUIVALENTS` lists them; `resolve_package` picks the
package a device has for a task's package; a `PackageMap` (one per device, identity on the virtual
phone) rewrites what an episode sends to the device: the app it opens, `open_app` actions, the
resource-id prefix of selectors (Android prefixes a view's id with the package it was built into) and
package names inside check commands and paths (app data lives in a folder named after the package,
e.g. /data/user_de/0/<package>/databases/alarms.db).

A package's *provider authorities* are not package names and are never rewritten: the contacts and
calendar providers answer at content://com.android.contacts and content://com.android.calendar whichever
app is installed.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

from spa_bench.actions import Action, OpenApp, Selector

__all__ = [
    "AOSP_DESKCLOCK",
    "STOCK_EQUIVALENTS",
    "PackageMap",
    "StockApp",
    "StockBuild",
    "alarms_db",
    "equivalents",
    "resolve_package",
]

AOSP_DESKCLOCK = "com.android.deskclock"


def alarms_db(package: str) -> str:
    """DeskClock's database in device-protected storage (ClockProvider opens ClockDatabaseHelper's
    "alarms.db" in createDeviceProtectedStorageContext()), under the package of the clock build."""
    return f"/data/user_de/0/{package}/databases/alarms.db"


@dataclass(frozen=True)
class StockBuild:
    """Another build of an app: its package, and the activity that launches it there (None: its
    launcher activity, found by `monkey`)."""

    package: str
    activity: str | None = None


@dataclass(frozen=True)
class StockApp:
    """An AOSP app and the other builds of it a stock image may ship instead, most common first.
    `both_ways`: the other build is AOSP's own code base (its activities are AOSP's classes), so a task
    written for that build also runs on AOSP's app; otherwise only AOSP -> other build is allowed."""

    aosp: str
    builds: tuple[StockBuild, ...]
    both_ways: bool = False


# The launch components are AndroidWorld's (google-research/android_world, android_world/env/adb_utils.py,
# _PATTERN_TO_ACTIVITY, at commit d9c569f764b3a5629321858de03ff653d0f24056): the apps of the stock
# Android 13/14 google_apis emulator image it runs on, plus Google Calendar, which AndroidWorld installs
# (it is not on the stock image). Settings (com.android.settings/.Settings) and Camera
# (com.android.camera2/com.android.camera.CameraLauncher) keep their AOSP names there: no entry.
# Clock, Contacts and Files launch AOSP activity classes (com.android.deskclock.DeskClock, ...): Google's
# builds are built from AOSP's code, so the equivalence holds both ways. Google's Dialer (its own
# GoogleDialtactsActivity), Messages and Calendar are Google's own apps: a task written for them is not
# a task for AOSP's app.
STOCK_EQUIVALENTS: dict[str, StockApp] = {app.aosp: app for app in (
    StockApp(AOSP_DESKCLOCK, (StockBuild("com.google.android.deskclock", "com.android.deskclock.DeskClock"),),
             both_ways=True),
    StockApp("com.android.contacts", (StockBuild("com.google.android.contacts",
                                                 "com.android.contacts.activities.PeopleActivity"),),
             both_ways=True),
    StockApp("com.android.documentsui", (StockBuild("com.google.android.documentsui",
                                                    "com.android.documentsui.files.FilesActivity"),),
             both_ways=True),
    StockApp("com.android.messaging", (StockBuild(
        "com.google.android.apps.messaging",
        "com.google.android.apps.messaging.ui.ConversationListActivity"),)),
    StockApp("com.android.dialer", (StockBuild("com.google.android.dialer",
                                               "com.google.android.dialer.extensions.GoogleDialtactsActivity"),)),
    StockApp("com.android.calendar", (StockBuild("com.google.android.calendar",
                                                 "com.android.calendar.AllInOneActivity"),)),
)}


def _reverse() -> dict[str, StockApp]:
    return {build.package: app for app in STOCK_EQUIVALENTS.values() if app.both_ways for build in app.builds}


_REVERSE = _reverse()


def equivalents(package: str) -> tuple[StockBuild, ...]:
    """The builds that may stand in for `package` on a device without it, in order of preference."""
    app = STOCK_EQUIVALENTS.get(package)
    if app is not None:
        return app.builds
    app = _REVERSE.get(package)
    if app is None:
        return ()
    return (StockBuild(app.aosp), *(b for b in app.builds if b.package != package))


def resolve_package(package: str, installed: Collection[str]) -> str | None:
    """The package to use for `package` on a device with `installed`: itself when installed, else the
    first installed equivalent, else None."""
    if package in installed:
        return package
    return next((b.package for b in equivalents(package) if b.package in installed), None)


@dataclass(frozen=True)
class PackageMap:
    """Package name -> the package installed in its place on one device, for the names that differ
    (every other name maps to itself: an empty map is the identity, as on the virtual phone)."""

    substitutions: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def for_device(cls, installed: Collection[str]) -> PackageMap:
        """Every known package (AOSP's, and Google's where both ways) that a device has under another
        name. Names with no installed equivalent stay themselves (the app check reports them)."""
        names = [*STOCK_EQUIVALENTS, *_REVERSE]
        found = {name: resolve_package(name, installed) for name in names}
        return cls({name: got for name, got in found.items() if got is not None and got != name})

    def only(self, names: Iterable[str | None]) -> PackageMap:
        """The substitutions of these names (a task's packages): what an episode of it changes."""
        wanted = set(names)
        return PackageMap({k: v for k, v in self.substitutions.items() if k in wanted})

    @property
    def identity(self) -> bool:
        return not self.substitutions

    def package(self, name: str) -> str:
        return self.substitutions.get(name, name)

    def activity(self, package: str, activity: str | None) -> str | None:
        """The activity to launch `package` with: `activity` when the package is not substituted; else the
        known launch activity of the build that stands in (the task's activity may not exist there)."""
        installed = self.substitutions.get(package)
        if installed is None:
            return activity
        return next((b.activity for b in equivalents(package) if b.package == installed), None)

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.substitutions:
            return None
        names = "|".join(re.escape(n) for n in sorted(self.substitutions, key=len, reverse=True))
        # a whole package name: not part of a longer name (com.android.contacts.activities.X is a class)
        # and not a provider authority (content://com.android.contacts/...)
        return re.compile(rf"(?<![\w.])(?<!content://)({names})(?!\w|\.\w)")

    def text(self, text: str) -> str:
        """`text` (a shell command, a path, a resource id) with the package names replaced."""
        pattern = self._pattern
        if pattern is None:
            return text
        return pattern.sub(lambda m: self.substitutions[m.group(1)], text)

    def selector(self, selector: Selector) -> Selector:
        if self.identity or (selector.resource_id is None and selector.any_of is None):
            return selector
        update: dict[str, object] = {}
        if selector.resource_id is not None:
            update["resource_id"] = self.text(selector.resource_id)
        if selector.any_of is not None:
            update["any_of"] = [self.selector(alt) for alt in selector.any_of]
        return selector.model_copy(update=update)

    def action(self, action: Action) -> Action:
        """The action as it must run here: an `open_app` of a substituted package opens the installed
        one; a selector's resource id gets the installed package's prefix."""
        if self.identity:
            return action
        if isinstance(action, OpenApp):
            return action.model_copy(update={"app": self.package(action.app)})
        selector = getattr(action, "selector", None)
        if selector is not None:
            return action.model_copy(update={"selector": self.selector(selector)})
        return action
