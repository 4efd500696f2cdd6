"""Splitting a cross-app trajectory into one segment per subtask, as SPA-Bench's judge needs it.

Two ways, in order of preference:
1. From the foreground packages the runner recorded with every screenshot (ObservationRef.package):
   exact and free. Each subtask's app is found among the task's apps (by package or display name);
   segment i runs from the first screenshot in its app (after segment i-1) to the last screenshot in
   that app before the next subtask's app appears. An app never in the foreground fails the task.
2. Else (screenshots without packages, e.g. imported episodes, or two consecutive subtasks in one app)
   by the judge: it gets every screenshot and the app list and returns each app's first and last
   screenshot. The answer is validated as SPA-Bench does: no app missing (-1: the task fails), indices
   in range, start <= end, segments in list order and not overlapping. SPA-Bench counts an invalid
   answer as a failed task; we re-ask, then record an evaluator error, because a malformed answer
   says nothing about the agent.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from spa_bench.evaluation.annotate import Frame
from spa_bench.evaluation.judge_prompt import UnparsableReply
from spa_bench.tasks.model import Task


class InvalidSplit(UnparsableReply):
    """The judge's split breaks a rule (range, order, overlap): it is re-asked like an unparsable reply."""


@dataclass(frozen=True)
class Segment:
    """Frames start..end (inclusive, 0-based positions in the trajectory) belong to subtask `label`."""

    label: str
    start: int
    end: int

    def frames(self, frames: Sequence[Frame]) -> list[Frame]:
        return list(frames[self.start:self.end + 1])


@dataclass(frozen=True)
class Split:
    """Segments in subtask order, or the subtasks whose app never appears (`missing`, task failed)."""

    method: str  # "packages" or "judge"
    segments: tuple[Segment, ...] = ()
    missing: tuple[str, ...] = ()


def subtask_packages(task: Task) -> list[str | None]:
    """The package of each subtask's app: its `app` is a package or a display name of one of the task's
    apps (any language, case-insensitive). None where it names none of them."""
    out: list[str | None] = []
    for sub in task.subtasks:
        wanted = sub.app.strip().casefold()
        found = None
        for app in task.apps:
            names = {app.package.casefold(), *(n.strip().casefold() for n in app.name.values())}
            if wanted in names:
                found = app.package
                break
        out.append(found)
    return out


def subtask_app_names(task: Task) -> list[str]:
    """The app names the judge is told, in the task's language: display names where the subtask names a
    package, as written otherwise."""
    names = []
    packages = subtask_packages(task)
    for sub, package in zip(task.subtasks, packages, strict=True):
        app = next((a for a in task.apps if a.package == package), None)
        names.append(app.display_name(task.language) if app is not None and sub.app == package else sub.app)
    return names


def split_by_packages(frames: Sequence[Frame], targets: Sequence[str | None],
                      labels: Sequence[str]) -> Split | None:
    """The split read from recorded packages; None when they cannot decide it (a screenshot without a
    package, a subtask app that is not among the task's apps, or the same app for two subtasks in a row)."""
    packages = [f.package for f in frames]
    if not frames or any(p is None for p in packages) or any(t is None for t in targets):
        return None
    if any(a == b for a, b in itertools.pairwise(targets)):
        return None
    segments: list[Segment] = []
    cursor = 0
    for i, (target, label) in enumerate(zip(targets, labels, strict=True)):
        start = next((j for j in range(cursor, len(frames)) if packages[j] == target), None)
        if start is None:
            return Split("packages", tuple(segments), tuple(labels[i:]))
        following = targets[i + 1] if i + 1 < len(targets) else None
        boundary = len(frames)
        if following is not None:
            boundary = next((j for j in range(start + 1, len(frames)) if packages[j] == following), boundary)
        end = max(j for j in range(start, boundary) if packages[j] == target)
        segments.append(Segment(label, start, end))
        cursor = end + 1
    return Split("packages", tuple(segments))


def validate_split(raw: dict[str, tuple[int, int]], labels: Sequence[str], count: int) -> Split:
    """Check the judge's 1-based (start, end) per label and turn it into 0-based segments.
    -1 marks a missing app (a valid answer: the task failed); other violations raise InvalidSplit."""
    missing = tuple(label for label in labels if -1 in raw[label])
    if missing:
        return Split("judge", missing=missing)
    segments = []
    previous_end = 0
    for label in labels:
        start, end = raw[label]
        if not (1 <= start <= count and 1 <= end <= count):
            raise InvalidSplit(f"segment {label!r} ({start}-{end}) is outside screenshots 1-{count}")
        if start > end:
            raise InvalidSplit(f"segment {label!r} starts after it ends ({start} > {end})")
        if start <= previous_end:
            raise InvalidSplit(f"segment {label!r} ({start}-{end}) overlaps or precedes the segment "
                               f"before it (which ends at {previous_end})")
        segments.append(Segment(label, start - 1, end - 1))
        previous_end = end
    return Split("judge", tuple(segments))
