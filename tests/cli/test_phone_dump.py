"""`spa-bench phone dump`: the current screen's elements with the selector a golden step should use."""

from __future__ import annotations

import pytest
from cli_helpers import run_cli
from pim_runs import shared_devices

from spa_bench.actions import Selector
from spa_bench.device.elements import find, parse_hierarchy

pytestmark = pytest.mark.usefixtures("adb_env")


def test_dump_prints_selectors_that_find_their_elements(capsys: pytest.CaptureFixture[str]) -> None:
    import yaml

    device = shared_devices(1)[0]
    device.open_app("com.android.deskclock")
    result = run_cli(capsys, "phone", "dump", "--device", device.serial)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert lines[0].startswith(f"{device.serial}: com.android.deskclock/")
    heads, selectors = lines[1::2], [line.split("selector: ", 1)[1] for line in lines[2::2]]
    assert len(heads) == len(selectors) > 10
    by_label = dict(zip(heads, selectors, strict=True))
    fab = next(s for h, s in by_label.items() if "'Add alarm'" in h)
    assert fab == "{resource_id: fab}"
    # a tab label the UI shows in either language is proposed in both, for --vary locale
    assert "{any_of: [{text: Clock}, {text: 时钟}]}" in selectors
    elements = parse_hierarchy(device.dump_hierarchy())
    for head, written in by_label.items():
        selector = Selector(**yaml.safe_load(written.split("  (")[0]))
        found = find(elements, selector)
        assert found is not None and head.startswith(f"[{found.index}] "), (head, written)


def test_dump_without_a_device_names_what_the_server_lists(capsys: pytest.CaptureFixture[str]) -> None:
    devices = shared_devices(2)
    result = run_cli(capsys, "phone", "dump")
    assert result.code != 0
    assert "--device" in result.err and all(d.serial in result.err for d in devices)
