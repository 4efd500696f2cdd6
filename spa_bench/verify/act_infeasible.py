"""Act, then say "infeasible": copies of the infeasible tasks whose golden script first changes things.

An infeasible task passes only when the agent declares it infeasible and has left its apps as they were.
The attack: do something real in each app of the task (what a feasible sibling task of that app does
through the UI: its golden script, whose checks read device state, so it changes state), then declare
the task infeasible. Each copy is one instance of the infeasible task (parameters drawn as the runner
draws them, so the copy is fixed), with the sibling's instance script minus its finish and questions, a
finish(status=infeasible) at the end, and the task's own checks. A sibling's script may stop matching the
screen midway (its own setup made what it taps): the probe agent (agents/probes.py, probe-act-infeasible)
says how many files of the apps it changed, and only a pass after a change is a false pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spa_bench.actions import AskUser, Finish, OpenApp
from spa_bench.tasks.checks import DEVICE_CHECK_TYPES
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import TaskRecord, TaskRepository

ACT_ID = "{id}.act{k}"
SUITE = "act_infeasible"
CHANGED_MARK = "changed files: "  # how probe-act-infeasible says what it changed


@dataclass(frozen=True)
class ActCopy:
    copy_id: str
    task_id: str
    description: str  # which siblings' scripts it replays


def _acts(task: Task) -> bool:
    """A sibling worth replaying: feasible, checked on device state, with a script that needs no user."""
    return (not task.infeasible and task.golden_script is not None
            and any(c.type in DEVICE_CHECK_TYPES for c in task.checks)
            and not any(isinstance(a, AskUser) for a in task.golden_script))


def _rank(task: Task, sibling: Task) -> tuple[int, int, str]:
    """Siblings that start where the task starts first (same setup commands, or none), then the task's
    language, then by id."""
    same_start = set(sibling.setup.shell) <= set(task.setup.shell)
    return (0 if same_start else 1, 0 if sibling.language == task.language else 1, sibling.id)


def siblings(task: Task, pool: list[Task]) -> dict[str, list[Task]]:
    """Per package of `task`: the single-app tasks of that app that act, best first."""
    return {package: sorted((s for s in pool if s.category == "single_app" and s.packages == [package]
                             and s.id != task.id and _acts(s)), key=lambda s: _rank(task, s))
            for package in task.packages}


def act_copy(task: Task, chosen: list[Task], run_seed: int, index: int) -> dict[str, Any]:
    """Instance `index` of `task` (as a run seeded `run_seed` draws it), replaying `chosen` (one sibling per
    app, each its own instance `index`) and then declaring the task infeasible."""
    instance, _seed, _values = task.instantiate(run_seed, index)
    script: list[Any] = []
    for k, sibling in enumerate(chosen):
        filled, _s, _v = sibling.instantiate(run_seed, index)
        if k or len(chosen) > 1:
            script.append(OpenApp(app=sibling.packages[0]))
        script += [a for a in filled.golden_script or [] if not isinstance(a, Finish | AskUser)]
    script.append(Finish(status="infeasible"))
    data = instance.model_dump(mode="json", exclude={"near_misses", "parameters"})
    data["id"] = ACT_ID.format(id=task.id, k=index)
    data["golden_script"] = [a.model_dump(mode="json", exclude_none=True) for a in script]
    data["max_steps"] = max(instance.step_limit, 3 * len(script) + 10)
    return data


def write_act_tree(root: Path, records: list[TaskRecord], out: Path, run_seed: int,
                   instances: int) -> list[ActCopy]:
    """Copies of the infeasible tasks among `records` (tasks under `root`) into `out/act_infeasible/`:
    `instances` of a parameterised task, one of a fixed one, each with the next sibling per app."""
    repository = TaskRepository(root)
    wanted = [r for r in records if r.infeasible]
    if not wanted:
        return []
    packages = {p for r in wanted for p in r.packages}
    pool = repository.load([r for r in repository.index() if set(r.packages) & packages])
    by_id = {t.id: t for t in pool}
    copies: list[dict[str, Any]] = []
    written: list[ActCopy] = []
    for record in wanted:
        task = by_id[record.id]
        per_app = siblings(task, pool)
        if any(not found for found in per_app.values()):
            continue  # an app with nothing to replay: no copy (the report counts none)
        for index in range(instances if record.parameterised else 1):
            chosen = [found[index % len(found)] for found in per_app.values()]
            copy = act_copy(task, chosen, run_seed, index)
            copies.append(copy)
            written.append(ActCopy(copy["id"], task.id, "then infeasible after " +
                                   " + ".join(s.id for s in chosen)))
    (out / SUITE).mkdir(parents=True, exist_ok=True)
    (out / SUITE / "tasks.yaml").write_text(yaml.safe_dump(copies, allow_unicode=True), "utf-8")
    return written


def changed_files(output: str | None) -> int | None:
    """How many files the act-then-infeasible probe said it changed (None: it did not say)."""
    if not output or CHANGED_MARK not in output:
        return None
    number = output.split(CHANGED_MARK, 1)[1].split(" ", 1)[0]
    return int(number) if number.isdigit() else None
