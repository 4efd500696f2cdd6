"""Building a report: read the runs, prepare the data, render the page, write it atomically."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from spa_bench.report.data import build_data
from spa_bench.report.html import render_page
from spa_bench.report.load import RunData, load_runs
from spa_bench.report.repeats import RepeatsView
from spa_bench.results.layout import write_json_atomic

if TYPE_CHECKING:
    from spa_bench.evaluation.metrics import MetricsReport
    from spa_bench.report.hard import HardView
    from spa_bench.report.robust import RobustView

REPORT_FILE = "report.html"


@dataclass
class ReportResult:
    path: Path
    html: str
    metrics: MetricsReport
    runs: list[RunData]
    episodes: int
    chunks: list[str]  # episode details to write beside the page (empty with embed)
    seconds: float
    hard: HardView | None = None  # the hard view, when the report has hard tasks
    robust: RobustView | None = None  # the robust view, when some episode ran on a varied device
    repeats: RepeatsView | None = None  # pass@k and pass^k, when some task ran more than once
    notes: list[str] | None = None  # how several runs were put together (spa_bench.report.comparison)

    @property
    def size_bytes(self) -> int:
        return len(self.html.encode("utf-8"))


def details_dir(out: Path) -> Path:
    """Where the episode details of a report without --embed go: `<name>_files/` beside it."""
    return out.with_name(out.stem + "_files")


def write_details(folder: Path, chunks: list[str]) -> None:
    """One small script per chunk, `spaDetails(n, "<base64>")`, loaded by the page when needed (a
    <script src> works from file://, where fetch() does not). Old chunk files are removed first."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("details-*.js"):
        old.unlink()
    for i, chunk in enumerate(chunks):
        (folder / f"details-{i:05d}.js").write_text(f'spaDetails({i},"{chunk}");\n', encoding="ascii")


def build_report(run_dirs: list[Path], out: Path, *, embed: bool = False, workers: int | None = None,
                 merge: bool = False, all_tasks: bool = False) -> ReportResult:
    """The report page for `run_dirs`, as it would be written at `out` (image paths are relative to it);
    several runs are put together as spa_bench.report.comparison says (`merge`, `all_tasks`)."""
    started = time.perf_counter()
    runs = load_runs([Path(d) for d in run_dirs])
    data = build_data(runs, out, embed=embed, workers=workers, merge=merge, all_tasks=all_tasks)
    if not embed:
        data.document["details"]["dir"] = quote(details_dir(Path(out)).name)
    ids = [run.manifest.run_id for run in runs]
    title = f"spa-bench report: {ids[0]}" if len(ids) == 1 else f"spa-bench report: {len(ids)} runs"
    page = render_page(data.document, data.chunks if embed else [], title)
    episodes = len(data.document["episodes"]["id"])
    return ReportResult(path=Path(out), html=page, metrics=data.metrics, runs=runs, episodes=episodes,
                        chunks=[] if embed else data.chunks, seconds=time.perf_counter() - started,
                        hard=data.hard, robust=data.robust, repeats=data.repeats, notes=data.notes)


def write_report(run_dirs: list[Path], out: Path | None = None, *, embed: bool = False,
                 workers: int | None = None, merge: bool = False, all_tasks: bool = False) -> ReportResult:
    """Build and write the report; `out` defaults to report.html inside the (first) run folder.
    Without `embed`, episode details go to `<name>_files/` beside it (see write_details)."""
    target = Path(out) if out is not None else Path(run_dirs[0]) / REPORT_FILE
    result = build_report(run_dirs, target, embed=embed, workers=workers, merge=merge, all_tasks=all_tasks)
    if not embed:
        write_details(details_dir(target), result.chunks)
    write_json_atomic(target, result.html)  # temporary file + rename: a reader never sees half a page
    return result
