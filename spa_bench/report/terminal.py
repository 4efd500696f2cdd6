"""The leaderboard as a rich table for the terminal (the same pandas figures the page starts from), and
the hard and robust views briefly (the same figures as the page's, from spa_bench.report.hard / robust),
and pass@k / pass^k of runs with repeats (spa_bench.report.repeats)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from rich.table import Table

from spa_bench.evaluation.metrics import wilson_interval
from spa_bench.report.hard import ALL_KINDS, CATEGORIES, OTHER, HardView, Rate
from spa_bench.report.repeats import RepeatsView
from spa_bench.report.robust import RobustView

if TYPE_CHECKING:
    import pandas as pd


def _pct(value: Any) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def _pct_ci(rate: Any, n: Any) -> str:
    """`23.8% [13.5, 38.5]`: a rate of n episodes with its 95% Wilson interval (k = rate x n exactly)."""
    if rate is None or math.isnan(rate) or not n:
        return _pct(rate)
    low, high = wilson_interval(round(rate * n), int(n))
    return f"{_pct(rate)} [{100 * low:.1f}, {100 * high:.1f}]"


def _num(value: Any, fmt: str) -> str:
    return "?" if value is None or math.isnan(value) else format(value, fmt)


def _usd(value: Any) -> str:
    if value is None or math.isnan(value):
        return "?"
    return f"${value:.2f}" if value >= 1 or value == 0 else f"${value:.4f}"


LEADERBOARD_HEADERS = ("#", "agent", "episodes", "success", "95% CI", "completion", "premature", "overdue",
                       "step ratio", "time/ep", "tokens/ep", "cost/ep", "cost", "tampered", "infra fail")
ALWAYS_SHOWN = ("#", "agent", "episodes", "success", "95% CI")
# the other columns in the order they are given room in a narrow terminal (the HTML report has them all)
BY_PRIORITY = ("premature", "time/ep", "cost/ep", "infra fail", "tampered", "completion", "overdue",
               "step ratio", "tokens/ep", "cost")
AGENT_ROOM = 20  # characters of the agent column counted when fitting (longer names wrap)


def _fit(headers: tuple[str, ...], rows: list[list[str]], width: int | None) -> list[str]:
    """The headers shown in `width` characters: ALWAYS_SHOWN, then BY_PRIORITY while they fit whole (a
    column takes its widest cell or header, plus 3 for padding and rule)."""
    if width is None:
        return list(headers)
    need = {h: 3 + max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)}
    need["agent"] = 3 + min(AGENT_ROOM, need["agent"] - 3)
    shown = set(ALWAYS_SHOWN)
    used = 1 + sum(need[h] for h in shown)
    for header in BY_PRIORITY:
        if used + need[header] <= width:
            shown.add(header)
            used += need[header]
    return [h for h in headers if h in shown]


def leaderboard_table(agents: pd.DataFrame, title: str = "leaderboard", width: int | None = None) -> Table:
    """One row per agent, ranked by success rate (best first); every rate with its 95% Wilson interval;
    unknown values are '?' (never 0). Reference agents (a `reference` column: the full task was revealed
    to them, e.g. the oracle) come after the ranked rows, marked "(reference)" and without a rank. With
    `width` (the terminal's), the columns that do not fit are left out, by BY_PRIORITY, and a caption
    names them."""
    ordered = agents.sort_values(["success_rate", "agent"], ascending=[False, True], na_position="last")
    records = ordered.to_dict(orient="records")
    ranked = [r for r in records if not r.get("reference", False)]
    references = [r for r in records if r.get("reference", False)]
    rows = []
    for rank, row in [*((str(i), r) for i, r in enumerate(ranked, 1)), *(("", r) for r in references)]:
        ci = "–" if math.isnan(row["success_rate"]) else \
            f"{_pct(row['success_ci_low'])}–{_pct(row['success_ci_high'])}"
        name = f"{row['agent']} (reference)" if row.get("reference", False) else str(row["agent"])
        rows.append([
            rank, name, f"{row['decided']}/{row['episodes']}", _pct(row["success_rate"]), ci,
            _pct_ci(row["completion_rate"], row["episodes"]), _pct_ci(row["premature_rate"], row["decided"]),
            _pct_ci(row["overdue_rate"], row["decided"]),
            _num(row["mean_step_ratio"], ".2f"), _num(row["mean_time_s"], ".1f") + " s",
            _num(row["mean_tokens"], ",.0f"), _usd(row["mean_cost_usd"]), _usd(row["cost_usd"]),
            str(row["tampered"]), str(row["infrastructure_failures"])])
    shown = _fit(LEADERBOARD_HEADERS, rows, width)
    left_out = [h for h in LEADERBOARD_HEADERS if h not in shown]
    caption = f"left out at this width: {', '.join(left_out)} (in the HTML report)" if left_out else None
    table = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    for header in shown:
        agent = header == "agent"
        table.add_column(header, justify="left" if agent else "right", no_wrap=not agent,
                         overflow="fold" if agent else "ellipsis")
    index = [LEADERBOARD_HEADERS.index(h) for h in shown]
    for row in rows:
        table.add_row(*(row[i] for i in index))
    return table


def _rate(rate: Rate) -> str:
    """`50.0% 2/4 (15.0–85.0%)`: the rate, successes over decided episodes, the 95% Wilson interval."""
    if not rate.decided:
        return f"– 0/{rate.episodes}" if rate.episodes else ""
    return f"{_pct(rate.rate)} {rate.successes}/{rate.decided} ({100 * rate.low:.1f}–{100 * rate.high:.1f}%)"


def _matrix(title: str, rows: list[tuple[str, str, Rate]], columns: list[str], label: str,
            width: int | None = None) -> Table:
    """Agents down, `columns` across, a rate in each cell; when that grid is wider than `width`, one row
    per agent and column instead (agent, `label`, success), so no rate or interval is cut."""
    cells = {(agent, column): _rate(rate) for agent, column, rate in rows}
    agents = list(dict.fromkeys(agent for agent, _, _ in rows))
    need = 1 + 3 + max(len("agent"), *(len(a) for a in agents)) + sum(
        3 + max(len(c), *(len(cells.get((a, c), "")) for a in agents)) for c in columns)
    table = Table(title=title, title_justify="left")
    table.add_column("agent", no_wrap=True)
    if width is not None and need > width:
        table.add_column(label, overflow="fold")
        table.add_column("success", justify="right", no_wrap=True)
        for agent in agents:
            for column in columns:
                if (agent, column) in cells:
                    table.add_row(agent, column, cells[agent, column])
        return table
    for column in columns:
        table.add_column(column, justify="right")
    for agent in agents:
        table.add_row(agent, *(cells.get((agent, c), "") for c in columns))
    return table


def hard_tables(view: HardView, width: int | None = None) -> list[Table]:
    """The hard view, briefly: success by kind of task, asking, and interruptions that fired. With
    `width` (the terminal's), a grid too wide for it is shown one rate a row (see _matrix)."""
    kinds = [c for c in (*CATEGORIES, OTHER) if any(row[1] == c for row in view.categories)]
    tables = [_matrix("hard tasks: success by kind (tags)", view.categories, kinds, "kind", width)]
    if view.ask:
        ask = Table(title="hard tasks: asking the user", title_justify="left")
        # two-line headers and cells kept whole: 70 columns with two agents, where rich cut them before
        for header in ("agent", "ask-task\nepisodes", "asked", "questions\n/ep", "other\nepisodes",
                       "asked\nneedlessly"):
            left = header == "agent"
            ask.add_column(header, justify="left" if left else "right", no_wrap=True)
        for row in view.ask:
            ask.add_row(row.agent, str(row.ask_episodes), f"{_pct(row.asked_share)} ({row.asked})",
                        _num(row.mean_questions, ".2f"), str(row.other_episodes),
                        f"{_pct(row.needless_share)} ({row.needless})")
        tables.append(ask)
    if view.interruptions:
        fired = sorted({kind for _, kind, _ in view.interruptions}, key=lambda k: (k != ALL_KINDS, k))
        tables.append(_matrix("hard tasks: success when interruptions fired", view.interruptions, fired,
                              "interruption", width))
    return tables


def robust_tables(view: RobustView) -> list[Table]:
    """The robust view by dimension value (a run can draw hundreds of distinct variations: those are in
    the HTML report), with the difference from the agent's default device in points."""
    table = Table(title=f"robustness: success by device dimension ({len(view.variations)} agent × "
                        "variation rows in the HTML report)", title_justify="left")
    for header in ("agent", "dimension", "value", "success", "vs default"):
        figure = header in ("success", "vs default")
        table.add_column(header, justify="right" if figure else "left", no_wrap=figure)
    for dimension, rows in view.dimensions.items():
        for row in sorted(rows, key=lambda r: r.agent):  # stable: values stay in their order
            delta = "" if row.drop_pp is None else f"{0.0 - row.drop_pp:+.1f} pp"  # 0.0 - 0.0: no "-0.0"
            table.add_row(row.agent, dimension, row.group, _rate(row.rate), delta)
    return [table]


def repeats_table(view: RepeatsView, wide: bool = False) -> Table:
    """Per agent: pass@k and pass^k over tasks with their 95% Wilson intervals, how many tasks flip
    between repeats, and how the tasks' success counts spread (`0/3:10 3/3:29`); pass@1 and the tasks
    left out (an undecided instance) under `wide`. The flipping tasks are named by repeats_notes."""
    k = view.k
    table = Table(title=f"repeats: {k} instances of each task", title_justify="left")
    table.add_column("agent", overflow="fold")
    for header in (["tasks"] + (["pass@1"] if wide else []) + [f"pass@{k} [95% CI]", f"pass^{k} [95% CI]",
                                                                 "flips"] + (["left out"] if wide else [])):
        table.add_column(header, justify="right", no_wrap=True)
    if wide:
        table.add_column("spread (successes/k: tasks)", no_wrap=True)
    for a in view.agents:
        name = f"{a.agent} (reference)" if a.reference else a.agent
        spread = " ".join(f"{c}/{k}:{n}" for c, n in a.spread.items())
        table.add_row(name, str(a.pass_at_k.tasks), *([a.pass_at_1.text()] if wide else []),
                      a.pass_at_k.text(), a.pass_hat_k.text(), str(len(a.flips)),
                      *([str(a.left_out), spread] if wide else []))
    return table


def repeats_notes(view: RepeatsView, limit: int = 8) -> list[str]:
    """One line per agent whose outcome flips on some task between repeats, naming the tasks."""
    lines = []
    for a in view.agents:
        if a.flips:
            shown = ", ".join(a.flips[:limit]) + (f" and {len(a.flips) - limit} more" if len(a.flips) > limit
                                                   else "")
            lines.append(f"{a.agent}: {len(a.flips)} task(s) flip between repeats: {shown}")
    return lines
