"""English and Chinese strings. Each app module owns a small `Strings` table of key -> (en, zh)."""

from __future__ import annotations

from collections.abc import Mapping

from spa_bench.phone.api import Locale

LOCALE_TAGS: dict[Locale, str] = {"en": "en-US", "zh": "zh-CN"}


def locale_tag(locale: Locale) -> str:
    """The BCP 47 tag Android stores (`persist.sys.locale`, `system_locales`)."""
    return LOCALE_TAGS[locale]


def parse_locale(tag: str | None, default: Locale = "en") -> Locale:
    """Map `zh-CN`, `zh_CN`, `zh-Hans-CN`, `en-US`, `en` ... to the phone's two locales."""
    if not tag:
        return default
    first = tag.split(",")[0].strip().lower()
    if first.startswith("zh"):
        return "zh"
    if first.startswith("en"):
        return "en"
    return default


class Strings:
    """A translation table; `get` falls back to English, then to the key, so a gap is visible."""

    def __init__(self, table: Mapping[str, tuple[str, str]]) -> None:
        self.table = dict(table)

    def get(self, locale: Locale, key: str, **fmt: object) -> str:
        pair = self.table.get(key)
        text = key if pair is None else (pair[1] if locale == "zh" and pair[1] else pair[0])
        return text.format(**fmt) if fmt else text

    def merged(self, other: Strings) -> Strings:
        return Strings({**self.table, **other.table})
