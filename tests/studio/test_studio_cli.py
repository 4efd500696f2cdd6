"""`spa-bench studio` as a user starts it: its own virtual phone in Chinese, at another size, dark; the
page's API answers on loopback; Ctrl-C stops the page and the phone."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageStat

pytestmark = pytest.mark.usefixtures("adb_env")


def test_studio_on_its_own_phone_in_chinese_small_and_dark(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "spa_bench", "studio", "--port", "0", "--locale", "zh", "--size",
               "720x1280", "--dark", "--record-dir", str(tmp_path / "tasks"), "--out", str(tmp_path / "runs")]
    studio = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=os.environ.copy(), cwd=tmp_path)
    try:
        assert studio.stdout is not None
        url = ""
        for line in studio.stdout:
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            if found:
                url = found.group(0)
                break
        assert url, studio.stderr.read() if studio.stderr else ""
        with urllib.request.urlopen(url + "api/ui", timeout=60) as answer:
            ui = json.loads(answer.read())
        assert (ui["width"], ui["height"]) == (720, 1280)
        labels = {node["text"] for node in ui["nodes"]}
        assert {"时钟", "设置"} <= labels  # the launcher in Chinese
        clock = next(node for node in ui["nodes"] if node["text"] == "时钟")
        assert clock["selector"] == "{any_of: [{text: 时钟}, {text: Clock}]}"
        with urllib.request.urlopen(url + "api/screen", timeout=60) as answer:
            screen = Image.open(io.BytesIO(answer.read())).convert("L")
        assert screen.size == (720, 1280) and ImageStat.Stat(screen).mean[0] < 90  # the dark theme
        with urllib.request.urlopen(url, timeout=30) as answer:
            assert b"spa-bench studio" in answer.read()
    finally:
        studio.send_signal(signal.SIGINT)
        _, err = studio.communicate(timeout=60)
    assert studio.returncode == 0, err
    assert "Traceback" not in err
