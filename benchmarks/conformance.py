"""How many conformance checks pass, per reference source.

Runs the conformance suite (tests/phone/conformance) in this process and counts every check under the
`@pytest.mark.conformance("<source>")` it carries: real device captures (uiautomator dumps, uiautomator2
hierarchies, shell outputs), AOSP's documented formats, and the parsers of AppAgent, Mobile-Agent,
AndroidWorld, android_env, adbutils and uiautomator2. A check skipped because ../shared/reference is
absent counts as skipped, not passed. Exit status 1 when any check fails.

    python benchmarks/conformance.py [-k EXPRESSION]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parents[1] / "tests" / "phone" / "conformance"


class Tally:
    """A pytest plugin: outcome of each test's call phase (or of its setup, when that skipped/failed)."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}
        self.outcomes: dict[str, str] = {}

    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        for item in items:
            marks = [m.args[0] for m in item.iter_markers("conformance") if m.args]
            self.sources[item.nodeid] = marks[0] if marks else "(unmarked)"  # the closest mark wins

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
            self.outcomes[report.nodeid] = report.outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", default="", help="only the checks whose names match (pytest -k)")
    args = parser.parse_args()
    tally = Tally()
    pytest_args = [str(SUITE), "-q", "-p", "no:cacheprovider", "--no-header", "-rN"]
    if args.k:
        pytest_args += ["-k", args.k]
    code = pytest.main(pytest_args, plugins=[tally])
    per_source: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for nodeid, source in tally.sources.items():
        per_source[source][tally.outcomes.get(nodeid, "not run")] += 1
    print()
    print(f"{'reference source':<48} {'passed':>6} {'failed':>6} {'skipped':>7} {'total':>6}")
    totals: dict[str, int] = defaultdict(int)
    for source in sorted(per_source):
        counts = per_source[source]
        total = sum(counts.values())
        print(f"{source:<48} {counts['passed']:>6} {counts['failed']:>6} {counts['skipped']:>7} {total:>6}")
        for key, value in counts.items():
            totals[key] += value
    print(f"{'all sources':<48} {totals['passed']:>6} {totals['failed']:>6} {totals['skipped']:>7} "
          f"{sum(totals.values()):>6}")
    return 0 if code in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED) and not totals["failed"] \
        else 1


if __name__ == "__main__":
    sys.exit(main())
