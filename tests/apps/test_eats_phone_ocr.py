"""The main screens of Phone and Eats are legible in both languages: rapidocr reads the app's title and
more of its labels back from the rendered screenshot (PNGs are kept in the test's tmp_path for a look)."""

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
    ("en", "com.android.dialer"): ["Phone", "Favourites", "Recents", "Contacts", "Alice Chen"],
    ("zh", "com.android.dialer"): ["电话", "收藏", "最近", "联系人", "王芳"],
    ("en", "com.spa.eats"): ["Eats", "Search restaurants or dishes", "Restaurants near you", "Taco Loco",
                             "Free delivery"],
    ("zh", "com.spa.eats"): ["外卖", "搜索商家", "附近商家", "杨记麻辣烫", "首页"],
}


@pytest.mark.parametrize(("locale", "package"), sorted(EXPECTED))
def test_main_screen_is_readable(ocr: Any, tmp_path: Path, locale: str, package: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    image = phone.screenshot()
    image.save(tmp_path / f"{package.rsplit('.', 1)[-1]}_{locale}.png")  # kept by pytest for a look
    read = [norm(t) for t in (ocr(image).txts or ())]
    missing = [label for label in EXPECTED[(locale, package)] if not any(norm(label) in r for r in read)]
    assert not missing, f"OCR missed {missing}; read {read}"
