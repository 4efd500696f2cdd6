"""Declarative success checks on device state, as data.

Each check reads state through adb the way a user would on a real device (`shell`, `sqlite3`,
`content query`), or looks at how the agent ended (its final answer, or that it reported the task
infeasible). What data cannot say is a `validator` check that
names a registered Python function (see spa_bench.tasks.validators). There is no logic language here on
purpose: a check is one read plus one comparison.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Scalar = str | int | float | None
_NUMERAL = re.compile("[0-9零〇一二两三四五六七八九十百千万亿]")


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


AnswerKind = Literal["number", "money", "time", "date", "duration", "person", "email", "phone", "choice",
                     "yes_no", "text"]
ANSWER_KINDS: tuple[str, ...] = get_args(AnswerKind)
Currency = Literal["USD", "CNY", "EUR", "GBP", "JPY"]
UnitName = Literal["m", "km", "mi", "ft", "km2", "year", "s", "min", "h", "day", "kg", "g", "lb", "percent"]
"""The units a `number` answer may declare (spa_bench/evaluation/answer_parse.py spells them in en and zh)."""
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*(?:\.\w+)?\}")
Placeholder = Annotated[str, Field(pattern=r"^\{[A-Za-z_]\w*(?:\.\w+)?\}$")]
"""A field filled in per instance from a parameter (`{q.kind}`): the parameter's values differ in kind."""


def _filled(value: object) -> bool:
    return isinstance(value, str) and not _PLACEHOLDER.search(value)


