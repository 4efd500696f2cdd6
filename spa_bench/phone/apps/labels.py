"""The virtual phone's labels in the other UI language: "OK" <-> "确定", "Add alarm" <-> "添加闹钟".

Golden scripts name a label as each language shows it (`any_of`), so that they run under `--vary
locale`. Every app and system screen draws its labels from a `Strings` table of key -> (en, zh); this
reads them all (the app's own table first, then the system's) and maps a label to its translation. Only
whole labels are mapped: a formatted string ("Call {name}") has no single translation.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from spa_bench.phone.apps import APPS
from spa_bench.phone.i18n import Strings

_SYSTEM_TABLES = ("shade", "battery", "systemui", "textselection", "app_dialogs", "permissions")


def _pairs(strings: Iterable[Strings]) -> dict[str, str]:
    out: dict[str, str] = {}
    for table in strings:
        for en, zh in table.table.values():
            if not en or not zh or "{" in en or "{" in zh or en == zh:
                continue
            out.setdefault(en, zh)
            out.setdefault(zh, en)
    return out


class LabelTranslator:
    """`translate(field, label)`: the label in the other language, or None when no table holds it."""

    def __init__(self, package: str | None = None) -> None:
        tables: list[Strings] = []
        packages = APPS.names()
        if package in packages:  # the foreground app's own words win over another app's
            packages = [package, *(p for p in packages if p != package)]
        for name in packages:
            tables.append(APPS.get(name).strings)
        for module in _SYSTEM_TABLES:
            tables.append(importlib.import_module(f"spa_bench.phone.system.{module}").STRINGS)
        self._pairs = _pairs(tables)

    def __call__(self, field: str, label: str) -> str | None:
        return self._pairs.get(label)


def app_names(packages: list[str]) -> dict[str, dict[str, str]]:
    """A task file's `name` of each of the virtual phone's apps among `packages` (its launcher labels)."""
    names = {}
    for package in packages:
        if package in APPS.names():
            app = APPS.get(package)
            names[package] = {"en": app.label_en, "zh": app.label_zh}
    return names
