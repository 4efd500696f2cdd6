"""`AppContext` for one package: the narrow view of the OS that an app's code gets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench.phone.api import Locale, PackageInfo
from spa_bench.phone.ui import Kit
from spa_bench.phone.vfs import tree_size

if TYPE_CHECKING:
    from spa_bench.phone.system.clock import PhoneClock
    from spa_bench.phone.system.phone_os import PhoneOS
    from spa_bench.phone.system.telecom import Telecom


class OsAppContext:
    def __init__(self, system: PhoneOS, package: str) -> None:
        self._os = system
        self.package = package

    @property
    def locale(self) -> Locale:
        return self._os.locale

    @property
    def content_locale(self) -> Locale:
        return self._os.content_locale

    @property
    def kit(self) -> Kit:
        return self._os.kit

    @property
    def clock(self) -> PhoneClock:
        return self._os.clock

    @property
    def telecom(self) -> Telecom:
        return self._os.telecom

    def settings_get(self, namespace: str, key: str) -> str | None:
        return self._os.settings_get(namespace, key)

    def settings_put(self, namespace: str, key: str, value: str) -> None:
        self._os.settings_put(namespace, key, value)

    def set_locale(self, locale: Locale) -> None:
        self._os.set_locale(locale)

    def start_activity(
        self, activity: str, args: dict[str, Any] | None = None, package: str | None = None
    ) -> None:
        self._os.open_activity(package or self.package, activity, args or {})

    def finish(self) -> None:
        self._os.finish_activity(self.package)

    def toast(self, message: str) -> None:
        self._os.show_toast(message)

    def invalidate(self) -> None:
        self._os.invalidate()

    def data_dir(self) -> Path:
        """Host path of /data/data/<package>, created on demand."""
        path = self._os.fs.host_path(f"/data/data/{self.package}")
        path.mkdir(parents=True, exist_ok=True)
        return path

    def device_protected_dir(self) -> Path:
        """Host path of /data/user_de/0/<package>, created on demand: device-protected storage, where
        direct-boot-aware apps keep their data (AOSP DeskClock's alarms.db lives there since Android N)."""
        path = self._os.fs.host_path(f"/data/user_de/0/{self.package}")
        path.mkdir(parents=True, exist_ok=True)
        return path

    def packages(self) -> list[PackageInfo]:
        return self._os.packages()

    def launch(self, package: str) -> None:
        self._os.start_activity(package)

    def storage_used(self, path: str) -> int:
        """Bytes in files under a virtual path (for the Storage screen)."""
        return tree_size(self._os.fs.host_path(path))

    def show_keyboard(self) -> None:
        self._os.ime.visible = True
        self._os.invalidate()

    def getprop(self) -> dict[str, str]:
        return self._os.getprop()

    def battery_level(self) -> int:
        return self._os.battery_level

    def force_stop(self, package: str) -> None:
        self._os.force_stop(package)

    def clear_package(self, package: str) -> None:
        self._os.clear_package(package)

    def set_clipboard(self, text: str) -> None:
        self._os.set_clipboard(text)

    def send_result(self, package: str, result: dict[str, Any]) -> None:
        system = self._os
        with system.lock:
            if package not in system.tasks.stacks:
                return  # the caller's task is gone (force-stopped): the result has no one to go to
            app = system.app(package)
            app.create(system.tasks.top(package)).on_result(result)
            system.tasks.bring_to_front(package)
            system.ime.visible = False
            system.invalidate()

    def notify(
        self,
        notification_id: int,
        title: str,
        text: str,
        *,
        tag: str | None = None,
        activity: str | None = None,
        extras: dict[str, Any] | None = None,
        importance: int = 3,
        channel: str = "miscellaneous",
    ) -> None:
        self._os.post_notification(self.package, notification_id, tag, title, text, importance=importance,
                                   channel=channel, activity=activity, extras=extras)
