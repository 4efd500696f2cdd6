"""Writing metrics as CSV and JSON: files a spreadsheet or a plotting script reads without spa-bench.

Unknown values are empty cells in CSV and null in JSON (never 0); JSON keeps non-ASCII text (Chinese
task ids, app names) as it is.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench.results.layout import write_json_atomic

if TYPE_CHECKING:
    import pandas as pd

    from spa_bench.evaluation.metrics import MetricsReport


def _plain(value: Any) -> Any:
    """A JSON value for one cell: NaN and pd.NA become None, numpy scalars become Python ones."""
    if value is None:
        return None
    if hasattr(value, "item"):  # numpy scalar
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    try:
        import pandas as pd

        if value is pd.NA:
            return None
    except ImportError:  # pragma: no cover - pandas is a dependency
        pass
    return value


def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of a frame as JSON-ready dicts."""
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def write_csv(frame: pd.DataFrame, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, na_rep="")
    return path


def write_json(frame: pd.DataFrame, path: Path) -> Path:
    write_json_atomic(path, json.dumps(records(frame), ensure_ascii=False, indent=1) + "\n")
    return path


def export_report(report: MetricsReport, folder: Path) -> list[Path]:
    """Write episodes.csv, agents.csv, by_<dimension>.csv and one metrics.json holding all of them."""
    written = [write_csv(report.episodes, folder / "episodes.csv"),
               write_csv(report.agents, folder / "agents.csv")]
    written += [write_csv(frame, folder / f"by_{dim}.csv") for dim, frame in report.breakdowns.items()]
    document = {"agents": records(report.agents),
                "breakdowns": {dim: records(frame) for dim, frame in report.breakdowns.items()},
                "episodes": records(report.episodes)}
    path = folder / "metrics.json"
    write_json_atomic(path, json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    written.append(path)
    return written
