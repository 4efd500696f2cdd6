"""How a report of several runs puts them together, so that runs are never mixed silently.

- The same agent in two runs is two rows, labelled `agent @ run-id`: each row's interval is that run's
  own (the same 42 tasks run twice are not 84 independent episodes, and pooling them would narrow the
  interval as if they were). `--merge` pools them into one row, and the report says which runs it
  pooled and that its interval counts a task once per run.
- Agents (rows) evaluated on different task sets are flagged, and every figure is computed on the tasks
  all ranked rows share (reference agents are cut to them too); `--all-tasks` keeps every episode, and
  the report says that the rates are then not comparable.
What was done is said in `notes`: printed by `spa-bench report` and shown above the page's leaderboard.
The robust view is the exception: it compares an agent's episodes on the default device with those on
varied devices, which come from different runs (a plain one and a `--vary` one), so it takes every
episode under the agent's own name; its rows (agent x variation) keep the conditions apart.
A single run is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ChunkInfos = list[tuple[list[dict[str, Any]], list[dict[str, Any]], int]]  # (metrics rows, infos, run)


@dataclass
class ComparisonPlan:
    shared: set[str] | None = None  # the task ids every figure is computed on; None: every task
    notes: list[str] = field(default_factory=list)

    def keeps(self, info: dict[str, Any]) -> bool:
        return self.shared is None or info["task"]["id"] in self.shared


def _names(items: list[str], limit: int = 6) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def compare_runs(run_ids: list[str], chunks: ChunkInfos, *, merge: bool = False,
                 all_tasks: bool = False) -> ComparisonPlan:
    """Relabel the agents of several runs in place (rows and infos alike) and choose the tasks to keep."""
    plan = ComparisonPlan()
    if len(run_ids) < 2:
        return plan
    runs_of: dict[str, set[int]] = {}
    for _, infos, r in chunks:
        for info in infos:
            runs_of.setdefault(info["agent"], set()).add(r)
    repeated = sorted(name for name, runs in runs_of.items() if len(runs) > 1)
    if repeated and not merge:
        for rows, infos, r in chunks:
            for row, info in zip(rows, infos, strict=True):
                if info["agent"] in repeated:
                    info["base_agent"] = info["agent"]  # the robust view compares an agent's runs' devices
                    info["agent"] = row["agent"] = f"{info['agent']} @ {run_ids[r]}"
        plan.notes.append(f"{_names(repeated)} ran in several runs: one row per run ('agent @ run'), each "
                          f"with its own interval; --merge pools them")
    elif repeated:
        pooled = [f"{name} ({', '.join(run_ids[r] for r in sorted(runs_of[name]))})" for name in repeated]
        plan.notes.append(f"--merge pools {_names(pooled)} into one row each; its interval counts every "
                          f"episode as independent, so a task run in several runs narrows it more than a "
                          f"new task would: read it as too narrow")
    tasks: dict[str, set[str]] = {}
    references: set[str] = set()
    for _, infos, _ in chunks:
        for info in infos:
            tasks.setdefault(info["agent"], set()).add(info["task"]["id"])
            if info["ref"]:
                references.add(info["agent"])
    ranked = {agent: ids for agent, ids in tasks.items() if agent not in references} or tasks
    if len({frozenset(ids) for ids in ranked.values()}) < 2:
        return plan
    sizes = _names([f"{agent} {len(ids)}" for agent, ids in sorted(ranked.items())])
    shared = set.intersection(*ranked.values())
    plan.notes.append(f"agents evaluated on different task sets (tasks per agent: {sizes})")
    if not shared:
        plan.notes.append("they share no task: each is scored on its own tasks, and the rates are not "
                          "comparable")
    elif all_tasks:
        plan.notes.append(f"--all-tasks: each is scored on all its own tasks ({len(shared)} shared), and "
                          f"the rates are not comparable")
    else:
        plan.shared = shared
        left = sum(1 for _, infos, _ in chunks for info in infos if info["task"]["id"] not in shared)
        plan.notes.append(f"every figure is computed on the {len(shared)} task(s) they all share; "
                          f"{left} episode(s) on other tasks left out (--all-tasks keeps them)")
    return plan
