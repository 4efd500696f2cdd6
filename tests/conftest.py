"""Shared fixtures. The CLI helper runs the real entry point; rich output is kept wide and plain."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
os.environ.setdefault("COLUMNS", "200")
os.environ.setdefault("NO_COLOR", "1")
os.environ.setdefault("TERM", "dumb")
