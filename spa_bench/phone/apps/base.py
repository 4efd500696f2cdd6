"""What an app is: a class with screens (activities) built from views, registered by package name.

An app only sees the OS through `AppContext`. An activity keeps all of its screen state (scroll
offsets, field texts, an open dialog) in its `ActivityRecord`, a JSON-able value, so that a snapshot
rebuilds the exact screen and leaving and re-entering an app shows the same thing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from spa_bench.phone.api import Component, Locale, PackageInfo
from spa_bench.phone.i18n import Strings
from spa_bench.phone.system.tasks import ActivityRecord
from spa_bench.phone.ui import EditText, Kit, Rect, ScrollList, View
from spa_bench.phone.ui.menu import MenuItem, context_menu

if TYPE_CHECKING:
    from spa_bench.phone.system.clock import PhoneClock
    from spa_bench.phone.system.providers import ContentProvider
    from spa_bench.phone.system.telecom import Telecom


class AppContext(Protocol):
    """The OS services an app may use."""

    package: str

    @property
    def locale(self) -> Locale:
        """The UI language: labels, date and time formats."""
        ...

    @property
    def content_locale(self) -> Locale:
        """The language of the owner's content (accounts, shops, restaurants near them): the SIM country's,
        which `--vary locale` leaves as it is while it changes the UI language."""
        ...

    @property
    def kit(self) -> Kit: ...

    @property
    def clock(self) -> PhoneClock: ...

    @property
    def telecom(self) -> Telecom:
        """Calls and blocked numbers (what the dialer uses; TelecomManager on Android)."""
        ...

    def settings_get(self, namespace: str, key: str) -> str | None: ...

    def settings_put(self, namespace: str, key: str, value: str) -> None: ...

    def set_locale(self, locale: Locale) -> None: ...

    def start_activity(
        self, activity: str, args: dict[str, Any] | None = None, package: str | None = None
    ) -> None: ...

    def finish(self) -> None: ...

    def toast(self, message: str) -> None: ...

    def invalidate(self) -> None: ...

    def data_dir(self) -> Path: ...

    def device_protected_dir(self) -> Path: ...

    def packages(self) -> list[PackageInfo]: ...

    def launch(self, package: str) -> None: ...

    def storage_used(self, path: str) -> int: ...

    def getprop(self) -> dict[str, str]: ...

    def battery_level(self) -> int:
        """The battery's charge in percent, as the status bar shows it (`dumpsys battery set level`)."""
        ...

    def show_keyboard(self) -> None: ...

    def force_stop(self, package: str) -> None: ...

    def clear_package(self, package: str) -> None: ...

    def set_clipboard(self, text: str) -> None:
        """ClipboardManager.setPrimaryClip with plain text (what a "Copy" menu item does)."""
        ...

    def send_result(self, package: str, result: dict[str, Any]) -> None:
        """setResult for an activity that `package` started for a result (a picker): the caller's top
        activity gets `on_result(result)` and comes back to the front."""
        ...

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
        """NotificationManager.notify: post (or update) this app's notification (package, tag, id)."""
        ...


