"""A task's near misses (`near_misses:` in its YAML) as tasks of their own, for the oracle to replay.

Each near miss becomes a copy of its task whose golden script is the near miss's script, written to a
private task tree beside the shipped one. A task whose golden script asks the user (ask_user) gets one
more, written here: the golden script without its questions, a lucky guess that must fail all the same.
Replayed by the oracle, a copy must run to the end of its script and its task's own state checks must
reject it: that is how a test (tests/tasks/test_near_misses.py) or a
task author proves the checks tell right from almost right.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from spa_bench.tasks.repository import read_task_file

if TYPE_CHECKING:
    from spa_bench.results.schema import EpisodeLog

NEAR_MISS_ID = "{id}.near_miss{k}"
GUESS = "the golden script without its questions to the user: a right guess, never asked"


@dataclass(frozen=True)
class NearMissCopy:
    copy_id: str
    description: str


def write_near_miss_tree(root: Path, suite: str, out: Path) -> list[NearMissCopy]:
    """Write the near-miss copies of `suite`'s tasks (under `root`) to `out/<suite>/near_misses.yaml`."""
    written: list[NearMissCopy] = []
    copies: list[dict[str, Any]] = []
    for path in sorted((root / suite).rglob("*.yaml")):
        for raw in read_task_file(path):
            nears = list(raw.get("near_misses") or [])
            script = raw.get("golden_script") or []
            unasked = [a for a in script if not (isinstance(a, dict) and a.get("type") == "ask_user")]
            if len(unasked) < len(script):
                nears.append({"description": GUESS, "script": unasked})
            for k, near in enumerate(nears):
                copy = {key: value for key, value in raw.items() if key != "near_misses"}
                copy["id"] = NEAR_MISS_ID.format(id=raw["id"], k=k)
                copy["golden_script"] = near["script"]
                # room for the oracle's waits: the copy must get to the end of its script
                copy["max_steps"] = max(int(raw.get("max_steps") or 0), 3 * len(near["script"]) + 10)
                copies.append(copy)
                written.append(NearMissCopy(copy["id"], str(near["description"])))
    (out / suite).mkdir(parents=True, exist_ok=True)
    (out / suite / "near_misses.yaml").write_text(yaml.safe_dump(copies, allow_unicode=True), "utf-8")
    return written


def near_miss_problems(copies: list[NearMissCopy], logs: list[EpisodeLog]) -> list[str]:
    """What is wrong with the oracle's replay of `copies` (its logs): a copy that did not run to the end of
    its script proves nothing, and one the verdict policy calls a success is a near miss the task accepts."""
    from spa_bench.evaluation.policy import decide_success

    by_task = {log.full_task.id: log for log in logs}
    problems = [f"{c.copy_id} ({c.description}): not run" for c in copies if c.copy_id not in by_task]
    for copy in copies:
        log = by_task.get(copy.copy_id)
        if log is None:
            continue
        invalid = [s.invalid_reason for s in log.steps if not s.valid]
        decision = decide_success(log)
        if log.termination not in ("done", "infeasible") or invalid:
            problems.append(f"{copy.copy_id} ({copy.description}): the script did not run to its end "
                            f"(termination {log.termination}, invalid steps {invalid}, "
                            f"errors {[e.message for e in log.errors]})")
        elif decision.success is not False:
            problems.append(f"{copy.copy_id} ({copy.description}): the checks accept this near miss"
                            if decision.success else f"{copy.copy_id}: undecided ({decision.reason})")
    return problems
