"""scripts/answer-battery, the standard battery of the closing note, exits 0 only when every right answer in
three frames is accepted and every negated, hedged, either-or, listed, wrong-half, other-order and wrong-unit
answer of every kind is rejected."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BATTERY = Path(__file__).resolve().parents[2] / "scripts" / "answer-battery"


def test_the_battery_accepts_only_the_right_answers() -> None:
    done = subprocess.run([sys.executable, str(BATTERY)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.count("/") >= 5]
    assert len(rows) == 14  # one per kind (number and money and time twice)
    for row in rows:
        cells = [c for c in row if "/" in c]
        accepted, tried = (int(n) for n in cells[0].split("/"))
        assert accepted == tried > 0, row
        assert all(c.startswith("0/") for c in cells[1:]), row
