"""Reading values of one kind out of an answer's text, in English and Chinese (for evaluation/answers.py).

Each reader takes normalised text (NFKC, case-folded, no space beside CJK: answers.normal_text) and returns
every value of its kind it finds, as `Found(start, end, value)`: the grader wants exactly one distinct value
and looks at what is left around the spans. A reader finds every value, not only the expected one, so
that "8:00 or 9:00", "$29.99, $34.99" and "Feb 10 or Feb 11" show up as several candidates.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.evaluation.numbers import number_spans

_CN = "零〇一二两三四五六七八九十"
_NUM = rf"\d+(?:\.\d+)?|[{_CN}]+"


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    value: object


def cn_int(text: str) -> int | None:
    """'8' -> 8, '十五' -> 15, '二十' -> 20: small whole numbers in Arabic or Chinese numerals."""
    if text.isdigit():
        return int(text)
    values = [v for _, _, v in number_spans(text)]
    return int(values[0]) if len(values) == 1 and values[0].is_integer() else None


def _num(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return float(v) if (v := cn_int(text)) is not None else None


# -- units and currencies ------------------------------------------------------------------------------

UNIT_SPELLINGS: dict[str, tuple[str, ...]] = {
    "m": ("m", "meter", "meters", "metre", "metres", "米", "公尺"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres", "千米", "公里"),
    "mi": ("mi", "mile", "miles", "英里"),
    "ft": ("ft", "feet", "foot", "英尺"),
    "km2": ("km2", "km²", "sq km", "square kilometers", "square kilometres", "平方千米", "平方公里"),
    "year": ("year", "ad", "ce", "年"),
    "s": ("s", "sec", "secs", "second", "seconds", "秒", "秒钟"),
    "min": ("min", "mins", "minute", "minutes", "分钟", "分"),
    "h": ("h", "hr", "hrs", "hour", "hours", "小时", "个小时", "钟头"),
    "day": ("day", "days", "天"),
    "kg": ("kg", "kilogram", "kilograms", "公斤", "千克"),
    "g": ("g", "gram", "grams", "克"),
    "lb": ("lb", "lbs", "pound", "pounds", "磅"),
    "percent": ("%", "percent", "per cent"),
}
CURRENCY_BEFORE: dict[str, str] = {"us$": "USD", "usd": "USD", "$": "USD", "rmb": "CNY", "cny": "CNY",
                                   "人民币": "CNY", "¥": "CNY", "€": "EUR", "eur": "EUR", "£": "GBP",
                                   "gbp": "GBP", "jpy": "JPY"}
CURRENCY_AFTER: dict[str, str] = {"dollars": "USD", "dollar": "USD", "bucks": "USD", "usd": "USD",
                                  "美元": "USD", "美金": "USD", "块钱": "CNY", "元": "CNY", "块": "CNY",
                                  "yuan": "CNY", "rmb": "CNY", "cny": "CNY", "人民币": "CNY", "euros": "EUR",
                                  "euro": "EUR", "欧元": "EUR", "pounds": "GBP", "英镑": "GBP", "yen": "JPY",
                                  "日元": "JPY"}
_UNIT_OF = {s: unit for unit, spellings in UNIT_SPELLINGS.items() for s in spellings}


def _word_at(text: str, pos: int, words: dict[str, str], before: bool = False) -> tuple[str, int] | None:
    """The longest of `words` right after `pos` (or right before it), as a whole word: (its value, where
    it ends, or where it starts when `before`)."""
    for word in sorted(words, key=len, reverse=True):
        if before:
            gap = text[:pos].rstrip()
            if gap.endswith(word) and (len(gap) == len(word) or not (_latin(gap[-len(word) - 1])
                                                                     and _latin(word[0]))):
                return words[word], len(gap) - len(word)
        else:
            rest = text[pos:].lstrip()
            start = len(text) - len(rest)
            if rest.startswith(word) and (len(rest) == len(word) or not (_latin(rest[len(word)])
                                                                         and _latin(word[-1]))):
                return words[word], start + len(word)
    return None


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def unit_after(text: str, end: int) -> tuple[str, int] | None:
    """(unit, end of its word) for a known unit written right after a number ending at `end`."""
    return _word_at(text, end, _UNIT_OF)


# -- numbers and money ---------------------------------------------------------------------------------

def read_numbers(text: str) -> list[Found]:
    return [Found(s, e, v) for s, e, v in number_spans(text)]


def read_money(text: str) -> list[Found]:
    """Amounts with the currency written before or after them (value: (amount, currency or None))."""
    found = []
    for start, end, value in number_spans(text):
        currency = None
        if (after := _word_at(text, end, CURRENCY_AFTER)) is not None:
            currency, end = after
        if (before := _word_at(text, start, CURRENCY_BEFORE, before=True)) is not None:
            if currency is not None and currency != before[0]:
                currency = "?"
            currency, start = currency or before[0], before[1]
        found.append(Found(start, end, (round(value, 6), currency)))
    return found


# -- times ---------------------------------------------------------------------------------------------

_AM, _PM = r"a\.?m\.?|in the morning", r"p\.?m\.?|in the (?:afternoon|evening)|at night|tonight"
_EN_TIME = re.compile(rf"(?<![\d:.])(\d{{1,2}})(?:[:.](\d{{2}}))?(?![\d:])"
                      rf"\s*(?:({_AM})|({_PM})|(o'?clock|h\b))?")
_ZH_BEFORE = {"凌晨": "am", "清晨": "am", "早上": "am", "早晨": "am", "上午": "am", "中午": "noon",
              "下午": "pm", "傍晚": "pm", "晚上": "pm", "夜里": "pm", "夜间": "pm", "晚": "pm", "早": "am"}
_ZH_PERIODS = "|".join(sorted(_ZH_BEFORE, key=len, reverse=True))
_ZH_TIME = re.compile(rf"({_ZH_PERIODS})?\s*(\d{{1,2}}|[{_CN}]{{1,3}})"
                      rf"\s*(?:[点點时時]\s*(整|半|一刻|三刻|(?:(\d{{1,2}}|[{_CN}]{{1,3}})\s*分?))?"
                      rf"|[:：](\d{{2}}))")


@dataclass(frozen=True)
class ClockTime:
    """A time as written: the minutes of the day it may stand for (two for a bare 12-hour time)."""

    minutes: frozenset[int]


def _resolve(hour: int, minute: int, period: str | None, padded: bool, bare_12h: bool) -> ClockTime | None:
    if hour > 24 or minute > 59:
        return None
    if period == "am":
        return ClockTime(frozenset({(hour % 12) * 60 + minute})) if hour <= 12 else None
    if period == "pm":
        return ClockTime(frozenset({(hour % 12 + 12) * 60 + minute if hour <= 12 else hour * 60 + minute}))
    if period == "noon":
        return ClockTime(frozenset({(hour if hour >= 11 else hour + 12) * 60 + minute}))
    if bare_12h and 1 <= hour <= 12 and not padded:
        return ClockTime(frozenset({(hour % 12) * 60 + minute, (hour % 12 + 12) * 60 + minute}))
    return ClockTime(frozenset({(hour % 24) * 60 + minute}))


def read_times(text: str, bare_12h: bool = False) -> list[Found]:
    """'8:00', '8 pm', '7:30 p.m.', '20:00', '早上8点', '晚上八点半', '19点30分' (value: ClockTime).
    A number alone ('8') is not a time; "noon" and "midnight" are."""
    found: list[Found] = []
    for m in _ZH_TIME.finditer(text):
        hour = cn_int(m.group(2))
        tail = m.group(3) or ""
        minute = {"": 0, "整": 0, "半": 30, "一刻": 15, "三刻": 45}.get(tail)
        if minute is None:
            minute = cn_int(m.group(4) or m.group(5) or "0")
        if m.group(5) is not None:
            minute = int(m.group(5))
        if hour is None or minute is None:
            continue
        if m.group(5) is not None and not m.group(1):
            continue  # "8:00" without a Chinese period word: read by the English pattern
        time = _resolve(hour, minute, _ZH_BEFORE.get(m.group(1) or ""), m.group(2).startswith("0"), bare_12h)
        if time is not None:
            found.append(Found(m.start(), m.end(), time))
    for m in _EN_TIME.finditer(text):
        if any(f.start <= m.start() < f.end for f in found):
            continue
        if m.group(2) is None and not (m.group(3) or m.group(4) or m.group(5)):
            continue
        period = "am" if m.group(3) else "pm" if m.group(4) else None
        time = _resolve(int(m.group(1)), int(m.group(2) or 0), period, m.group(1).startswith("0"), bare_12h)
        if time is not None:
            found.append(Found(m.start(), m.end(), time))
    for m in re.finditer(r"\b(noon|midday|midnight)\b|正午|午夜", text):
        found.append(Found(m.start(), m.end(), ClockTime(frozenset({0 if "night" in m.group(0)
                                                                     or m.group(0) == "午夜" else 720}))))
    return sorted(found, key=lambda f: f.start)


# -- dates ---------------------------------------------------------------------------------------------

_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
_WEEKDAY = r"(?:(?:mon|tues|tue|wednes|wed|thurs|thu|fri|satur|sat|sun)(?:day)?\.?,?\s*)"
_ZH_WEEKDAY = "(?:(?:星期|周|礼拜)[一二三四五六日天])"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s*(\d{4}))?"
_DATES: list[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[int | None, int, int] | None]]] = [
    (re.compile(rf"{_ZH_WEEKDAY}?(?:(\d{{4}}|[{_CN}]{{4}})年)?(\d{{1,2}}|[{_CN}]{{1,3}})月"
                rf"(\d{{1,2}}|[{_CN}]{{1,3}})[日号號]{_ZH_WEEKDAY}?"),
     lambda m: _ymd(m.group(1), m.group(2), m.group(3))),
    (re.compile(r"(?<![\d.])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?![\d.])"),
     lambda m: _ymd(m.group(1), m.group(2), m.group(3))),
    (re.compile(rf"{_WEEKDAY}?{_MONTH}\s*{_DAY}{_YEAR}\b"),
     lambda m: _ymd(m.group(3), str(_MONTHS.index(m.group(1)) + 1), m.group(2))),
    (re.compile(rf"{_WEEKDAY}?{_DAY}\s*(?:of\s+)?{_MONTH}{_YEAR}\b"),
     lambda m: _ymd(m.group(3), str(_MONTHS.index(m.group(2)) + 1), m.group(1))),
    (re.compile(r"(?<![\d.:])(\d{1,2})[/.-](\d{1,2})(?:[/.-](\d{4}|\d{2}))?(?![\d.:])"),
     lambda m: _month_day(m.group(1), m.group(2), m.group(3))),
]


def _ymd(year: str | None, month: str, day: str) -> tuple[int | None, int, int] | None:
    y = cn_int(year) if year else None
    if year and y is None and all(ch in _CN + "〇" for ch in year):  # 二〇二四: digit by digit
        y = int("".join(str("零一二三四五六七八九".index(ch.replace("〇", "零"))) for ch in year))
    mo, d = cn_int(month), cn_int(day)
    if mo is None or d is None or not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    return y, mo, d


def _month_day(first: str, second: str, year: str | None) -> tuple[int | None, int, int] | None:
    """Numeric dates are month/day; day/month only when the first number cannot be a month."""
    y = (int(year) + (2000 if len(year) == 2 else 0)) if year else None
    a, b = int(first), int(second)
    if a > 12 >= b:
        a, b = b, a
    return _ymd(str(y) if y else None, str(a), str(b))


def read_dates(text: str) -> list[Found]:
    """Dates with or without a year or weekday (value: (year or None, month, day))."""
    found: list[Found] = []
    for pattern, parse in _DATES:
        for m in pattern.finditer(text):
            if any(f.start < m.end() and m.start() < f.end for f in found):
                continue
            value = parse(m)
            if value is not None:
                found.append(Found(m.start(), m.end(), value))
    return sorted(found, key=lambda f: f.start)


# -- durations -----------------------------------------------------------------------------------------

_SECONDS = {"h": 3600, "min": 60, "s": 1, "day": 86400, "m": 60}  # "5m 12s": m is minutes here
_NUMBER = re.compile(_NUM)
_LINK = re.compile(r"\s*(?:,|and|零)?\s*")


def _duration_at(text: str, start: int) -> tuple[int, float]:
    """(end, seconds) of the run of number-unit parts starting at `start` ("5 min 12 sec"); end == start
    when there is none."""
    end, total, cursor = start, 0.0, start
    while (m := _NUMBER.match(text, cursor)) is not None:
        unit, value = unit_after(text, m.end()), _num(m.group(0))
        if unit is None or unit[0] not in _SECONDS or value is None:
            break
        total, end = total + value * _SECONDS[unit[0]], unit[1]
        cursor = _LINK.match(text, end).end()  # type: ignore[union-attr]  # it matches the empty string
    return end, total


def read_durations(text: str, bare_unit: str | None = None) -> list[Found]:
    """'5 min 12 sec', '5 minutes and 12 seconds', '1分6秒', '1分零6秒', '1 h 5 min', '5:12' (m:ss),
    '1:02:03', and with `bare_unit` a number alone (value: seconds)."""
    found: list[Found] = []
    pos = 0
    while (m := _NUMBER.search(text, pos)) is not None:
        end, total = _duration_at(text, m.start())
        if end > m.start():
            found.append(Found(m.start(), end, round(total)))
        pos = max(end, m.end())
    for m in re.finditer(r"(?<![\d:.])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])", text):
        if any(f.start <= m.start() < f.end for f in found):
            continue
        h, mi, s = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m.group(3) else \
            (0, int(m.group(1)), int(m.group(2)))
        found.append(Found(m.start(), m.end(), h * 3600 + mi * 60 + s))
    if bare_unit is not None:
        for start, end, value in number_spans(text):
            if not any(f.start < end and start < f.end for f in found):
                found.append(Found(start, end, round(value * _SECONDS[bare_unit])))
    return sorted(found, key=lambda f: f.start)


# -- phones and email ----------------------------------------------------------------------------------

_PHONE = re.compile(r"\+?\(?\d[\d\s().-]{3,}\d")
_EMAIL = re.compile(r"[a-z0-9.+_-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+", re.IGNORECASE)  # ASCII: "是a@b.io"


def read_phones(text: str) -> list[Found]:
    """Runs of digits with phone separators (value: the digits)."""
    return [Found(m.start(), m.end(), re.sub(r"\D", "", m.group(0))) for m in _PHONE.finditer(text)]


def read_emails(text: str) -> list[Found]:
    return [Found(m.start(), m.end(), m.group(0).casefold()) for m in _EMAIL.finditer(text)]
