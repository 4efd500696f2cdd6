"""Contacts: every task of tasks/contacts through the real pipeline (oracle succeeds, noop fails), near misses
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

PREFIX = "contacts_"
PACKAGE = "com.android.contacts"
LABELS: dict[str, list[str]] = {
    "en": ["Search contacts", "Favourites", "Alice Chen", "Anna Lin", "Bob Li"],
    "zh": ["搜索联系人", "收藏", "王芳", "Anna Lin", "David Kim"],
}


@pytest.fixture(scope="module")
def ocr() -> Any:
    rapidocr = pytest.importorskip("rapidocr")
    return rapidocr.RapidOCR()


def test_oracle_succeeds_and_noop_fails(tmp_path_factory: pytest.TempPathFactory) -> None:
    logs = of_app(oracle_noop_logs(tmp_path_factory.mktemp), PREFIX)
    assert_oracle_and_noop(logs, 16)


def test_near_misses_fail(tmp_path_factory: pytest.TempPathFactory) -> None:
    assert assert_near_misses_fail(near_miss_logs(tmp_path_factory.mktemp), PREFIX) >= 2


@pytest.mark.parametrize("locale", ["en", "zh"])
def test_main_screen_reads_in_both_languages(ocr: Any, tmp_path: Path, locale: str) -> None:
    read = ocr_read(ocr, locale, PACKAGE, tmp_path, f"/tmp/spa_app_contacts_{locale}.png")
    assert not missing_labels(read, LABELS[locale]), f"OCR read {read}"
