"""A task as it runs on one device: with the packages the device has in place of the task's.

Tasks name AOSP packages; a stock emulator image has Google's builds of some of those apps under other
names (spa_bench.device.packages). An episode works out the substitutions for its task once
(`episode_packages`, from the device's map) and runs `task_for_device(task, packages)`: setup, the app it
opens and what its agent is told use the installed names, and the golden script's `open_app` actions
and resource ids follow. The checks stay as written - they are scored against the task's definitions -
and are mapped as they run instead (spa_bench.evaluation.capture). On the virtual phone nothing is
substituted and the task is returned unchanged.
"""

from __future__ import annotations

from spa_bench.device.device import Device
from spa_bench.device.packages import PackageMap
from spa_bench.tasks.model import Task


def episode_packages(device: Device, task: Task) -> PackageMap:
    """The substitutions of `task`'s packages on `device` (empty when it has them all by their names)."""
    return device.package_map().only([*task.packages, task.start_package])


def task_for_device(task: Task, packages: PackageMap) -> Task:
    """`task` with `packages` applied to its apps (and their launch activities), start app, setup commands,
    subtasks' apps, golden script and near misses' scripts. Its checks are left as written."""
    if packages.identity:
        return task
    apps = [app.model_copy(update={"package": packages.package(app.package),
                                   "activity": packages.activity(app.package, app.activity)})
            for app in task.apps]
    start = task.setup.start_app
    setup = task.setup.model_copy(update={"start_app": packages.package(start) if start else start,
                                          "shell": [packages.text(c) for c in task.setup.shell]})
    script = None if task.golden_script is None else [packages.action(a) for a in task.golden_script]
    near_misses = [n.model_copy(update={"script": [packages.action(a) for a in n.script]})
                   for n in task.near_misses]
    subtasks = [s.model_copy(update={"app": packages.package(s.app)}) for s in task.subtasks]
    return task.model_copy(update={"apps": apps, "setup": setup, "golden_script": script,
                                   "near_misses": near_misses, "subtasks": subtasks})
