"""Settings pages about the phone itself: System, Languages, Date & time, About phone, Apps."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from spa_bench.phone.apps.settings.prefs import Pref, PreferenceActivity
from spa_bench.phone.ui import Rect, View

S = "com.android.settings.Settings$"
IMES = (
    ("com.android.inputmethod.latin/.LatinIME", "Android Keyboard (AOSP)"),
    ("com.android.adbkeyboard/.AdbIME", "ADBKeyboard"),
)


class SystemDashboard(PreferenceActivity):
    name = S + "SystemDashboardActivity"
    title_key = "system"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        lang = t("lang_zh") if self.ctx.locale == "zh" else t("lang_en")
        ime = self.ctx.settings_get("secure", "default_input_method") or ""
        ime_label = next((label for name, label in IMES if name == ime), ime)
        return [
            self.link(t("languages"), S + "LanguageSettingsActivity", lang, "globe", "grey"),
            self.link(t("date_time"), S + "DateTimeSettingsActivity", t("utc"), "clock", "grey"),
            Pref(
                "link",
                t("keyboard"),
                ime_label,
                icon="info",
                hue="grey",
                on_click=self.setter("dialog", "ime"),
            ),
        ]

    def overlay(self, area: Rect) -> View | None:
        if self.ui("dialog") != "ime":
            return None
        kit = self.kit
        current = self.ctx.settings_get("secure", "default_input_method")
        rows: list[View] = []
        y = 0
        for name, label in IMES:

            def choose(value: str = name) -> None:
                self.ctx.settings_put("secure", "default_input_method", value)
                self.set_ui("dialog", None)

            row = self.row(
                Pref("radio", label, checked=name == current, on_click=choose),
                Rect(-kit.dp(16), 0, area.width - kit.dp(80), 0),
                y,
            )
            rows.append(row)
            y = row.bounds.bottom
        return kit.dialog(
            area,
            self.t("keyboard_choose"),
            rows,
            [(self.t("cancel"), self.setter("dialog", None))],
            self.setter("dialog", None),
            body_height=y,
        )


class LanguageSettings(PreferenceActivity):
    """System languages: choosing one switches the phone's locale at once."""

    name = S + "LanguageSettingsActivity"
    title_key = "languages"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        loc = self.ctx.locale
        return [
            Pref("header", t("system_languages")),
            Pref("radio", t("lang_en"), checked=loc == "en", on_click=lambda: self.ctx.set_locale("en")),
            Pref("radio", t("lang_zh"), checked=loc == "zh", on_click=lambda: self.ctx.set_locale("zh")),
        ]


class DateTimeSettings(PreferenceActivity):
    name = S + "DateTimeSettingsActivity"
    title_key = "date_time"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        fmt = self.ctx.settings_get("system", "time_12_24")
        is_24 = fmt == "24" if fmt in ("12", "24") else self.ctx.locale == "zh"
        return [
            self.switch(t("auto_time"), "global", "auto_time"),
            Pref("info", t("time_zone"), t("utc")),
            Pref(
                "switch",
                t("use_24h"),
                self.ctx.clock.status_time(is_24),
                checked=is_24,
                on_click=lambda: self.ctx.settings_put("system", "time_12_24", "12" if is_24 else "24"),
            ),
        ]


