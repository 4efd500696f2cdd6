"""The leaderboard as a rich table for the terminal (the same pandas figures the page starts from)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rich.table import Table

if TYPE_CHECKING:
    import pandas as pd


def _pct(value: Any) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def _num(value: Any, fmt: str) -> str:
    return "?" if value is None or math.isnan(value) else format(value, fmt)


def _usd(value: Any) -> str:
    if value is None or math.isnan(value):
        return "?"
    return f"${value:.2f}" if value >= 1 or value == 0 else f"${value:.4f}"


def leaderboard_table(agents: pd.DataFrame, title: str = "leaderboard") -> Table:
    """One row per agent, best success rate first; unknown values are '?' (never 0)."""
    table = Table(title=title, title_justify="left")
    headers = ("agent", "episodes", "success", "95% CI", "completion", "premature", "overdue", "step ratio",
               "time/ep", "tokens/ep", "cost/ep", "cost", "tampered", "infra fail")
    for header in headers:
        table.add_column(header, justify="left" if header == "agent" else "right", no_wrap=header == "agent")
    ordered = agents.sort_values(["success_rate", "agent"], ascending=[False, True], na_position="last")
    for row in ordered.to_dict(orient="records"):
        ci = "–" if math.isnan(row["success_rate"]) else \
            f"{_pct(row['success_ci_low'])}–{_pct(row['success_ci_high'])}"
        table.add_row(
            str(row["agent"]), f"{row['decided']}/{row['episodes']}", _pct(row["success_rate"]), ci,
            _pct(row["completion_rate"]), _pct(row["premature_rate"]), _pct(row["overdue_rate"]),
            _num(row["mean_step_ratio"], ".2f"), _num(row["mean_time_s"], ".1f") + " s",
            _num(row["mean_tokens"], ",.0f"), _usd(row["mean_cost_usd"]), _usd(row["cost_usd"]),
            str(row["tampered"]), str(row["infrastructure_failures"]))
    return table
