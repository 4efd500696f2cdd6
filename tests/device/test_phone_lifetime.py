"""Virtual phone processes die with the harness that started them, even when it is killed with SIGKILL."""

from __future__ import annotations

import json
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


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def _phones_of(ancestor: int) -> list[int]:
    """The phone processes descending from `ancestor`: a phone runs in its data dir and names its own pid
    in the ready file there (whether it was forked from the zygote or started as a new interpreter)."""
    from spa_bench.phone.process import READY_FILE

    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        pid = up = int(entry.name)
        while up > 1 and up != ancestor:
            up = _parent(up)
        if up != ancestor or pid == ancestor:
            continue
        try:
            ready = json.loads((Path(os.readlink(entry / "cwd")) / READY_FILE).read_text())
        except (OSError, ValueError):
            continue
        if ready.get("pid") == pid:
            found.append(pid)
    return found


def _children(parent: int) -> list[int]:
    pids = [int(e.name) for e in Path("/proc").iterdir() if e.name.isdigit()]
    return [pid for pid in pids if _parent(pid) == parent]


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
        zygotes = [p for p in _children(run.pid) if p not in phones]  # the zygote the phones were forked from
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(p) for p in phones + zygotes):
            time.sleep(0.2)
        assert not [p for p in phones if _alive(p)], "phone processes outlived the killed harness"
        assert not [p for p in zygotes if _alive(p)], "the phone zygote outlived the killed harness"
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(timeout=10)
        for pid in phones:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
