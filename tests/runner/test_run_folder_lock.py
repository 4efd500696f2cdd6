"""One driver at a time per run folder: a second (e.g. `--resume` while the run still goes on) is refused
while the first holds it, and the folder is free again once the first lets go (or its process ends)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spa_bench.errors import ConfigError
from spa_bench.runner.run import hold_run_folder


def test_a_second_driver_is_refused_until_the_first_lets_go(tmp_path: Path) -> None:
    with hold_run_folder(tmp_path):
        with pytest.raises(ConfigError, match=r"another spa-bench process is running this run"), \
                hold_run_folder(tmp_path):
            pass
        other = subprocess.run(  # another process: what a second `spa-bench run --resume` would be
            [sys.executable, "-c", "import sys; from spa_bench.runner.run import hold_run_folder\n"
             f"with hold_run_folder(__import__('pathlib').Path({str(tmp_path)!r})): pass"],
            capture_output=True, text=True, timeout=60)
        assert other.returncode != 0 and "another spa-bench process" in other.stderr
    with hold_run_folder(tmp_path):
        pass
