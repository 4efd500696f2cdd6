"""Opt-in tests against the real world: a real Android device or emulator (SPA_BENCH_DEVICE=SERIAL) and
a real model API (SPA_BENCH_LIVE_API=1 with OPENAI_API_KEY; model from SPA_BENCH_LIVE_MODEL, default
gpt-4o-mini). Skipped by default: CI has neither."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter


@pytest.mark.device
def test_a_real_device_is_observed_and_driven() -> None:
    from spa_bench.device.device import Device, start_adb_server

    start_adb_server()
    device = Device(os.environ["SPA_BENCH_DEVICE"])
    device.health_check()
    info = device.info()
    assert info.screen_width and info.screen_height
    obs = device.observe()
    assert obs.screenshot_png.startswith(b"\x89PNG")
    assert obs.all_elements and obs.package
    device.open_app("com.android.settings")
    assert device.observe().package == "com.android.settings"
    device.press_key("home")
    assert device.observe().package != "com.android.settings"


@pytest.mark.live_api
@pytest.mark.usefixtures("adb_env")
def test_mllm_against_the_real_api(tmp_path: Path) -> None:
    model = os.environ.get("SPA_BENCH_LIVE_MODEL", "gpt-4o-mini")
    result = run_benchmark(RunConfig(filter=TaskFilter(ids=["settings_wifi_off_en"]), phones=1,
                                     out=tmp_path, agents=[AgentConfig(agent="mllm", args={"model": model})]))
    log = result.logs[0]
    assert log.steps and log.usage.calls >= 1 and log.usage.prompt_tokens > 0
    assert log.termination in ("done", "infeasible", "max_steps")
    assert os.environ["OPENAI_API_KEY"] not in "".join(p.read_text(errors="ignore")
                                                       for p in tmp_path.rglob("*.json"))