class MyDeviceInfo(PreferenceActivity):
    name = S + "MyDeviceInfoActivity"
    title_key = "about"

    def prefs(self) -> Sequence[Pref]:
        t = self.t
        props = self.ctx.getprop()
        name = self.ctx.settings_get("global", "device_name") or props["ro.product.model"]
        return [
            Pref("link", t("device_name"), name, on_click=self._rename),
            Pref("info", t("model"), props["ro.product.model"]),
            Pref("info", t("android_version"), props["ro.build.version.release"]),
            Pref("info", t("build_number"), props["ro.build.display.id"]),
            Pref("info", t("serial"), props["ro.serialno"]),
        ]

    def _rename(self) -> None:
        name = self.ctx.settings_get("global", "device_name") or self.ctx.getprop()["ro.product.model"]
        self.record.ui["text:device_name"] = name
        self.request_focus("device_name")
        self.set_ui("dialog", "rename")

    def _save(self) -> None:
        value = str(self.ui("text:device_name", "")).strip()
        if value:
            self.ctx.settings_put("global", "device_name", value)
        self._close()

    def _close(self) -> None:
        for key in ("text:device_name", "focus"):
            self.record.ui.pop(key, None)
        self.set_ui("dialog", None)

    def on_back(self) -> bool:
        if self.ui("dialog"):
            self._close()
            return True
        return False

    def overlay(self, area: Rect) -> View | None:
        if self.ui("dialog") != "rename":
            return None
        kit = self.kit
        w = area.width - kit.dp(96)
        field = self.text_field(
            Rect(0, 0, w, kit.dp(56)),
            "device_name",
            self.t("device_name"),
            rid="com.android.settings:id/edittext",
            on_submit=self._save,
        )
        return kit.dialog(
            area,
            self.t("rename"),
            [field],
            [(self.t("cancel"), self._close), (self.t("ok"), self._save)],
            self._close,
            body_height=kit.dp(56),
        )


class ManageApplications(PreferenceActivity):
    name = S + "ManageApplicationsActivity"
    title_key = "apps"

    def prefs(self) -> Sequence[Pref]:
        loc = self.ctx.locale
        apps = sorted(
            (p for p in self.ctx.packages() if p.launcher_activity), key=lambda p: p.label(loc).casefold()
        )
        from spa_bench.phone.apps import APPS

        rows = [Pref("header", self.t("all_apps"))]
        for info in apps:
            cls = APPS.get(info.name)
            rows.append(
                Pref(
                    "link",
                    info.label(loc),
                    info.name,
                    icon=cls.icon,
                    hue=cls.hue,
                    on_click=partial(self.ctx.start_activity, AppInfo.name, {"package": info.name}),
                )
            )
        return rows


class AppInfo(PreferenceActivity):
    """App info of the package in `args['package']`: force stop and clear storage, each confirmed."""

    name = "com.android.settings.applications.InstalledAppDetails"
    title_key = "app_info"

    def _package(self) -> str:
        return str(self.record.args.get("package", ""))

    def prefs(self) -> Sequence[Pref]:
        pkg = self._package()
        info = next((p for p in self.ctx.packages() if p.name == pkg), None)
        label = info.label(self.ctx.locale) if info else pkg
        return [
            Pref("info", label, self.t("version", v="1.0")),
            Pref("info", self.t("package_name"), pkg),
            Pref(
                "link", self.t("force_stop"), icon="close", hue="red", on_click=self.setter("dialog", "stop")
            ),
            Pref(
                "link",
                self.t("clear_storage"),
                icon="delete",
                hue="red",
                on_click=self.setter("dialog", "clear"),
            ),
        ]

    def overlay(self, area: Rect) -> View | None:
        which = self.ui("dialog")
        if which not in ("stop", "clear"):
            return None
        pkg = self._package()
        info = next((p for p in self.ctx.packages() if p.name == pkg), None)
        label = info.label(self.ctx.locale) if info else pkg

        def confirm() -> None:
            self.set_ui("dialog", None)
            if which == "stop":
                self.ctx.force_stop(pkg)
                self.ctx.toast(self.t("stopped", app=label))
            else:
                self.ctx.clear_package(pkg)
                self.ctx.toast(self.t("cleared"))

        title, body = (
            ("force_stop_title", "force_stop_body") if which == "stop" else ("clear_title", "clear_body")
        )
        return self.kit.dialog(
            area,
            self.t(title),
            self.t(body),
            [(self.t("cancel"), self.setter("dialog", None)), (self.t("ok"), confirm)],
            self.setter("dialog", None),
        )
