"""Infeasible means untouched: the state digests an episode takes of an infeasible task, and their verdict.

An infeasible task (a finish check with status infeasible, spa_bench.tasks.model.Task.infeasible) passes
only when the agent said so - after asking the user, where that is the expected move - and every app's
data (not only the task's apps: a change in another app is a change all the same), the settings and the
shared files are as they were after setup. The runner and the Gymnasium environment read the state
(spa_bench.device.state_digest) after setup and again before the final capture, and keep both digests
in the log (`EpisodeLog.digest_start`, `digest_end`); the end one also lists, row by row, what changed.
`untouched` compares the two from the log alone, so that `spa-bench evaluate` decides the same way with
no device; spa_bench.evaluation.policy is where the decision is applied.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from spa_bench.device.state_digest import RawState, Reader, StateDigest, describe, digest, read_state
from spa_bench.tasks.model import Task


def watched(task: Task) -> bool:
    """Whether an episode of this task reads the state digests: infeasible tasks (with or without a
    question to the user first)."""
    return task.infeasible


class _Counting:
    """Counts the shell commands a digest sends (its adb round-trips)."""

    def __init__(self, device: Reader) -> None:
        self.device, self.calls = device, 0

    def shell(self, command: str) -> str:
        self.calls += 1
        return self.device.shell(command)


@dataclass
class UntouchedWatch:
    """Reads the phone's state at the start and at the end of an episode. The start's raw rows stay in
    memory (not in the log) so that the end digest can say which rows changed."""

    packages: list[str]  # the task's packages (the digest reads every package; these keep the task's names)
    device_names: dict[str, str] = field(default_factory=dict)  # task's package -> the device's name
    _start: RawState | None = field(default=None, init=False, repr=False)

    def _read(self, device: Reader) -> tuple[StateDigest, RawState]:
        counting, started = _Counting(device), time.monotonic()
        raw = read_state(counting, self.device_names)
        result = digest(raw)
        result.seconds, result.round_trips = time.monotonic() - started, counting.calls
        return result, raw

    def start(self, device: Reader) -> StateDigest:
        result, self._start = self._read(device)
        return result

    def end(self, device: Reader) -> StateDigest:
        result, raw = self._read(device)
        if self._start is not None:
            result.changes = describe(self._start, raw)
        return result


def differences(start: StateDigest, end: StateDigest) -> list[str]:
    """The parts whose digests differ (volatile parts left out), one line each, from the digests alone."""
    lines = []
    for name in sorted(set(start.parts) | set(end.parts)):
        a, b = start.parts.get(name), end.parts.get(name)
        if (a is not None and a.volatile) or (b is not None and b.volatile):
            continue
        if a is None and b is not None:
            if b.rows:  # an empty table that an app creates on first use is no change
                lines.append(f"{name}: appeared ({b.rows} row(s))")
        elif b is None and a is not None:
            if a.rows:
                lines.append(f"{name}: disappeared ({a.rows} row(s) before)")
        elif a is not None and b is not None and a.sha256 != b.sha256:
            lines.append(f"{name}: changed ({a.rows} -> {b.rows} row(s))")
    return lines


@dataclass(frozen=True)
class Untouched:
    """untouched None: the episode has no digests to compare (a log from before them, or a read failed)."""

    untouched: bool | None
    reason: str
    changes: list[str]


def untouched(start: StateDigest | None, end: StateDigest | None) -> Untouched:
    if start is None or end is None:
        return Untouched(None, "the episode has no state digest " + ("at the start" if start is None else
                                                                       "at the end") + ": rerun it", [])
    if start.volatile_sha256 != end.volatile_sha256:
        return Untouched(None, "the state digests ignored different volatile parts: rerun the episode", [])
    found = differences(start, end)
    if not found:
        return Untouched(True, f"the state is untouched ({len(end.parts)} parts read)", [])
    detail = end.changes or found  # the end digest's row-by-row account, else what the hashes say
    more = f" (+{len(detail) - 3} more)" if len(detail) > 3 else ""
    return Untouched(False, "changed the state: " + "; ".join(detail[:3]) + more, detail)
