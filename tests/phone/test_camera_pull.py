"""The camera's shot over real adb: `input tap` on the shutter writes a JPEG that `adb pull` returns
whole and Pillow decodes (a check of the file, not of our own bookkeeping)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from conftest import PhoneHandle


def test_shutter_tap_then_adb_pull(running_phone: PhoneHandle, tmp_path: Path) -> None:
    running_phone.reset()
    running_phone.shell("am start -n com.android.camera2/com.android.camera.CameraActivity")
    dump = running_phone.shell("uiautomator dump /sdcard/window.xml && cat /sdcard/window.xml")
    node = re.search(
        r'resource-id="com\.android\.camera2:id/shutter_button"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"',
        dump,
    )
    assert node, dump[:500]
    x1, y1, x2, y2 = map(int, node.groups())
    running_phone.shell(f"input tap {(x1 + x2) // 2} {(y1 + y2) // 2}")
    names = running_phone.shell("ls /sdcard/DCIM/Camera").split()
    shots = [n for n in names if re.fullmatch(r"IMG_\d{8}_\d{6}\.jpg", n) and not n.startswith("IMG_2024")]
    assert len(shots) == 1, names
    local = tmp_path / shots[0]
    running_phone.adb.run("pull", f"/sdcard/DCIM/Camera/{shots[0]}", str(local), serial=running_phone.serial)
    data = local.read_bytes()
    assert data[:3] == b"\xff\xd8\xff" and data[-2:] == b"\xff\xd9"  # JPEG SOI ... EOI
    assert int(running_phone.shell(f"stat -c %s /sdcard/DCIM/Camera/{shots[0]}").strip()) == len(data)
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        assert img.format == "JPEG" and img.size == (1024, 768)
