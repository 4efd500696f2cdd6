"""The public API is what __all__ says, and importing spa_bench does no work."""

from __future__ import annotations

import subprocess
import sys

import spa_bench


def test_all_names_exist() -> None:
    for name in spa_bench.__all__:
        assert hasattr(spa_bench, name), name
    assert spa_bench.__all__ == sorted(spa_bench.__all__, key=lambda n: (n.startswith("_"), n))


def test_import_is_light() -> None:
    code = ("import sys, spa_bench, spa_bench.cli; "
            "heavy = [m for m in ('adbutils', 'uiautomator2', 'openai', 'rapidocr', 'pandas', 'onnxruntime') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version_flag() -> None:
    out = subprocess.run([sys.executable, "-m", "spa_bench", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == f"spa-bench {spa_bench.__version__}"
