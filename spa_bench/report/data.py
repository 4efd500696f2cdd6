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
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench import __version__
from spa_bench.evaluation.metrics import compute_metrics
from spa_bench.evaluation.policy import INFRASTRUCTURE
from spa_bench.report.details import CHUNK_SIZE, ImageSource, episode_details, pack_chunks, relative_images
from spa_bench.report.load import RunData, task_suites
from spa_bench.report.overlay import ElementResolver
from spa_bench.results.schema import EpisodeLog

if TYPE_CHECKING:
    import pandas as pd

    from spa_bench.evaluation.metrics import MetricsReport

DOCUMENT_VERSION = 1
# Episode columns copied from the metrics episode table, as (name in the page, column, kind).
EPISODE_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("repeat", "repeat", "int"), ("success", "success", "bool"), ("completed", "completed", "bool"),
    ("premature", "premature", "bool"), ("overdue", "overdue", "bool"), ("steps", "steps", "int"),
    ("golden", "golden_steps", "int"), ("step_ratio", "step_ratio", "float"), ("time", "time_s", "float"),
    ("tokens", "tokens", "int"), ("calls", "model_calls", "int"), ("cost", "cost_usd", "float"),
    ("eval_cost", "evaluator_cost_usd", "float"), ("infra", "infrastructure_failure", "bool"),
    ("errors", "errors", "int"), ("attempt", "attempt", "int"),
)


@dataclass
class ReportData:
    document: dict[str, Any]
    chunks: list[str]
    metrics: MetricsReport


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


def _error_groups(logs: list[EpisodeLog]) -> list[dict[str, Any]]:
    """Errors recorded in episodes, grouped by kind and exception type, with an example and where."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for i, log in enumerate(logs):
        for error in log.errors:
            group = groups.setdefault((error.kind, error.type), {
                "kind": error.kind, "type": error.type, "count": 0, "message": error.message[:500],
                "episodes": []})
            group["count"] += 1
            if len(group["episodes"]) < 50 and (not group["episodes"] or group["episodes"][-1] != i):
                group["episodes"].append(i)
    return sorted(groups.values(), key=lambda g: (-g["count"], g["kind"], g["type"]))


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
    }


def _image_sources(run: RunData, logs: list[EpisodeLog], out_dir: Path,
                   embed: bool) -> list[ImageSource]:
    if embed:
        from spa_bench.report.images import embedded_images

        return [embedded_images(run.root / "episodes" / log.episode_id) for log in logs]
    prefix = os.path.relpath(run.root / "episodes", out_dir).replace(os.sep, "/")
    return [relative_images(f"{prefix}/{log.episode_id}") for log in logs]


def _details(runs: list[RunData], out_dir: Path, embed: bool) -> list[dict[str, Any]]:
    jobs: list[tuple[EpisodeLog, Path, ImageSource]] = []
    for run in runs:
        sources = _image_sources(run, run.logs, out_dir, embed)
        jobs += [(log, run.root / "episodes" / log.episode_id, source)
                 for log, source in zip(run.logs, sources, strict=True)]

    def one(job: tuple[EpisodeLog, Path, ImageSource]) -> dict[str, Any]:
        log, folder, source = job
        return episode_details(log, ElementResolver(folder), source)

    if embed:  # image decoding releases the GIL: worth threads
        with ThreadPoolExecutor(max_workers=min(8, (os.cpu_count() or 2) + 2)) as pool:
            return list(pool.map(one, jobs))
    return [one(job) for job in jobs]


def build_data(runs: list[RunData], out_path: Path, *, embed: bool = False,
               now: Callable[[], datetime] = lambda: datetime.now(UTC)) -> ReportData:
    """Everything the page needs, from the runs, for a report written at `out_path`."""
    out_dir = Path(out_path).resolve().parent
    logs = [log for run in runs for log in run.logs]
    run_of = [i for i, run in enumerate(runs) for _ in run.logs]
    metrics = compute_metrics(logs)
    table = metrics.episodes

    agents, terms, apps, suites, tasks = _Index(), _Index(), _Index(), _Index(), _Index()
    task_rows: list[dict[str, Any]] = []
    app_names: dict[str, str] = {}
    episode_task = []
    for log, r in zip(logs, run_of, strict=True):
        task = log.task
        key = (task.id, task.instruction)
        t = tasks(key)
        if t == len(task_rows):
            for ref in task.apps:
                app_names.setdefault(ref.package, ref.display_name("en"))
            task_rows.append({"id": task.id, "instruction": task.instruction, "lang": task.language,
                              "diff": task.difficulty, "cat": task.category,
                              "apps": [apps(p) for p in task.packages],
                              "suites": [suites(s) for s in task_suites(task, log.task_file, runs[r])],
                              "golden": task.golden_steps, "checks": [c.description for c in task.checks
                                                                      if getattr(c, "description", None)],
                              "components": task.components})
        episode_task.append(t)
    agent_order = sorted({log.agent.name for log in logs})
    for name in agent_order:
        agents(name)
    columns: dict[str, list[Any]] = {
        "id": [log.episode_id for log in logs], "run": run_of,
        "agent": [agents(log.agent.name) for log in logs], "task": episode_task,
        "term": [terms(log.termination or log.status) for log in logs],
        "source": table["success_source"].tolist(), "reason": table["success_reason"].tolist(),
    }
    for name, column, kind in EPISODE_FIELDS:
        columns[name] = _column(table, column, kind)
    kinds = table["error_kinds"].tolist()
    columns["error_kinds"] = [k or "" for k in kinds]

    details = _details(runs, out_dir, embed)
    document = {
        "version": DOCUMENT_VERSION, "generated": now().isoformat(timespec="seconds"),
        "spa_bench_version": __version__, "embedded_images": embed,
        "runs": [_run_meta(run, out_dir) for run in runs],
        "agents": agents.values, "terms": terms.values, "apps": apps.values,
        "app_names": app_names, "suites": suites.values, "tasks": task_rows,
        "infrastructure_terms": sorted(INFRASTRUCTURE),
        "episodes": columns, "chunk_size": CHUNK_SIZE, "errors": _error_groups(logs),
    }
    return ReportData(document=document, chunks=pack_chunks(details, CHUNK_SIZE), metrics=metrics)
