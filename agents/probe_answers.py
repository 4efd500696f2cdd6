"""`probe-answer` (`mode`, `form`): the oracle's way through the task, then its right answer X said so that
it means something else: negated ("not X", "X? No.", 不是X), hedged ("maybe X", 可能是X) or one of two
("either X or something else", "X or Y" with Y another text seen on the way, X还是Y).

The phrase lists below are this probe's own, written apart from the answer grader's tests: a grader tuned
to the forms it was tested with would pass the next wording. Each episode says one form; which one comes
from the episode's seed (`form` = -1, the default) or is fixed (`form` = k, to run every form). A zh task
is also asked in English forms, since agents often answer in English.
"""

from __future__ import annotations

import re

from spa_bench.actions import Finish
from spa_bench.agent import AgentStep, TaskContext
from spa_bench.device.observation import Observation

from .oracle import OracleAgent

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
_DIGITS = re.compile(r"\d")


def forms(mode: str, language: str) -> tuple[str, ...]:
    """The forms one episode in `language` may say: its language's, then the English ones."""
    if mode not in FORMS:
        raise ValueError(f"mode {mode!r}: one of {', '.join(ANSWER_MODES)}")
    own = FORMS[mode].get(language, ())
    return own + (FORMS[mode]["en"] if language != "en" else ())


def other_value(right: str, seen: list[str], seed: int) -> str:
    """A text seen on the way that is not the right value and has its shape (digits for digits), so that
    "X or Y" names two plausible candidates; a made-up one when nothing fits."""
    has_digits = bool(_DIGITS.search(right))
    core = _core(right)
    pool = [t for t in seen if _core(t) and core not in _core(t) and _core(t) not in core
            and len(t) <= max(40, 2 * len(right)) and bool(_DIGITS.search(t)) == has_digits]
    if pool:
        return pool[seed % len(pool)]
    return "42" if has_digits else ("别的" if re.search(r"[\u4e00-\u9fff]", right) else "something else")


def _core(text: str) -> str:
    """Letters and digits only, case folded: "$127.50" holds "$27.50" once the signs are gone."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


class AnswerFormProbe(OracleAgent):
    """Replays the golden script, noting texts on screen, and finishes with the right answer in a form
    that negates it, hedges it or offers it as one of two."""

    def __init__(self, mode: str = "negated", form: int = -1, patience: int = 2) -> None:
        super().__init__(patience)
        if mode not in ANSWER_MODES:
            raise ValueError(f"mode {mode!r}: one of {', '.join(ANSWER_MODES)}")
        self.mode, self.form = mode, int(form)
        self.seen: list[str] = []

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.seen = []

    def step(self, observation: Observation) -> AgentStep:
        for element in observation.all_elements:
            for text in (element.text, element.content_desc):
                if text and text.strip() and text.strip() not in self.seen:
                    self.seen.append(text.strip())
        decided = super().step(observation)
        action = decided.action
        if not isinstance(action, Finish) or action.status != "done" or not action.answer:
            return decided
        answer, which = self.say(action.answer)
        return AgentStep(Finish(status="done", answer=answer), output=f"probe: {self.mode} form {which}")

    def say(self, right: str) -> tuple[str, int]:
        """The answer in this episode's form, and the form's index."""
        choices = forms(self.mode, self.context.language)
        k = (self.form if self.form >= 0 else self.context.seed) % len(choices)
        y = other_value(right, self.seen, self.context.seed)
        return choices[k].format(x=right.strip(), y=y), k
