"""The Keep Notes suite through the real pipeline (oracle passes every task - three instances of each
parameterised one - noop none), and the main screen read back by OCR in English and Chinese. Its near
misses are in the task files (tests/tasks/test_near_misses.py replays them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pim_runs import missing_labels, ocr_read

LABELS = {
    "en": ["Search your notes", "Pinned", "Wi-Fi password", "Others", "Shopping list"],
    "zh": ["搜索您的记事", "已固定", "旅行清单", "其他", "会议纪要"],
}


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_main_screen_reads_in_both_languages(tmp_path: Path, locale: str) -> None:
    rapidocr = pytest.importorskip("rapidocr")
    png = str(tmp_path / f"notes_{locale}.png")
    read = ocr_read(rapidocr.RapidOCR(), locale, "com.google.android.keep", tmp_path, png)
    assert not missing_labels(read, LABELS[locale]), f"OCR read {read}"
