"""The main screens of the Browser (its new-tab page: the Searchly start page, as Chrome's shows Google's)
and Maps are legible in both languages: rapidocr reads the screen's title and more labels back from the
rendered screenshot (PNGs are kept in the test's tmp_path for a look)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pim_runs import norm

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

pytestmark = pytest.mark.slow

EXPECTED = {
    ("en", "com.android.browser"): [
        "Searchly",
        "Search or type web address",
        "Shortcuts",
        "Openpedia",
        "Bay Daily",
    ],
    ("zh", "com.android.browser"): ["Searchly", "搜索或输入网址", "快捷方式", "开放百科", "晨报网"],
    ("en", "com.spa.maps"): ["Search Maps", "Coffee", "Restaurants", "Explore", "Saved"],
    ("zh", "com.spa.maps"): ["搜索地图", "咖啡", "餐厅", "探索", "收藏"],
}


@pytest.mark.parametrize(("locale", "package"), sorted(EXPECTED))
def test_main_screen_is_readable(ocr: Any, tmp_path: Path, locale: str, package: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    image = phone.screenshot()
    image.save(tmp_path / f"{package.rsplit('.', 1)[-1]}_{locale}.png")
    read = [norm(t) for t in (ocr(image).txts or ())]
    missing = [label for label in EXPECTED[(locale, package)] if not any(norm(label) in r for r in read)]
    assert not missing, f"OCR missed {missing}; read {read}"
