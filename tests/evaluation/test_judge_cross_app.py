"""Cross-app episodes: splitting by recorded packages, splitting by the judge (with invalid splits
rejected), subtasks judged on their slices with the memory of earlier ones, and failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from judge_builders import cross_task, load, local_model, screen, write_episode
from spa_bench.evaluators.judge import JudgeEvaluator

from spa_bench.evaluation.annotate import Frame
from spa_bench.evaluation.cross_app import (
    InvalidSplit,
    Segment,
    split_by_packages,
    subtask_app_names,
    subtask_packages,
    validate_split,
)
from spa_bench.evaluation.judge_prompt import MEMORY_SYSTEM, SPLIT_SYSTEM, app_labels, parse_split
from spa_bench.results.schema import Verdict
from spa_bench.testing.openai_server import RecordedRequest, ScriptedOpenAIServer

SHOP, NOTES, HOME = "com.example.shop", "com.example.notes", "com.android.launcher"
# home, shop, shop, home, notes, notes(final): 5 steps
PACKAGES = [HOME, SHOP, SHOP, HOME, NOTES, NOTES]
ACTIONS = [{"type": "open_app", "app": "Shop"}, {"type": "type", "text": "kettle"},
           {"type": "key", "key": "home"}, {"type": "open_app", "app": "Notes"}, {"type": "finish"}]
PASS = "Reason: I believe this task is successful.\nResult: 1"
FAIL = "Reason: I believe this task failed.\nResult: 0"


def _frames(packages: list[str | None]) -> list[Frame]:
    return [Frame(i, i, Path(f"{i}.png"), p, None) for i, p in enumerate(packages)]


def _kind(request: RecordedRequest) -> str:
    system = request.messages[0]["content"]
    return "split" if system == SPLIT_SYSTEM else "memory" if system == MEMORY_SYSTEM else "judge"


class Judge:
    """A responder: answers each kind of call from its own queue and records what it was asked."""

    def __init__(self, judge: list[str], split: list[str] | None = None, memory: str = "KettleMaster 3000"):
        self.replies = {"judge": list(judge), "split": list(split or []), "memory": [memory]}
        self.calls: list[tuple[str, RecordedRequest]] = []

    def __call__(self, request: RecordedRequest) -> str:
        kind = _kind(request)
        self.calls.append((kind, request))
        queue = self.replies[kind]
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def kinds(self) -> list[str]:
        return [k for k, _ in self.calls]


def _evaluate(tmp_path: Path, responder: Judge, packages: list[str | None], **options: Any) -> Verdict:
    folder = write_episode(tmp_path, cross_task(), ACTIONS, packages=packages)
    with ScriptedOpenAIServer(when_empty=responder) as server:
        judge = JudgeEvaluator(local_model(server.base_url), **options)
        verdict = judge.evaluate(load(folder), folder)
        judge.close()
    return verdict


def test_split_from_packages_then_subtasks_with_memory(tmp_path: Path) -> None:
    responder = Judge([PASS, PASS])
    verdict = _evaluate(tmp_path, responder, PACKAGES)
    assert verdict.success is True, verdict.evidence
    assert responder.kinds() == ["judge", "memory", "judge"], "no split call: the packages decided"
    split = verdict.evidence[0].details
    assert split["method"] == "packages"
    assert split["segments"] == [{"subtask": "Shop", "start": 1, "end": 2},
                                 {"subtask": "Notes", "start": 4, "end": 5}]
    first, memory, second = (r for _, r in responder.calls)
    assert len(first.image_urls()) == 2 and len(second.image_urls()) == 2
    assert "**Find the cheapest kettle**" in first.texts()[1]
    assert "the cheapest kettle" in memory.texts()[1] and len(memory.image_urls()) == 2
    assert "KettleMaster 3000" in second.texts()[1], "a subtask that uses history gets the memory"
    assert "KettleMaster 3000" not in first.texts()[1]
    assert verdict.usage.calls == 3
    assert any(e.details.get("summary") == "KettleMaster 3000" for e in verdict.evidence)


def test_a_failed_subtask_fails_the_task_and_stops(tmp_path: Path) -> None:
    responder = Judge([FAIL])
    verdict = _evaluate(tmp_path, responder, PACKAGES)
    assert verdict.success is False and responder.kinds() == ["judge"]


def test_an_app_never_in_the_foreground_fails_without_a_call(tmp_path: Path) -> None:
    responder = Judge([PASS])
    verdict = _evaluate(tmp_path, responder, [HOME, SHOP, SHOP, HOME, HOME, HOME])
    assert verdict.success is False and responder.calls == []
    assert verdict.evidence[0].details["missing"] == ["Notes"]


def test_without_packages_the_judge_splits(tmp_path: Path) -> None:
    good = json.dumps({"Shop": {"start": 2, "end": 3}, "Notes": {"start": 5, "end": 6}})
    overlapping = json.dumps({"Shop": {"start": 2, "end": 5}, "Notes": {"start": 4, "end": 6}})
    responder = Judge([PASS, PASS], split=[f"Screens 2-3 are the shop. {overlapping}", good])
    verdict = _evaluate(tmp_path, responder, [None] * 6)
    assert verdict.success is True, verdict.evidence
    assert responder.kinds() == ["split", "split", "judge", "memory", "judge"]
    split_request = responder.calls[0][1]
    assert len(split_request.image_urls()) == 6
    assert all(i["detail"] == "low" for i in split_request.image_urls())
    assert '["Shop", "Notes"]' in split_request.texts()[1]
    reask = responder.calls[1][1].messages
    assert "overlaps" in reask[-1]["content"][0]["text"], "the re-ask says what was wrong"
    assert verdict.evidence[0].details["segments"][0] == {"subtask": "Shop", "start": 1, "end": 2}


def test_invalid_splits_every_time_are_an_evaluator_error(tmp_path: Path) -> None:
    reversed_ = json.dumps({"Shop": {"start": 3, "end": 2}, "Notes": {"start": 5, "end": 6}})
    responder = Judge([PASS], split=[reversed_])
    verdict = _evaluate(tmp_path, responder, [None] * 6, parse_retries=1)
    assert verdict.success is None and verdict.error is not None
    assert verdict.error.type == "UnparsableReply" and responder.kinds() == ["split", "split"]


def test_a_missing_app_in_the_judges_split_fails_the_task(tmp_path: Path) -> None:
    missing = json.dumps({"Shop": {"start": 2, "end": 3}, "Notes": {"start": -1, "end": -1}})
    responder = Judge([PASS], split=[missing])
    verdict = _evaluate(tmp_path, responder, [None] * 6)
    assert verdict.success is False and responder.kinds() == ["split"]


def test_split_mode_judge_ignores_packages(tmp_path: Path) -> None:
    good = json.dumps({"Shop": {"start": 2, "end": 3}, "Notes": {"start": 5, "end": 6}})
    responder = Judge([PASS, PASS], split=[good])
    verdict = _evaluate(tmp_path, responder, PACKAGES, split="judge")
    assert verdict.success is True and responder.kinds()[0] == "split"


@pytest.mark.parametrize(("raw", "problem"), [
    ({"A": (0, 2), "B": (3, 4)}, "outside"),
    ({"A": (1, 2), "B": (3, 9)}, "outside"),
    ({"A": (2, 1), "B": (3, 4)}, "starts after"),
    ({"A": (1, 3), "B": (3, 4)}, "overlaps"),
    ({"A": (3, 4), "B": (1, 2)}, "overlaps or precedes"),
])
def test_validate_split_rejects(raw: dict[str, tuple[int, int]], problem: str) -> None:
    with pytest.raises(InvalidSplit, match=problem):
        validate_split(raw, ["A", "B"], 5)


def test_validate_split_accepts_and_reports_missing() -> None:
    split = validate_split({"A": (1, 2), "B": (4, 5)}, ["A", "B"], 5)
    assert split.segments == (Segment("A", 0, 1), Segment("B", 3, 4)) and not split.missing
    assert validate_split({"A": (1, 2), "B": (-1, -1)}, ["A", "B"], 5).missing == ("B",)


def test_parse_split_needs_every_app() -> None:
    from spa_bench.evaluation.judge_prompt import UnparsableReply

    with pytest.raises(UnparsableReply, match="'B'"):
        parse_split('{"A": {"start": 1, "end": 2}}', ["A", "B"])
    with pytest.raises(UnparsableReply):
        parse_split("A is screens 1 to 2", ["A"])
    assert parse_split('```json\n{"A": {"start screen": 1, "end screen": 2}}\n```', ["A"]) == {"A": (1, 2)}


def test_split_by_packages_with_a_repeated_app() -> None:
    a, b = "com.a", "com.b"
    frames = _frames(["home", a, a, b, "home", b, a, a, "home"])
    split = split_by_packages(frames, [a, b, a], app_labels(["A", "B", "A"]))
    assert split is not None and split.method == "packages"
    assert split.segments == (Segment("A_1", 1, 2), Segment("B", 3, 5), Segment("A_2", 6, 7))
    assert split_by_packages(_frames([a, None, b]), [a, b], ["A", "B"]) is None, "a package is unknown"
    assert split_by_packages(frames, [a, a], ["A_1", "A_2"]) is None, "same app twice in a row"
    assert split_by_packages(frames, [a, None], ["A", "X"]) is None, "an app outside the task"


def test_subtask_apps_resolve_by_package_or_display_name() -> None:
    task = cross_task([{"app": "商店", "instruction": "x"}, {"app": "com.example.notes", "instruction": "y"},
                       {"app": "Elsewhere", "instruction": "z"}])
    assert subtask_packages(task) == [SHOP, NOTES, None]
    assert subtask_app_names(task) == ["商店", "Notes", "Elsewhere"]


def test_screen_helper() -> None:
    assert screen((0, 0, 0)).getpixel((0, 0)) == (0, 0, 0)
