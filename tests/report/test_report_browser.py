"""The report in a real browser: Debian's Chromium driven headless by Playwright, pages opened from
file:// as a user would. In CI (CI=true) these tests fail instead of skipping when the browser or
Playwright is missing; elsewhere they skip."""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium_browser
from conftest import INJECTED_TITLE, RealRun

from spa_bench.evaluation.metrics import summarize
from spa_bench.report import write_report
from spa_bench.report.build import ReportResult

pytestmark = pytest.mark.usefixtures("adb_env")
browser = chromium_browser  # the module-scoped headless Chromium (tests/browser_helpers.py)


@dataclass
class Page:
    page: Any
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def report(real_run: RealRun, tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    out = tmp_path_factory.mktemp("report") / "report.html"
    return write_report([real_run.run_dir], out)


def _open(browser: Any, path: Path) -> Page:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    opened = Page(page)
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: opened.errors.append(str(e)))
    page.on("request", lambda r: opened.requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_selector("#lb-table tbody tr")
    return opened


def _open_episode(p: Page, episode_id: str) -> None:
    p.page.evaluate("(id) => { spaReport.state.ep.agent = ''; }", episode_id)
    p.page.fill("input[aria-label=task]", episode_id.split("__")[1])
    p.page.click(f'#ep-table tr[data-episode="{episode_id}"]')
    p.page.wait_for_selector("#ev-body .step")
    p.page.wait_for_function(
        "() => [...document.querySelectorAll('#ev-body .shot img')]"
        ".every(i => i.complete && i.naturalWidth > 0)")


def _close(p: Page) -> None:
    p.page.keyboard.press("Escape")
    p.page.wait_for_selector("#episode-view", state="hidden")


def test_opens_from_file_with_no_errors_and_no_network(browser: Any, report: ReportResult) -> None:
    p = _open(browser, report.path)
    _open_episode(p, "oracle__settings_wifi_off_en__r0")
    _close(p)
    assert p.errors == []
    assert p.requests and all(url.startswith(("file://", "data:")) for url in p.requests), p.requests
    assert any("_files/details-" in url for url in p.requests)  # details came from beside the page
    rows = p.page.locator("#lb-table tbody tr[data-agent]")
    assert rows.count() == 3
    assert p.page.locator("#chart-grid svg").count() == 4
    p.page.close()


def test_sorting_and_filtering_change_the_rows(browser: Any, report: ReportResult) -> None:
    p = _open(browser, report.path)
    agents = lambda: p.page.eval_on_selector_all(  # noqa: E731
        "#lb-table tbody tr[data-agent]", "rows => rows.map(r => r.dataset.agent)")
    by_success = agents()
    # the oracle is a reference agent: below the ranked rows whatever the order, with a badge and no rank
    assert by_success[-1] == "oracle"
    ranked = by_success[:-1]
    oracle = p.page.locator('#lb-table tr[data-agent="oracle"]')
    assert oracle.locator(".badge.ref").inner_text() == "reference"
    assert oracle.locator("td").first.inner_text() == ""
    ranks = [p.page.locator(f'#lb-table tr[data-agent="{a}"] td').first.inner_text() for a in ranked]
    assert ranks == ["1", "2"]
    p.page.click('#lb-table th[data-key="agent"]')
    assert agents() == [*sorted(ranked), "oracle"]
    p.page.click('#lb-table th[data-key="agent"]')
    assert agents() == [*sorted(ranked, reverse=True), "oracle"]

    episodes = lambda: p.page.eval_on_selector_all(  # noqa: E731
        "#ep-table tbody tr", "rows => rows.map(r => r.dataset.episode)")
    assert len(episodes()) == 15
    p.page.select_option("select[aria-label=language]", "zh")
    zh = episodes()
    assert len(zh) == 6 and all(e.endswith("_zh__r0") for e in zh)
    assert "6 episodes" in p.page.inner_text("#lb-hint")
    p.page.click("#views button:text('English · single-app')")
    assert len(episodes()) == 9
    p.page.select_option("select[aria-label=verdict]", "success")
    assert set(episodes()) == {e for e in episodes() if e.startswith("oracle__")} and episodes()
    p.page.click('#ep-table th[data-key="task"]')
    tasks = [e.split("__")[1] for e in episodes()]
    assert tasks == sorted(tasks)
    assert p.errors == []
    p.page.close()


def test_an_episode_shows_its_steps_screenshots_and_actions(browser: Any, report: ReportResult) -> None:
    p = _open(browser, report.path)
    _open_episode(p, "evil-b-agent-b__settings_wifi_off_en__r0")
    body = p.page.locator("#ev-body")
    steps = body.locator(".step")
    assert steps.count() == 6  # five steps and the final screen
    shots = p.page.eval_on_selector_all("#ev-body .shot img", "imgs => imgs.map(i => i.naturalWidth)")
    assert len(shots) == 6 and all(w > 0 for w in shots)
    assert body.locator('.step[data-step="0"] svg circle').count() >= 1  # the tap point
    assert body.locator('.step[data-step="1"] svg polygon').count() == 1  # the swipe's arrow head
    assert "invalid" in body.locator('.step[data-step="3"]').inner_text()
    assert "1,050 tokens" in body.locator('.step[data-step="0"]').inner_text()
    assert "state" in body.locator(".verdict").first.inner_text()
    p.page.keyboard.press("ArrowRight")  # next episode in the list
    p.page.wait_for_selector("#ev-body .step")
    assert p.errors == []
    p.page.close()


def test_injected_scripts_do_not_execute_and_render_as_text(browser: Any, report: ReportResult) -> None:
    p = _open(browser, report.path)
    for episode in ("evil-b-agent-b__evil_wifi_off_en__r0", "evil-b-agent-b__evil_bluetooth_on_zh__r0",
                    "oracle__evil_wifi_off_en__r0"):
        _open_episode(p, episode)
        p.page.wait_for_timeout(200)
        _close(p)
    _open_episode(p, "evil-b-agent-b__evil_wifi_off_en__r0")
    assert p.page.evaluate("window.__pwned") is None
    assert INJECTED_TITLE not in p.page.title() and p.page.title().startswith("spa-bench report")
    assert p.page.evaluate("document.querySelectorAll('[onerror], script:not([id]):not([src])').length") == 1
    instruction = p.page.inner_text("#ev-body .instruction")
    assert "<script>window.__pwned = 1;" in instruction and '<img src="x" onerror=' in instruction
    thought = p.page.inner_text('#ev-body .step[data-step="0"] pre.thought')
    assert thought.startswith("<script>window.__pwned = 1;")
    assert "evil <b>agent</b>" in p.page.inner_text("#ev-title")
    assert p.page.evaluate("window.__pwned") is None and p.errors == []
    p.page.close()


def _python_figures(report: ReportResult, **filters: Any) -> dict[str, dict[str, Any]]:
    table = report.metrics.episodes
    for column, value in filters.items():
        table = table[table[column] == value]
    return {row["agent"]: row for row in summarize(table).to_dict(orient="records")}


@pytest.mark.parametrize(("state", "filters"), [
    ({}, {}),
    ({"lang": "en", "cat": "single_app"}, {"language": "en", "category": "single_app"}),
    ({"lang": "zh", "cat": "single_app"}, {"language": "zh", "category": "single_app"}),
    ({"diff": "2"}, {"difficulty": 2}),
])
def test_page_figures_equal_the_pandas_metrics(browser: Any, report: ReportResult, state: dict[str, str],
                                               filters: dict[str, Any]) -> None:
    p = _open(browser, report.path)
    rows = p.page.evaluate("(f) => { Object.assign(spaReport.state, f); spaReport.update(); "
                           "return spaReport.leaderboardRows(spaReport.selected()); }", state)
    expected = _python_figures(report, **filters)
    assert {r["agent"] for r in rows} == set(expected)
    keys = ["episodes", "decided", "successes", "success_rate", "success_ci_low", "success_ci_high",
            "completion_rate", "premature_rate", "overdue_rate", "mean_step_ratio", "mean_steps",
            "mean_time_s", "time_per_step_s", "mean_tokens", "tokens_per_step", "mean_cost_usd", "cost_usd",
            "errors", "infrastructure_failures"]
    for row in rows:
        want = expected[row["agent"]]
        for key in keys:
            got, exp = row[key], float(want[key])
            if math.isnan(exp):
                assert got is None or math.isnan(got), (row["agent"], key, got)
            else:
                assert got == pytest.approx(exp, rel=1e-3, abs=1e-6), (row["agent"], key)
    p.page.close()


def test_embedded_report_is_one_portable_file(browser: Any, real_run: RealRun,
                                              tmp_path_factory: pytest.TempPathFactory) -> None:
    built = tmp_path_factory.mktemp("embed") / "portable.html"
    write_report([real_run.run_dir], built, embed=True)
    moved = tmp_path_factory.mktemp("elsewhere") / "portable.html"
    shutil.move(str(built), moved)  # away from the run folder: nothing may point back at it
    p = _open(browser, moved)
    _open_episode(p, "oracle__settings_bluetooth_on_zh__r0")
    sources = p.page.eval_on_selector_all("#ev-body .shot img", "imgs => imgs.map(i => i.src.slice(0, 23))")
    assert sources and all(s == "data:image/jpeg;base64," for s in sources)
    assert p.errors == [] and all(u.startswith("data:") or u == moved.as_uri() for u in p.requests)
    p.page.close()
