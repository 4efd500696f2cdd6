"""What the package manager reads from an APK: its manifest, as a typed value.

The binary AndroidManifest.xml and resources.arsc are decoded by pyaxmlparser (a maintained,
dependency-light parser split out of androguard; see pyproject). We keep what `pm`, `dumpsys package`,
`am start` and the launcher act on: the package name, versions, SDK levels, label (the default and the
Chinese resource), requested permissions, and every component with its exported flag, permission and
intent filters (activity-aliases keep their target). The phone never runs an APK's code (there is no
ART in the virtual phone): an installed app's activities are shown as plain screens with their label.

Failures raise `ApkError` carrying the PackageManager status AOSP prints (`INSTALL_PARSE_FAILED_*`).
"""

from __future__ import annotations

import logging
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from spa_bench.phone.api import Component, ComponentKind

ANDROID_NS = "{http://schemas.android.com/apk/res/android}"
ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
ManifestKind = Literal["activity", "service", "receiver", "provider"]


class ApkError(Exception):
    """The APK cannot be installed; `status` is PackageManager's code, `str()` its message."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status

    def failure_line(self) -> str:
        """`Failure [STATUS: message]`, as `pm install` prints a failed session."""
        return f"Failure [{self.status}: {self}]"


@dataclass(frozen=True)
class IntentFilter:
    actions: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    schemes: tuple[str, ...] = ()
    mime_types: tuple[str, ...] = ()
    priority: int = 0

    def launches(self) -> bool:
        return ACTION_MAIN in self.actions and CATEGORY_LAUNCHER in self.categories


@dataclass(frozen=True)
class ManifestComponent:
    kind: ManifestKind
    name: str  # fully qualified
    exported: bool
    permission: str | None = None
    filters: tuple[IntentFilter, ...] = ()
    label: str | None = None
    target: str | None = None  # an <activity-alias>'s targetActivity (fully qualified)
    enabled: bool = True

    def as_component(self) -> Component:
        kind: ComponentKind = "receiver" if self.kind == "provider" else self.kind
        return Component(kind, self.name, self.exported, self.permission)


@dataclass(frozen=True)
class ApkManifest:
    package: str
    version_code: int
    version_name: str | None
    min_sdk: int
    target_sdk: int
    label_en: str
    label_zh: str
    debuggable: bool = False
    test_only: bool = False
    permissions: tuple[str, ...] = ()
    components: tuple[ManifestComponent, ...] = field(default=())
    split_name: str | None = None  # <manifest split="..."> of a split APK; None for a base APK

    def of_kind(self, kind: ManifestKind) -> list[ManifestComponent]:
        return [c for c in self.components if c.kind == kind]

    def launcher_activity(self) -> str | None:
        """The first enabled activity (or alias) with a MAIN/LAUNCHER filter, as the launcher lists it."""
        for c in self.of_kind("activity"):
            if c.enabled and any(f.launches() for f in c.filters):
                return c.name
        return None

    def activity_target(self, name: str) -> str | None:
        """The activity class that runs for `name` (an alias's target), None when undeclared."""
        for c in self.of_kind("activity"):
            if c.name == name:
                return c.target or c.name
        return None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ApkManifest:
        comps = tuple(ManifestComponent(**{**c, "filters": tuple(_filter(f) for f in c["filters"])})
                      for c in data["components"])
        return cls(**{**data, "permissions": tuple(data["permissions"]), "components": comps})


def _filter(data: dict[str, Any]) -> IntentFilter:
    return IntentFilter(tuple(data["actions"]), tuple(data["categories"]), tuple(data["schemes"]),
                        tuple(data["mime_types"]), int(data["priority"]))


def read_apk(path: Path, shown_as: str) -> ApkManifest:
    """Parse the APK at host `path`; `shown_as` is the device path that failure messages name."""
    if not zipfile.is_zipfile(path):
        raise ApkError("INSTALL_PARSE_FAILED_NOT_APK",
                       f"Failed to parse {shown_as}: Failed to load asset path {shown_as}")
    with zipfile.ZipFile(path) as zf:
        if "AndroidManifest.xml" not in zf.namelist():
            raise ApkError("INSTALL_PARSE_FAILED_NOT_APK",
                           f"Failed to parse {shown_as}: Failed to load asset path {shown_as}")
    from pyaxmlparser import APK  # import on use: only installs need it

    logging.getLogger("pyaxmlparser").setLevel(logging.ERROR)  # it warns on every unresolved resource
    try:
        apk = APK(str(path))
        root = apk.get_android_manifest_xml()
    except Exception as exc:  # the parser raises many kinds on a damaged file; all mean "bad manifest"
        raise ApkError("INSTALL_PARSE_FAILED_BAD_MANIFEST", f"Failed to parse {shown_as}: {exc}") from exc
    if root is None or root.tag != "manifest" or not root.get("package"):
        raise ApkError("INSTALL_PARSE_FAILED_BAD_MANIFEST",
                       f"Failed to parse {shown_as}: <manifest> has no package name")
    return _manifest(root, apk, root.get("package", ""))


def _manifest(root: Any, apk: Any, package: str) -> ApkManifest:
    resolve = _Resolver(apk)
    sdk = root.find("uses-sdk")
    min_sdk = _int(sdk.get(ANDROID_NS + "minSdkVersion") if sdk is not None else None, 1)
    target_sdk = _int(sdk.get(ANDROID_NS + "targetSdkVersion") if sdk is not None else None, min_sdk)
    app = root.find("application")
    comps: list[ManifestComponent] = []
    label_raw = app.get(ANDROID_NS + "label") if app is not None else None
    if app is not None:
        for el in app:
            tag = el.tag if isinstance(el.tag, str) else ""
            kind: ManifestKind | None = {"activity": "activity", "activity-alias": "activity",
                                         "service": "service", "receiver": "receiver",
                                         "provider": "provider"}.get(tag)  # type: ignore[assignment]
            if kind is None or not el.get(ANDROID_NS + "name"):
                continue
            comps.append(_component(el, kind, package, resolve))
    label_en, label_zh = resolve.pair(label_raw) if label_raw else (package, package)
    return ApkManifest(
        package=package,
        version_code=_int(root.get(ANDROID_NS + "versionCode"), 0),
        version_name=resolve.pair(root.get(ANDROID_NS + "versionName"))[0]
        if root.get(ANDROID_NS + "versionName") else None,
        min_sdk=min_sdk,
        target_sdk=target_sdk,
        label_en=label_en,
        label_zh=label_zh,
        debuggable=_bool(app.get(ANDROID_NS + "debuggable") if app is not None else None, False),
        test_only=_bool(app.get(ANDROID_NS + "testOnly") if app is not None else None, False),
        permissions=tuple(p.get(ANDROID_NS + "name", "") for p in root.findall("uses-permission")),
        components=tuple(comps),
        split_name=root.get("split"),
    )


def _component(el: Any, kind: ManifestKind, package: str, resolve: _Resolver) -> ManifestComponent:
    filters = tuple(
        IntentFilter(
            actions=tuple(a.get(ANDROID_NS + "name", "") for a in f.findall("action")),
            categories=tuple(c.get(ANDROID_NS + "name", "") for c in f.findall("category")),
            schemes=tuple(d.get(ANDROID_NS + "scheme", "") for d in f.findall("data")
                          if d.get(ANDROID_NS + "scheme")),
            mime_types=tuple(d.get(ANDROID_NS + "mimeType", "") for d in f.findall("data")
                             if d.get(ANDROID_NS + "mimeType")),
            priority=_int(f.get(ANDROID_NS + "priority"), 0),
        )
        for f in el.findall("intent-filter")
    )
    # Without android:exported a component is exported when it has an intent filter (a provider: never,
    # since API 17), as PackageParser decides.
    default_exported = bool(filters) and kind != "provider"
    target = el.get(ANDROID_NS + "targetActivity")
    label = el.get(ANDROID_NS + "label")
    return ManifestComponent(
        kind=kind,
        name=_qualify(package, el.get(ANDROID_NS + "name", "")),
        exported=_bool(el.get(ANDROID_NS + "exported"), default_exported),
        permission=el.get(ANDROID_NS + "permission"),
        filters=filters,
        label=resolve.pair(label)[0] if label else None,
        target=_qualify(package, target) if target else None,
        enabled=_bool(el.get(ANDROID_NS + "enabled"), True),
    )


class _Resolver:
    """Resolves `@7F0C001F` references through resources.arsc: the default value and a Chinese one."""

    def __init__(self, apk: Any) -> None:
        self.apk = apk
        self._arsc: Any = None

    def pair(self, raw: str) -> tuple[str, str]:
        if not raw.startswith("@"):
            return raw, raw
        try:
            rid = int(raw[1:].split(":")[-1], 16)
            if self._arsc is None:
                self._arsc = self.apk.get_android_resources()
            options = self._arsc.get_resolved_res_configs(rid) if self._arsc is not None else []
        except Exception:  # an unresolvable reference stays as written, as aapt dump shows it
            return raw, raw
        default = next((v for cfg, v in options if cfg.get_language() == "\x00\x00"), None)
        zh = next((v for cfg, v in options if cfg.get_language() == "zh"), None)
        first = str(options[0][1]) if options else raw
        en = str(default) if default is not None else first
        return en, str(zh) if zh is not None else en


def _qualify(package: str, name: str) -> str:
    if name.startswith("."):
        return package + name
    return name if "." in name else f"{package}.{name}"


def _int(raw: str | None, default: int) -> int:
    if raw is None:
        return default
    try:
        return int(raw, 0)
    except ValueError:
        return default


def _bool(raw: str | None, default: bool) -> bool:
    if raw is None:
        return default
    return raw.strip().lower() in ("true", "1", "-1")


__all__ = ["ApkError", "ApkManifest", "IntentFilter", "ManifestComponent", "read_apk"]
