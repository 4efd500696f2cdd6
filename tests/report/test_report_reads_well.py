"""The report reads well (issue 35, requirement 4), in Chromium over a run written here (no phone): a deep
link by episode id (the old row index still accepted), interval whiskers on the difficulty and language
charts with the Wilson bounds of their cells, chart labels that do not overlap or leave the chart at any
agent count (bounding boxes in the browser, at 1400 and 800 px), the step header apart from its package,
and captured sqlite output with its separators shown (rows on lines, fields parted by a bar)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import test_hard_views
import test_report_browser
from rich.console import Console

from spa_bench.actions import Finish, Tap
from spa_bench.evaluation.metrics import wilson_interval
from spa_bench.report import build_report, write_report
from spa_bench.report.details import FIELD_MARK, readable_command, readable_output
from spa_bench.report.terminal import hard_tables, robust_tables
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    CapturedCommand,
    CheckCapture,
    DeviceInfo,
    EpisodeLog,
    InstanceInfo,
    ObservationRef,
    RunManifest,
    StepRecord,
    TokenUsage,
    Verdict,
)
from spa_bench.tasks.model import Task

chromium = test_report_browser.browser  # the headless Chromium of the browser tests (skips without one)
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SQL = ("sqlite3 -separator '\x1f' -newline '\x1e' -nullvalue NULL /data/data/com.google.android.keep/"
       "databases/notes.db 'SELECT title, body FROM notes'")
SQL_OUT = "Ideas\x1fStart a podcast\x1eGroceries\x1fmilk, eggs\x1e"
PACKAGE = "com.google.android.apps.some.very.long.package.name"


def _task(task_id: str, language: str, difficulty: int) -> Task:
    return Task.model_validate({
        "id": task_id, "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
        "language": language, "difficulty": difficulty, "category": "single_app",
        "instruction": f"Do {task_id}.", "golden_steps": 2,
        "checks": [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}]})


TASKS = [_task("t_one_en", "en", 1), _task("t_two_zh", "zh", 2), _task("t_three_en", "en", 2)]


def _log(agent: str, task: Task, repeat: int, success: bool, cost: float) -> EpisodeLog:
    steps = [StepRecord(index=i, started_at=T0, observation=ObservationRef(package=PACKAGE), action=action,
                        usage=TokenUsage(prompt_tokens=100, calls=1, cost_usd=cost / 2))
             for i, action in enumerate((Tap(x=10, y=20), Finish()))]
    capture = [CheckCapture(index=0, type="sqlite", check_sha256="0" * 64,
                            commands=[CapturedCommand(command=SQL, output=SQL_OUT, exit_code=0)])]
    return EpisodeLog(
        episode_id=f"{agent}__{task.id}__r{repeat}", run_id="readable", status="finished", task=task,
        task_file="t.yaml", instance=InstanceInfo(repeat=repeat, seed=repeat),
        agent=AgentSpec(name=agent, reference="scripted"), device=DeviceInfo(serial="emulator-5554",
                                                                             kind="virtual"),
        started_at=T0, finished_at=T0 + timedelta(seconds=5), steps=steps, termination="done",
        verdicts=[Verdict(evaluator="state", role="ground_truth", success=success, created_at=T0)],
        captured_state=capture)


def _outcome(a: int, t: int, r: int) -> bool:
    return (a * 7 + t * 3 + r) % (a % 4 + 2) == 0  # spread rates, with ties


def write_run(root: Path, agents: int) -> Path:
    """`agents` agents with long names (several share a cost and a rate), 3 tasks x 4 repeats each."""
    layout = RunLayout(root / f"run-{agents}")
    layout.write_manifest(RunManifest(run_id=f"readable-{agents}", created_at=T0, spa_bench_version="test",
                                      python="3", platform="linux", tasks_root=str(root)))
    for a in range(agents):
        name = f"agent-with-a-rather-long-name-{a:02d}"
        for t, task in enumerate(TASKS):
            for r in range(4):
                layout.write_episode(_log(name, task, r, _outcome(a, t, r), cost=0.01 * (a % 3)))
    return layout.root


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    root = tmp_path_factory.mktemp("reads-well")
    return {n: write_report([write_run(root, n)], root / f"report-{n}.html").path for n in (3, 24)}


def _open(chromium: Any, path: Path, width: int, fragment: str = "") -> Any:
    page = chromium.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.resolve().as_uri() + fragment)
    page.wait_for_selector("#lb-table tbody tr")
    page.errors = errors
    return page


Point = tuple[float, float]


def _separated(a: list[Point], b: list[Point]) -> bool:
    """Two convex quadrilaterals (a label's box as drawn, slanted or not) do not overlap: some edge's
    normal separates them (the separating axis theorem)."""
    for quad in (a, b):
        for i in range(4):
            (x1, y1), (x2, y2) = quad[i], quad[(i + 1) % 4]
            nx, ny = y1 - y2, x2 - x1
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return True
    return False


def _overlaps(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if not _separated(a["corners"], b["corners"])]


# each label's text box (getBBox, before its own rotation) mapped to the screen, corner by corner; and
# whether it lies inside its chart (the svg, and the chart's box when the chart scrolls sideways)
BOXES = """(sel) => [...document.querySelectorAll(sel)].map((el) => {
  const b = el.getBBox(), m = el.getScreenCTM(), s = el.closest('svg').getBoundingClientRect(),
    c = el.closest('.chart'), r = el.getBoundingClientRect();
  const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
    .map(([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; });
  const box = c.getBoundingClientRect(), left = box.left - c.scrollLeft;
  return { corners: corners, text: el.firstChild.textContent, inside: r.left >= Math.max(s.left, left) - 0.5
    && r.right <= s.right + 0.5 && r.top >= s.top - 0.5 && r.bottom <= s.bottom + 0.5 };
})"""


def test_readable_sqlite_output() -> None:
    assert readable_output(SQL_OUT) == f"Ideas{FIELD_MARK}Start a podcast\nGroceries{FIELD_MARK}milk, eggs"
    assert readable_output("3\x1e") == "3" and readable_output("") == ""
    assert readable_output("a\x07") == "a\\x07"
    assert readable_command(SQL).startswith("sqlite3 -separator '\\x1f' -newline '\\x1e' ")


def test_deep_link_by_episode_id_and_by_row_index(chromium: Any, reports: dict[int, Path]) -> None:
    path, episode = reports[3], "agent-with-a-rather-long-name-01__t_two_zh__r2"
    page = _open(chromium, path, 1400, "#episode=" + episode)
    page.wait_for_selector("#ev-body .step")
    assert "t_two_zh" in page.inner_text("#ev-title") and "r2" in page.inner_text("#ev-title")
    assert episode in page.inner_text("#ev-body dl.meta")
    page.click("#ev-next")
    page.wait_for_function("(id) => location.hash !== '#episode=' + id", arg=episode)
    shown = page.evaluate("() => decodeURIComponent(location.hash.slice('#episode='.length))")
    assert shown != episode and shown in page.evaluate("() => spaReport.doc.episodes.id")
    page.evaluate("(id) => { location.hash = '#episode=' + id; }", episode)  # a link followed on the page
    page.wait_for_function("(id) => document.querySelector('#ev-body dl.meta')?.textContent.includes(id)",
                           arg=episode)
    ids = page.evaluate("() => spaReport.doc.episodes.id")
    old = _open(chromium, path, 1400, "#episode=5")  # the row-index form of older links
    old.wait_for_selector("#ev-body .step")
    assert ids[5] in old.inner_text("#ev-body dl.meta")
    assert "#episode=&lt;episode-id&gt;" in path.read_text(encoding="utf-8")  # documented on the page
    assert page.errors == [] and old.errors == []
    page.close()
    old.close()


@pytest.mark.parametrize("chart", [0, 1])
def test_interval_whiskers_have_the_wilson_bounds(chromium: Any, reports: dict[int, Path],
                                                  chart: int) -> None:
    page = _open(chromium, reports[3], 1400)
    whiskers = page.evaluate("""(n) => [...document.querySelectorAll('#chart-grid .chart')[n]
      .querySelectorAll('g.ci')].map((g) => ({ agent: g.dataset.group, key: g.dataset.key,
        low: +g.dataset.low, high: +g.dataset.high,
        ys: [...g.querySelectorAll('line')].map((l) => +l.getAttribute('y1')),
        bar: +[...g.parentNode.querySelectorAll('rect')].find((r) => r.querySelector('title')?.textContent
          .startsWith(g.dataset.group + ' · ' + g.dataset.key + ':')).getAttribute('y') }))""", chart)
    assert len(whiskers) == 3 * 2  # 3 agents x (difficulty 1, 2) or (en, zh)
    for w in whiskers:
        a = int(w["agent"][-2:])
        keys = [str(task.difficulty) if chart == 0 else task.language for task in TASKS]
        cells = [(t, r) for t, key in enumerate(keys) for r in range(4) if key == w["key"]]
        k = sum(_outcome(a, t, r) for t, r in cells)
        low, high = wilson_interval(k, len(cells))
        assert (w["low"], w["high"]) == (pytest.approx(low, abs=1e-4), pytest.approx(high, abs=1e-4)), w
        top, bottom = min(w["ys"]), max(w["ys"])  # the whisker brackets the bar's top (the rate)
        assert top - 0.01 <= w["bar"] <= bottom + 0.01 or (k == 0 and w["bar"] >= top), w
    assert page.errors == []
    page.close()


@pytest.mark.parametrize("agents", [3, 24])
@pytest.mark.parametrize("width", [1400, 800])
def test_chart_labels_neither_overlap_nor_leave_the_chart(chromium: Any, reports: dict[int, Path],
                                                         agents: int, width: int) -> None:
    page = _open(chromium, reports[agents], width)
    for n in range(2):  # the difficulty and the language charts
        boxes = page.evaluate(BOXES, f"#chart-grid .chart:nth-child({n + 1}) .axis-label")
        assert len(boxes) == agents
        assert _overlaps(boxes) == []
        assert all(b["inside"] for b in boxes), [b for b in boxes if not b["inside"]]
    points = page.evaluate(BOXES, "#chart-grid .point-label")
    assert len(points) == agents  # every agent has a known cost
    assert _overlaps(points) == []
    assert all(p["inside"] for p in points), [p for p in points if not p["inside"]]
    assert page.errors == []
    page.close()


def test_step_header_and_sqlite_separators(chromium: Any, reports: dict[int, Path]) -> None:
    episode = "agent-with-a-rather-long-name-00__t_one_en__r0"
    page = _open(chromium, reports[3], 800, "#episode=" + episode)
    page.wait_for_selector("#ev-body .step")
    number = page.locator('#ev-body .step[data-step="0"] .head .n').bounding_box()
    package = page.locator('#ev-body .step[data-step="0"] .head .pkg').bounding_box()
    assert page.inner_text('#ev-body .step[data-step="0"] .head .n') == "step 0"
    assert number["x"] + number["width"] + 4 <= package["x"]  # apart, the package cut with an ellipsis
    card = page.locator('#ev-body .step[data-step="0"]').bounding_box()
    assert package["x"] + package["width"] <= card["x"] + card["width"]
    state = page.evaluate("() => [...document.querySelectorAll('#ev-body pre')]"
                          ".map((p) => p.textContent).find((t) => t.includes('sqlite3'))")
    assert "\x1f" not in state and "\x1e" not in state
    assert "-separator '\\x1f' -newline '\\x1e'" in state
    assert f"Ideas{FIELD_MARK}Start a podcast\nGroceries{FIELD_MARK}milk, eggs" in state
    assert page.errors == []
    page.close()


def test_hard_and_robust_tables_at_80_columns(tmp_path: Path) -> None:
    """`spa-bench report` in an 80-column terminal: a grid of rates too wide for it becomes one rate a
    row, so no rate or interval is cut; the asking table's headers stand on two lines."""
    runs = [test_hard_views._plain_run(tmp_path), test_hard_views._varied_run(tmp_path)]
    result = build_report(runs, tmp_path / "r.html", workers=1, merge=True, all_tasks=True)
    assert result.hard is not None and result.robust is not None
    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    for table in [*hard_tables(result.hard, width=80), *robust_tables(result.robust)]:
        console.print(table)
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "…" not in text, text
    assert "│ asker   │ interruption   │   66.7% 2/3 (20.8–93.9%) │" in text
    assert "questions" in text and "needlessly" in text
    assert "66.7% 10/15 (41.7–84.8%)" in text
    wide = Console(width=200, record=True, color_system=None, file=io.StringIO())
    for table in hard_tables(result.hard, width=200):
        wide.print(table)
    assert "┃ agent   ┃" in wide.export_text() and "│ interruption" not in wide.export_text()  # the grid


def test_every_rate_of_the_page_leaderboard_has_its_interval(chromium: Any, reports: dict[int, Path]) -> None:
    page = _open(chromium, reports[3], 1400)
    for a in range(3):
        name = f"agent-with-a-rather-long-name-{a:02d}"
        cells = page.locator(f'#lb-table tr[data-agent="{name}"] td')
        keys = page.evaluate("() => [...document.querySelectorAll('#lb-table thead th')]"
                             ".map((t) => t.dataset.key)")
        failures = sum(not _outcome(a, t, r) for t in range(len(TASKS)) for r in range(4))
        for key, k in (("completion_rate", 12), ("premature_rate", failures), ("overdue_rate", 0)):
            low, high = wilson_interval(k, 12)  # 12 decided episodes, each said done
            text = cells.nth(keys.index(key)).inner_text()
            assert f"{100 * low:.1f}%–{100 * high:.1f}%" in text, (name, key, text)
    card = page.inner_text("#overview")
    assert "overall success" in card and "95% CI" in card
    assert page.errors == []
    page.close()
