"""Constants and helpers shared by the model client's tests (imported by name: tests/models is on
sys.path under pytest's default import mode)."""

from __future__ import annotations

# Not shaped like a provider key (no "sk-"), so only the client's own scrubbing of the key it read can
# hide it; KEY_PART is looked for too, so that a partly masked key would still be noticed.
KEY = "spabench-TEST-0123456789abcdef-SECRET"
KEY_PART = "0123456789abcdef"
KEY_ENV = "SPA_BENCH_TEST_KEY"


class RecordedSleep:
    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def assert_no_key(text: str) -> None:
    assert KEY not in text
    assert KEY_PART not in text
