"""Attack every selected task's checks on virtual phones, with ordinary runs of probe agents.

For each task, on one instance of a fixed task and `seeds` instances of a parameterised one (the same
instances for every probe, since they share the run seed):
1. `oracle` (the state recorder, agents/probes.py), `noop`, `probe-infeasible`;
2. `probe-spam` in every mode, on the tasks with an answer check;
3. the task's near misses, replayed by the oracle from a private task tree (spa_bench.tasks.near_misses);
4. `probe-tamper`, which reaches the end state the oracle left behind the GUI;
5. the attacks by class of spa_bench.verify.attacks: answers that negate, hedge or offer the right value
   as one of two; acting in the apps and then declaring an infeasible task infeasible; explicit intents
   with extras; an ordinary agent that looks for the answer key in what it was handed.
Every run is a normal `run_benchmark` run in its own folder under `out`, so each probe episode can be
opened in the report like any other. The phones are started once and shared by all the runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.events import Events
from spa_bench.runner.pool import DevicePool, start_virtual_pool
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.near_misses import write_near_miss_tree
from spa_bench.tasks.repository import TaskFilter, TaskRecord, TaskRepository, default_tasks_root
from spa_bench.verify import attacks
from spa_bench.verify.outcome import PROBES, Probe, ProbeOutcome, TaskVerification, VerifyReport, judge

SPAM_MODES = ("junk", "echo", "candidates", "numbers", "words")


@dataclass(frozen=True)
class VerifyConfig:
    out: Path
    tasks_dir: Path | None = None
    filter: TaskFilter = field(default_factory=TaskFilter)
    seeds: int = 3  # instances of every parameterised task
    run_seed: int = 0
    phones: int = 2
    phone_size: str = "1080x2400"
    phone_clock: str | None = None
    probes: tuple[Probe, ...] = PROBES
    devices: list[str] = field(default_factory=list)  # run on these (virtual phones) instead of new ones
    console_ports: dict[str, int] = field(default_factory=dict)
    vary: str | None = None  # --vary DIMS[:SEED]: every probe on devices varied per episode (runner.vary)
    all_forms: bool = False  # answer_forms: every form of every mode (else one per episode, by its seed)


Progress = Callable[[str], None]


def _agents(probes: tuple[Probe, ...], store: Path) -> list[AgentConfig]:
    agents = []
    if "oracle" in probes or "shell_tamper" in probes or "intent_tamper" in probes:
        agents.append(AgentConfig(agent="probe-recorder", name="oracle", args={"store": str(store)}))
    if "noop" in probes:
        agents.append(AgentConfig(agent="noop"))
    if "infeasible" in probes:
        agents.append(AgentConfig(agent="probe-infeasible", name="infeasible"))
    return agents


@contextlib.contextmanager
def _devices(config: VerifyConfig) -> Iterator[tuple[list[str], dict[str, int]]]:
    """The serials and console ports to run on: the given devices, or phones started for the while."""
    if config.devices:
        yield config.devices, config.console_ports
        return
    pool: DevicePool = start_virtual_pool(config.phones, size=config.phone_size, clock=config.phone_clock)
    try:
        yield [d.serial for d in pool.devices], {d.serial: d.console_port for d in pool.devices
                                                 if d.console_port is not None}
    finally:
        pool.close()


class _Runner:
    """Runs one probe's agents over fixed tasks once and parameterised ones `seeds` times."""

    def __init__(self, config: VerifyConfig, devices: tuple[list[str], dict[str, int]],
                 progress: Progress) -> None:
        self.config, self.progress = config, progress
        self.serials, self.console_ports = devices

    def run(self, name: str, agents: list[AgentConfig], records: list[TaskRecord],
            tasks_dir: Path, seeds: int | None = None) -> list[tuple[str, Any]]:
        """(run folder, log) of every episode; `seeds` instances of a parameterised task (default: the
        config's)."""
        out: list[tuple[str, Any]] = []
        groups = (("fixed", [r.id for r in records if not r.parameterised], 1),
                  ("drawn", [r.id for r in records if r.parameterised], seeds or self.config.seeds))
        for label, ids, repeats in groups:
            if not ids:
                continue
            self.progress(f"{name}/{label}: {len(ids)} task(s) x {repeats} x {len(agents)} agent(s)")
            config = RunConfig(
                tasks_dir=tasks_dir, filter=TaskFilter(ids=ids), agents=agents, repeats=repeats,
                seed=self.config.run_seed, devices=self.serials, console_ports=self.console_ports,
                out=self.config.out, run_id=f"{name}-{label}", evaluate=False, vary=self.config.vary)
            result = run_benchmark(config, Events())
            out += [(str(result.run_dir), log) for log in result.logs]
        return out


