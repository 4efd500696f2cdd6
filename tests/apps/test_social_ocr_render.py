"""Circle's main screen is legible in both languages: rapidocr reads the app's title and feed strings
back from the rendered screenshot (the PNGs stay in the test's tmp_path for a human look)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pim_runs import missing_labels, ocr_read

pytestmark = pytest.mark.slow

EXPECTED = {
    "en": ["Circle", "For you", "Following", "Ethan Brooks", "#newmusic", "Notifications"],
    "zh": ["圈子", "推荐", "关注", "小鹿爱吃饭", "#在家做饭#", "首页"],
}


@pytest.mark.parametrize("locale", sorted(EXPECTED))
def test_feed_is_readable(ocr: Any, tmp_path: Path, locale: str) -> None:
    read = ocr_read(ocr, locale, "com.spa.social", tmp_path, str(tmp_path / f"social_{locale}.png"))
    missing = missing_labels(read, EXPECTED[locale])
    assert not missing, f"OCR missed {missing}; read {read}"
