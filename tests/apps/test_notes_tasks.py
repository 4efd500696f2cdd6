"""The Keep Notes main screen read back by OCR in English and Chinese. The suite's tasks run in
tests/tasks/test_every_task.py (oracle passes, noop fails) and their near misses in test_near_misses.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pim_runs import missing_labels, ocr_read

LABELS = {
    "en": ["Search your notes", "Pinned", "Wi-Fi password", "Others", "Shopping list"],
    "zh": ["搜索您的记事", "已固定", "旅行清单", "其他", "会议纪要"],
}


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_main_screen_reads_in_both_languages(ocr: Any, tmp_path: Path, locale: str) -> None:
    png = str(tmp_path / f"notes_{locale}.png")
    read = ocr_read(ocr, locale, "com.google.android.keep", tmp_path, png)
    assert not missing_labels(read, LABELS[locale]), f"OCR read {read}"
