"""The conformance suite: the virtual phone next to real device output and to the parsers real agent
programs use. Captures are read from ../shared/reference/android-captures beside the repository (never
copied into it); when that folder is absent, every test that needs it is skipped with a message that
says where it looked. Each test carries `@pytest.mark.conformance("<reference source>")`, which
`benchmarks/conformance.py` counts per source."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.shell import Shell
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.vfs import VirtualFS

CAPTURES = Path(__file__).resolve().parents[4] / "shared" / "reference" / "android-captures"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "conformance(source): the reference a conformance check compares with")


@pytest.fixture(scope="session")
def captures() -> Path:
    if not (CAPTURES / "MANIFEST.md").is_file():
        pytest.skip(f"REFERENCE CAPTURES MISSING: no {CAPTURES}/MANIFEST.md - the conformance checks against "
                    "real device output need ../shared/reference/android-captures beside the repository")
    return CAPTURES


@pytest.fixture
def phone(tmp_path: Path) -> Iterator[PhoneOS]:
    os_ = PhoneOS(PhoneConfig(), VirtualFS(tmp_path / "fs"))
    try:
        yield os_
    finally:
        os_.close()


Sh = Callable[[str], str]


@pytest.fixture
def sh(phone: PhoneOS) -> Sh:
    """Run a line on the phone's shell; stdout and stderr in the order they were written."""
    shell = Shell(phone)

    def run(line: str) -> str:
        return shell.run(line).output.decode("utf-8", errors="replace")

    return run
