"""The data a report page holds: one JSON document plus compressed chunks of episode details.

Per-episode figures come from spa_bench.evaluation.metrics (episode_table, with the verdict policy of
spa_bench.evaluation.policy), stored column-wise so 10,000 episodes cost well under a megabyte. The page
aggregates those rows for whatever filter is chosen with the same definitions as metrics.aggregate
(report.js `aggregate`; tests compare both on the same report).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench import __version__
from spa_bench.drawing import StepGestures
from spa_bench.errors import ResultsError
from spa_bench.evaluation.metrics import EPISODE_COLUMNS, MetricsReport, episode_row, summarize
from spa_bench.evaluation.policy import INFRASTRUCTURE
from spa_bench.report.comparison import compare_runs
from spa_bench.report.details import CHUNK_SIZE, ImageSource, RelativeImages, episode_details, pack_chunk
from spa_bench.report.hard import HardView, Outcome, episode_facts, hard_view
from spa_bench.report.load import RunData, read_episode, task_suites
from spa_bench.report.repeats import Outcome as RepeatOutcome
from spa_bench.report.repeats import RepeatsView, repeats_view, view_json
from spa_bench.report.robust import RobustView, robust_view
from spa_bench.results.schema import EpisodeLog

if TYPE_CHECKING:
    import pandas as pd

DOCUMENT_VERSION = 1
# Episode columns copied from the metrics episode table, as (name in the page, column, kind).
EPISODE_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("repeat", "repeat", "int"), ("success", "success", "bool"), ("completed", "completed", "bool"),
    ("premature", "premature", "bool"), ("overdue", "overdue", "bool"), ("steps", "steps", "int"),
    ("golden", "golden_steps", "int"), ("step_ratio", "step_ratio", "float"), ("time", "time_s", "float"),
    ("tokens", "tokens", "int"), ("calls", "model_calls", "int"), ("cost", "cost_usd", "float"),
    ("eval_cost", "evaluator_cost_usd", "float"), ("infra", "infrastructure_failure", "bool"),
    ("errors", "errors", "int"), ("attempt", "attempt", "int"), ("tampered", "tampered", "bool"),
)


@dataclass
class ReportData:
    document: dict[str, Any]
    chunks: list[str]
    metrics: MetricsReport
    hard: HardView | None = None  # None: no hard task in the report
    robust: RobustView | None = None  # None: no episode on a varied device
    repeats: RepeatsView | None = None  # None: no task was run more than once (--repeats)
    notes: list[str] = field(default_factory=list)  # how several runs were put together (comparison.py)


def _column(table: pd.DataFrame, column: str, kind: str) -> list[Any]:
    """A column as JSON values: NaN / NA -> null (unknown, never 0); floats rounded for size."""
    values = table[column].astype(object).tolist()
    out: list[Any] = []
    for v in values:
        if v is None or (isinstance(v, float) and math.isnan(v)) or str(v) == "<NA>":
            out.append(None)
        elif kind == "bool":
            out.append(1 if v else 0)
        elif kind == "int":
            out.append(int(v))
        else:
            out.append(round(float(v), 8 if column.endswith("usd") else 4))
    return out


class _Index:
    """Values to small integers, so repeated strings are stored once."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self._pos: dict[Any, int] = {}

    def __call__(self, value: Any) -> int:
        if value not in self._pos:
            self._pos[value] = len(self.values)
            self.values.append(value)
        return self._pos[value]


