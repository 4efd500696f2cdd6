"""The public API is what __all__ says, and importing spa_bench does no work."""

from __future__ import annotations

import subprocess
import sys

import pytest

import spa_bench


def test_all_names_exist_and_are_sorted() -> None:
    for name in spa_bench.__all__:
        assert getattr(spa_bench, name) is not None, name
    assert len(set(spa_bench.__all__)) == len(spa_bench.__all__)


def test_unknown_attribute_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no_such_thing"):
        spa_bench.no_such_thing  # type: ignore[attr-defined]  # noqa: B018


def test_import_is_light() -> None:
    code = ("import sys, spa_bench, spa_bench.cli; "
            "heavy = [m for m in ('adbutils', 'uiautomator2', 'openai', 'rapidocr', 'pandas', 'onnxruntime', "
            "'PIL', 'spa_bench.phone.system', 'ray', 'gymnasium') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version_flag() -> None:
    out = subprocess.run([sys.executable, "-m", "spa_bench", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == f"spa-bench {spa_bench.__version__}"


def test_every_code_folder_is_a_regular_package() -> None:
    """`pip install .` (not editable) only ships folders with __init__.py; a missing one breaks installs."""
    from pathlib import Path

    root = Path(__file__).parents[1]
    missing = [str(d.relative_to(root)) for top in ("spa_bench", "agents", "evaluators")
               for d in [root / top, *(root / top).rglob("*")]
               if d.is_dir() and d.name != "__pycache__" and any(d.glob("*.py"))
               and not (d / "__init__.py").exists()]
    assert missing == []
