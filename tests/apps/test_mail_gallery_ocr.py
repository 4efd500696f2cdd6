"""The main screens of Email, Gallery and Camera are legible in both languages: rapidocr reads their
labels back from the rendered screenshot (PNGs are kept in the test's tmp_path for a human look).

The camera's viewfinder carries no title - a real camera shows the scene, not its name - so for it the
mode label and the shutter's neighbours are what can be read."""

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
    ("en", "com.android.email"): ["Search in Email", "Inbox", "Lisa Park", "Q3 planning meeting", "Compose"],
    ("zh", "com.android.email"): ["搜索邮件", "收件箱", "王芳", "项目评审会", "写邮件"],
    ("en", "com.android.gallery3d"): ["Gallery", "Photos", "Albums"],
    ("zh", "com.android.gallery3d"): ["相册", "照片"],
    ("en", "com.android.camera2"): ["PHOTO"],
    ("zh", "com.android.camera2"): ["拍照"],
}
# screens one step in: the Gallery's albums, an email thread, the compose screen
DEEPER = {
    ("en", "com.android.gallery3d", "nav_albums"): ["Albums", "Favourites", "Camera", "Screenshots", "Trash"],
    ("zh", "com.android.gallery3d", "nav_albums"): ["相册", "收藏", "相机", "截屏", "回收站"],
    ("en", "com.android.email", "compose_button"): ["Compose", "From", "To", "Subject"],
    ("zh", "com.android.email", "compose_button"): ["写邮件", "发件人", "收件人", "主题"],
}


def _read(ocr: Any, phone: PhoneOS, png: Path) -> list[str]:
    image = phone.screenshot()
    image.save(png)
    return [norm(t) for t in (ocr(image).txts or ())]


@pytest.mark.parametrize(("locale", "package"), sorted(EXPECTED))
def test_main_screen_is_readable(ocr: Any, tmp_path: Path, locale: str, package: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    read = _read(ocr, phone, tmp_path / f"{package.rsplit('.', 1)[-1]}_{locale}.png")
    missing = [label for label in EXPECTED[(locale, package)] if not any(norm(label) in r for r in read)]
    assert not missing, f"OCR missed {missing}; read {read}"


@pytest.mark.parametrize(("locale", "package", "button"), sorted(DEEPER))
def test_second_screen_is_readable(ocr: Any, tmp_path: Path, locale: str, package: str, button: str) -> None:
    phone = PhoneOS(PhoneConfig(locale=locale), VirtualFS(tmp_path / "fs"))  # type: ignore[arg-type]
    phone.start_activity(package)
    view = phone.frame().find(rid=f"{package}:id/{button}")
    assert view is not None
    phone.tap(*view.bounds.center)
    read = _read(ocr, phone, tmp_path / f"{button}_{locale}.png")
    missing = [
        label for label in DEEPER[(locale, package, button)] if not any(norm(label) in r for r in read)
    ]
    assert not missing, f"OCR missed {missing}; read {read}"
