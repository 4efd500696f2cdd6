"""Shared fixtures. The CLI helper runs the real entry point; rich output is kept wide and plain.

`adb_env`: a private adb server for tests that run the pipeline: $ANDROID_ADB_SERVER_PORT and $HOME point
at session-owned places, so adbutils, the virtual phones' console token and any `adb` we spawn use them;
the server is killed at the end."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("COLUMNS", "200")
os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("TERM", "dumb")
# Every virtual phone the tests start shows this time (spa_bench.phone.system.clock), so that no test depends
# on the hour or the date it runs at. Set it to sweep the suite across times of day (README, Tests).
os.environ.setdefault("SPA_BENCH_PHONE_CLOCK", "2026-06-15T10:30:00")


@pytest.fixture(scope="session")
def adb_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    from adbutils._utils import adb_path

    home = tmp_path_factory.mktemp("home")
    from cli_helpers import kill_adb_server, start_private_adb_server

    saved = {k: os.environ.get(k) for k in ("ANDROID_ADB_SERVER_PORT", "HOME")}
    os.environ["HOME"] = str(home)
    port = start_private_adb_server(adb_path(), dict(os.environ))
    os.environ["ANDROID_ADB_SERVER_PORT"] = str(port)
    try:
        yield dict(os.environ)
    finally:
        from pim_runs import close_shared_devices

        close_shared_devices()  # the phones shared by this process's runs, while their adb server is up
        kill_adb_server(adb_path(), port)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture(scope="session")
def ocr() -> Any:
    """One RapidOCR engine per test process, set up as the evaluators read screens (detection on the
    longest side at 1,200 px, no direction classifier): the legibility tests ask whether the evaluators'
    OCR reads a screen, and that engine takes a third less CPU than rapidocr's defaults."""
    from spa_bench.evaluation.ocr import rapidocr_engine

    return rapidocr_engine()


@pytest.fixture
def results_dir(tmp_path: Path) -> Path:
    return tmp_path / "results"


# Modules whose tests share one xdist worker (xdist_group "ray-cluster"): one Ray cluster at a time.
GROUPED_MODULES = ("tests/cluster/test_ray_farm.py", "tests/env/test_env_ray.py")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: the tests also run without it (-p no:xdist)
def pytest_xdist_node_collection_finished(node: object, ids: list[str]) -> None:
    """Stop when pytest-xdist ignores the xdist_group marks (it tags a grouped test's id with @GROUP):
    each worker would start a Ray cluster of its own, three at once on two cores."""
    config = getattr(node, "config", None)
    if config is None or config.getvalue("dist") != "loadgroup":
        return
    grouped = [i for i in ids if i.startswith(GROUPED_MODULES)]
    if grouped and not any("@" in i for i in grouped):
        pytest.exit("pytest-xdist ignored the xdist_group marks: this pytest and pytest-xdist do not work "
                    "together (see the pytest pin in pyproject.toml)", returncode=4)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests that need real hardware or a real model API run only when asked for."""
    device = os.environ.get("SPA_BENCH_DEVICE")
    live = os.environ.get("SPA_BENCH_LIVE_API") == "1"
    for item in items:
        # markers, not keywords: a test's keywords also hold its folder names (tests/device/...)
        if item.get_closest_marker("device") is not None and not device:
            item.add_marker(pytest.mark.skip(reason="needs a real device: set SPA_BENCH_DEVICE=SERIAL"))
        if item.get_closest_marker("live_api") is not None and not live:
            item.add_marker(pytest.mark.skip(reason="calls a real model API: set SPA_BENCH_LIVE_API=1"))
