"""The numbers in an agent's answer, for `match: number` answer checks.

Answers come as "58,213 files", "¥34.99", "76.5元", "Android 14" or in Chinese numerals ("三十五",
"一万二千", "三点五"). Full-width digits are folded by NFKC first. A comma between digits is a thousands
separator only in groups of three ("1,234,567"); otherwise it separates numbers ("3,5" is 3 and 5): an
answer in English or Chinese never writes a decimal comma, and reading "3,5" as 3.5 would accept a wrong
answer.
"""

from __future__ import annotations

import re
import unicodedata

_ARABIC = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
           "八": 8, "九": 9}
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_BIG_UNITS = {"万": 10_000, "亿": 100_000_000}
_CHINESE = re.compile("负?[零〇一二两三四五六七八九十百千万亿]+(?:点[零〇一二三四五六七八九]+)?")


def _chinese_integer(text: str) -> int | None:
    """'三十五' -> 35, '一万二千' -> 12000, '二〇二四' (digit by digit) -> 2024; None if malformed."""
    if all(ch in _DIGITS for ch in text):
        return int("".join(str(_DIGITS[ch]) for ch in text)) if len(text) > 1 else _DIGITS[text]
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _DIGITS:
            if digit not in (None, 0) and _DIGITS[ch] != 0:
                return None  # two digits in a row inside a unit number ("三五十")
            digit = _DIGITS[ch]
        elif ch in _SMALL_UNITS:
            section += (1 if digit is None else digit) * _SMALL_UNITS[ch]
            digit = None
        else:
            section += digit or 0
            total = (total + section) * _BIG_UNITS[ch] if _BIG_UNITS[ch] > 10_000 else \
                total + section * _BIG_UNITS[ch]
            section, digit = 0, None
    return total + section + (digit or 0)


def _chinese_number(text: str) -> float | None:
    negative = text.startswith("负")
    body = text[1:] if negative else text
    whole, _, fraction = body.partition("点")
    integer = _chinese_integer(whole) if whole else 0
    if integer is None:
        return None
    value = float(integer)
    if fraction:
        value += float("0." + "".join(str(_DIGITS[ch]) for ch in fraction))
    return -value if negative else value


def numbers_in(text: str) -> list[float]:
    """Every number in `text`, Arabic or Chinese, in order of appearance."""
    text = unicodedata.normalize("NFKC", text)
    found: list[tuple[int, float]] = []
    for match in _ARABIC.finditer(text):
        found.append((match.start(), float(match.group(0).replace(",", ""))))
    for match in _CHINESE.finditer(text):
        value = _chinese_number(match.group(0))
        if value is not None:
            found.append((match.start(), value))
    return [value for _, value in sorted(found)]
