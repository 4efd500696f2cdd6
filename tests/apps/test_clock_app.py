"""Clock: every task of tasks/clock through the real pipeline (oracle succeeds, noop fails), near misses
that the state checks catch, and the main screen read back by OCR in English and Chinese."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pim_runs import (
    assert_near_misses_fail,
    assert_oracle_and_noop,
    missing_labels,
    near_miss_logs,
    ocr_read,
    of_app,
    oracle_noop_logs,
)

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]

PREFIX = "clock_"
PACKAGE = "com.android.deskclock"
LABELS: dict[str, list[str]] = {
    "en": ["Alarm", "Wake up", "6:30 AM", "Stopwatch", "Timer"],
    "zh": ["闹钟", "工作日", "06:30", "秒表", "计时器", "起床"],
}


@pytest.fixture(scope="module")
def ocr() -> Any:
    rapidocr = pytest.importorskip("rapidocr")
    return rapidocr.RapidOCR()


def test_oracle_succeeds_and_noop_fails(tmp_path_factory: pytest.TempPathFactory) -> None:
    logs = of_app(oracle_noop_logs(tmp_path_factory.mktemp), PREFIX)
    assert_oracle_and_noop(logs, 14)


def test_near_misses_fail(tmp_path_factory: pytest.TempPathFactory) -> None:
    assert assert_near_misses_fail(near_miss_logs(tmp_path_factory.mktemp), PREFIX) >= 2


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_main_screen_reads_in_both_languages(ocr: Any, tmp_path: Path, locale: str) -> None:
    read = ocr_read(ocr, locale, PACKAGE, tmp_path, f"/tmp/spa_app_clock_{locale}.png")
    assert not missing_labels(read, LABELS[locale]), f"OCR read {read}"
