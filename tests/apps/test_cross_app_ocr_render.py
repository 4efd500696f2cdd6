"""The main screens of Calculator, Files, Shop and Chat are legible in both languages: rapidocr reads
their labels back from the rendered screenshot (PNGs are kept in the test's tmp_path for a human look)."""

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
    ("en", "com.android.calculator2"): ["AC", "7", "8", "9"],
    ("zh", "com.android.calculator2"): ["AC", "7", "8", "9"],
    ("en", "com.android.documentsui"): ["Files", "Internal storage", "Documents", "Download", "Pictures"],
    ("zh", "com.android.documentsui"): ["文件", "内部存储空间", "Documents", "Download", "项"],
    ("en", "com.spa.shop"): [
        "Shop",
        "Search products",
        "Categories",
        "Audio",
        "Kitchen",
        "Recommended",
        "Wishlist",
    ],
    ("zh", "com.spa.shop"): [
        "购物",
        "搜索商品",
        "分类",
        "影音耳机",
        "厨房电器",
        "为你推荐",
        "收藏",
        "购物车",
    ],
    ("en", "com.spa.chat"): ["Chat", "Alice Chen", "Bob Li", "Chats", "Contacts"],
    ("zh", "com.spa.chat"): ["聊天", "王芳", "李雷", "消息", "通讯录"],
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
