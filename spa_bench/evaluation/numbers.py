"""The numbers in an agent's answer, for `match: number` answer checks.

Answers come as "58,213 files", "¥34.99", "76.5元", "Android 14" or in Chinese numerals ("三十五",
"一万二千", "三点五"). Full-width digits are folded by NFKC first. A comma between digits is a thousands
separator only in groups of three ("1,234,567"); otherwise it separates numbers ("3,5" is 3 and 5): an
answer in English or Chinese never writes a decimal comma, and reading "3,5" as 3.5 would accept a wrong
answer.

Chinese numeral characters also occur in words that are not numbers, and an answer check that wants every
number in the answer to be the expected one must not count them: the words in `_NOT_NUMBERS` ("一共 3 个":
in all, 3), and a lone unit character (百 千 万 亿) with no digit before it, as in 千米 (km), 千克 (kg) or
百分之五十. After Arabic digits, 万 and 亿 (also 十万, 百万, 千万) multiply: "1.2万" is 12000.
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
_ARABIC_SCALED = re.compile(f"({_ARABIC.pattern})([十百千]?[万亿]+)?")
_NOT_NUMBERS = re.compile("一共|一起|一下|一些|一样|一直|一定|一般|一切|统一|唯一|万一|之一|十分|千万")
_LONE_UNITS = frozenset("百千万亿")


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


def _scale(units: str) -> int:
    """'万' -> 10000, '千万' -> 10**7, '亿' -> 10**8: the multiplier written after Arabic digits."""
    scale = 1
    for ch in units:
        scale *= _SMALL_UNITS.get(ch) or _BIG_UNITS[ch]
    return scale


def number_spans(text: str) -> list[tuple[int, int, float]]:
    """(start, end, value) of every number in `text` (NFKC-normalised already), in order of appearance."""
    found: list[tuple[int, int, float]] = []
    for match in _ARABIC_SCALED.finditer(text):
        value = float(match.group(1).replace(",", "")) * (_scale(match.group(2)) if match.group(2) else 1)
        found.append((match.start(), match.end(), value))
    # what is read already, and the words that are not numbers, are blanked out for the Chinese scan
    blank = _ARABIC_SCALED.sub(lambda m: " " * len(m.group(0)), text)
    blank = _NOT_NUMBERS.sub(lambda m: " " * len(m.group(0)), blank)
    for match in _CHINESE.finditer(blank):
        chinese = _chinese_number(match.group(0)) if match.group(0) not in _LONE_UNITS else None
        if chinese is not None:
            found.append((match.start(), match.end(), chinese))
    return sorted(found)


def numbers_in(text: str) -> list[float]:
    """Every number in `text`, Arabic or Chinese, in order of appearance."""
    return [value for _, _, value in number_spans(unicodedata.normalize("NFKC", text))]
