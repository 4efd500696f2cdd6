"""The simulated user of ask-user tasks: who answers an agent's `ask_user` questions during an episode.

A task whose goal is ambiguous or misses a value defines a `user` with scripted replies. A question gets
the first reply whose keywords it contains (NFKC, case-folded, spaces ignored), else the `otherwise`
reply, which gives nothing away. The exchanges are recorded in the episode log (`EpisodeLog.dialogue`)
and an `ask_user` check (spa_bench.tasks.checks.AskUserCheck) reads them: together with a state check on
the value the reply gave, it tells an agent that asked from one that guessed.
"""

from __future__ import annotations

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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _folded(text: str) -> str:
    return "".join(unicodedata.normalize("NFKC", text).casefold().split())


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
        """(the reply, the index of the rule that gave it or None)."""
        for i, rule in enumerate(self.replies):
            if rule.matches(question):
                return rule.reply, i
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
