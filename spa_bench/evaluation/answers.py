"""Grading an agent's final answer as the value of a declared kind (the contract is AnswerCheck's docstring).

The answer is normalised (NFKC, whitespace, "answer:"/"答案是" framing, wrapping quotes and brackets,
trailing punctuation, case), read as its kind (answer_parse.py finds every value of the kind in it), and
passes when it states exactly one value, that value is the expected one, and what is left once the value is
cut out is a short frame: no negation, no hedge, no question (an echoed instruction), no other number, and
beside a phrase (person, text, choice) no list separator. Words are matched as words ("Nora" holds no "no");
Chinese has no word boundaries, so the value is cut out before the rest is searched ("不二家" as a value is
no negation). Why an answer failed is in the evidence.
"""

from __future__ import annotations

import re
import unicodedata

from spa_bench.evaluation.answer_parse import (
    Found,
    read_dates,
    read_durations,
    read_emails,
    read_money,
    read_numbers,
    read_phones,
    read_times,
    unit_after,
)
from spa_bench.evaluation.numbers import numbers_in
from spa_bench.results.schema import Evidence
from spa_bench.tasks.checks import ANSWER_KINDS, AnswerCheck
from spa_bench.tasks.dialogue import display_width

_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff"  # CJK scripts and punctuation: no spaces, no word boundaries
_CJK_CHAR, _CJK_SPACE = re.compile(f"[{_CJK}]"), re.compile(f"(?<=[{_CJK}]) +| +(?=[{_CJK}])")
_CJK_GAP, _GAP = re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])"), "\u3000"  # a space between CJK words parts them
_FRAMING = re.compile(r"^[*_]*\s*(?:(?:(?:the|my|final)\s+)*answer\s*(?:is\b\s*:?|:)"
                      r"|(?:最终)?答案\s*(?:[是为]\s*:?|:)|答\s*:)\s*[*_]*\s*", re.IGNORECASE)
_WRAPPERS = {'"': '"', "'": "'", "`": "`", "*": "*", "“": "”", "‘": "’", "(": ")", "[": "]", "{": "}",
             "「": "」", "『": "』", "《": "》", "〈": "〉", "【": "】"}
_TRAILING = ".。!,;、"  # not "?": a trailing question mark asks ("8:00?"), it is caught as a question
_SEPARATORS = re.compile(f"[,;、/|&\n{_GAP}]|(?<![a-z0-9])(?:or|and)(?![a-z0-9])|或|和|及", re.IGNORECASE)
_INVISIBLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"  # zero-width and direction marks
                        "\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]")
_LIST_MARK = re.compile("[/|]")  # beside a value of any kind: 'a@b.io / Ben Carter', 'yes / Call'
_SENTENCE_BREAK = re.compile("[?。]")  # a question, or a second Chinese sentence: the instruction echoed?
LEFTOVER_WIDTH = 40
"""Columns of other text an answer may hold beside the value (a CJK character takes two)."""


def _words(*words: str) -> str:
    return "|".join(rf"(?<![a-z0-9']){w}(?![a-z0-9'])" for w in words)


_NEGATION = re.compile(
    _words("not", "never", "none", "nothing", "neither", "nor", "nobody", "cannot", "incorrect", "wrong",
           r"no(?!\.\s*\d)") + r"|n['’]t(?![a-z])|并非|不是|没有|[不没沒無无非未否错錯]", re.IGNORECASE)
_NOT_NEGATION = re.compile("没错|非常|无线|未来")  # words with a negation character that negate nothing
_HEDGE = re.compile(
    _words("maybe", "perhaps", "probably", "possibly", "likely", "unlikely", "might", "may", "could",
           "would", "should", "guess", "think", "believe", "suppose", "assume", "seems?", "apparently",
           "presumably", "either", "or", "unsure", "uncertain", "approximately", "approx", "roughly",
           "around", "about", "nearly", "almost", "ish", "something", "one of") +
    "|可能|也许|大概|或许|或者|或是|或|还是|应该|估计|好像|似乎|左右|大约|约莫|差不多|吧|猜|多半|恐怕|兴许|要么|"
    "上下|前后|将近|接近|几乎|至少|最多|以上|以下|之类|等等|之一|~", re.IGNORECASE)
