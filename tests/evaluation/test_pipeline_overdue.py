"""Overdue termination on tasks without checks: the pipeline records the first screenshot that shows
every key component (real OCR on rendered screens), and the metrics apply the documented rule; key
components that fail gate the judge out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from eval_builders import CountingEngine, alarm_en, episode, settings_en, task, verdict, write_episode
from spa_bench.evaluators.key_components import KeyComponentsEvaluator

from spa_bench.evaluation.base import BaseEvaluator
from spa_bench.evaluation.completion import first_complete_step, is_overdue
from spa_bench.evaluation.metrics import episode_row
from spa_bench.evaluation.pipeline import evaluate_episode
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, Verdict


class RefusingJudge(BaseEvaluator):
    """A judge that must not be called (the gate keeps it out) - or says yes when it is."""

    name = "judge:test@local"
    role = "judge"

    def __init__(self) -> None:
        self.calls = 0

    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        self.calls += 1
        return verdict(self.name, True)


@pytest.fixture
def kc(engine: CountingEngine, shared_cache_path: Path) -> Iterator[KeyComponentsEvaluator]:
    evaluator = KeyComponentsEvaluator(cache_path=shared_cache_path, engine=engine)
    yield evaluator
    evaluator.close()


def _write(tmp_path: Path, components: list[str], termination: str = "done") -> tuple[EpisodeLog, Path]:
    the_task = task("alarm_no_checks", key_components=components)
    log = episode(the_task, steps=3, termination=termination)  # type: ignore[arg-type]
    folder = write_episode(tmp_path, log, [settings_en(), alarm_en(), alarm_en()], alarm_en())
    return RunLayout(tmp_path).read_episode(log.episode_id), folder


def test_first_complete_step_and_overdue(tmp_path: Path, kc: KeyComponentsEvaluator) -> None:
    log, folder = _write(tmp_path, ["07:30"])
    judge = RefusingJudge()
    outcome = evaluate_episode(log, folder, [judge, kc])
    assert [v.evaluator for v in outcome.added] == [kc.name, judge.name], "key components first"
    kc_verdict = outcome.added[0]
    assert kc_verdict.success is True and first_complete_step([kc_verdict]) == 1
    assert any("first visible in the screenshot before step 1" in e.summary for e in kc_verdict.evidence)
    # the alarm showed at step 1, the agent acted again at step 1 and finished at step 2: overdue
    row = episode_row(log)
    assert row["success"] is True and row["overdue"] is True and row["premature"] is False


def test_failed_key_components_gate_the_judge_out(tmp_path: Path, kc: KeyComponentsEvaluator) -> None:
    log, folder = _write(tmp_path, ["08:45"])
    judge = RefusingJudge()
    outcome = evaluate_episode(log, folder, [kc, judge])
    assert judge.calls == 0 and outcome.skipped == [f"{judge.name}: key_components failed the episode"]
    assert episode_row(log)["success"] is False and episode_row(log)["overdue"] is False
    ungated = evaluate_episode(log, folder, [judge], gate=False)
    assert judge.calls == 1 and ungated.added[0].evaluator == judge.name


def _kc(first: int | str | None) -> Verdict:
    from spa_bench.results.schema import Evidence

    v = verdict("key_components:rapidocr", True)
    if first is not None:
        v.evidence.append(Evidence(summary="first", details={"first_complete_step": first}))
    return v


@pytest.mark.parametrize(("termination", "first", "checks", "expected"), [
    ("done", 1, False, True),       # complete at step 1, finished at step 2
    ("done", 2, False, False),      # finished on the first complete screen
    ("done", "final", False, False),  # complete only after the last action
    ("max_steps", None, False, True),  # never stopped
    ("max_steps", None, True, True),
    ("done", 0, True, False),       # with state checks only the step-limit rule applies
    ("done", None, False, False),   # no first-complete evidence
])
def test_overdue_rule(termination: str, first: int | str | None, checks: bool, expected: bool) -> None:
    check = [{"type": "shell", "command": "x", "expect": "0"}]
    the_task = task("t", key_components=["a"], checks=check if checks else None)
    log = episode(the_task, steps=3, termination=termination)  # type: ignore[arg-type]
    assert is_overdue(log, True, [_kc(first)]) is expected
    assert is_overdue(log, False, [_kc(first)]) is False and is_overdue(log, None, [_kc(first)]) is None
