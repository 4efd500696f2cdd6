"""The HTML report: a leaderboard, charts and every step of every episode in one self-contained file.

`write_report(run_dirs, out)` reads run folders (the results contract only), computes the metrics with
spa_bench.evaluation.metrics and writes one HTML file that needs no network: inline CSS, script and SVG,
screenshots referenced relative to the report or embedded as JPEG thumbnails (`embed=True`).
pandas and Pillow are imported when a report is built, not when this package is imported.
"""

from __future__ import annotations

from spa_bench.report.build import ReportResult, build_report, write_report

__all__ = ["ReportResult", "build_report", "write_report"]
