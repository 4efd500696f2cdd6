"""The resolver tables at the head of `dumpsys package NAME`, in PackageManagerService's layout.

Each table (Activity, Receiver, Service) lists, under `Non-Data Actions:` and `Schemes:`, every action
or scheme a component's intent filter declares, then the component and its filter: `HASH pkg/.Cls filter
HASH` with the filter's `Action:`, `Category:` and `Scheme:` lines (a priority other than 0 adds the
`mPriority=` line). An installed APK's manifest gives the filters; a built-in app shows its launcher
entry (for Camera2 its alias CameraLauncher).
"""

from __future__ import annotations

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.system.apk import ApkManifest, IntentFilter, ManifestKind

_TABLES: tuple[tuple[ManifestKind, str], ...] = (
    ("activity", "Activity Resolver Table:"), ("receiver", "Receiver Resolver Table:"),
    ("service", "Service Resolver Table:"))


def object_hash(text: str) -> str:
    """A stable 7-hex-digit id, like the identity hashes in dumpsys output."""
    value = 0
    for ch in text.encode("utf-8"):
        value = (value * 31 + ch) & 0xFFFFFFF
    return f"{value:07x}"


def _short(package: str, cls: str) -> str:
    return f"{package}/{cls[len(package):]}" if cls.startswith(package + ".") else f"{package}/{cls}"


def _filter_lines(package: str, cls: str, f: IntentFilter) -> list[str]:
    component = f"{object_hash(package + cls)} {_short(package, cls)}"
    lines = [f"        {component} filter {object_hash(cls + repr(f))}"]
    lines += [f'          Action: "{a}"' for a in f.actions]
    lines += [f'          Category: "{c}"' for c in f.categories]
    lines += [f'          Scheme: "{s}"' for s in f.schemes]
    lines += [f'          Type: "{t}"' for t in f.mime_types]
    if f.priority:
        lines.append(f"          mPriority={f.priority}, mOrder=0, mHasStaticPartialTypes=false, "
                     "mHasDynamicPartialTypes=false")
    return lines


def resolver_tables(manifest: ApkManifest) -> list[str]:
    out: list[str] = []
    for kind, title in _TABLES:
        entries = [(c.name, f) for c in manifest.of_kind(kind) if c.enabled for f in c.filters]
        if not entries:
            continue
        out.append(title)
        plain: dict[str, list[str]] = {}
        schemes: dict[str, list[str]] = {}
        for cls, f in entries:
            target = schemes if f.schemes else plain
            for key in (f.schemes or f.actions):
                target.setdefault(key, []).extend(_filter_lines(manifest.package, cls, f))
        for heading, groups in (("  Schemes:", schemes), ("  Non-Data Actions:", plain)):
            if groups:
                out.append(heading)
                for key in groups:
                    out.append(f"      {key}:")
                    out.extend(groups[key])
        out.append("")
    return out


def launcher_table(info: PackageInfo, launcher_entry: str) -> list[str]:
    """A built-in app's MAIN/LAUNCHER entry (the filter of its launcher activity or alias)."""
    if not info.launcher_activity:
        return []
    f = IntentFilter(("android.intent.action.MAIN",), ("android.intent.category.LAUNCHER",))
    return ["Activity Resolver Table:", "  Non-Data Actions:", "      android.intent.action.MAIN:",
            *_filter_lines(info.name, launcher_entry, f), ""]


__all__ = ["launcher_table", "object_hash", "resolver_tables"]
