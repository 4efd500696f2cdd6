"""Calibration on a hand-built set of episodes whose confusion counts are known: the figures per
evaluator and language, the coarse-to-fine pipeline row, what is left out, and the CLI table."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_helpers import run_cli
from eval_builders import episode, task, verdict

from spa_bench.evaluation.calibration import PIPELINE, agreement, calibrate, calibration_table
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, RunManifest

CHECK = [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}]
JUDGE = "judge:gpt-4o@api.openai.com"
KC = "key_components:rapidocr"

# (language, truth, judge, key components) per episode
CASES: list[tuple[str, bool, bool | None, bool | None]] = [
    ("en", True, True, True), ("en", True, True, True), ("en", True, True, False),  # 3 TP; KC fails one
    ("en", False, True, True),  # FP
    ("en", False, False, True), ("en", False, False, False),  # 2 TN
    ("en", True, False, True),  # FN
    ("en", True, None, True),  # judge undecided
    ("zh", True, True, None), ("zh", False, False, None), ("zh", True, False, None),  # TP, TN, FN; no KC
]


def hand_built() -> list[EpisodeLog]:
    logs = []
    for i, (language, truth, judged, kc) in enumerate(CASES):
        verdicts = [verdict("state", truth)]
        if kc is not None:
            verdicts.append(verdict(KC, kc))
        verdicts.append(verdict(JUDGE, judged, cost=0.01))
        the_task = task(f"t{i}_{language}", language=language,  # type: ignore[arg-type]
                        checks=CHECK, key_components=["Wi-Fi"])
        logs.append(episode(the_task, steps=2, verdicts=verdicts))
    # left out: no checks; no state verdict; state undecided; an infrastructure failure
    logs.append(episode(task("free", key_components=["x"]), verdicts=[verdict(JUDGE, True)]))
    logs.append(episode(task("nostate", checks=CHECK), verdicts=[verdict(JUDGE, True)]))
    logs.append(episode(task("undecided", checks=CHECK),
                        verdicts=[verdict("state", None), verdict(JUDGE, True)]))
    logs.append(episode(task("infra", checks=CHECK), termination="device_error",
                        verdicts=[verdict("state", False), verdict(JUDGE, True)]))
    return logs


def _row(rows: list, evaluator: str, language: str):  # type: ignore[no-untyped-def,type-arg]
    return next(r for r in rows if r.evaluator == evaluator and r.language == language)


def test_agreement_figures_per_evaluator_and_language() -> None:
    rows = calibrate(hand_built())
    judge = _row(rows, JUDGE, "all")
    assert (judge.episodes, judge.undecided, judge.tp, judge.fp, judge.tn, judge.fn) == (11, 1, 4, 1, 3, 2)
    assert judge.accuracy == pytest.approx(0.7) and judge.precision == pytest.approx(0.8)
    assert judge.recall == pytest.approx(4 / 6) and judge.f1 == pytest.approx(8 / 11)
    assert judge.kappa == pytest.approx(0.4)  # p_o 0.7, p_e (5*6 + 5*4) / 100 = 0.5
    assert judge.coverage == pytest.approx(10 / 11)
    en = _row(rows, JUDGE, "en")
    assert (en.tp, en.fp, en.tn, en.fn, en.undecided) == (3, 1, 2, 1, 1)
    assert en.kappa == pytest.approx(10 / 24)  # p_o 5/7, p_e 25/49
    zh = _row(rows, JUDGE, "zh")
    assert (zh.tp, zh.fp, zh.tn, zh.fn) == (1, 0, 1, 1)
    assert zh.precision == 1.0 and zh.recall == 0.5 and zh.kappa == pytest.approx(0.4)
    kc = _row(rows, KC, "all")
    assert (kc.tp, kc.fp, kc.tn, kc.fn) == (4, 2, 1, 1) and kc.episodes == 8
    assert {r.language for r in rows if r.evaluator == KC} == {"all", "en"}


def test_pipeline_row_gates_the_judge_by_key_components() -> None:
    pipeline = _row(calibrate(hand_built()), PIPELINE, "all")
    # en only (the zh episodes have no key-component verdict): failed key components turn one judge TP
    # into a FN (and one TN stays TN); the judge's FP passed key components and stays; undecided stays
    assert (pipeline.tp, pipeline.fp, pipeline.tn, pipeline.fn, pipeline.undecided) == (2, 1, 2, 2, 1)


def test_degenerate_agreement_is_nan_not_an_error() -> None:
    from spa_bench.evaluation.calibration import Pair

    allyes = agreement("x", "all", [Pair("e", "en", True, True)] * 3)
    assert allyes.accuracy == 1.0 and allyes.f1 == 1.0 and math.isnan(allyes.kappa)
    none = agreement("x", "all", [Pair("e", "en", True, None)])
    assert none.decided == 0 and math.isnan(none.accuracy) and math.isnan(none.precision)


def test_table_columns() -> None:
    frame = calibration_table(hand_built())
    assert list(frame.columns)[:3] == ["evaluator", "language", "episodes"]
    assert set(frame["evaluator"]) == {JUDGE, KC, PIPELINE}


def test_cli_calibrate_prints_the_agreement_table(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    layout = RunLayout(tmp_path / "run-1")
    layout.write_manifest(RunManifest(run_id="run-1", created_at=datetime(2025, 1, 6, tzinfo=UTC),
                                      spa_bench_version="test", python="3.11", platform="test",
                                      tasks_root="x"))
    for log in hand_built():
        layout.write_episode(log)
    result = run_cli(capsys, "evaluate", "--calibrate", "--wide", str(layout.root))
    assert result.code == 0, result.err
    line = next(ln for ln in result.out.splitlines() if JUDGE in ln and " all " in ln)
    cells = line.replace("│", " ").split()
    assert cells[1:] == ["all", "11", "1", "0.70", "0.73", "0.40", "4", "1", "3", "2", "0.80", "0.67"]
    assert "evaluators vs state checks" in result.out
    assert (layout.root / "metrics" / "calibration.csv").is_file()
