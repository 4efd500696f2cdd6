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
    """The agent's final answer (finish(answer=...)) against expected values, after normalisation."""

    type: Literal["answer"] = "answer"
    expect: list[str] = Field(min_length=1, description="accepted answers; any one suffices")
    match: Literal["exact", "contains", "regex", "number"] = "exact"
    case_sensitive: bool = False

    @field_validator("expect", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str | int | float) else value

    @model_validator(mode="after")
    def _regexes_compile(self) -> AnswerCheck:
        if self.match == "regex":
            for pattern in self.expect:
                _valid_regex(pattern)
        return self


class FinishCheck(_Check):
    """How the agent ended: `finish(status=...)`. An infeasible task passes only when the agent reported
    it infeasible (together with state checks showing that nothing was changed)."""

    type: Literal["finish"] = "finish"
    status: Literal["done", "infeasible"]


class ValidatorCheck(_Check):
    """A registered Python validator (by name) for what data cannot say; `args` are passed to it."""

    type: Literal["validator"] = "validator"
    name: str = Field(min_length=1)
    args: dict[str, object] = Field(default_factory=dict)


Check = Annotated[ShellCheck | SqliteCheck | ContentQueryCheck | AnswerCheck | FinishCheck | ValidatorCheck,
                  Field(discriminator="type")]
DEVICE_CHECK_TYPES = frozenset({"shell", "sqlite", "content_query", "validator"})
"""Checks that read the device (the others look at what the agent said at the end)."""