_YES = re.compile(r"^(?:yes|yeah|yep|yup|correct|true|affirmative)(?![a-z])|^(?:是的|是|对的|对|有的|有|嗯)")
_NO = re.compile(r"^(?:no|nope|nah|false|negative)(?![a-z])|^(?:不是|没有|不|没|否)")
_PHRASE_KINDS = frozenset({"person", "text", "choice"})


def _unwrap(text: str) -> str:
    """`"x"`, `**x**`, `(x)`, `《x》` -> x; `(a) and (b)` and `'a' or 'b'` stay as they are."""
    if len(text) < 2 or text[0] not in _WRAPPERS or text[-1] != _WRAPPERS[text[0]]:
        return text
    opener, closer = text[0], _WRAPPERS[text[0]]
    if opener == closer:
        run = len(text) - len(text.lstrip(opener))
        inner = text[run:-run] if text.endswith(opener * run) else ""
        return inner.strip() if inner and opener not in inner else text
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == opener) - (ch == closer)
        if depth == 0:
            return text[1:-1].strip() if i == len(text) - 1 else text
    return text


def normal_text(text: str, case_sensitive: bool = False) -> str:
    """NFKC, each line's whitespace collapsed (none beside CJK), framing, wrapping and trailing
    punctuation stripped; line breaks are kept, since they separate the items of a list."""
    text = re.sub(r"(?<=\w)’(?=\w)", "'", unicodedata.normalize("NFKC", text))  # O’Connor is O'Connor
    lines = (" ".join(line.split()) for line in text.splitlines())
    text = _CJK_SPACE.sub("", _CJK_GAP.sub(_GAP, "\n".join(line for line in lines if line)))
    text = text if case_sensitive else text.casefold()
    previous = None
    while text != previous:
        previous = text
        text = _unwrap(_FRAMING.sub("", text).strip().rstrip(_TRAILING).rstrip())
    return text


def normalize_answer(text: str, case_sensitive: bool = False) -> str:
    """normal_text on one line: what an answer says, without its framing."""
    return " ".join(normal_text(text, case_sensitive).split())


# -- phrases (person, text, choice, together_with) -----------------------------------------------------

def _is_word(ch: str) -> bool:
    return (ch.isalnum() or ch == "_") and not _CJK_CHAR.match(ch)


