"""The simulated user of ask-user tasks: who answers an agent's `ask_user` questions during an episode.

A task whose goal is ambiguous or misses a value defines a `user` with scripted replies. A question gets
the first reply whose keywords it contains (NFKC, case-folded, spaces ignored), else the `otherwise`
reply, which gives nothing away. The user answers one question, not a bag of keywords: a question that
is long, holds several questions (several question marks, more than two question words, or question
words of both languages) or contains the keywords of rules with different replies gets `otherwise` (else
"please ask one question at a time") and counts as answered by no rule - else one "keyword soup"
question stuffed with which/what/when/哪个/几点 would match a rule of every task. The exchanges are
recorded in the episode log (`EpisodeLog.dialogue`) and an `ask_user` check
(spa_bench.tasks.checks.AskUserCheck) reads them: together with a state check on the value the reply
gave, it tells an agent that asked from one that guessed.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

NO_HELP = {
    "en": "Sorry, I don't know what you mean. Please carry on with the task.",
    "zh": "我不太明白你的意思，请继续完成任务吧。",
}
"""The reply to a question no rule matches, by the task's language."""

NO_USER = {
    "en": "(No one is there to answer. Decide on your own.)",
    "zh": "（没有人回答。请自行决定。）",
}
"""What an agent hears when it asks during a task that has no simulated user."""

ONE_AT_A_TIME = {
    "en": "Please ask me one short question at a time.",
    "zh": "请一次只问我一个简短的问题。",
}
"""The reply to a question that is not one question (see `not_one_question`), when the task sets no
`otherwise`."""

MAX_QUESTION_WIDTH = 160
"""Longest question answered, in characters, a CJK one counting 2 (the longest shipped golden question
is 78 wide)."""

MAX_QUESTION_WORDS = 2
"""Most distinct question words in one question ("Which alarm, and what time?" is still one)."""

_EN_QUESTION_WORDS = re.compile(r"\b(which|what|whats|who|whom|whose|when|where|why|how)\b")
_ZH_QUESTION_WORDS = ("为什么", "为何", "什么", "怎么", "怎样", "多少", "多久", "多长", "哪", "谁", "几")
"""Longest first: a word found is taken out before the shorter ones are looked for (为什么 is not 什么)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _folded(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal: a wide or full-width (CJK) character two, others one."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def question_words(question: str) -> tuple[set[str], set[str]]:
    """The distinct English and Chinese question words of `question` (NFKC, case-folded)."""
    text = unicodedata.normalize("NFKC", question).casefold()
    english = set(_EN_QUESTION_WORDS.findall(text.replace("’", "'")))
    chinese = set()
    for word in _ZH_QUESTION_WORDS:
        if word in text:
            chinese.add(word)
            text = text.replace(word, " ")
    return english, chinese


def not_one_question(question: str) -> str | None:
    """Why `question` is not one short question (None: it is)."""
    if display_width(question.strip()) > MAX_QUESTION_WIDTH:
        return f"longer than {MAX_QUESTION_WIDTH} characters"
    marks = sum(question.count(m) for m in "?？")
    if marks > 1:
        return f"{marks} question marks"
    english, chinese = question_words(question)
    if len(english) + len(chinese) > MAX_QUESTION_WORDS:
        return f"{len(english) + len(chinese)} question words ({', '.join(sorted(english | chinese))})"
    if english and chinese:
        return "question words of both languages"
    return None


class UserReply(_Model):
    """One thing the user knows: said when a question contains any of `when`."""

    when: list[str] = Field(min_length=1, description="keywords; a question containing any of them "
                            "(NFKC, case-folded, spaces ignored) gets this reply")
    reply: str = Field(min_length=1)

    @field_validator("when")
    @classmethod
    def _not_blank(cls, value: list[str]) -> list[str]:
        if any(not _folded(k) for k in value):
            raise ValueError("a keyword must not be blank")
        return value

    def matches(self, question: str) -> bool:
        folded = _folded(question)
        return any(_folded(k) in folded for k in self.when)


class SimulatedUser(_Model):
    """Scripted replies to the agent's questions; deterministic, so episodes replay exactly."""

    replies: list[UserReply] = Field(min_length=1)
    otherwise: str | None = Field(None, description="the reply when no rule matches; default: a polite "
                                  "'I don't know what you mean' in the task's language")

    def answer(self, question: str, language: Literal["en", "zh"]) -> tuple[str, int | None]:
        """(the reply, the index of the rule that gave it or None). A question that is not one question, or
        whose keywords are those of rules with different replies, gets no rule."""
        if not_one_question(question) is not None:
            return self.otherwise or ONE_AT_A_TIME[language], None
        matched = [i for i, rule in enumerate(self.replies) if rule.matches(question)]
        if len({self.replies[i].reply for i in matched}) > 1:
            return self.otherwise or ONE_AT_A_TIME[language], None
        if matched:
            return self.replies[matched[0]].reply, matched[0]
        return self.otherwise or NO_HELP[language], None


class UserExchange(_Model):
    """One question of the agent and the reply it got, as the episode log keeps it."""

    step: int = Field(ge=0, description="the step whose action asked")
    question: str
    reply: str
    rule: int | None = Field(None, description="index of the simulated user's reply rule that answered; "
                             "None: no rule matched (or the task has no user)")


def exchange(user: SimulatedUser | None, language: Literal["en", "zh"], step: int,
             question: str) -> UserExchange:
    """The agent asked `question` at `step`: the simulated user's reply (NO_USER when the task has none)."""
    reply, rule = user.answer(question, language) if user is not None else (NO_USER[language], None)
    return UserExchange(step=step, question=question, reply=reply, rule=rule)
