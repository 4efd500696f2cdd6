"""Activity stacks: one task (back stack) per app, the recents order and which task is in front."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

LAUNCHER = "com.google.android.apps.nexuslauncher"
LAUNCHER_ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"


@dataclass
class ActivityRecord:
    """One entry of a task's back stack."""

    activity: str
    args: dict[str, Any] = field(default_factory=dict)
    ui: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"activity": self.activity, "args": self.args, "ui": self.ui}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ActivityRecord:
        return cls(str(data["activity"]), dict(data.get("args") or {}), dict(data.get("ui") or {}))


def task_id_of(package: str) -> int:
    """A package's task id: a stable hash in a wide range (so installed packages' ids differ), the same
    in every dump without any state (the shell's `ids.task_id` is this function)."""
    return 100 + zlib.crc32(("task:" + package).encode("utf-8")) % 9900


class TaskManager:
    """Back stacks by package. The launcher's task always exists; `front` is the package on screen.

    This is the one task list: the recents screen shows `recent`, and `dumpsys activity recents` / `am stack
    remove` speak of the same tasks by `task_id_of(package)`.
    """

    def __init__(self) -> None:
        self.stacks: dict[str, list[ActivityRecord]] = {}
        self.recent: list[str] = []  # most recent first, never the launcher
        self.front = LAUNCHER
        self.reset_launcher()

    def task_id(self, package: str) -> int | None:
        return task_id_of(package) if package in self.stacks else None

    def package_of(self, task_id: int) -> str | None:
        return next((p for p in self.stacks if task_id_of(p) == task_id), None)

    def recent_tasks(self) -> list[tuple[int, str, str]]:
        """(task id, package, top activity) of every task in recents, most recent first."""
        return [(task_id_of(p), p, self.stacks[p][-1].activity) for p in self.recent if p in self.stacks]

    def reset_launcher(self) -> None:
        self.stacks[LAUNCHER] = [ActivityRecord(LAUNCHER_ACTIVITY)]

    def top(self, package: str | None = None) -> ActivityRecord:
        return self.stacks[package or self.front][-1]

    def bring_to_front(self, package: str) -> None:
        self.front = package
        if package != LAUNCHER:
            if package in self.recent:
                self.recent.remove(package)
            self.recent.insert(0, package)

    def start(self, package: str, record: ActivityRecord, root_activity: str | None) -> None:
        """Open `record` in the app's task: a launcher intent for a running task just brings it back."""
        stack = self.stacks.get(package)
        if not stack:
            self.stacks[package] = [record]
        elif record.activity == root_activity and record.activity == stack[0].activity and not record.args:
            pass  # like a launcher intent: resume the task where the user left it
        elif stack[-1].activity == record.activity and stack[-1].args == record.args:
            pass
        else:
            stack.append(record)
        self.bring_to_front(package)

    def pop(self) -> bool:
        """Pop the front task's top activity; False when it is the task's root."""
        stack = self.stacks[self.front]
        if len(stack) > 1:
            stack.pop()
            return True
        return False

    def go_home(self) -> None:
        self.front = LAUNCHER

    def remove(self, package: str) -> None:
        if package == LAUNCHER:
            self.reset_launcher()
            return
        self.stacks.pop(package, None)
        if package in self.recent:
            self.recent.remove(package)
        if self.front == package:
            self.front = LAUNCHER

    def to_json(self) -> dict[str, Any]:
        return {
            "front": self.front,
            "recent": list(self.recent),
            "stacks": {p: [r.to_json() for r in s] for p, s in self.stacks.items()},
        }

    def load_json(self, data: dict[str, Any]) -> None:
        self.stacks = {
            str(p): [ActivityRecord.from_json(r) for r in s]
            for p, s in dict(data.get("stacks") or {}).items()
            if s
        }
        if LAUNCHER not in self.stacks:
            self.reset_launcher()
        self.recent = [str(p) for p in data.get("recent") or [] if p in self.stacks]
        front = str(data.get("front") or LAUNCHER)
        self.front = front if front in self.stacks else LAUNCHER
