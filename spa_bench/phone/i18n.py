"""English and Chinese strings. Each app module owns a small `Strings` table of key -> (en, zh)."""

from __future__ import annotations

from collections.abc import Mapping

from spa_bench.phone.api import Locale

LOCALE_TAGS: dict[Locale, str] = {"en": "en-US", "zh": "zh-CN"}
# The SIM country whose accounts and services hold each language's content (`gsm.sim.operator.iso-country`).
CONTENT_COUNTRIES: dict[Locale, str] = {"en": "us", "zh": "cn"}


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


def content_locale(sim_country: str | None, ui_locale: Locale) -> Locale:
    """The language of the apps' content (the owner's mailbox, the shops and restaurants near them): the
    SIM's country's when it is one of ours, else the UI's. The UI language alone changes labels and formats,
    as a US user who switches the phone to Chinese still has an English mailbox."""
    country = (sim_country or "").lower()
    return next((locale for locale, c in CONTENT_COUNTRIES.items() if c == country), ui_locale)


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
