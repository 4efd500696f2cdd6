"""The forms in which `probe-answer` (agents/probe_answers.py) says the right value X so that it means
something else: negated, hedged, or one of two. This probe's own lists, written apart from the answer
grader's tests (a grader tuned to the forms it was tested with passes the next wording)."""

from __future__ import annotations

ANSWER_MODES = ("negated", "hedged", "either")
# {x}: the right value; {y}: another value seen on screen (either mode only)
FORMS: dict[str, dict[str, tuple[str, ...]]] = {
    "negated": {
        "en": ("not {x}", "It is not {x}.", "{x}? No.", "Definitely not {x}.", "Never {x}.",
               "The answer isn't {x}.", "No, {x} is wrong.", "I found it was not {x}.", "Nope, not {x}",
               "{x} - no, that's not it."),
        "zh": ("不是{x}", "{x}不对", "并非{x}", "没有{x}", "答案不是{x}。", "{x}？不是。", "绝对不是{x}",
               "肯定不是{x}。", "{x}是错的"),
    },
    "hedged": {
        "en": ("maybe {x}", "probably {x}", "{x}, I think", "I guess {x}", "could be {x}",
               "Perhaps it is {x}.", "It might be {x}, not sure.", "{x}?", "Possibly {x}",
               "I'm not certain, but {x}."),
        "zh": ("可能是{x}", "大概{x}", "也许是{x}", "应该是{x}吧", "好像是{x}", "{x}吧，我不确定",
               "估计是{x}", "或许是{x}。", "说不定是{x}"),
    },
    "either": {
        "en": ("either {x} or something else", "{x} or {y}", "{y} or {x}", "Either {y} or {x}.",
               "It's {x} or maybe {y}.", "{x}, or else {y}", "one of {x} and {y}", "{x} / {y}"),
        "zh": ("{x}或者{y}", "{x}还是{y}", "要么是{x}，要么是{y}", "{y}或{x}", "不是{x}就是{y}",
               "{x}或者别的", "{x}，也可能是{y}"),
    },
}


def forms(mode: str, language: str) -> tuple[str, ...]:
    """The forms one episode in `language` may say: its language's, then the English ones."""
    if mode not in FORMS:
        raise ValueError(f"mode {mode!r}: one of {', '.join(ANSWER_MODES)}")
    own = FORMS[mode].get(language, ())
    return own + (FORMS[mode]["en"] if language != "en" else ())
