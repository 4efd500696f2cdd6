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
from spa_bench.verify.answer_forms import ANSWER_MODES, forms

from .oracle import OracleAgent

_DIGITS = re.compile(r"\d")


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
