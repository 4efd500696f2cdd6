"""The rendered screens are legible: rapidocr reads the labels of the home screen and Settings back,
in English and Chinese. PNGs are kept in the tmp_path for a human look."""

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
    ("en", "home"): ["Settings", "Search"],
    ("zh", "home"): ["设置", "搜索"],
    ("en", "settings"): [
        "Settings",
        "Search Settings",
        "Network & internet",
        "Connected devices",
        "Apps",
        "Notifications",
        "Battery",
        "Display",
        "Bluetooth, pairing",
    ],
    ("zh", "settings"): [
        "设置",
        "搜索设置",
        "网络和互联网",
        "已连接的设备",
        "应用",
        "通知",
        "电池",
        "显示",
        "蓝牙、配对",
    ],
    ("en", "display"): ["Display", "Brightness level", "Dark theme", "Screen timeout"],
    ("zh", "display"): ["显示", "亮度", "深色主题", "屏幕超时"],
}


@pytest.mark.parametrize(("locale", "screen"), sorted(EXPECTED))
def test_labels_are_readable(ocr: Any, tmp_path: Path, locale: str, screen: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    if screen == "settings":
        phone.start_activity("com.android.settings")
    elif screen == "display":
        phone.start_activity("com.android.settings", "com.android.settings.Settings$DisplaySettingsActivity")
    image = phone.screenshot()
    image.save(tmp_path / f"{screen}_{locale}.png")  # kept by pytest for a look
    result = ocr(image)
    read = [norm(t) for t in (result.txts or ())]
    missing = [label for label in EXPECTED[(locale, screen)] if not any(norm(label) in r for r in read)]
    assert not missing, f"OCR missed {missing}; read {result.txts}"
