"""Before any episode starts: every task's apps must be installed on every device of the run, and a
device must be able to do the reset its tasks ask for.

Without this, a task whose app is missing fails as a harness error in each of its episodes (all 340
imported SPA-Bench tasks on a device without their apps), after minutes of resets. Episodes may land on
any device of the pool, so a package counts as present only when every device has it - itself or a
stock equivalent (spa_bench.device.packages: Google's build of an AOSP app on a stock emulator image).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from spa_bench.device.device import Device
from spa_bench.device.packages import PackageMap, equivalents, resolve_package
from spa_bench.errors import ConfigError
from spa_bench.tasks.model import Task


@dataclass(frozen=True)
class MissingApps:
    task_id: str
    packages: tuple[str, ...]
    serials: tuple[str, ...]  # the devices that lack at least one of them


def installed_packages(devices: Sequence[Device]) -> dict[str, Collection[str]]:
    """Each device's installed packages (`pm list packages`), by serial."""
    return {device.serial: device.packages() for device in devices}


def find_missing_apps(tasks: Sequence[Task],
                      devices: Sequence[Device] | Mapping[str, Collection[str]]) -> list[MissingApps]:
    """Tasks (each once, in order) with packages that some device has not installed. `devices`: the
    devices, or each device's installed packages by name (devices on a cluster's hosts report theirs)."""
    installed = devices if isinstance(devices, Mapping) else installed_packages(devices)
    seen: set[str] = set()
    missing = []
    for task in tasks:
        if task.id in seen:
            continue
        seen.add(task.id)
        absent = sorted({p for p in task.packages for have in installed.values() if not _has(have, p)})
        if absent:
            serials = tuple(s for s, have in installed.items() if any(not _has(have, p) for p in absent))
            missing.append(MissingApps(task.id, tuple(absent), serials))
    return missing


def _has(installed: Collection[str], package: str) -> bool:
    return resolve_package(package, installed) is not None


def _looked_for(package: str) -> str:
    """The package, with the stock equivalents that would have done instead."""
    others = [b.package for b in equivalents(package)]
    return f"{package} (nor its stock equivalent {' or '.join(others)})" if others else package


def describe(missing: Sequence[MissingApps], limit: int = 20) -> str:
    packages = [_looked_for(p) for p in sorted({p for m in missing for p in m.packages})]
    serials = sorted({s for m in missing for s in m.serials})
    tasks = ", ".join(f"{m.task_id} ({' '.join(m.packages)})" for m in missing[:limit])
    more = f" and {len(missing) - limit} more" if len(missing) > limit else ""
    return (f"{len(missing)} task(s) need apps not installed on device(s) {', '.join(serials)}: "
            f"missing packages {', '.join(packages)}; tasks: {tasks}{more}")


def can_run(task: Task, packages: Collection[str]) -> bool:
    """A device with these packages installed has every app of the task (or a stock equivalent)."""
    return all(_has(packages, p) for p in task.packages)


def check_apps(tasks: Sequence[Task], devices: Sequence[Device] | Mapping[str, Collection[str]],
               skip_missing: bool) -> set[str]:
    """The ids of tasks to leave out (only with `skip_missing`); otherwise refuse the run, naming them."""
    missing = find_missing_apps(tasks, devices)
    if missing and not skip_missing:
        raise ConfigError(describe(missing) + ". Install and log in to these apps on the device(s), or "
                          "pass --skip-missing-apps to run the other tasks")
    return {m.task_id for m in missing}


def substitutions(tasks: Sequence[Task],
                  installed: Mapping[str, Collection[str]]) -> dict[str, dict[str, str]]:
    """By device: the tasks' packages it has under another name (task's name -> installed name), for the
    devices that have any; the run says so before it starts (each episode log records its own)."""
    names = {p for task in tasks for p in (*task.packages, task.start_package) if p}
    found = {serial: dict(PackageMap.for_device(have).only(names).substitutions)
             for serial, have in installed.items()}
    return {serial: names_map for serial, names_map in found.items() if names_map}


def check_resets(tasks: Sequence[Task], devices: Sequence[Device]) -> None:
    """Refuse a run whose tasks reset by snapshot on devices without an emulator console (a phone, or an
    emulator reached over TCP whose console was not given), rather than fail every episode."""
    from spa_bench.device.device import no_console_message

    if not any(task.setup.reset == "snapshot" for task in tasks):
        return
    lacking = [device.serial for device in devices if device.find_console() is None]
    if lacking:
        raise ConfigError(no_console_message(", ".join(lacking), "a snapshot reset"))
