"""The leaderboard's "always infeasible" floor row: what declaring infeasible at step 1 scores on the
selected tasks, counted from the tasks of the report (infeasible, no question needed), beside the agents
and never ranked. In Chromium, over the shared real run (settings tasks, none infeasible), with one task
marked as a floor task in the page's data to see the count follow the filters."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import RealRun
from test_report_browser import _open, browser  # noqa: F401  (the module's Chromium fixture)

from spa_bench.report.data import _task_info, build_data
from spa_bench.report.html import render_page
from spa_bench.report.load import load_runs
from spa_bench.tasks.repository import TaskRepository

pytestmark = pytest.mark.usefixtures("adb_env")


@pytest.mark.parametrize(("task_id", "floor"), [
    ("notes_reminder_infeasible_en", 1),  # infeasible: declaring it at once passes
    ("hard_infask_flight_alarm_en", 0),  # infeasible, but only once the user has been asked
    ("settings_airplane_dark_en", 0)])
def test_a_task_is_a_floor_task_when_declaring_infeasible_passes_it(task_id: str, floor: int) -> None:
    task = TaskRepository().get(task_id)
    assert _task_info(SimpleNamespace(full_task=task, task_file=None), {})["floor"] == floor  # type: ignore[arg-type]


def _floor(p: Any) -> tuple[str, str]:
    row = p.page.locator('#lb-table tr[data-floor="always-infeasible"]')
    return row.inner_text(), row.get_attribute("title")


def test_the_floor_row_counts_the_selected_tasks_and_is_not_ranked(browser: Any,  # noqa: F811
                                                                   real_run: RealRun, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    data = build_data(load_runs([real_run.run_dir]), out, embed=True)
    tasks = data.document["tasks"]
    assert tasks and all(t["floor"] == 0 for t in tasks)  # no infeasible task in the run
    for t in tasks:
        t["floor"] = int(t["id"] == "settings_wifi_off_en")
    out.write_text(render_page(data.document, data.chunks, "floor"), "utf-8")
    p = _open(browser, out)
    text, title = _floor(p)
    assert "always infeasible" in text and "floor" in text
    assert "1 / 5 tasks" in text and "20.0%" in text  # 15 episodes of 5 distinct tasks
    assert "1 of the 5 distinct tasks" in title and "not run" in title
    assert p.page.locator("#lb-table tr[data-floor] td").first.inner_text() == ""  # no rank
    assert p.page.locator("#lb-table tbody tr[data-agent]").count() == 3  # the agents alone
    p.page.select_option("select[aria-label=language]", "zh")
    text, _ = _floor(p)
    assert "0 / 2 tasks" in text and "0.0%" in text
    p.page.select_option("select[aria-label=language]", "en")
    assert "1 / 3 tasks" in _floor(p)[0]
    assert p.errors == []
    p.page.close()
