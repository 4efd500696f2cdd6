"""An app installed from an APK (`adb install`): its activities, shown as plain screens.

The virtual phone has no Android runtime, so it cannot run the APK's dex code. What it can do it does
from the manifest alone: every declared activity can be started (`am start -n`, `monkey`, the launcher
icon), an activity-alias starts its target, and each activity shows a plain screen titled with its
label (the activity's, else the app's), so a client sees the package and activity it launched in
front and in the UI dump. What the app would draw or do is out of reach.
"""

from __future__ import annotations

from typing import ClassVar

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.apps.base import Activity, App
from spa_bench.phone.system.installed import InstalledApk
from spa_bench.phone.ui import FRAME, Rect, View


class ApkActivity(Activity):
    """One declared activity of an installed APK: an app bar with its label on an empty window."""

    label_en: ClassVar[str] = ""
    label_zh: ClassVar[str] = ""

    def build(self, area: Rect) -> View:
        package = self.app.package
        root = View(area, class_name=FRAME, bg=self.kit.palette.background,
                    rid=f"{package}:id/content")
        title = self.label_zh if self.ctx.locale == "zh" else self.label_en
        bar, _height = self.kit.app_bar(area, title, None, package=package)
        root.add(bar)
        return root


class ApkApp(App):
    """Base of the classes made per installed APK (`apk_app_class`)."""

    record: ClassVar[InstalledApk]
    is_apk: ClassVar[bool] = True  # PhoneOS tells these from the built-in apps by it

    @classmethod
    def info(cls) -> PackageInfo:  # type: ignore[override]  # not cached: each APK class has its own record
        return cls.record.package_info()

    @classmethod
    def activity_class(cls, name: str) -> type[Activity]:
        """An alias resolves to its target activity, as the activity manager does."""
        full = cls.package + name if name.startswith(".") else name
        target = cls.record.manifest.activity_target(full)
        if target is None:
            raise KeyError(f"{cls.package}/{name}")
        return super().activity_class(target)


def apk_app_class(record: InstalledApk) -> type[App]:
    """A class for one installed APK: one `ApkActivity` subclass per declared <activity>."""
    m = record.manifest
    activities = tuple(
        type(f"ApkActivity{i}", (ApkActivity,), {
            "name": c.name,
            "label_en": c.label or m.label_en,
            "label_zh": c.label or m.label_zh,
        })
        for i, c in enumerate(m.of_kind("activity")) if c.target is None
    )
    return type("InstalledApp", (ApkApp,), {
        "record": record,
        "package": m.package,
        "label_en": m.label_en,
        "label_zh": m.label_zh,
        "launcher_activity": m.launcher_activity(),
        "apk_path": record.apk_path,
        "activities": activities,
        "exported_activities": frozenset(c.name for c in m.of_kind("activity") if c.exported),
    })


__all__ = ["ApkActivity", "ApkApp", "apk_app_class"]
