"""`spa-bench run --device 127.0.0.1:PORT` on a phone the user started with `spa-bench phone start`: the
harness finds its console one port below (the emulator's convention), saves the base snapshots the phone
lacks, and the tasks reset and pass as on the run's own phones."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import run_cli

from spa_bench.evaluation.policy import decide_success
from spa_bench.results.layout import RunLayout

pytestmark = pytest.mark.usefixtures("adb_env")
READY_DEADLINE_S = 120.0  # how long a broken phone may take to say so; not a speed limit


@pytest.fixture
def user_phone(tmp_path: Path, adb_env: dict[str, str]) -> Iterator[str]:
    """A phone as a user starts it, in its own process; its serial."""
    ready = tmp_path / "ready.json"
    process = subprocess.Popen([sys.executable, "-m", "spa_bench", "phone", "start", "--port", "0",
                                "--data-dir", str(tmp_path / "phone"), "--ready-file", str(ready)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=adb_env)
    try:
        deadline = time.monotonic() + READY_DEADLINE_S
        while not ready.exists():
            assert process.poll() is None and time.monotonic() < deadline, "the phone did not start"
            time.sleep(0.05)
        yield f"127.0.0.1:{json.loads(ready.read_text())['port']}"
    finally:
        process.terminate()
        process.wait(timeout=60)


def test_run_on_the_serial_of_a_spa_bench_phone(user_phone: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "run", "--device", user_phone, "--suite", "smoke", "--agent", "oracle",
                     "--agent", "noop", "--out", str(tmp_path / "results"))
    assert result.code == 0, result.out + result.err
    (run_dir,) = (tmp_path / "results").iterdir()
    layout = RunLayout(run_dir)
    logs = [layout.read_episode(e) for e in layout.episode_ids()]
    assert len(logs) == 8 and {log.device.serial for log in logs} == {user_phone}
    assert {log.episode_id: decide_success(log).success for log in logs} == {
        log.episode_id: log.agent.name == "oracle" for log in logs}
    assert layout.read_manifest().devices[0].kind == "virtual"


def test_a_device_named_with_a_console_port_that_does_not_answer(user_phone: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """SERIAL=CONSOLE_PORT is used as given: a wrong port stops the run before anything is recorded,
    in one line that names it."""
    result = run_cli(capsys, "run", "--device", f"{user_phone}=1", "--task", "settings_wifi_off_en",
                     "--agent", "oracle", "--out", str(tmp_path / "results"))
    assert result.code != 0
    assert "console 127.0.0.1:1" in result.err + result.out and "Traceback" not in result.err
    assert not (tmp_path / "results").exists()
