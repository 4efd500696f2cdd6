"""Fixtures of the device tests: phones played from real device output (see android_captures)."""

from __future__ import annotations

import pytest
from android_captures import FakeAndroid
from android_captures import vivo_home as _vivo_home


@pytest.fixture
def vivo_home() -> FakeAndroid:
    return _vivo_home()
