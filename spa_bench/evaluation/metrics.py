"""Metrics of a run: one row per episode, then aggregates per agent and breakdowns.

SPA-Bench's seven metrics and a few more: success rate (with a 95% Wilson interval), self-reported
completion, premature termination (said done, failed), overdue termination (succeeded, did not stop;
the rule, with its key-component refinement for tasks without checks, is in evaluation/completion.py),
step ratio (steps / golden steps, on successes), time, tokens and cost - the agent's and the
evaluators' kept apart. A cost that is unknown (a model without a known price) stays unknown (NaN) in
every sum and mean it enters: a leaderboard must not show such an agent as free.

Rates over outcomes (success, premature, overdue) count only decided episodes (see policy); the
completion rate counts all episodes. Per-step figures are ratios of totals (all time / all steps), so
an episode of zero steps needs no special case; per-episode figures are means.
pandas is imported inside the functions: importing this module stays cheap.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from spa_bench.evaluation.completion import is_overdue
from spa_bench.evaluation.policy import INFRASTRUCTURE, SuccessDecision, current_verdicts, decide_success
from spa_bench.results.schema import EpisodeLog, TokenUsage

if TYPE_CHECKING:
    import pandas as pd

Policy = Callable[[EpisodeLog], SuccessDecision]
NAN = float("nan")

EPISODE_COLUMNS = [
    "episode_id", "run_id", "agent", "task_id", "repeat", "language", "difficulty", "category", "apps",
    "status", "termination", "infrastructure_failure", "attempt",
    "success", "success_source", "success_reason", "completed", "premature", "overdue", "tampered",
    "steps", "golden_steps", "step_ratio", "time_s", "time_per_step_s",
    "prompt_tokens", "completion_tokens", "tokens", "tokens_per_step", "model_calls", "cost_usd",
    "cost_per_step_usd", "evaluator_tokens", "evaluator_cost_usd", "errors", "error_kinds",
]
"""Columns of `episode_table`. `apps` joins the packages with ';' (one CSV cell)."""

BREAKDOWNS = ("language", "difficulty", "category", "app")


def wilson_interval(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (NaN, NaN) when n is 0.
    Chosen over the normal approximation because it stays inside [0, 1] and is sane for small n and
    for rates near 0 or 1, which is what a benchmark of tens of tasks per agent produces."""
    if n <= 0:
        return NAN, NAN
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # at k = 0 and k = n the bound is exactly 0 or 1; rounding would leave 1e-17 or 0.9999999999999999
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _cost(value: float | None) -> float:
    return NAN if value is None else float(value)


def agent_usage(log: EpisodeLog) -> TokenUsage:
    """The agent's usage: the episode total, or the sum of the steps' when the total was left empty."""
    if log.usage.calls or log.usage.prompt_tokens or log.usage.completion_tokens or not log.steps:
        return log.usage
    total = TokenUsage()
    for step in log.steps:
        total = total + step.usage
    return total


def episode_time(log: EpisodeLog) -> float:
    """Wall time of the episode: the recorded total, else finish minus start, else NaN."""
    if log.timings.total_s > 0:
        return log.timings.total_s
    if log.finished_at is not None:
        return (log.finished_at - log.started_at).total_seconds()
    return NAN


def _per_step(value: float, steps: int) -> float:
    return value / steps if steps > 0 else NAN


def episode_row(log: EpisodeLog, policy: Policy = decide_success) -> dict[str, Any]:
    """One episode's figures; the keys are EPISODE_COLUMNS."""
    task = log.full_task
    decision = policy(log)
    success = decision.success
    completed = log.termination == "done"
    steps = len(log.steps)
    usage = agent_usage(log)
    evaluator = TokenUsage()
    for v in log.verdicts:
        evaluator = evaluator + v.usage
    time_s = episode_time(log)
    tokens = usage.prompt_tokens + usage.completion_tokens
    return {
        "episode_id": log.episode_id, "run_id": log.run_id, "agent": log.agent.name, "task_id": task.id,
        "repeat": log.instance.repeat, "language": task.language, "difficulty": task.difficulty,
        "category": task.category, "apps": ";".join(task.packages), "status": log.status,
        "termination": log.termination, "infrastructure_failure": log.termination in INFRASTRUCTURE,
        "attempt": log.attempt,
        "success": success, "success_source": decision.source, "success_reason": decision.reason,
        "completed": completed,
        "premature": None if success is None else (completed and not success),
        "overdue": is_overdue(log, success, current_verdicts(log, "gate")),
        "tampered": log.shell_audit is not None and log.shell_audit.tampered,
        "steps": steps, "golden_steps": task.golden_steps,
        "step_ratio": steps / task.golden_steps if success else NAN,
        "time_s": time_s, "time_per_step_s": _per_step(time_s, steps),
        "prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens,
        "tokens": tokens, "tokens_per_step": _per_step(tokens, steps), "model_calls": usage.calls,
        "cost_usd": _cost(usage.cost_usd), "cost_per_step_usd": _per_step(_cost(usage.cost_usd), steps),
        "evaluator_tokens": evaluator.prompt_tokens + evaluator.completion_tokens,
        "evaluator_cost_usd": _cost(evaluator.cost_usd),
        "errors": len(log.errors), "error_kinds": ";".join(sorted({e.kind for e in log.errors})),
    }


