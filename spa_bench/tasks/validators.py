"""Registered Python validators: success checks that data cannot express.

A validator is a function `(reader, args) -> CheckOutcome` that reads device state through the
`StateReader` seam (adb shell on any device) and says whether the task succeeded, with evidence. Task
files reference validators by name (`type: validator, name: file_exists`); `tasks validate` checks the
name against this registry without importing anything. Outside packages add validators through the
entry-point group `spa_bench.validators`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from spa_bench.registry import Registry


class StateReader(Protocol):
    """What a validator may do with the device: run shell commands and read their output."""

    def shell(self, command: str) -> str:
        ...


@dataclass(frozen=True)
class CheckOutcome:
    passed: bool
    evidence: str


Validator = Callable[[StateReader, Mapping[str, object]], CheckOutcome]

VALIDATORS: Registry[Validator] = Registry("validator", entry_point_group="spa_bench.validators")
for _name in ("file_exists", "file_absent", "file_contains"):
    VALIDATORS.add_lazy(_name, f"spa_bench.evaluators.validators:{_name}")
