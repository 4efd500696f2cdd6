"""Declarative success checks on device state, as data.

Each check reads state through adb the way a user would on a real device (`shell`, `sqlite3`,
`content query`), or looks at how the agent ended (its final answer, or that it reported the task
infeasible). What data cannot say is a `validator` check that
names a registered Python function (see spa_bench.tasks.validators). There is no logic language here on
purpose: a check is one read plus one comparison.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Scalar = str | int | float | None
_NUMERAL = re.compile("[0-9{零〇一二两三四五六七八九十百千万亿]")  # or a placeholder ({n}), filled in later


class _Check(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str | None = Field(None, description="what the check verifies, for humans and reports")


def _valid_regex(value: str | None) -> str | None:
    if value is not None:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


class ShellCheck(_Check):
    """Run a shell command; compare its output (stripped) exactly or by regex, and/or its exit code."""

    type: Literal["shell"] = "shell"
    command: str = Field(min_length=1)
    expect: str | None = Field(None, description="exact expected output after stripping whitespace")
    regex: str | None = Field(None, description="a regular expression that must match (re.search)")
    exit_code: int | None = Field(0, description="expected exit code; null to ignore it")

    _check_regex = field_validator("regex")(_valid_regex)

    @model_validator(mode="after")
    def _something_to_compare(self) -> ShellCheck:
        if self.expect is None and self.regex is None and self.exit_code is None:
            raise ValueError("a shell check needs expect, regex or exit_code")
        return self


class SqliteCheck(_Check):
    """Run a query on a device database with `sqlite3`; compare the rows or their count."""

    type: Literal["sqlite"] = "sqlite"
    db: str = Field(pattern=r"^/", description="absolute device path of the database file")
    query: str = Field(min_length=1)
    expect_rows: list[list[Scalar]] | None = Field(
        None, description="expected rows, each a list of column values; compared as text")
    ordered: bool = Field(False, description="whether row order matters")
    expect_count: int | None = Field(None, ge=0, description="expected number of rows")

    @model_validator(mode="after")
    def _something_to_compare(self) -> SqliteCheck:
        if self.expect_rows is None and self.expect_count is None:
            raise ValueError("a sqlite check needs expect_rows or expect_count")
        return self


class ContentQueryCheck(_Check):
    """`content query --uri URI`; every expected row must be matched by a distinct returned row on the
    columns it names. With `exact` no other row may be returned."""

    type: Literal["content_query"] = "content_query"
    uri: str = Field(pattern=r"^content://")
    projection: list[str] | None = None
    where: str | None = None
    expect_rows: list[dict[str, Scalar]] | None = None
    exact: bool = Field(False, description="the returned rows are exactly the expected ones")
    expect_count: int | None = Field(None, ge=0)

    @model_validator(mode="after")
    def _something_to_compare(self) -> ContentQueryCheck:
        if self.expect_rows is None and self.expect_count is None:
            raise ValueError("a content_query check needs expect_rows or expect_count")
        return self


class AnswerCheck(_Check):
    """The agent's final answer (finish(answer=...)) is the value asked for: not a list of candidates, the
    instruction echoed or the screen's text that happens to contain it (spa_bench/evaluation/state_checks.py).

    Both sides are normalised: NFKC (full-width -> half-width), whitespace collapsed, none between CJK and
    Latin or digits ("3 个" = "3个"), then repeatedly a leading "answer:" / "the answer is" / "答案是" /
    "答案：" / "答：" (bold or not), one pair of surrounding quotes or brackets (" ' ` ** “” 「」 《》 () []
    【】) and trailing punctuation are stripped; case-folded unless `case_sensitive`.
    - `exact`: the normalised answer equals one expected value.
    - `number`: the answer holds at least one number and every number in it (Arabic with thousands
      separators, Chinese numerals, "1.2万"; spa_bench/evaluation/numbers.py) equals one expected value's
      number: "3 tomatoes", "三个", "¥34.99", "34.99元" pass for 3 or 34.99; "2 or 3", "1,2,3" and "4.5/5"
      fail. Each expected value holds exactly one number. The rest of the answer (every number cut out)
      is at most 40 columns, as below; here the numbers say whether the answer is a list.
    - `contains` / `regex`: the expected value (or a match of the regex, which is applied to the normalised
      answer) is in it as a whole phrase - no letter or digit right beside it in Latin script ("5th" is
      not in "15th"; zero padding is allowed: "07:30" holds "7:30"); CJK has no word boundaries. What is
      left once every occurrence of every expected value is cut out is a short frame, not more
      candidates or a dump: no other number if the value holds one, no list separator (, ; 、 / | & a
      line break, "or", "and", 或, 和, 及, a space between two CJK words), no question mark or 。 (an
      echoed instruction), at most 40 columns (a CJK character takes two): room for "the café we went to
      is on" or "你的停车位在", not for an echoed instruction or a screen's worth of words. So "The café is
      on 5th Street." passes for 5th Street; "Main Street or 5th Street" fails. Two values side by side
      with no separator ("Lotus Studio Grand Hyatt") are not caught: a closed choice (yes/no) uses
      `exact`. A short question echoed before a number ("How many events do I have today? 3") passes.
    The expected values are alternatives, spellings of one value ("两", "2"): any one suffices, and an
    answer may hold several of them ("2（两个）"). A `number` check takes them one at a time, so alternatives
    with different numbers never let an answer give two numbers.
    Dates and times have no implicit equivalences (6/5 vs 5/6, a 12- or 24-hour clock, and whether the
    year is needed depend on the task): a task lists the spellings it accepts, as alternatives or in a regex.
    """

    type: Literal["answer"] = "answer"
    expect: list[str] = Field(min_length=1, description="accepted spellings of the answer; any one suffices")
    match: Literal["exact", "contains", "regex", "number"] = "exact"
    case_sensitive: bool = False

    @field_validator("expect", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str | int | float) else value

    @model_validator(mode="after")
    def _expected_values_usable(self) -> AnswerCheck:
        for value in self.expect:
            if not value.strip():
                raise ValueError("an expected answer must not be blank")
            if self.match == "regex":
                _valid_regex(value)
            if self.match == "number" and not _NUMERAL.search(value):
                raise ValueError(f"a number check needs a number in each expected value, not {value!r}")
        return self


class FinishCheck(_Check):
    """How the agent ended: `finish(status=...)`. An infeasible task passes only when the agent reported
    it infeasible (together with state checks showing that nothing was changed)."""

    type: Literal["finish"] = "finish"
    status: Literal["done", "infeasible"]


class AskUserCheck(_Check):
    """The agent asked the task's simulated user (the `ask_user` action) about what the goal leaves open:
    between `min_questions` and `max_questions` questions, at least one answered by the reply rule
    `reply` (its index in `user.replies`; any rule when absent). A task checks on device state as well that
    the reply was used; guessing without asking fails here, and so does asking everything."""

    type: Literal["ask_user"] = "ask_user"
    reply: int | None = Field(None, ge=0, description="index of the reply rule that must have answered")
    min_questions: int = Field(1, ge=0)
    max_questions: int = Field(3, ge=0, description="more questions than this fail: an agent must not "
                               "ask about everything")

    @model_validator(mode="after")
    def _range(self) -> AskUserCheck:
        if self.max_questions < self.min_questions:
            raise ValueError("max_questions is below min_questions")
        return self


class ValidatorCheck(_Check):
    """A registered Python validator (by name) for what data cannot say; `args` are passed to it."""

    type: Literal["validator"] = "validator"
    name: str = Field(min_length=1)
    args: dict[str, object] = Field(default_factory=dict)


Check = Annotated[ShellCheck | SqliteCheck | ContentQueryCheck | AnswerCheck | FinishCheck | AskUserCheck
                  | ValidatorCheck, Field(discriminator="type")]
DEVICE_CHECK_TYPES = frozenset({"shell", "sqlite", "content_query", "validator"})
"""Checks that read the device (the others look at what the agent said at the end)."""