def _error_groups(errors: list[list[tuple[str, str, str]]]) -> list[dict[str, Any]]:
    """Errors recorded in episodes, grouped by kind and exception type, with an example and where."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for i, episode_errors in enumerate(errors):
        for kind, type_, message in episode_errors:
            group = groups.setdefault((kind, type_), {
                "kind": kind, "type": type_, "count": 0, "message": message[:500], "episodes": []})
            group["count"] += 1
            if len(group["episodes"]) < 50 and (not group["episodes"] or group["episodes"][-1] != i):
                group["episodes"].append(i)
    return sorted(groups.values(), key=lambda g: (-g["count"], g["kind"], g["type"]))


def table_from_rows(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """metrics.episode_table from rows made by metrics.episode_row in worker processes (the same frame:
    tests compare them), so logs need not be sent back from the workers."""
    import pandas as pd

    table = pd.DataFrame(rows, columns=EPISODE_COLUMNS)
    for column in ("success", "premature", "overdue"):
        table[column] = table[column].astype("boolean")
    for column in ("completed", "infrastructure_failure", "tampered"):
        table[column] = table[column].astype(bool)
    return table


@dataclass(frozen=True)
class ChunkJob:
    """Up to CHUNK_SIZE episodes of one run: what a worker process reads and prepares."""

    root: Path
    episode_ids: tuple[str, ...]
    image_prefix: str  # the run's episodes/ folder relative to the report
    embed: bool
    named_suites: dict[str, set[str]]


@dataclass
class ChunkResult:
    rows: list[dict[str, Any]]  # metrics.episode_row per episode
    infos: list[dict[str, Any]]  # what the index needs beyond the metrics row
    packed: str  # the episodes' details, gzip + base64
    unreadable: dict[str, str]


def _task_info(log: EpisodeLog, named: dict[str, set[str]]) -> dict[str, Any]:
    task = log.full_task
    return {"id": task.id, "instruction": task.instruction, "lang": task.language, "diff": task.difficulty,
            "cat": task.category, "apps": task.packages,
            "app_names": {a.package: a.display_name("en") for a in task.apps},
            "suites": task_suites(task, log.task_file, named), "golden": task.golden_steps,
            "checks": [c.description for c in task.checks if getattr(c, "description", None)],
            "components": task.components,
            # the "always infeasible" floor: declaring infeasible at step 1 passes exactly these tasks
            "floor": 1 if task.infeasible and not task.asks_user else 0}


def prepare_chunk(job: ChunkJob) -> ChunkResult:
    """Read, validate and condense one chunk of episodes (runs in a worker process for big reports)."""
    rows, infos, details, unreadable = [], [], [], {}
    for episode in job.episode_ids:
        folder = job.root / "episodes" / episode
        try:
            log = read_episode(folder / "episode.json")
        except ResultsError as exc:
            unreadable[episode] = str(exc)
            continue
        rows.append(episode_row(log))
        infos.append({"id": log.episode_id, "agent": log.agent.name, "ref": log.agent.reference,
                      "term": log.termination or log.status,
                      "task": _task_info(log, job.named_suites),
                      "errors": [(e.kind, e.type, e.message) for e in log.errors],
                      "facts": episode_facts(log)})
        images: ImageSource
        if job.embed:
            from spa_bench.report.images import embedded_images

            images = embedded_images(folder)
        else:
            images = RelativeImages(f"{job.image_prefix}/{episode}")
        details.append(episode_details(log, StepGestures(folder), images))
    return ChunkResult(rows=rows, infos=infos, packed=pack_chunk(details), unreadable=unreadable)


def _run_all(jobs: list[ChunkJob], workers: int | None) -> list[ChunkResult]:
    """Chunks in order; in worker processes when there are enough of them to pay for the start-up."""
    workers = workers if workers is not None else min(8, os.cpu_count() or 1)
    if workers <= 1 or len(jobs) < 4:
        return [prepare_chunk(job) for job in jobs]
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(prepare_chunk, jobs))


def _run_meta(run: RunData, out_dir: Path) -> dict[str, Any]:
    manifest = run.manifest.model_dump(mode="json")
    manifest.pop("task_ids", None)  # long and repeated in the episode table
    files = manifest.pop("task_files", {})
    manifest["task_files"] = len(files)
    return {
        "id": run.manifest.run_id, "dir": os.path.relpath(run.root, out_dir),
        "manifest": manifest,
        "summary": run.summary.model_dump(mode="json") if run.summary is not None else None,
        "unreadable": run.unreadable,
        "verification": _verification(run.root),
    }


def _verification(root: Path) -> dict[str, Any] | None:
    """The run's `spa-bench bundle verify` record (the page's badge); an unreadable one says so."""
    from spa_bench.bundle.verification import read_record

    try:
        record = read_record(root)
    except ResultsError as exc:
        return {"status": "differs", "line": f"verification record unreadable: {exc}"}
    return None if record is None else record.model_dump(mode="json")


def build_data(runs: list[RunData], out_path: Path, *, embed: bool = False, workers: int | None = None,
               now: Callable[[], datetime] = lambda: datetime.now(UTC), merge: bool = False,
               all_tasks: bool = False) -> ReportData:
    """Everything the page needs, from the runs, for a report written at `out_path`. Several runs are put
    together as spa_bench.report.comparison says (`merge`, `all_tasks`)."""
    out_dir = Path(out_path).resolve().parent
    jobs, job_run = [], []
    for r, run in enumerate(runs):
        prefix = os.path.relpath(run.root / "episodes", out_dir).replace(os.sep, "/")
        for start in range(0, len(run.episode_ids), CHUNK_SIZE):
            jobs.append(ChunkJob(root=run.root, episode_ids=tuple(run.episode_ids[start:start + CHUNK_SIZE]),
                                 image_prefix=prefix, embed=embed, named_suites=run.named_suites))
            job_run.append(r)
    results = _run_all(jobs, workers)
    run_ids = [run.manifest.run_id for run in runs]
    chunk_infos = [(res.rows, res.infos, r) for res, r in zip(results, job_run, strict=True)]
    plan = compare_runs(run_ids, chunk_infos, merge=merge, all_tasks=all_tasks)
    kept = [(c, pos) for c, res in enumerate(results) for pos, info in enumerate(res.infos)
            if plan.keeps(info)]

    rows = [results[c].rows[pos] for c, pos in kept]
    infos = [results[c].infos[pos] for c, pos in kept]
    table = table_from_rows(rows)
    metrics = MetricsReport(episodes=table, agents=summarize(table))
    # reference agents (the oracle: the full task was revealed to them) are listed apart, never ranked
    references = sorted({info["agent"] for info in infos if info["ref"]})
    metrics.agents["reference"] = metrics.agents["agent"].isin(references) if len(metrics.agents) else []

    agents, terms, apps, suites, tasks = _Index(), _Index(), _Index(), _Index(), _Index()
    for name in sorted({info["agent"] for info in infos}):
        agents(name)
    task_rows: list[dict[str, Any]] = []
    app_names: dict[str, str] = {}
    columns: dict[str, list[Any]] = {k: [] for k in ("id", "run", "agent", "task", "term", "chunk", "pos")}
    for c, pos in kept:  # pos: the episode's place in its chunk of details (all of a chunk's are packed)
        r, info = job_run[c], results[c].infos[pos]
        task = info["task"]
        t = tasks((task["id"], task["instruction"]))
        if t == len(task_rows):
            app_names.update({k: v for k, v in task.pop("app_names").items() if k not in app_names})
            task["apps"] = [apps(p) for p in task["apps"]]
            task["suites"] = [suites(x) for x in task["suites"]]
            task_rows.append(task)
        for key, value in (("id", info["id"]), ("run", r), ("agent", agents(info["agent"])), ("task", t),
                           ("term", terms(info["term"])), ("chunk", c), ("pos", pos)):
            columns[key].append(value)
    columns["source"] = table["success_source"].tolist()
    columns["reason"] = table["success_reason"].tolist()
    for name, column, kind in EPISODE_FIELDS:
        columns[name] = _column(table, column, kind)

    for res, r in zip(results, job_run, strict=True):
        runs[r].unreadable.update(res.unreadable)
    outcomes = [Outcome(agent=row["agent"], success=row["success"],
                        infrastructure=row["infrastructure_failure"], facts=info["facts"])
                for row, info in zip(rows, infos, strict=True)]
    # the robust view: every episode, under the agent's own name (its rows keep the devices apart)
    every = [Outcome(agent=info.get("base_agent", info["agent"]), success=row["success"],
                     infrastructure=row["infrastructure_failure"], facts=info["facts"])
             for res in results for row, info in zip(res.rows, res.infos, strict=True)]
    hard, robust = hard_view(outcomes), robust_view(every)
    repeats = repeats_view(RepeatOutcome(agent=row["agent"], task=row["task_id"], repeat=int(row["repeat"]),
                                         success=_decided(row["success"]), reference=bool(info["ref"]))
                           for row, info in zip(rows, infos, strict=True))
    document = {
        "version": DOCUMENT_VERSION, "generated": now().isoformat(timespec="seconds"),
        "spa_bench_version": __version__, "embedded_images": embed,
        "runs": [_run_meta(run, out_dir) for run in runs],
        "agents": agents.values, "references": [agents(name) for name in references],
        "terms": terms.values, "apps": apps.values,
        "app_names": app_names, "suites": suites.values, "tasks": task_rows,
        "infrastructure_terms": sorted(INFRASTRUCTURE), "episodes": columns,
        "errors": _error_groups([info["errors"] for info in infos]),
        "details": {"inline": embed, "dir": None},
        "hard": None if hard is None else hard.as_json(),
        "robust": None if robust is None else robust.as_json(),
        "repeats": None if repeats is None else view_json(repeats),
        "notes": plan.notes,
    }
    return ReportData(document=document, chunks=[res.packed for res in results], metrics=metrics,
                      hard=hard, robust=robust, repeats=repeats, notes=plan.notes)


def _decided(value: Any) -> bool | None:
    """An episode row's success: True, False, or None (undecided; NaN or NA in the table)."""
    if value is None or (isinstance(value, float) and math.isnan(value)) or str(value) == "<NA>":
        return None
    return bool(value)