class Activity:
    """A screen. `build` turns the app's state and `self.record` into a view tree for `area`."""

    name: ClassVar[str]
    fullscreen: ClassVar[bool] = False  # drawn under the status and navigation bars (the home screen)

    def __init__(self, app: App, record: ActivityRecord) -> None:
        self.app = app
        self.ctx = app.ctx
        self.record = record

    @property
    def kit(self) -> Kit:
        return self.ctx.kit

    def t(self, key: str, **fmt: object) -> str:
        return self.app.strings.get(self.ctx.locale, key, **fmt)

    def build(self, area: Rect) -> View:
        raise NotImplementedError

    @property
    def light_system_bars(self) -> bool:
        """Whether the status/navigation bar icons are drawn white (over a wallpaper)."""
        return False

    def on_result(self, result: dict[str, Any]) -> None:
        """onActivityResult: what an activity this one started for a result (a picker) sent back."""

    def request_focus(self, key: str) -> None:
        """Focus the field `key` and show the keyboard, as `EditText.requestFocus()` does."""
        self.record.ui["focus"] = key
        self.ctx.show_keyboard()

    def on_back(self) -> bool:
        """Handle BACK inside the screen (close a menu, a dialog ...); False lets the OS pop the activity."""
        if self.record.ui.get("menu") is not None:
            self.set_ui("menu", None)
            return True
        if self.record.ui.get("dialog"):
            self.set_ui("dialog", None)
            return True
        return False

    # -- screen state ---------------------------------------------------------------------------------
    def ui(self, key: str, default: Any = None) -> Any:
        return self.record.ui.get(key, default)

    def set_ui(self, key: str, value: Any) -> None:
        if value is None:
            self.record.ui.pop(key, None)
        else:
            self.record.ui[key] = value
        self.ctx.invalidate()

    def setter(self, key: str, value: Any) -> Callable[[], None]:
        return lambda: self.set_ui(key, value)

    # -- long-press context menus -------------------------------------------------------------------
    def open_menu(self, target: str | int) -> Callable[[], None]:
        """A row's long-click: open the context menu for `target` (kept in the record, so it survives
        snapshots and rebuilds)."""
        return lambda: self.set_ui("menu", target)

    def menu_target(self) -> Any:
        return self.ui("menu")

    def context_menu(self, area: Rect, anchor: Rect, items: Sequence[MenuItem], cover: Rect | None = None
                     ) -> View:
        return context_menu(self.kit, area, anchor, items, lambda: self.set_ui("menu", None), cover)

    def scroll_list(
        self, area: Rect, rows: list[View], key: str = "scroll", rid: str = "", padding_bottom: int = 0
    ) -> ScrollList:
        """A list whose offset lives in the record under `key`."""
        return ScrollList(
            area,
            rows,
            int(self.ui(key, 0)),
            lambda off: self.set_ui(key, off),
            rid=rid,
            padding_bottom=padding_bottom,
        )

    def text_field(
        self,
        rect: Rect,
        key: str,
        hint: str,
        rid: str = "android:id/edit",
        on_submit: Callable[[], None] | None = None,
        password: bool = False,
        multi_line: bool = False,
    ) -> EditText:
        """A field whose text lives in the record under `text:<key>`, focused when `focus == key`;
        `multi_line` for message and body fields, where Enter types a newline."""
        return self.kit.text_field(
            rect,
            key,
            str(self.ui(f"text:{key}", "")),
            hint,
            self.ui("focus") == key,
            lambda v: self.set_ui(f"text:{key}", v),
            on_submit,
            rid=rid,
            password=password,
            multi_line=multi_line,
        )


class TabbedActivity(Activity):
    """A screen with tabs (a bottom navigation bar or top tabs): the tab is screen state, first taken from
    the launch arguments (`tab`); switching tabs scrolls to the top; BACK closes a menu or dialog first,
    then returns to the first tab, then leaves the screen - as Android's navigation components do."""

    first_tab: ClassVar[str] = "home"

    @property
    def tab(self) -> str:
        return str(self.ui("tab", self.record.args.get("tab", self.first_tab)))

    def switch(self, tab: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("tab", tab)

    def on_back(self) -> bool:
        if super().on_back():
            return True
        if self.tab != self.first_tab:
            self.switch(self.first_tab)
            return True
        return False


class App:
    """An installed app. Subclasses set the class attributes and list their activities."""

    package: ClassVar[str]
    label_en: ClassVar[str]
    label_zh: ClassVar[str]
    launcher_activity: ClassVar[str | None] = None
    apk_path: ClassVar[str] = ""
    icon: ClassVar[str] = "apps"
    hue: ClassVar[str] = "blue"
    activities: ClassVar[tuple[type[Activity], ...]] = ()
    # The manifest's exported flags, as the real app declares them: the launcher activity is exported,
    # so are the activities with intent filters other apps use (listed here); the rest (in-call
    # screens, checkouts, detail pages) are the app's own. Services and receivers with their flags.
    exported_activities: ClassVar[frozenset[str]] = frozenset()
    services: ClassVar[tuple[Component, ...]] = ()
    receivers: ClassVar[tuple[Component, ...]] = ()
    strings: ClassVar[Strings] = Strings({})

    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx

    @classmethod
    @functools.cache
    def info(cls) -> PackageInfo:
        """The package as `pm` sees it (built once per app class: packages() asks for it often)."""
        activities = tuple(Component("activity", a.name, a.name == cls.launcher_activity
                                     or a.name in cls.exported_activities) for a in cls.activities)
        return PackageInfo(
            cls.package,
            cls.label_en,
            cls.label_zh,
            cls.launcher_activity,
            cls.apk_path or f"/system/app/{cls.__name__}/{cls.__name__}.apk",
            components=activities + cls.services + cls.receivers,
        )

    @classmethod
    def activity_class(cls, name: str) -> type[Activity]:
        """Resolve a fully qualified or `.Short` activity name; KeyError if unknown."""
        full = cls.package + name if name.startswith(".") else name
        for a in cls.activities:
            if a.name == full:
                return a
        raise KeyError(f"{cls.package}/{name}")

    def create(self, record: ActivityRecord) -> Activity:
        return self.activity_class(record.activity)(self, record)

    def providers(self) -> dict[str, ContentProvider]:
        """Content provider authorities this app serves (`content://<authority>/...`)."""
        return {}

    def on_data_cleared(self) -> None:
        """Called after `pm clear` removed the app's files, to recreate empty databases."""