def episode_table(logs: Iterable[EpisodeLog], policy: Policy = decide_success) -> pd.DataFrame:
    """One row per episode, columns EPISODE_COLUMNS. success/premature/overdue are nullable booleans
    (pd.NA = undecided); unknown numbers are NaN."""
    import pandas as pd

    table = pd.DataFrame([episode_row(log, policy) for log in logs], columns=EPISODE_COLUMNS)
    for column in ("success", "premature", "overdue"):
        table[column] = table[column].astype("boolean")
    for column in ("completed", "infrastructure_failure", "tampered"):
        table[column] = table[column].astype(bool)
    return table


def _sum_unknown_is_nan(values: pd.Series) -> float:
    """A sum that is NaN if any part is unknown (pandas would skip NaN and report a partial sum)."""
    return float(values.sum(skipna=False)) if len(values) else 0.0


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else NAN


def aggregate(rows: pd.DataFrame) -> dict[str, Any]:
    """The figures of one group of episode rows (see the module docstring for the definitions)."""
    decided = rows[rows["success"].notna()]
    n, k = len(decided), int(decided["success"].astype(bool).sum())
    low, high = wilson_interval(k, n)
    successes = decided[decided["success"].astype(bool)]
    steps = int(rows["steps"].sum())
    return {
        "episodes": len(rows), "decided": n, "successes": k,
        "success_rate": _ratio(k, n), "success_ci_low": low, "success_ci_high": high,
        "completion_rate": _ratio(int(rows["completed"].sum()), len(rows)),
        "premature_rate": _ratio(int(decided["premature"].astype(bool).sum()), n),
        "overdue_rate": _ratio(int(decided["overdue"].astype(bool).sum()), n),
        "tampered": int(rows["tampered"].sum()),
        "mean_step_ratio": float(successes["step_ratio"].mean()) if len(successes) else NAN,
        "steps": steps,
        "mean_steps": float(rows["steps"].mean()) if len(rows) else NAN,
        "mean_time_s": float(rows["time_s"].mean(skipna=False)) if len(rows) else NAN,
        "time_per_step_s": _ratio(_sum_unknown_is_nan(rows["time_s"]), steps),
        "mean_tokens": float(rows["tokens"].mean()) if len(rows) else NAN,
        "tokens_per_step": _ratio(float(rows["tokens"].sum()), steps),
        "mean_cost_usd": float(rows["cost_usd"].mean(skipna=False)) if len(rows) else NAN,
        "cost_per_step_usd": _ratio(_sum_unknown_is_nan(rows["cost_usd"]), steps),
        "cost_usd": _sum_unknown_is_nan(rows["cost_usd"]),
        "evaluator_cost_usd": _sum_unknown_is_nan(rows["evaluator_cost_usd"]),
        "mean_evaluator_cost_usd": float(rows["evaluator_cost_usd"].mean(skipna=False)) if len(rows) else NAN,
        "errors": int(rows["errors"].sum()),
        "infrastructure_failures": int(rows["infrastructure_failure"].sum()),
    }


def summarize(table: pd.DataFrame, by: Sequence[str] = ("agent",)) -> pd.DataFrame:
    """Aggregate the episode table per group; `by` may include "app" (a cross-app episode then counts
    once for each of its apps)."""
    import pandas as pd

    keys = list(by)
    if "app" in keys:
        table = table.assign(app=table["apps"].str.split(";")).explode("app")
    records = []
    if len(table):
        for values, rows in table.groupby(keys, sort=True, dropna=False):
            label = values if isinstance(values, tuple) else (values,)
            records.append({**dict(zip(keys, label, strict=True)), **aggregate(rows)})
    columns = keys + list(aggregate(table.iloc[0:0]).keys())
    return pd.DataFrame(records, columns=columns)


@dataclass
class MetricsReport:
    """Everything the leaderboard shows: the episode table, one row per agent, and the breakdowns
    (keyed by dimension: language, difficulty, category, app; rows per agent and value)."""

    episodes: pd.DataFrame
    agents: pd.DataFrame
    breakdowns: dict[str, pd.DataFrame] = field(default_factory=dict)


def compute_metrics(logs: Iterable[EpisodeLog], policy: Policy = decide_success) -> MetricsReport:
    table = episode_table(logs, policy)
    return MetricsReport(
        episodes=table, agents=summarize(table),
        breakdowns={dim: summarize(table, ("agent", dim)) for dim in BREAKDOWNS})
