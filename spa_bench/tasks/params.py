"""Seeded task parameters: a task may draw values (a time, a name, a number) per instance.

Placeholders are `{name}` or `{name.field}` in any string of the task; nothing else is evaluated. The
seed of instance i of a task in a run is derived from a hash of (run seed, task id, i), so a run is
reproducible and instances are independent of the order in which tasks run. Instances of one task are
distinct while the parameters allow it: an instance whose draw repeats an earlier instance's values
draws again from a seed derived from the retry number (`--repeats K` gives K different instances).
A secret `--instance-seed` stands in for the run seed (secret_run_seed): a private split of the public
tasks whose run records only a commitment to the secret (seed_commitment), checkable once it is published.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ParamValue = str | int | float | dict[str, str | int | float]
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?\}")


class _Param(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ChoiceParam(_Param):
    """One of `values`; a value may be a mapping so that related fields are drawn together
    (e.g. a contact's name and number), used as `{contact.name}`."""

    type: Literal["choice"] = "choice"
    values: list[ParamValue] = Field(min_length=1)


class IntParam(_Param):
    type: Literal["int"] = "int"
    min: int
    max: int
    step: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> IntParam:
        if self.max < self.min:
            raise ValueError(f"max ({self.max}) is below min ({self.min})")
        return self


class TimeParam(_Param):
    """A time of day between `start` and `end` (HH:MM, inclusive) on a grid of `step_minutes`.
    Fields: `{t}` = "07:30", `{t.hour}`, `{t.minute}` (zero-padded), `{t.hour12}`, `{t.ampm}`."""

    type: Literal["time"] = "time"
    start: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    end: str = Field(pattern=r"^([01]\d|2[0-3]):[0-5]\d$")
    step_minutes: int = Field(5, ge=1, le=720)

    @model_validator(mode="after")
    def _ordered(self) -> TimeParam:
        if _minutes(self.end) < _minutes(self.start):
            raise ValueError(f"end {self.end} is before start {self.start}")
        return self


ParamSpec = Annotated[ChoiceParam | IntParam | TimeParam, Field(discriminator="type")]


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def instance_seed(run_seed: int, task_id: str, index: int) -> int:
    """The per-instance seed: a stable 63-bit hash of (run seed, task id, instance index)."""
    digest = hashlib.sha256(f"{run_seed}\x00{task_id}\x00{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


MIN_INSTANCE_SEED = 16  # characters: a commitment to a shorter secret could be found by guessing


def secret_run_seed(secret: str) -> int:
    """The run seed a secret `--instance-seed` stands for: instances are drawn from it exactly as from a
    public `--seed` (instance_seed below), and neither it nor the secret is ever written down."""
    digest = hashlib.sha256(f"spa-bench instance seed\x00{secret}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seed_commitment(secret: str) -> str:
    """What a run records of its secret seed: a hash that the seed, once published, must match. A
    different domain from secret_run_seed, so the commitment does not give away the run seed."""
    return hashlib.sha256(f"spa-bench instance seed commitment\x00{secret}".encode()).hexdigest()


def check_instance_seed(secret: str) -> str:
    """The secret as given, or ValueError when it is too short to keep private."""
    if len(secret.strip()) < MIN_INSTANCE_SEED:
        raise ValueError(f"at least {MIN_INSTANCE_SEED} characters, not {len(secret.strip())} "
                         f"(a commitment to a short secret can be guessed); e.g. "
                         f"python -c 'import secrets; print(secrets.token_hex(16))'")
    return secret.strip()


def draw(spec: ChoiceParam | IntParam | TimeParam, rng: random.Random) -> ParamValue:
    if isinstance(spec, ChoiceParam):
        return spec.values[rng.randrange(len(spec.values))]
    if isinstance(spec, IntParam):
        return rng.randrange(spec.min, spec.max + 1, spec.step)
    start, end = _minutes(spec.start), _minutes(spec.end)
    total = start + spec.step_minutes * rng.randrange((end - start) // spec.step_minutes + 1)
    hour, minute = divmod(total, 60)
    return {
        "value": f"{hour:02d}:{minute:02d}",
        "hour": f"{hour:02d}",
        "minute": f"{minute:02d}",
        "hour12": str(hour % 12 or 12),
        "ampm": "AM" if hour < 12 else "PM",
    }


def draw_all(specs: dict[str, ChoiceParam | IntParam | TimeParam], seed: int) -> dict[str, ParamValue]:
    rng = random.Random(seed)
    return {name: draw(specs[name], rng) for name in sorted(specs)}


def combinations(specs: dict[str, ChoiceParam | IntParam | TimeParam]) -> int:
    """How many different instances the parameters can make (the most `--repeats` can keep apart)."""
    total = 1
    for spec in specs.values():
        if isinstance(spec, ChoiceParam):
            total *= len({repr(v) for v in spec.values})
        elif isinstance(spec, IntParam):
            total *= len(range(spec.min, spec.max + 1, spec.step))
        else:
            total *= (_minutes(spec.end) - _minutes(spec.start)) // spec.step_minutes + 1
    return total


DISTINCT_ATTEMPTS = 64  # redraws before accepting a repeat (the parameters may have fewer combinations)


def draw_instance(specs: dict[str, ChoiceParam | IntParam | TimeParam], run_seed: int, task_id: str,
                  index: int) -> tuple[int, dict[str, ParamValue]]:
    """(seed, values) of instance `index`: values unlike those of instances 0..index-1 when possible.
    The seed returned is the one the values were drawn with."""
    earlier: list[dict[str, ParamValue]] = []
    seed, values = 0, {}
    for i in range(index + 1):
        seed = instance_seed(run_seed, task_id, i)
        values = draw_all(specs, seed)
        retry = 0
        while values in earlier and retry < DISTINCT_ATTEMPTS:
            retry += 1
            seed = instance_seed(run_seed, f"{task_id}\x00retry{retry}", i)
            values = draw_all(specs, seed)
        earlier.append(values)
    return seed, values


def substitute(text: str, values: dict[str, ParamValue]) -> str:
    """Replace `{name}` / `{name.field}` for known names; leave any other braces alone."""

    def replace(match: re.Match[str]) -> str:
        name, field = match.group(1), match.group(2)
        if name not in values:
            return match.group(0)
        value = values[name]
        if isinstance(value, dict):
            key = field or "value"
            if key not in value:
                raise KeyError(f"parameter {name!r} has no field {key!r}")
            return str(value[key])
        if field is not None:
            raise KeyError(f"parameter {name!r} is a plain value; it has no field {field!r}")
        return str(value)

    return PLACEHOLDER.sub(replace, text)


def placeholders(text: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}
