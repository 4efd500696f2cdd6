"""Built-in registered validators (see spa_bench.tasks.validators for the contract)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from spa_bench.tasks.validators import CheckOutcome, StateReader


def _str_arg(args: Mapping[str, object], name: str) -> str:
    value = args.get(name)
    if not isinstance(value, str) or not value:
        raise ValueError(f"validator argument {name!r} must be a non-empty string, got {value!r}")
    return value


def file_exists(reader: StateReader, args: Mapping[str, object]) -> CheckOutcome:
    """args: path. Passes when the file or folder exists on the device."""
    path = _str_arg(args, "path")
    out = reader.shell(f"ls -d {shlex.quote(path)} >/dev/null 2>&1 && echo yes || echo no").strip()
    return CheckOutcome(out == "yes", f"{path} {'exists' if out == 'yes' else 'does not exist'}")


def file_absent(reader: StateReader, args: Mapping[str, object]) -> CheckOutcome:
    """args: path. Passes when the file or folder does not exist on the device."""
    outcome = file_exists(reader, args)
    return CheckOutcome(not outcome.passed, outcome.evidence)


def file_contains(reader: StateReader, args: Mapping[str, object]) -> CheckOutcome:
    """args: path, text. Passes when the file exists and contains `text`. The file's existence is read
    first: `cat` of a missing file prints an error ("cat: PATH: No such file or directory") whose words
    must not pass for the file's content."""
    path, text = _str_arg(args, "path"), _str_arg(args, "text")
    exists = file_exists(reader, {"path": path})
    if not exists.passed:
        return CheckOutcome(False, exists.evidence)
    content = reader.shell(f"cat {shlex.quote(path)} 2>/dev/null")
    found = text in content
    return CheckOutcome(found, f"{path}: {text!r} {'found' if found else 'not found'} "
                               f"({len(content)} characters read)")
