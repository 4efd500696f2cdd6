"""Shared by the app test modules: run agents over a suite on virtual phones, read the logs back."""

from __future__ import annotations

from pathlib import Path

from spa_bench.results.schema import EpisodeLog
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.repository import TaskFilter


def run_suite(suites: list[str], out: Path, agents: list[str], phones: int = 2,
              ids: list[str] | None = None, tasks_dir: Path | None = None) -> dict[str, EpisodeLog]:
    """One run over `suites` (or `ids`); the logs by episode id ("<agent>__<task>__r0")."""
    task_filter = TaskFilter(ids=ids) if ids else TaskFilter(suites=suites)
    kwargs: dict[str, object] = {}
    if tasks_dir is not None:
        kwargs["tasks_dir"] = tasks_dir
    config = RunConfig(filter=task_filter, agents=[AgentConfig(agent=a) for a in agents], phones=phones,
                       out=out, seed=11, **kwargs)
    result = run_benchmark(config)
    assert result.summary.undone == [], result.summary.undone
    return {log.episode_id: log for log in result.logs}


def state_success(log: EpisodeLog) -> bool:
    verdicts = [v for v in log.verdicts if v.evaluator == "state"]
    assert len(verdicts) == 1, log.episode_id
    return bool(verdicts[0].success)


def failures(logs: dict[str, EpisodeLog], agent: str, expected: bool) -> list[str]:
    """Episodes of `agent` whose state verdict is not `expected`, with the evidence, for the assert."""
    bad = []
    for log in logs.values():
        if log.agent.name == agent and state_success(log) is not expected:
            evidence = [e.summary for v in log.verdicts for e in v.evidence]
            errors = [e.message for e in log.errors]
            bad.append(f"{log.episode_id}: {evidence} {errors} termination={log.termination}")
    return bad
