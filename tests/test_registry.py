"""The generic plug-in registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from spa_bench.errors import RegistryError
from spa_bench.registry import Registry


def test_decorator_lazy_and_file_references(tmp_path: Path) -> None:
    reg: Registry[object] = Registry("widget")

    @reg.register("square")
    def square(x: int) -> int:
        return x * x

    reg.add_lazy("dumps", "json:dumps")
    plugin = tmp_path / "my_plugin.py"
    plugin.write_text("class Thing:\n    answer = 42\n")
    assert reg.names() == ["dumps", "square"]
    assert reg.get("square") is square
    import json

    assert reg.get("dumps") is json.dumps
    thing = reg.get(f"{plugin}:Thing")
    assert thing.answer == 42  # type: ignore[attr-defined]
    assert "square" in reg and "nope" not in reg


def test_unknown_names_suggest_the_closest(tmp_path: Path) -> None:
    reg: Registry[object] = Registry("agent")
    reg.add("oracle", object())
    with pytest.raises(RegistryError, match=r"unknown agent 'oracel'; did you mean 'oracle'\?"):
        reg.get("oracel")
    with pytest.raises(RegistryError, match="does not exist"):
        reg.get(f"{tmp_path}/missing.py:X")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(RegistryError, match="boom"):
        reg.get(f"{broken}:X")
    with pytest.raises(RegistryError, match="has no attribute 'Nope'"):
        reg.get("json:Nope")


def test_registering_two_objects_under_one_name_fails() -> None:
    reg: Registry[object] = Registry("agent")
    reg.add("a", 1)
    with pytest.raises(RegistryError, match="registered twice"):
        reg.add("a", 2)


def test_concurrent_first_lookups_load_once(tmp_path: Path) -> None:
    """Phones and episodes look plug-ins up from many threads at once; no lookup may fail."""
    import threading

    plugin = tmp_path / "slow_plugin.py"
    plugin.write_text("import time\ntime.sleep(0.2)\nclass Thing:\n    pass\n")
    reg: Registry[object] = Registry("widget")
    reg.add_lazy("thing", f"{plugin}:Thing")
    results: list[object] = []
    errors: list[BaseException] = []

    def look() -> None:
        try:
            results.append(reg.get("thing"))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=look) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 8 and len({id(r) for r in results}) == 1
