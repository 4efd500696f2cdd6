"""Shared fixtures. The CLI helper runs the real entry point; rich output is kept wide and plain.

`adb_env`: a private adb server for tests that run the pipeline: $ANDROID_ADB_SERVER_PORT and $HOME point
at session-owned places, so adbutils, the virtual phones' console token and any `adb` we spawn use them;
the server is killed at the end."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("COLUMNS", "200")
os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("TERM", "dumb")


@pytest.fixture(scope="session")
def adb_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    from adbutils._utils import adb_path

    home = tmp_path_factory.mktemp("home")
    from cli_helpers import free_port

    port = str(free_port())
    saved = {k: os.environ.get(k) for k in ("ANDROID_ADB_SERVER_PORT", "HOME")}
    os.environ["ANDROID_ADB_SERVER_PORT"] = port
    os.environ["HOME"] = str(home)
    subprocess.run([adb_path(), "start-server"], capture_output=True, timeout=60, check=True)
    try:
        yield dict(os.environ)
    finally:
        subprocess.run([adb_path(), "-P", port, "kill-server"], capture_output=True, timeout=30, check=False)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def results_dir(tmp_path: Path) -> Path:
    return tmp_path / "results"


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
