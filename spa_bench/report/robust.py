"""The report's "robust" view: success per device variation (`spa-bench run --vary`) and per value of
each varied dimension, per agent, and the drop from the default device.

The default device is an episode without a variation (EpisodeLog.variation None). The usual way to get
both is two runs, one without and one with --vary, reported together (`spa-bench report RUN1 RUN2`):
the drop is then the agent's default success rate minus its rate under the variation, in percentage
points, and it is shown only where the same agent has default episodes in the report. It compares rates
over whatever tasks each side ran; with the same task selection in both runs that is the fair reading.
A dimension left alone in a varied episode counts under that dimension's "default" value.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spa_bench.report.hard import Outcome, Rate

DEFAULT = "default"
DIMENSIONS = ("screen", "density", "font_scale", "dark", "navigation", "locale")


def dimension_value(dimension: str, value: Any) -> str:
    """A dimension's value as reports show it; None (left alone) is "default"."""
    if value is None:
        return DEFAULT
    if dimension == "dark":
        return "dark" if value else "light"
    if dimension == "density":
        return f"{value} dpi"
    if dimension == "font_scale":
        return f"{float(value):g}"
    return str(value)


def _order(dimension: str, value: Any) -> tuple[int, Any]:
    """Default first, then in the dimension's natural order (screens by pixel count)."""
    if value is None:
        return (0, 0)
    if dimension == "screen":
        width, _, height = str(value).partition("x")
        return (1, int(width) * int(height) if width.isdigit() and height.isdigit() else 0)
    return (1, value)


@dataclass(frozen=True)
class RobustRow:
    agent: str
    group: str  # the variation's name, or the dimension's value
    rate: Rate
    drop_pp: float | None  # the agent's default rate minus this one, in points; None: no default to compare

    def as_json(self, key: str) -> dict[str, Any]:
        drop = None if self.drop_pp is None else round(self.drop_pp, 4)
        return {"agent": self.agent, key: self.group, **self.rate.as_json(), "drop_pp": drop}


@dataclass(frozen=True)
class RobustView:
    variations: list[RobustRow]  # per agent: the default device first, then by episodes
    dimensions: dict[str, list[RobustRow]]  # dimension -> rows per agent and value (varied dimensions)
    # Agents that never ran on a varied device are left out of both.

    def as_json(self) -> dict[str, Any]:
        """Variations as rows of values under `columns`: a run can draw one per episode, and 10,000
        rows as objects would repeat every key 10,000 times (600 kB instead of 250)."""
        rows = [r.as_json("variation") for r in self.variations]
        columns = list(rows[0]) if rows else []
        return {"variations": {"columns": columns, "rows": [[row[c] for c in columns] for row in rows]},
                "dimensions": {d: [r.as_json("value") for r in rows] for d, rows in self.dimensions.items()}}


def _drop(base: Rate | None, rate: Rate) -> float | None:
    if base is None or math.isnan(base.rate) or math.isnan(rate.rate):
        return None
    return round(100 * (base.rate - rate.rate), 9) + 0.0  # equal rates: 0.0, not 1e-14 or -0.0


def _name(o: Outcome) -> str:
    return DEFAULT if o.facts.variation is None else str(o.facts.variation.get("name") or DEFAULT)


def robust_view(outcomes: Sequence[Outcome]) -> RobustView | None:
    """The view, or None when no episode ran on a varied device."""
    if all(o.facts.variation is None for o in outcomes):
        return None
    agents: dict[str, list[Outcome]] = {}
    for o in outcomes:
        agents.setdefault(o.agent, []).append(o)
    varied = [d for d in DIMENSIONS if any((o.facts.variation or {}).get(d) is not None for o in outcomes)]
    variations: list[RobustRow] = []
    dimensions: dict[str, list[RobustRow]] = {d: [] for d in varied}
    for agent in sorted(agents):
        group = agents[agent]
        if all(o.facts.variation is None for o in group):
            continue  # never on a varied device: nothing to say about its robustness
        defaults = [o for o in group if o.facts.variation is None]
        base = Rate.of(defaults) if defaults else None
        names: dict[str, list[Outcome]] = {}
        for o in group:
            if o.facts.variation is not None:
                names.setdefault(_name(o), []).append(o)
        if base is not None:
            variations.append(RobustRow(agent, DEFAULT, base, None))
        for name, members in sorted(names.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            rate = Rate.of(members)
            variations.append(RobustRow(agent, name, rate, _drop(base, rate)))
        for dimension in varied:
            values: dict[Any, list[Outcome]] = {}
            for o in group:
                values.setdefault((o.facts.variation or {}).get(dimension), []).append(o)
            for value in sorted(values, key=lambda v: _order(dimension, v)):
                rate = Rate.of(values[value])
                dimensions[dimension].append(
                    RobustRow(agent, dimension_value(dimension, value), rate, _drop(base, rate)))
    return RobustView(variations=variations, dimensions=dimensions)