def verify(config: VerifyConfig, progress: Progress = lambda _line: None) -> VerifyReport:
    root = config.tasks_dir or default_tasks_root()
    records = TaskRepository(root).select(config.filter)
    report = VerifyReport(created_at=datetime.now(UTC), seeds=config.seeds, run_seed=config.run_seed,
                          out=str(config.out))
    by_id = {r.id: TaskVerification(task_id=r.id, suite=r.suite, language=r.language) for r in records}
    report.tasks = list(by_id.values())
    if not records:
        return report
    probes = config.probes
    store = config.out / "state"

    def add(task_id: str, outcome: ProbeOutcome) -> None:
        by_id[task_id].outcomes.append(outcome)

    with _devices(config) as devices:
        runner = _Runner(config, devices, progress)
        main = _agents(probes, store)
        for run_dir, log in runner.run("main", main, records, root) if main else []:
            agent = log.agent.name
            if agent == "oracle" and "oracle" in probes:
                add(log.full_task.id, judge(log, "oracle", True, run_dir))
            elif agent == "noop":
                add(log.full_task.id, judge(log, "noop", False, run_dir))
            elif agent == "infeasible":
                # Declaring infeasible without asking passes only where no question is needed.
                must_pass = log.full_task.infeasible and not log.full_task.asks_user
                add(log.full_task.id, judge(log, "infeasible", must_pass, run_dir))
        answer_tasks = [r for r in records if r.retrieval]
        if "answer_spam" in probes and answer_tasks:
            spam = [AgentConfig(agent="probe-spam", name=f"spam-{mode}", args={"mode": mode})
                    for mode in SPAM_MODES]
            for run_dir, log in runner.run("answer-spam", spam, answer_tasks, root):
                add(log.full_task.id, judge(log, "answer_spam", False, run_dir,
                                       variant=log.agent.name.removeprefix("spam-")))
        if "near_miss" in probes:
            _near_misses(runner, records, root, config.out / "near-miss-tasks", add)
        if "shell_tamper" in probes:
            tamper = [AgentConfig(agent="probe-tamper", name="tamper", args={"store": str(store)})]
            for run_dir, log in runner.run("shell-tamper", tamper, records, root):
                add(log.full_task.id, judge(log, "shell_tamper", False, run_dir))
        attacks.run_attacks(runner, config, records, root, add)
    return report


def _near_misses(runner: _Runner, records: list[TaskRecord], root: Path, tree: Path,
                 add: Callable[[str, ProbeOutcome], None]) -> None:
    wanted = {r.id for r in records if r.near_misses}
    if not wanted:
        return
    descriptions: dict[str, str] = {}
    for suite in sorted({r.suite for r in records if r.near_misses}):
        for copy in write_near_miss_tree(root, suite, tree):
            descriptions[copy.copy_id] = copy.description
    copies = [r for r in TaskRepository(tree).index()
              if r.id.rpartition(".near_miss")[0] in wanted and r.id in descriptions]
    oracle = [AgentConfig(agent="oracle")]
    for run_dir, log in runner.run("near-miss", oracle, copies, tree):
        task_id = log.full_task.id.rpartition(".near_miss")[0]
        outcome = judge(log, "near_miss", False, run_dir, variant=descriptions[log.full_task.id])
        invalid = [s.invalid_reason for s in log.steps if not s.valid]
        if outcome.problem is None and (log.termination not in ("done", "infeasible") or invalid):
            outcome.problem = (f"the near miss's script did not run to its end (termination "
                               f"{log.termination}, invalid steps {invalid[:3]}): it proves nothing")
        add(task_id, outcome)