class AnswerCheck(_Check):
    """The agent's final answer (finish(answer=...)) states one value of the declared `kind`, and it is the
    expected one (graded in spa_bench/evaluation/answers.py).

    The answer is read as that kind: "$27.50", "8 pm", "晚上8点", "Feb 10, 2024", "5 min 12 sec", "+1
    415-555-0186". It passes when it holds exactly one value of the kind, that value is the expected one, and
    the rest is a short frame ("The total was ...", "是 ...。", "答案是 ...") with no negation (not, never,
    n't, 不, 没, 并非 ...), no hedge (maybe, probably, either, or, I think, 可能, 大概, 或者, 还是, 吧 ...),
    no other candidate and no question (an echoed instruction).
    - `number`: `expect` holds one number each ("58213", "两"); with `unit`, a unit written beside the number
      must be that one ("8,849 m", not "8,849 ft"); without it no unit is checked.
    - `money`: one amount in `currency`; "¥" beside a USD amount fails, a bare amount passes.
    - `time`: `expect` is the 24-hour time "HH:MM". "8:00 PM", "晚上8点" and "20:00" are 20:00, never 08:00;
      a bare "8:00" / "8点" is 08:00, or either half with `bare_12h` (where the question settles the half).
    - `date`: ISO "YYYY-MM-DD"; a year written must be that year; numeric dates are month/day
      ("2/10/2024"), so "10/2/2024" names October 2; day/month only where the day is above 12.
    - `duration`: seconds ("312") or ISO 8601 ("PT5M12S"); a bare number is read in `bare_unit` if given.
    - `person`, `text`: names / phrases (any one of `expect`, spellings of one value) as a whole phrase;
      `text` with `match: regex` takes regular expressions instead. What is left may not be a list (, ; 、 / |
      and, or, 和, 或) and, if the value holds a number, holds no other number.
    - `email`: one address, case-insensitive. `phone`: the digits (`expect` "4155550186"), written with any
      separators, optionally after `country_code`.
    - `choice`: one of `choices` (the listed options), and only one. `yes_no`: `expect` is yes or no; the
      answer starts with it ("No, she did not." is no, in English or Chinese: 是/对/有, 不/没有/否).
    `together_with`: phrases one of which must also be in the answer (the day in "Friday at 3 PM").
    Fields other than `expect` may be placeholders filled in per instance, so one task can ask for values of
    several kinds; the instance is validated again once filled in.
    """

    type: Literal["answer"] = "answer"
    kind: AnswerKind | Placeholder = Field(description="what the answer is: how it is read and compared")
    expect: list[str] = Field(min_length=1, description="the expected value (spellings of one value)")
    unit: UnitName | Placeholder | None = Field(None, description="number: the unit it is in")
    currency: Currency | Placeholder | None = Field(None, description="money: the currency (ISO 4217)")
    bare_12h: bool = Field(False, description="time: a bare 12-hour time (7:00) may mean either half")
    bare_unit: Literal["s", "min", "h"] | None = Field(None, description="duration: a bare number's unit")
    country_code: str | None = Field(None, pattern=r"^(\d{1,3}|\{[\w.]+\})$",
                                     description="phone: may be written before the number")
    choices: list[str] = Field(default_factory=list, description="choice: the listed options")
    together_with: list[str] = Field(default_factory=list,
                                     description="one of these must also be in the answer")
    match: Literal["phrase", "regex"] | Placeholder = Field(
        "phrase", description="text: `expect` as phrases or as regular expressions")
    case_sensitive: bool = False

    @field_validator("expect", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str | int | float) else value

    @field_validator("unit", "currency", "country_code", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value  # a parameter with no unit for this instance

    @model_validator(mode="after")
    def _expected_values_usable(self) -> AnswerCheck:
        for value in self.expect:
            if not value.strip():
                raise ValueError("an expected answer must not be blank")
        if not _filled(self.kind):
            return self  # checked once the instance fills it in
        problem = _kind_problem(self)
        if problem:
            raise ValueError(f"a {self.kind} answer check: {problem}")
        return self


_ISO_DURATION = re.compile(r"^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$")
_FIELDS = {"number": {"unit"}, "money": {"currency"}, "time": {"bare_12h"}, "duration": {"bare_unit"},
           "phone": {"country_code"}, "choice": {"choices"}, "text": {"match", "case_sensitive"}}


def _kind_problem(check: AnswerCheck) -> str | None:
    """What is wrong with a filled-in check of this kind (its expected values, its kind's fields)."""
    kind, expect = check.kind, [e for e in check.expect if _filled(e)]
    given = {name for name in ("unit", "currency", "bare_12h", "bare_unit", "country_code", "choices")
             if getattr(check, name)} | ({"match"} if check.match != "phrase" else set()) | \
        ({"case_sensitive"} if check.case_sensitive else set())
    if stray := given - _FIELDS.get(kind, set()):
        return f"{', '.join(sorted(stray))} do(es) not apply to this kind"
    if kind == "money" and check.currency is None:
        return "money needs a currency"
    if kind in ("number", "money"):
        return next((f"{e!r} does not hold exactly one number" for e in expect if len(_NUMERAL.findall(
            re.sub("[0-9]+(?:[.,][0-9]+)*|[零〇一二两三四五六七八九十百千万亿]+", "0", e))) != 1), None)
    patterns = {"time": (r"^([01]\d|2[0-3]):[0-5]\d$", "a 24-hour time HH:MM"),
                "date": (r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$", "an ISO date YYYY-MM-DD"),
                "email": (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", "an email address"),
                "phone": (r"^\+?[\d\s().-]{5,}$", "a phone number's digits"),
                "yes_no": (r"^(yes|no)$", "yes or no")}
    if kind in patterns:
        pattern, what = patterns[kind]
        return next((f"{e!r} is not {what}" for e in expect if not re.match(pattern, e)), None)
    if kind == "duration":
        return next((f"{e!r} is neither seconds nor an ISO 8601 duration (PT5M12S)" for e in expect
                     if not (e.isdigit() or _ISO_DURATION.match(e))), None)
    if kind == "choice":
        if len(check.choices) < 2:
            return "choices lists the options (at least two)"
        return next((f"{e!r} is not one of the choices {check.choices}" for e in expect
                     if e not in check.choices), None)
    if kind == "text" and check.match == "regex":
        for e in expect:
            _valid_regex(e)
    return None


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
