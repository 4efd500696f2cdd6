"""Fixtures for the evaluation tests: one OCR cache per session, so each distinct screenshot is read by
the real engine once however many tests look at it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from eval_builders import CountingEngine

from spa_bench.evaluation.ocr_cache import OcrCache


@pytest.fixture(scope="session")
def engine() -> CountingEngine:
    return CountingEngine()


@pytest.fixture(scope="session")
def shared_cache_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("ocr-cache") / "ocr.sqlite"


@pytest.fixture(scope="session")
def shared_cache(shared_cache_path: Path) -> Iterator[OcrCache]:
    cache = OcrCache(shared_cache_path)
    yield cache
    cache.close()
