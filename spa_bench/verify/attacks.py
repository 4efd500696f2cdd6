"""The attacks of `tasks verify` by class (../shared/notes/grader-attacks.md), each a run of probe agents.

- `answer_forms` (answer tasks, every instance): the right answer negated, hedged, or as one of two
  (agents/probe_answers.py). One form per episode, chosen by its seed, so the forms spread over the
  tasks and seeds; `all_forms` runs every form on every instance (about 18 times the episodes).
- `act_infeasible` (infeasible tasks, every instance): a feasible sibling's script in each app, then
  "infeasible" (spa_bench.verify.act_infeasible). A pass counts as false only when the apps' files
  changed; an episode that changed nothing is inconclusive and is recorded as such.
- `intent_tamper` (every task, its first instance: the way in does not depend on the drawn values):
  explicit intents with extras and broadcasts, then the oracle's finish (agents/probe_device.py).
- `key_search` (every task, its first instance): an ordinary agent that looks for the key in the context,
  its environment and the files about its workdir (agents/probe_keys.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spa_bench.runner.config import AgentConfig
from spa_bench.tasks.repository import TaskRecord, TaskRepository
from spa_bench.verify.act_infeasible import changed_files as said_changed
from spa_bench.verify.act_infeasible import write_act_tree
from spa_bench.verify.answer_forms import ANSWER_MODES, forms
from spa_bench.verify.outcome import ProbeOutcome, judge

if TYPE_CHECKING:
    from spa_bench.verify.run import VerifyConfig, _Runner

ANSWER_PROBE = "spa_bench.agents.probe_answers:AnswerFormProbe"
ACT_PROBE = "spa_bench.agents.probe_device:ActThenInfeasibleProbe"
INTENT_PROBE = "spa_bench.agents.probe_device:IntentTamperProbe"
KEY_PROBE = "spa_bench.agents.probe_keys:KeySearchProbe"
Add = Callable[[str, ProbeOutcome], None]


def answer_agents(all_forms: bool) -> list[AgentConfig]:
    if not all_forms:
        return [AgentConfig(agent=ANSWER_PROBE, name=f"answer-{m}", args={"mode": m}) for m in ANSWER_MODES]
    return [AgentConfig(agent=ANSWER_PROBE, name=f"answer-{m}-{k}", args={"mode": m, "form": k})
            for m in ANSWER_MODES for k in range(max(len(forms(m, lang)) for lang in ("en", "zh")))]


def changed_files(log: Any) -> int | None:
    """How many files of the task's apps the act-then-infeasible episode changed: the episode's own state
    digest when the log has one, else what the probe measured (None: unknown, counted as changed)."""
    end = getattr(log, "digest_end", None)  # the harness's digest (spa_bench.evaluation.untouched)
    if end is not None:
        return len(list(end.changes))
    last = log.steps[-1].agent_output if log.steps else None
    return said_changed(last)


def judge_act(log: Any, run_dir: str, description: str) -> ProbeOutcome:
    changed = changed_files(log)
    outcome = judge(log, "act_infeasible", False, run_dir, variant=f"{changed} files changed, {description}")
    if changed == 0 and outcome.success:  # nothing done: declaring infeasible is right here
        outcome.must_pass, outcome.problem = True, None
        outcome.variant = f"inconclusive (the script changed nothing), {description}"
    return outcome


def run_attacks(runner: _Runner, config: VerifyConfig, records: list[TaskRecord], root: Path,
                add: Add) -> None:
    probes = config.probes
    store = config.out / "state"
    answer_tasks = [r for r in records if r.retrieval]
    if "answer_forms" in probes and answer_tasks:
        for run_dir, log in runner.run("answer-forms", answer_agents(config.all_forms), answer_tasks, root):
            variant = f"{log.agent.name.removeprefix('answer-')}: {log.answer!r}"
            add(log.full_task.id, judge(log, "answer_forms", False, run_dir, variant=variant))
    if "act_infeasible" in probes and any(r.infeasible for r in records):
        tree = config.out / "act-infeasible-tasks"
        copies = {c.copy_id: c for c in write_act_tree(root, records, tree, config.run_seed, config.seeds)}
        act = [AgentConfig(agent=ACT_PROBE, name="act-infeasible")]
        chosen = [r for r in TaskRepository(tree).index() if r.id in copies] if copies else []
        for run_dir, log in runner.run("act-infeasible", act, chosen, tree) if chosen else []:
            copy = copies[log.full_task.id]
            add(copy.task_id, judge_act(log, run_dir, copy.description))
    if "intent_tamper" in probes:
        intent = [AgentConfig(agent=INTENT_PROBE, name="intent", args={"store": str(store)})]
        for run_dir, log in runner.run("intent-tamper", intent, records, root, seeds=1):
            add(log.full_task.id, judge(log, "intent_tamper", False, run_dir))
    if "key_search" in probes:
        keys = [AgentConfig(agent=KEY_PROBE, name="key-search")]
        for run_dir, log in runner.run("key-search", keys, records, root, seeds=1):
            said = log.steps[-1].agent_output if log.steps else ""
            add(log.full_task.id, judge(log, "key_search", False, run_dir, variant=str(said or "")[:200]))
