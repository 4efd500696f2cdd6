"""The app check before a run: a package counts only when every device of the pool has it (episodes
land on any device). Devices answer `pm list packages` in its AOSP format (`package:NAME` lines)."""

from __future__ import annotations

import pytest

from spa_bench.device.device import Device
from spa_bench.device.transport import Request, ScriptedTransport
from spa_bench.errors import ConfigError
from spa_bench.runner.preflight import check_apps, find_missing_apps
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
