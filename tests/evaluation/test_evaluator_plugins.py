"""Evaluators are peers: one installed as a package (an entry point in group spa_bench.evaluators) is
found by name, run by `spa-bench evaluate`, and its verdicts count in the one success policy exactly as
a built-in of the same role would - in the metrics `evaluate` writes and in `decide_success`."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_helpers import run_cli
from eval_builders import T0, episode, task

from spa_bench.evaluation.base import EVALUATORS, role_of
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import RunManifest, Verdict

PLUGIN = textwrap.dedent('''
    from spa_bench.evaluation.base import BaseEvaluator, now
    from spa_bench.results.schema import Evidence, Verdict

    class AnswerJudge(BaseEvaluator):
        """A third-party judge: the task is done when the agent's answer says 'booked'."""
        name = "answer_judge:v1"
        role = "judge"

        def evaluate(self, log, episode_dir):
            ok = "booked" in (log.answer or "")
            return Verdict(evaluator=self.name, success=ok, created_at=now(),
                           evidence=[Evidence(summary=f"answer {log.answer!r}")])
''')


@pytest.fixture
def installed_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A package with an entry point, installed the way pip leaves it: a module plus a dist-info."""
    site = tmp_path / "site"
    (site / "acme_eval").mkdir(parents=True)
    (site / "acme_eval" / "__init__.py").write_text(PLUGIN)
    dist = site / "acme_eval-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-eval\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[spa_bench.evaluators]\nanswer_judge = acme_eval:AnswerJudge\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(EVALUATORS, "_entry_points_loaded", False)  # read the entry points again
    yield "answer_judge"
    EVALUATORS._lazy.pop("answer_judge", None)
    EVALUATORS._objects.pop("answer_judge", None)


def _run(root: Path) -> RunLayout:
    layout = RunLayout(root)
    layout.write_manifest(RunManifest(run_id="plug", created_at=datetime(2025, 1, 6, tzinfo=UTC),
                                      spa_bench_version="test", python="3.11", platform="test",
                                      tasks_root=str(root / "no-tasks")))
    free = task("book_table", key_components=[])  # no checks, no key components: judges decide alone
    for agent, answer in (("good", "I booked a table for two"), ("bad", "I could not find it")):
        log = episode(free, agent=agent, steps=0)
        log.answer = answer
        layout.write_episode(log)
    return layout


def test_an_entry_point_evaluator_decides_through_the_policy(installed_plugin: str, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    entry = next(e for e in EVALUATORS.entries() if e.name == installed_plugin)
    assert (entry.source, entry.target) == ("entry-point", "acme_eval:AnswerJudge")
    layout = _run(tmp_path / "run")
    before = [decide_success(log) for log in layout.episodes()]
    assert all(d.success is None and d.reason == "no judge verdict" for d in before)

    result = run_cli(capsys, "evaluate", str(layout.root), "-e", installed_plugin)
    assert result.code == 0, result.err
    assert "2 new verdicts on 2 episodes (0 evaluator errors" in result.out
    logs = {log.agent.name: log for log in layout.episodes()}
    verdict = logs["good"].verdicts[-1]
    assert (verdict.evaluator, verdict.role, verdict.success) == ("answer_judge:v1", "judge", True)
    assert decide_success(logs["good"]).success is True
    assert decide_success(logs["good"]).source == "answer_judge"
    assert decide_success(logs["bad"]).success is False
    metrics = json.loads((layout.root / "metrics" / "metrics.json").read_text())
    rates = {row["agent"]: row["success_rate"] for row in metrics["agents"]}
    assert rates == {"good": 1.0, "bad": 0.0}


def test_a_verdict_without_a_recorded_role_takes_the_registered_one(installed_plugin: str) -> None:
    """Logs written before roles were recorded: the registry (entry points included) says the role."""
    old = Verdict(evaluator="answer_judge:v0", success=False, created_at=T0)
    assert old.role is None and role_of(old) == "judge"
    log = episode(task("book_table", key_components=[]), verdicts=[old])
    assert decide_success(log).success is False
    unknown = Verdict(evaluator="nobody_knows:1", success=False, created_at=T0)
    assert role_of(unknown) == "informational"
    assert decide_success(episode(task("book_table", key_components=[]), verdicts=[unknown])).success is None


def test_ground_truth_from_a_plugin_overrules_the_screen() -> None:
    """Any evaluator declaring the ground-truth role decides alone, as the state checks do."""
    truth = Verdict(evaluator="db_diff:1", role="ground_truth", success=False, created_at=T0)
    judge = Verdict(evaluator="judge:gpt-4o", role="judge", success=True, created_at=T0)
    log = episode(task("book_table", key_components=[]), verdicts=[judge, truth])
    decision = decide_success(log)
    assert (decision.success, decision.source) == (False, "db_diff")
    info = Verdict(evaluator="trace_stats:1", role="informational", success=False, created_at=T0)
    assert decide_success(episode(task("book_table", key_components=[]), verdicts=[judge, info])).success