def _whole(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span if it is a whole phrase, not part of a longer word or number; zero padding before a
    number is taken in ("07:30" for 7:30). CJK has no word boundaries."""
    if text[start] in "123456789":
        while start > 0 and text[start - 1] == "0":
            start -= 1
    if _is_word(text[start]) and start > 0 and _is_word(text[start - 1]):
        return None
    if _is_word(text[end - 1]) and end < len(text) and _is_word(text[end]):
        return None
    return start, end


def phrase_spans(text: str, expected: str, regex: bool = False, case_sensitive: bool = False) -> list[Found]:
    """Where `expected` (a phrase, or a regex) occurs in `text` as a whole phrase."""
    flags = 0 if case_sensitive else re.IGNORECASE
    pattern = re.compile(expected if regex else re.escape(normalize_answer(expected, case_sensitive)), flags)
    found, pos = [], 0
    while (m := pattern.search(text, pos)) is not None:
        span = _whole(text, m.start(), m.end()) if m.end() > m.start() else None
        if span:
            found.append(Found(span[0], span[1], m.group(0)))
        pos = span[1] if span else m.start() + 1
    return found


def _phrases(text: str, check: AnswerCheck) -> list[Found]:
    """person / text: every occurrence of any spelling, as one value; choice: each choice as its own."""
    found: list[Found] = []
    options = check.choices if check.kind == "choice" else sorted(check.expect, key=len, reverse=True)
    for option in sorted(options, key=len, reverse=True):
        for f in phrase_spans(text, option, check.match == "regex", check.case_sensitive):
            if not any(g.start < f.end and f.start < g.end for g in found):
                found.append(Found(f.start, f.end, option if check.kind == "choice" else "the value"))
    return sorted(found, key=lambda f: f.start)


# -- reading the value ---------------------------------------------------------------------------------

def _found(check: AnswerCheck, text: str) -> list[Found]:
    kind = check.kind
    if kind == "number":
        return read_numbers(text)
    if kind == "money":
        return read_money(text)
    if kind == "time":
        return read_times(text, check.bare_12h)
    if kind == "date":
        return read_dates(text)
    if kind == "duration":
        return read_durations(text, check.bare_unit)
    if kind == "email":
        return read_emails(text)
    if kind == "phone":
        return read_phones(text)
    return _phrases(text, check)


def _expected(check: AnswerCheck, value: object) -> bool:
    """Whether a value read from the answer is the expected one."""
    kind, expect = check.kind, check.expect
    if kind == "number":
        return any(abs(float(value) - numbers_in(e)[0]) < 1e-9 for e in expect)  # type: ignore[arg-type]
    if kind == "money":
        assert isinstance(value, tuple)  # (amount, currency or None): read_money
        amount: float = value[0]
        return any(abs(amount - numbers_in(e)[0]) < 1e-9 for e in expect)
    if kind == "time":
        return any(int(e[:2]) * 60 + int(e[3:]) in value.minutes for e in expect)  # type: ignore[attr-defined]
    if kind == "date":
        assert isinstance(value, tuple)  # (year or None, month, day): read_dates
        year: int | None = value[0]
        month: int = value[1]
        day: int = value[2]
        return any((year in (None, int(e[:4]))) and (month, day) == (int(e[5:7]), int(e[8:])) for e in expect)
    if kind == "duration":
        return value in {_seconds(e) for e in expect}
    if kind == "email":
        return value in {e.casefold() for e in expect}
    if kind == "phone":
        codes = [check.country_code] if check.country_code else []
        wanted = {re.sub(r"\D", "", e) for e in expect}
        return any(value in (w, *(c + w for c in codes), *(c + w.lstrip("0") for c in codes)) for w in wanted)
    if kind == "choice":
        return value in expect
    return True  # person, text: only the expected phrases are read


def _seconds(expected: str) -> int:
    if expected.isdigit():
        return int(expected)
    parts = re.match(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$", expected)
    assert parts is not None, expected  # AnswerCheck validates it
    d, h, m, s = (int(g or 0) for g in parts.groups())
    return ((d * 24 + h) * 60 + m) * 60 + s


def _cut(text: str, spans: list[Found]) -> str:
    """`text` with the spans cut out (a space in their place)."""
    for f in sorted(spans, key=lambda f: f.start, reverse=True):
        text = f"{text[:f.start]} {text[f.end:]}"
    return text


_MINUS_BEFORE = re.compile(r"(?:^|[\s(:=])[-−‐‑–](?:[$¥€£]|us\$|rmb)?$")
_MAGNITUDE_AFTER = re.compile(r"(?:k|bn|b|mm|m)(?![a-z])|[千万亿]")


def _sign_or_scale_problem(check: AnswerCheck, text: str, found: list[Found]) -> str | None:
    """A minus attached to a number, amount, duration, time or date ("-$4.49", "-8849", "-10:00") makes it
    another value (or none); a magnitude attached to a number or amount too ("$299k", "3m" for money; "3k"
    for a count)."""
    if check.kind not in ("number", "money", "duration", "time", "date"):
        return None
    for f in found:
        if _MINUS_BEFORE.search(text[:f.start]):
            return f"{text[max(0, f.start - 2):f.end]!r} is negative"
        after = _MAGNITUDE_AFTER.match(text, f.end) if check.kind in ("number", "money") else None
        if after and (check.kind == "money" or after.group(0) not in ("m", "mm")):
            return f"{text[f.start:after.end()]!r} is scaled by {after.group(0)!r}"
    return None


def _unit_problem(check: AnswerCheck, text: str, found: list[Found],
                  allowed: frozenset[str] = frozenset()) -> tuple[str | None, list[Found]]:
    """number with a unit: a unit written beside the number must be it (taken into the value's span);
    without one, a unit written beside it must be one the question names ("2019年" for "哪一年"; "56小时" for
    a total is another quantity); money: a currency written must be the check's, and no unit follows it."""
    if check.kind == "money":
        wrong = [f for f in found if f.value[1] not in (None, check.currency)]  # type: ignore[index]
        if wrong:
            return f"{text[wrong[0].start:wrong[0].end]!r} is not in {check.currency}", found
    if check.kind in ("money", "number") and (check.kind == "money" or check.unit is None):
        for f in found:
            unit = unit_after(text, f.end)
            written = text[f.end:unit[1]].strip() if unit is not None else ""
            if unit is not None and not _named_in(written, allowed):
                shown = text[f.start:unit[1]]
                return f"{shown!r} is in {unit[0]}, which the question does not ask for", found
        return None, found
    if check.kind != "number" or check.unit is None:
        return None, found
    spans = []
    for f in found:
        unit = unit_after(text, f.end)
        if unit is not None and unit[0] != check.unit:
            return f"{text[f.start:unit[1]]!r} is in {unit[0]}, not {check.unit}", found
        spans.append(Found(f.start, unit[1], f.value) if unit is not None else f)
    return None, spans


_SCALE = re.compile(r"\s*(?:stars?\s+)?out\s+of\s*|[分星]?[(,]?满分")


def _named_in(written: str, allowed: frozenset[str]) -> bool:
    """Whether a unit as written is in the question: its word, or (Chinese) every character of it."""
    cjk = [ch for ch in written if _CJK_CHAR.match(ch)]
    return bool(written) and (written in allowed or (bool(cjk) and all(ch in allowed for ch in cjk)))


def _with_scale(check: AnswerCheck, text: str, found: list[Found]) -> list[Found]:
    """number: a scale right after the value is part of it ("4.5 out of 5", "4.5分(满分5分)"), not a
    second candidate."""
    if check.kind != "number":
        return found
    merged: list[Found] = []
    for f in found:
        if merged and _SCALE.fullmatch(text[merged[-1].end:f.start]):
            merged[-1] = Found(merged[-1].start, f.end, merged[-1].value)
        else:
            merged.append(f)
    return merged


# -- what may stand beside the value ----------------------------------------------------------------------
# Besides the value, an answer may hold only frame words, the words of the question it answers, and plain
# punctuation: whatever else it says ("- false", "(just kidding)", "anything but", "less than", "thousand",
# "EUR", "≈", "tomorrow", "（假的）", "约") may change what it means, and a grader cannot read every wording.
# These lists are deliberately plain: no word here negates, hedges, qualifies or scales a value.
FRAME_WORDS = frozenset(re.findall(r"\S+", """
a an the is are was were be been it it's its this that that's these those there there's here here's
i i'm i've me my mine you your we we're our he he's she she's they they're them their his her
of in on at to for by with as then just exactly only also both
answer answers final result total value values found find finds see saw seen shows showed shown show
says said listed according called named name has have had do does did done got get gets
which what who whom whose where when how many much one ok okay right yes please here's
number amount price cost costs priced time date day item code place spot
came comes released lasted lasts long tall high away paid spent took takes starts started begins began
ends ended rings scheduled set booked located left arrived sent posted wrote written made
"""))
FRAME_CHARS = frozenset("是的了为答案共总计个在有呢啊嗯哦这那它他她我你们就叫名字号码"
                        "价格时间日期位次条件张首部本家只封项篇场最结果找到显示写着里中其该此即便都")
PLAIN_PUNCTUATION = frozenset(".,:;'\"()[]-–—’‘“”「」《》『』【】〈〉、，：；（）·")  # "!" only trailing
_TOKEN = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*|\d+|\S")


# Words that retract, bound or scale a value whatever the question says (the question's words may frame an
# answer, so these are refused even when the question holds them).
_QUALIFIER = re.compile(
    _words("false", "lie", "lying", "kidding", "joking", "joke", "fake", "untrue", "bogus", "unverified",
           "unknown", "idk", "dunno", "except", "but", "besides", "anything", "everything", "thousand",
           "thousands", "million", "millions", "billion", "hundred", "hundreds", "dozen", "least", "most",
           r"(?:more|less|fewer|greater|smaller|bigger|higher|lower|other|rather)\s+than", "under", "over",
           "above", "below", "beyond", "within", r"up\s+to", "from", "old", "older", "previous", "previously",
           "former", "formerly", "earlier", "later", "before", "after", "ago", "since", "until", "till",
           "etc", r"so\s+on", r"and\s+more", r"or\s+so", "plus") +
    "|小时|分钟|钟头|多(?!少)|哪是|哪里是|怎么可能|才怪|什么的|来着|其他|其它|以前|以后|之前|之后|等(?!于)|假|开玩笑|骗|除了|以外|之外|不到|超过|多于|少于|高于|低于|大于|小于|以内|之内|(?<![预签合条公契节制邀])约",
    re.IGNORECASE)


def question_vocabulary(question: str | None) -> frozenset[str]:
    """The words (and, in Chinese, the characters) of the question the answer answers."""
    if not question:
        return frozenset()
    tokens: list[str] = _TOKEN.findall(normal_text(question))
    words = {t.replace("’", "'") for t in tokens}
    words |= {w for t in tokens if _CJK_CHAR.search(t) for w in re.findall(r"[a-z]+", t)}  # 的android版本
    return frozenset(words) | frozenset(ch for t in tokens for ch in t if _CJK_CHAR.match(ch))


def _foreign_token(rest: str, allowed: frozenset[str]) -> str | None:
    """The first thing beside the value that is neither a frame word, a word of the question nor plain
    punctuation."""
    tokens: list[str] = _TOKEN.findall(rest)
    for token in tokens:
        if _CJK_CHAR.match(token[0]) and token[0] not in PLAIN_PUNCTUATION:
            odd = next((ch for ch in token if ch not in FRAME_CHARS and ch not in allowed), None)
            if odd is not None:
                return odd
        elif token.isdigit():
            if token not in allowed:
                return token
        elif len(token) == 1 and not token.isalpha():
            if token not in PLAIN_PUNCTUATION and token not in allowed:
                return token
        else:
            word = token.casefold().replace("’", "'")  # frame words in any case (case-sensitive checks)
            if word not in FRAME_WORDS and word not in allowed:
                return token
    return None


def _rest_problem(check: AnswerCheck, rest: str, value_text: str,
                  allowed: frozenset[str] = frozenset()) -> str | None:
    """What is left beside the value is a short frame: nothing that negates, hedges, lists or echoes, and
    nothing but frame words, words of the question (`allowed`) and plain punctuation."""
    if check.kind != "yes_no" and (neg := _NEGATION.search(_NOT_NEGATION.sub(" ", rest))):
        return f"it negates the value ({neg.group(0)!r})"
    if hedge := _HEDGE.search(rest):
        return f"it hedges ({hedge.group(0)!r})"
    if _SENTENCE_BREAK.search(rest):
        return "it holds a question or a second sentence (the instruction echoed?)"
    if (separator := _LIST_MARK.search(rest)) or (check.kind in _PHRASE_KINDS and
                                                  (separator := _SEPARATORS.search(rest))):
        shown = "a space between CJK words" if separator.group(0) == _GAP else repr(separator.group(0))
        return f"{shown} joins other text to the value (a list?)"
    if (check.kind not in _PHRASE_KINDS or numbers_in(value_text)) and numbers_in(rest):
        return "it holds other numbers beside the value"
    width = display_width(" ".join(rest.split()))
    if width > LEFTOVER_WIDTH:
        return f"{width} columns of other text beside the value (at most {LEFTOVER_WIDTH})"
    if qualifier := _QUALIFIER.search(rest):
        return f"it qualifies the value ({qualifier.group(0)!r})"
    if (odd := _foreign_token(rest, allowed)) is not None:
        return f"{odd!r} stands beside the value: only the value, words of the question and a few frame " \
               "words may (it could change what the answer means)"
    return None


_LATIN_WORDS_BEFORE = re.compile(r"(?:^|\s)([A-Za-z][\w'’-]*)\s+([A-Za-z][\w'’-]*)\s+$")
_LATIN_WORD_AFTER = re.compile(r"^\s+([A-Za-z][\w'’-]*)")


def _run_on_problem(check: AnswerCheck, answer: str) -> str | None:
    """A name or phrase run on into other capitalised words with no separator ("Dana Lee Chloe Kim Ivan
    Petrov", "Main Street 5th Street Oak Avenue") is a list whose separators were left out. Read in the
    answer's own case: a capitalised word right after the value, or two right before it ("Ivan Petrov
    Chloe Kim"; one is a frame: "Ask Chloe Kim", "It's in Room 4B"). A two-name list whose other name is
    one word before the value ("Dana Chloe Kim") is not caught. Chinese has no case, and no word
    boundaries: not caught there."""
    cased = normal_text(answer, case_sensitive=True)
    options = check.choices if check.kind == "choice" else check.expect
    for option in options:
        for f in phrase_spans(cased, option, check.match == "regex"):
            after = _LATIN_WORD_AFTER.match(cased[f.end:])
            before = _LATIN_WORDS_BEFORE.search(cased[:f.start])
            if after and after.group(1)[0].isupper():
                return f"{after.group(1)!r} runs on from the value with no separator (a list?)"
            if before and before.group(1)[0].isupper() and before.group(2)[0].isupper():
                words = f"{before.group(1)} {before.group(2)}"
                return f"{words!r} runs into the value with no separator (a list?)"
    return None


_RESTATED_NO = re.compile(r"(?<![a-z])(?:not|never|\w+n['’]t)(?![a-z])|[不没沒未]")
_CLAUSE = re.compile("[,，;；:：]")


def _yes_no_problem(check: AnswerCheck, text: str, allowed: frozenset[str]) -> str | None:
    """yes_no: the answer starts with yes or no (in English or Chinese) and says nothing against it. After
    a yes nothing negates; after a no, a clause that says more than frame words restates the no ("No, she
    didn't call back", "没有，她没回电"); "no, I did pick up", "没接，接了" and "不是没接" (a double
    negative) say yes. In Chinese the no is part of its verb: the verb right after it ("没接") is the no."""
    said = "yes" if (m := _YES.match(text)) else "no" if (m := _NO.match(text)) else None
    if m is None or said is None:
        return "it does not start with yes or no"
    rest = text[m.end():]
    if said != check.expect[0]:
        return f"it says {said}, not {check.expect[0]}"
    if re.search(r"(?<![a-z])(yes|no)(?![a-z])", rest) or (said == "yes" and _NEGATION.search(rest)):
        return "it says both yes and no"
    if said == "no":
        chinese = bool(_CJK_CHAR.match(text[0]))
        clauses = _CLAUSE.split(rest)
        if chinese and _RESTATED_NO.search(clauses[0]):
            return "a double negative: it says yes"
        for i, clause in enumerate(clauses):
            attached = chinese and i == 0  # 没|接: the verb the no negates
            if not attached and _foreign_token(clause, frozenset()) is not None and \
                    not _RESTATED_NO.search(clause):
                return f"{clause.strip()!r} does not restate the no (it may say the opposite)"
        rest = _RESTATED_NO.sub(" ", rest)
    return _rest_problem(check, rest, "", allowed)


def answer_problem(check: AnswerCheck, answer: str, question: str | None = None) -> str | None:
    """None when the answer states the expected value, and only it; else why not. `question`: the
    instruction the answer answers (its words may frame the value)."""
    if check.kind not in ANSWER_KINDS:
        raise ValueError(f"answer kind {check.kind!r} was never filled in (a parameter placeholder)")
    text = normal_text(_INVISIBLE.sub("", answer), check.case_sensitive)
    allowed = question_vocabulary(question)
    if check.kind == "yes_no":
        return _yes_no_problem(check, text, allowed)
    found = _found(check, text)
    if not found:
        return f"it states no {check.kind.replace('_', '/')}" + \
            (" matching the expected value" if check.kind in ("person", "text") else "")
    unit_problem, found = _unit_problem(check, text, found, allowed)
    if unit_problem:
        return unit_problem
    if sign_or_scale := _sign_or_scale_problem(check, text, found):
        return sign_or_scale
    found = _with_scale(check, text, found)
    shown = [text[f.start:f.end] for f in found]
    if len({repr(f.value) for f in found}) > 1 and not all(_expected(check, f.value) for f in found):
        return f"it states several values: {', '.join(repr(s) for s in shown[:6])}"
    if not _expected(check, found[0].value):
        return f"it states {shown[0]!r}, not the expected {' / '.join(check.expect)}"
    run_on = _run_on_problem(check, answer) if check.kind in _PHRASE_KINDS else None
    if run_on:
        return run_on
    rest = _cut(text, found)
    if check.together_with:
        together = [f for w in check.together_with for f in phrase_spans(rest, w)]
        if not together:
            return f"it does not say {' / '.join(check.together_with)} as well"
        rest = _cut(rest, together)
    return _rest_problem(check, rest, " ".join(shown), allowed)


def answer_evidence(check: AnswerCheck, answer: str | None, question: str | None = None) -> Evidence:
    """The check's verdict on the answer, with why (details["problem"] is None when it passes)."""
    details: dict[str, object] = {"check": "answer", "kind": check.kind, "answer": answer,
                                  "expect": check.expect}
    if answer is None or not answer.strip():
        return Evidence(summary="the agent gave no answer", details={**details, "problem": "no answer"})
    problem = answer_problem(check, answer, question)
    summary = f"answer {answer[:120]!r} {'is not' if problem else 'is'} the {check.kind} " \
              f"{' / '.join(check.expect)}" + (f": {problem}" if problem else "")
    return Evidence(summary=summary, details={**details, "problem": problem})
