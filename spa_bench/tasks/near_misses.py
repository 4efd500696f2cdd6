"""A task's near misses (`near_misses:` in its YAML) as tasks of their own, for the oracle to replay.

Each near miss becomes a copy of its task whose golden script is the near miss's script, written to a
private task tree beside the shipped one. A task whose golden script asks the user (ask_user) gets one
more, written here: the golden script without its questions, a lucky guess that must fail all the same.
Replayed by the oracle, a copy must run to the end of its script and its task's own state checks must
reject it: that is how a test (tests/tasks/test_near_misses.py) or a
task author proves the checks tell right from almost right.

Every task with an answer check also has two near misses derived from its golden script
(`answer_near_misses`): the same script whose final answer negates or hedges the right value. The answer check
alone decides them (the rest of the script is the golden one), so they are graded without a phone, on every
instance
(tests/evaluation/test_answer_checks.py); `tasks verify`'s answer_forms probe says such forms on phones.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from spa_bench.tasks.repository import read_task_file

if TYPE_CHECKING:
    from spa_bench.results.schema import EpisodeLog
    from spa_bench.tasks.model import NearMiss, Task

NEAR_MISS_ID = "{id}.near_miss{k}"
GUESS = "the golden script without its questions to the user: a right guess, never asked"


# {x}: the golden answer. Fixed wordings: the probe (spa_bench/verify/answer_forms.py) varies them.
ANSWER_NEAR_MISSES: dict[str, dict[str, str]] = {
    "negated": {"en": "It is not {x}.", "zh": "不是{x}。"},
    "hedged": {"en": "Maybe it is {x}, I am not sure.", "zh": "可能是{x}吧。"},
}


def answer_near_misses(task: Task) -> list[NearMiss]:
    """The negated and the hedged near miss of a task whose golden script ends with an answer: the golden
    script with that answer said as "It is not X." / "Maybe it is X" (or in Chinese). None for other tasks."""
    from spa_bench.actions import Finish
    from spa_bench.tasks.model import NearMiss

    script = list(task.golden_script or [])
    if not task.retrieval or not script or not isinstance(script[-1], Finish) or not script[-1].answer:
        return []
    finish, answer = script[-1], script[-1].answer
    said = {mode: forms.get(task.language, forms["en"]).replace("{x}", answer)
            for mode, forms in ANSWER_NEAR_MISSES.items()}
    return [NearMiss(description=f"the right answer {mode}: {text!r}",
                     script=[*script[:-1], finish.model_copy(update={"answer": text})])
            for mode, text in said.items()]


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
