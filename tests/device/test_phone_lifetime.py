"""Virtual phone processes die with the harness that started them, even when it is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)"),
              pytest.mark.usefixtures("adb_env")]


def _state(pid: int) -> str | None:
    """The process's state letter (R, S, Z, ...), None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _phones_of(parent: int) -> list[int]:
    """Processes whose parent is `parent` and which run `spa_bench phone start`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"phone" in argv and b"start" in argv:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")


def test_sigkill_of_spa_bench_run_leaves_no_phone(tmp_path: Path) -> None:
    run = subprocess.Popen(
        [sys.executable, "-m", "spa_bench", "run", "--suite", "smoke", "--agent", "random", "--repeats", "3",
         "--phones", "2", "--out", str(tmp_path / "results")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    phones: list[int] = []
    try:
        deadline = time.monotonic() + 120
        # mid-run: both phones up and the first episode log written
        while time.monotonic() < deadline and run.poll() is None:
            phones = _phones_of(run.pid)
            if len(phones) == 2 and list((tmp_path / "results").glob("*/episodes/*/episode.json")):
                break
            time.sleep(0.2)
        assert run.poll() is None, "the run ended before it could be killed mid-run"
        assert len(phones) == 2, f"phone processes of the run not found: {phones}"
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(p) for p in phones):
            time.sleep(0.2)
        assert not [p for p in phones if _alive(p)], "phone processes outlived the killed harness"
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=10)
        for pid in phones:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
