"""The report's data preparation and escaping, on a real run (no browser needed)."""

from __future__ import annotations

import json
import math
import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from cli_helpers import run_cli
from conftest import RealRun

from spa_bench.actions import Scroll, Tap
from spa_bench.device.gesture import scroll_path
from spa_bench.drawing import StepGestures
from spa_bench.evaluation.metrics import episode_row, episode_table, summarize
from spa_bench.report import build_report, write_report
from spa_bench.report.build import details_dir
from spa_bench.report.data import table_from_rows
from spa_bench.report.html import render_page, script_json
from spa_bench.report.load import load_runs, read_episode
from spa_bench.report.overlay import overlay
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import ObservationRef, StepRecord

pytestmark = pytest.mark.usefixtures("adb_env")


def _document(html: str) -> dict:
    match = re.search(r'<script type="application/json" id="spa-data">(.*?)</script>', html, re.S)
    assert match is not None
    return json.loads(match.group(1))


def test_script_json_cannot_close_the_script_or_open_a_comment() -> None:
    value = {"a": "</script><script>alert(1)</script>", "b": "<!-- x -->", "c": "a & b \u2028"}
    text = script_json(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == value


def test_page_holds_only_its_own_scripts_and_the_data_round_trips(real_run: RealRun, tmp_path: Path) -> None:
    result = build_report([real_run.run_dir], tmp_path / "r.html")
    html = result.html
    # ours: the data and the page script, nothing else (details are beside the page)
    assert len(re.findall(r"<script\b", html, re.I)) == 2
    assert "window.__pwned" in html  # the text is there, escaped inside the JSON ...
    assert "<script>window" not in html and "<img" not in html and "<!--" not in html  # ... never as markup
    doc = _document(html)
    instructions = {t["id"]: t["instruction"] for t in doc["tasks"]}
    assert "<script>window.__pwned = 1;" in instructions["evil_wifi_off_en"]
    assert "</script><script>" in instructions["evil_bluetooth_on_zh"]
    assert "evil <b>agent</b>" in doc["agents"]
    assert "Content-Security-Policy" in html and "connect-src" not in html and "default-src 'none'" in html


def test_metrics_rows_from_workers_equal_the_episode_table(real_run: RealRun) -> None:
    logs = list(RunLayout(real_run.run_dir).episodes())
    expected = episode_table(logs)
    got = table_from_rows([episode_row(log) for log in logs])
    assert got.equals(expected)
    # and the report's per-agent figures are metrics.summarize of that table
    result = build_report([real_run.run_dir], real_run.run_dir / "x.html", workers=2)
    left = result.metrics.agents.set_index("agent").sort_index()
    right = summarize(expected).set_index("agent").sort_index()
    assert list(left.index) == ["evil <b>agent</b>", "noop", "oracle"]
    assert left["success_rate"].tolist() == right["success_rate"].tolist()
    assert left.loc["oracle", "success_rate"] == 1.0 and left.loc["noop", "success_rate"] == 0.0
    evil = "evil <b>agent</b>"
    assert left.loc[evil, "cost_usd"] == pytest.approx(right.loc[evil, "cost_usd"])


def test_episode_columns_match_the_metrics(real_run: RealRun, tmp_path: Path) -> None:
    result = build_report([real_run.run_dir], tmp_path / "r.html")
    doc = _document(result.html)
    eps = doc["episodes"]
    table = result.metrics.episodes
    assert eps["id"] == table["episode_id"].tolist()
    for i, success in enumerate(table["success"].tolist()):
        assert eps["success"][i] == (None if success is None or str(success) == "<NA>" else int(success))
    ratio = table["step_ratio"].tolist()
    assert [None if math.isnan(r) else pytest.approx(r) for r in ratio] == eps["step_ratio"]
    assert doc["details"]["dir"] == "r_files" and not doc["details"]["inline"]
    assert sorted(doc["suites"]) == ["evil", "settings"]


def test_overlay_marks_follow_the_device(real_run: RealRun) -> None:
    layout = RunLayout(real_run.run_dir)
    oracle = read_episode(layout.episode_path("oracle__settings_wifi_off_en__r0"))
    gestures = StepGestures(layout.episode_dir(oracle.episode_id))
    first = oracle.steps[0]
    assert first.action is not None and first.action.type == "tap" and first.gesture is not None
    mark = overlay(first, gestures)
    # the recorded gesture: the tap is inside the element's box
    left, top, right, bottom = mark["box"]
    assert mark["k"] == "tap" and left <= mark["x"] <= right and top <= mark["y"] <= bottom
    assert (mark["x"], mark["y"]) == first.gesture.points[0]
    # a log written before gestures were recorded: resolved from the selector and the saved XML
    assert overlay(first.model_copy(update={"gesture": None}), gestures) == mark
    obs = ObservationRef(width=1080, height=2400)
    step = StepRecord(index=0, started_at=datetime.now(), observation=obs, action=Tap(x=5, y=6))
    assert overlay(step, gestures) == {"k": "tap", "x": 5, "y": 6}
    swipe = overlay(step.model_copy(update={"action": Scroll(direction="down")}), gestures)
    assert (swipe["x1"], swipe["y1"], swipe["x2"], swipe["y2"]) == scroll_path("down", (0, 600, 1080, 1800))
    assert swipe["y1"] > swipe["y2"]  # "down" moves the finger up


def test_write_report_writes_details_beside_it_and_embed_writes_one_file(real_run: RealRun,
                                                                          tmp_path: Path) -> None:
    out = tmp_path / "a" / "report.html"
    out.parent.mkdir()
    result = write_report([real_run.run_dir], out)
    chunks = sorted(details_dir(out).glob("details-*.js"))
    assert out.is_file() and len(chunks) == 1
    assert chunks[0].read_text().startswith('spaDetails(0,"')
    doc = _document(out.read_text())
    first = doc["runs"][0]["dir"]
    assert (out.parent / first).resolve() == real_run.run_dir.resolve()
    embedded = write_report([real_run.run_dir], tmp_path / "b.html", embed=True)
    assert not details_dir(tmp_path / "b.html").exists()
    assert embedded.html.count('type="text/plain" id="spa-chunk-') == 1
    assert embedded.size_bytes > 5 * result.size_bytes  # thumbnails are inside


def test_an_unreadable_log_is_listed_not_fatal(real_run: RealRun, tmp_path: Path) -> None:
    copy = tmp_path / "run"
    shutil.copytree(real_run.run_dir, copy, ignore=shutil.ignore_patterns("*.png", "*.xml"))
    broken = copy / "episodes" / "noop__settings_wifi_off_en__r0" / "episode.json"
    broken.write_text('{"schema_version": 99}')
    result = build_report([copy], tmp_path / "r.html")
    assert result.episodes == 14
    assert "schema_version 99" in result.runs[0].unreadable["noop__settings_wifi_off_en__r0"]


def test_cli_report_prints_the_leaderboard_and_the_path(real_run: RealRun, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.html"
    result = run_cli(capsys, "report", str(real_run.run_dir), "-o", str(out))
    assert result.code == 0, result.err
    assert "oracle" in result.out and "100.0%" in result.out and str(out) in result.out
    assert out.is_file()
    missing = run_cli(capsys, "report", str(tmp_path / "nope"))
    assert missing.code == 1 and "no such run folder" in missing.err


def test_render_page_substitutes_once(tmp_path: Path) -> None:
    page = render_page({"x": "__JS__ __DATA__"}, [], "t <b>")
    assert page.count("__JS__") == 1 and "<title>t &lt;b&gt;</title>" in page


def test_worker_processes_give_the_same_report(real_run: RealRun, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import spa_bench.report.data as data

    monkeypatch.setattr(data, "CHUNK_SIZE", 3)  # 15 episodes -> 5 chunks: enough for the process pool
    runs = load_runs([real_run.run_dir])
    inline = data.build_data(runs, tmp_path / "r.html", workers=1, now=lambda: datetime(2025, 1, 1))
    pooled = data.build_data(runs, tmp_path / "r.html", workers=2, now=lambda: datetime(2025, 1, 1))
    assert len(pooled.chunks) == 5 and pooled.chunks == inline.chunks
    assert pooled.document == inline.document
    assert pooled.metrics.episodes.equals(inline.metrics.episodes)
