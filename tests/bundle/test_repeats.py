"""--repeats k, honestly reported (issue 37, req. 3): pass@k and pass^k over tasks with Wilson intervals,
the spread of per-task successes, the tasks that flip; in the run's terminal summary, `spa-bench report`
and the page. A real run on the shared phones, and the arithmetic on outcomes written out by hand."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium_browser
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args
from rich.console import Console

from spa_bench.bundle.verification import VERIFICATION, VerificationRecord
from spa_bench.evaluation.metrics import wilson_interval
from spa_bench.report.build import build_report, write_report
from spa_bench.report.repeats import Outcome, interval_width, repeats_for_width, repeats_view
from spa_bench.report.terminal import repeats_notes, repeats_table
from spa_bench.results.layout import write_json_atomic

chromium = chromium_browser  # the module-scoped headless Chromium (tests/browser_helpers.py)


def outcomes(agent: str, table: dict[str, list[bool | None]]) -> list[Outcome]:
    return [Outcome(agent, task, r, s) for task, runs in table.items() for r, s in enumerate(runs)]


def test_pass_at_k_and_pass_hat_k_count_tasks_and_leave_undecided_ones_out() -> None:
    view = repeats_view(outcomes("a", {"t1": [True, True, True], "t2": [True, False, True],
                                       "t3": [False, False, False], "t4": [True, None, True],
                                       "t5": [False, True, False]}))
    assert view is not None and view.k == 3
    (a,) = view.agents
    assert (a.pass_at_k.passed, a.pass_at_k.tasks) == (3, 4)  # t1, t2, t5 (t4 has an undecided instance)
    assert (a.pass_hat_k.passed, a.pass_hat_k.tasks) == (1, 4)
    assert (a.pass_at_1.passed, a.pass_at_1.tasks) == (6, 12)
    assert a.pass_at_k.interval == wilson_interval(3, 4) and a.left_out == 1
    assert a.spread == {0: 1, 1: 1, 2: 1, 3: 1} and a.flips == ["t2", "t5"]
    assert a.pass_hat_k.text() == "25.0% [4.6, 69.9]"
    assert repeats_view(outcomes("a", {"t1": [True], "t2": [False]})) is None  # no repeats, no view
    both = repeats_view(outcomes("a", {"t1": [True, False]}) + outcomes("b", {"t1": [True]}))
    assert both is not None and [x.agent for x in both.agents] == ["a"]  # b ran no repeats


def test_the_table_fits_80_columns_and_the_notes_name_the_flipping_tasks() -> None:
    flipping = {f"t{i}": [True, i % 2 == 0, True] for i in range(30)}
    view = repeats_view(outcomes("oracle (long name)", flipping))
    assert view is not None
    console = Console(width=80, record=True)
    console.print(repeats_table(view))
    text = console.export_text()
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "pass@3 [95% CI]" in lines[2] and "pass^3 [95% CI]" in lines[2]
    assert "100.0% [88.6, 100.0]" in text and "50.0% [33.2, 66.8]" in text  # 30/30 and 15/30 tasks
    assert (wilson_interval(15, 30)[0], wilson_interval(30, 30)[0]) == pytest.approx((0.332, 0.886), abs=5e-4)
    (note,) = repeats_notes(view)
    assert note.startswith("oracle (long name): 15 task(s) flip between repeats: t1, t11, t13")
    assert note.endswith("and 7 more")


def test_repeats_needed_for_an_interval_width() -> None:
    # 42 tasks, p = 0.5: one repeat gives a 30-point interval; 10 points needs 10 repeats at best
    assert round(interval_width(0.5, 42), 3) == 0.302
    assert repeats_for_width(42, 0.31) == 1 and repeats_for_width(42, 0.30) == 2
    assert repeats_for_width(42, 0.10) == 10
    assert interval_width(0.5, 42 * repeats_for_width(42, 0.10)) <= 0.10


@pytest.mark.usefixtures("adb_env")
def test_a_run_with_repeats_shows_pass_k_in_the_terminal_the_report_and_the_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], chromium: Any) -> None:
    out = run_cli(capsys, "run", "--task", "clock_alarm_new_en", "--agent", "oracle", "--agent", "noop",
                  "--repeats", "2", "--out", str(tmp_path), *on_shared_phones_args(1))
    assert out.code == 0, out.err
    assert "repeats: 2 instances of each task" in out.out
    assert re.search(r"oracle \(reference\)\s+│\s+1\s+│\s+100\.0% \[20\.7, 100\.0\]\s+│\s+100\.0% \[20\.7, "
                     r"100\.0\]\s+│\s+0", out.out), out.out
    (run,) = tmp_path.iterdir()
    report = run_cli(capsys, "report", str(run))
    assert report.code == 0 and "pass^2 [95% CI]" in report.out
    page = build_report([run], tmp_path / "page.html")
    doc = json.loads(re.search(r'<script type="application/json" id="spa-data">(.*?)</script>', page.html,
                               re.S).group(1))  # type: ignore[union-attr]
    by_agent = {a["agent"]: a for a in doc["repeats"]["agents"]}
    assert doc["repeats"]["k"] == 2 and by_agent["noop"]["pass_at_k"] == {
        "passed": 0, "of": 1, "rate": 0.0, "low": 0.0, "high": pytest.approx(wilson_interval(0, 1)[1])}
    assert doc["runs"][0]["verification"] is None  # no badge record: "not verified"
    # in the browser: the Repeats section and the run's badge (a record as `bundle verify` writes it)
    write_json_atomic(run / VERIFICATION, VerificationRecord(
        status="re-scored", line="re-scored 4/4 episodes (not replayed), verdicts identical",
        checked_at=datetime.now(UTC), bundle_sha256="0" * 64).model_dump_json())
    write_report([run], tmp_path / "page.html")
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((tmp_path / "page.html").resolve().as_uri())
    page.wait_for_selector("#repeats-body table")
    rows = page.locator("#repeats-body tbody tr")
    assert rows.count() == 2 and not errors
    noop = page.locator('#repeats-body tr[data-agent="noop"]').inner_text()
    assert "0/1 · 95% CI 0.0%–79.3%" in noop and "0/2: 1" in noop
    badge = page.locator("#runs [data-badge]")
    assert badge.inner_text() == "re-scored only" and "badge unk" in str(badge.get_attribute("class"))
    assert page.locator("#nav-repeats").is_visible()
    page.close()
