"""`spa-bench tasks verify --vary`: every probe runs on devices varied per episode, as `spa-bench run
--vary` does, and a bad spec stops the command in one line before any phone starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args


def test_a_bad_vary_spec_is_one_line_and_no_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    result = run_cli(capsys, "tasks", "verify", "--task", "notes_lookup_en", "--vary", "dark,sepia:3",
                     "--out", str(out))
    assert result.code != 0
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "sepia" in lines[0], result.err
    assert not out.exists()  # refused before anything ran


@pytest.mark.usefixtures("adb_env")
@pytest.mark.slow
def test_verify_runs_every_probe_on_the_drawn_device(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    result = run_cli(capsys, "tasks", "verify", "--task", "settings_airplane_dark_en", "--seeds", "1",
                     "--probe", "oracle", "--probe", "noop", "--vary", "screen,density,font-scale,dark:5",
                     "--out", str(out), *on_shared_phones_args(1))
    assert result.code == 0, result.out + result.err
    logs = [json.loads(p.read_text("utf-8")) for p in sorted(out.glob("*/episodes/*/episode.json"))]
    assert {log["agent"]["name"] for log in logs} == {"oracle", "noop"}
    variations = {json.dumps(log["variation"], sort_keys=True) for log in logs}
    assert len(variations) == 1  # the same task instance: the same device for every probe
    drawn = logs[0]["variation"]
    assert drawn["seed"] == 5 and drawn["screen"] and drawn["dark"] is not None
    assert drawn["navigation"] is None  # not asked for: left alone
