"""Activity stacks: one task (back stack) per app, the recents order and which task is in front."""

from __future__ import annotations

from typing import Any

from spa_bench.phone.apps.base import ActivityRecord

LAUNCHER = "com.google.android.apps.nexuslauncher"
LAUNCHER_ACTIVITY = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"


HOME_TASK_ID = 1
FIRST_TASK_ID = 10  # ids an emulator gives the first apps' tasks after boot are of this order


class TaskManager:
    """Back stacks by package. The launcher's task always exists; `front` is the package on screen.

    This is the one task list: the recents screen shows `recent`, and `dumpsys activity recents` / `am stack
    remove` speak of the same tasks by `task_id`, which a task keeps until it is removed (a new task of the
    same app gets a new id, as on Android).
    """

    def __init__(self) -> None:
        self.stacks: dict[str, list[ActivityRecord]] = {}
        self.recent: list[str] = []  # most recent first, never the launcher
        self.front = LAUNCHER
        self.ids: dict[str, int] = {LAUNCHER: HOME_TASK_ID}
        self.next_id = FIRST_TASK_ID
        self.reset_launcher()

    def task_id(self, package: str) -> int | None:
        return self.ids.get(package)

    def package_of(self, task_id: int) -> str | None:
        return next((p for p, i in self.ids.items() if i == task_id), None)

    def recent_tasks(self) -> list[tuple[int, str, str]]:
        """(task id, package, top activity) of every task in recents, most recent first."""
        return [(self.ids[p], p, self.stacks[p][-1].activity) for p in self.recent if p in self.ids]

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
            self.ids[package] = self._new_id()
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
        self.ids.pop(package, None)
        if package in self.recent:
            self.recent.remove(package)
        if self.front == package:
            self.front = LAUNCHER

    def to_json(self) -> dict[str, Any]:
        return {
            "front": self.front,
            "recent": list(self.recent),
            "stacks": {p: [r.to_json() for r in s] for p, s in self.stacks.items()},
            "ids": dict(self.ids),
            "next_id": self.next_id,
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
        raw_ids = data.get("ids")
        saved: dict[str, Any] = raw_ids if isinstance(raw_ids, dict) else {}
        self.ids = {LAUNCHER: HOME_TASK_ID}
        known_ids = [i for i in saved.values() if isinstance(i, int)]
        self.next_id = max(FIRST_TASK_ID, int(data.get("next_id") or 0), max(known_ids, default=0) + 1)
        for package in self.stacks:
            if package != LAUNCHER:
                known = saved.get(package)
                self.ids[package] = int(known) if isinstance(known, int) else self._new_id()

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1
