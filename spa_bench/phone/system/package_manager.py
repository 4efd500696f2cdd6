"""PackageManagerMixin: installing and removing APKs on a running PhoneOS.

The record and the checks are `installed.PackageStore`'s; this part keeps the OS consistent with them:
an installed APK gets an app object (made by the OS, which alone may import the apps layer), its task
and data go with an uninstall, and a keyboard it provided stops being the input method, as
InputMethodManagerService resets the default IME when its package disappears.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.system.installed import InstalledApk, InstallOptions, PackageStore

if TYPE_CHECKING:
    from spa_bench.phone.system.tasks import TaskManager

LATIN_IME = "com.android.inputmethod.latin/.LatinIME"


class PackageManagerMixin:
    lock: threading.RLock
    apps: dict[str, Any]
    package_store: PackageStore
    tasks: TaskManager

    def _make_apk_app(self, record: InstalledApk) -> Any:
        raise NotImplementedError  # PhoneOS builds the app object (the apps layer is its to import)

    def built_in_packages(self) -> dict[str, PackageInfo]:
        raise NotImplementedError

    if TYPE_CHECKING:  # PhoneOS's own, declared for the type checker
        def settings_get(self, namespace: str, key: str) -> str | None: ...

        def settings_put(self, namespace: str, key: str, value: str) -> None: ...

        def invalidate(self) -> None: ...

    def sync_installed_apps(self) -> None:
        """Make `apps` match the record (after boot and after a snapshot load swapped the files)."""
        with self.lock:
            records = self.package_store.all()
            for name in [n for n, app in self.apps.items() if getattr(app, "is_apk", False)]:
                if name not in records:
                    del self.apps[name]
            for name, record in records.items():
                current = self.apps.get(name)
                if current is None or getattr(current, "record", None) != record:
                    self.apps[name] = self._make_apk_app(record)

    def install_package(self, apk: Path, session_path: str, options: InstallOptions) -> InstalledApk:
        """`pm install`: raises ApkError with AOSP's status when the APK is refused."""
        with self.lock:
            record = self.package_store.install(apk, session_path, options, self.built_in_packages())
            self.tasks.remove(record.manifest.package)  # an update stops the running app
            self.apps[record.manifest.package] = self._make_apk_app(record)
            self.invalidate()
            return record

    def uninstall_package(self, package: str, keep_data: bool = False) -> bool:
        """`pm uninstall` of an installed APK or a preinstalled non-system app; False for anything else."""
        with self.lock:
            if not self.package_store.uninstall(package, keep_data):
                built_in = self.built_in_packages().get(package)
                if built_in is None or built_in.system:
                    return False
                # a preinstalled user app (ADBKeyboard) goes as one the user installed would
                self.package_store.remove_built_in(package, keep_data)
            self.tasks.remove(package)
            self.apps.pop(package, None)
            self._drop_input_methods(package)
            self.invalidate()
            return True

    def _drop_input_methods(self, package: str) -> None:
        enabled = [i for i in (self.settings_get("secure", "enabled_input_methods") or "").split(":") if i]
        kept = [i for i in enabled if not i.startswith(package + "/")]
        if kept != enabled:
            self.settings_put("secure", "enabled_input_methods", ":".join(kept or [LATIN_IME]))
        current = self.settings_get("secure", "default_input_method") or ""
        if current.startswith(package + "/"):
            self.settings_put("secure", "default_input_method", (kept or [LATIN_IME])[0])


__all__ = ["PackageManagerMixin"]
