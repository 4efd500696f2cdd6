"""The headless Chromium of the browser tests (report, studio): Debian's Chromium driven by Playwright. In
CI (CI=true) a test that needs it fails instead of skipping when the browser or Playwright is missing;
elsewhere it skips."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
                 "--disable-domain-reliability", "--metrics-recording-only"]


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").is_file() else None


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Any]:
    in_ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[dev]')"
    executable = _chromium()
    if missing is None and executable is None:
        missing = "chromium is not installed (apt-get install chromium)"
    if missing is not None:
        if in_ci:
            pytest.fail(f"browser tests cannot run in CI: {missing}")
        pytest.skip(missing)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
