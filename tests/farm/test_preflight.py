"""The app check before a run: a package counts only when every device of the pool has it (episodes
land on any device). Devices answer `pm list packages` in its AOSP format (`package:NAME` lines)."""

from __future__ import annotations

import pytest

from spa_bench.device.device import Device
from spa_bench.device.transport import Request, ScriptedTransport
from spa_bench.errors import ConfigError
from spa_bench.runner.preflight import can_run, check_apps, find_missing_apps, substitutions
from spa_bench.tasks.model import Task


def _device(serial: str, packages: list[str]) -> Device:
    def answer(request: Request) -> str:
        assert request.command == "pm list packages", request.command
        return "".join(f"package:{p}\n" for p in packages)

    return Device(serial, transport=ScriptedTransport(answer))


def _task(task_id: str, *packages: str) -> Task:
    return Task.model_validate({
        "id": task_id, "language": "en", "difficulty": 1, "instruction": "Do it.",
        "category": "single_app" if len(packages) == 1 else "cross_app",
        "golden_steps": 1, "key_components": [],
        "apps": [{"package": p, "name": {"en": p}} for p in packages]})


def test_a_package_missing_on_one_device_is_missing() -> None:
    devices = [_device("a", ["com.android.settings", "com.tencent.mm"]),
               _device("b", ["com.android.settings"])]
    tasks = [_task("settings", "com.android.settings"), _task("wechat", "com.tencent.mm"),
             _task("wechat", "com.tencent.mm"), _task("both", "com.tencent.mm", "com.amazon.mShop.android")]
    missing = find_missing_apps(tasks, devices)
    assert [(m.task_id, m.packages, m.serials) for m in missing] == [
        ("wechat", ("com.tencent.mm",), ("b",)),
        ("both", ("com.amazon.mShop.android", "com.tencent.mm"), ("a", "b"))]
    with pytest.raises(ConfigError, match=r"2 task\(s\) need apps not installed on device\(s\) a, b: "
                                          r"missing packages com.amazon.mShop.android, com.tencent.mm; "
                                          r"tasks: wechat \(com.tencent.mm\), both "):
        check_apps(tasks, devices, skip_missing=False)
    assert check_apps(tasks, devices, skip_missing=True) == {"wechat", "both"}
    assert check_apps(tasks[:1], devices, skip_missing=False) == set()


GOOGLE_IMAGE = ["com.android.settings", "com.google.android.deskclock", "com.google.android.contacts",
                "com.google.android.apps.messaging"]  # Google's builds, under Google's names


def test_a_stock_equivalent_counts_as_the_aosp_app_and_the_message_names_both() -> None:
    devices = [_device("emulator-5554", GOOGLE_IMAGE), _device("emulator-5556", GOOGLE_IMAGE)]
    tasks = [_task("clock", "com.android.deskclock"),
             _task("sms", "com.android.messaging", "com.android.contacts"),
             _task("calendar", "com.android.calendar")]
    missing = find_missing_apps(tasks, devices)
    assert [(m.task_id, m.packages) for m in missing] == [("calendar", ("com.android.calendar",))]
    with pytest.raises(ConfigError) as refused:
        check_apps(tasks, devices, skip_missing=False)
    assert ("missing packages com.android.calendar (nor its stock equivalent com.google.android.calendar); "
            "tasks: calendar (com.android.calendar)") in str(refused.value)
    assert check_apps(tasks, devices, skip_missing=True) == {"calendar"}
    # the Ray executor's per-device test of the same rule
    assert can_run(tasks[0], frozenset(GOOGLE_IMAGE)) and can_run(tasks[1], frozenset(GOOGLE_IMAGE))
    assert not can_run(tasks[2], frozenset(GOOGLE_IMAGE))
    # Google's Messages is not a build of AOSP's: a task written for it does not run on AOSP Messaging
    assert not can_run(_task("gm", "com.google.android.apps.messaging"), frozenset({"com.android.messaging"}))
    assert can_run(_task("gclock", "com.google.android.deskclock"), frozenset({"com.android.deskclock"}))


def test_the_run_is_told_which_devices_use_other_names_for_its_tasks_apps() -> None:
    tasks = [_task("clock", "com.android.deskclock"), _task("settings", "com.android.settings")]
    installed = {"emulator-5554": GOOGLE_IMAGE, "phone-0": ["com.android.deskclock", "com.android.settings"]}
    assert substitutions(tasks, installed) == {"emulator-5554": {
        "com.android.deskclock": "com.google.android.deskclock"}}  # only the run's apps, only where renamed
    assert substitutions(tasks[1:], installed) == {}
