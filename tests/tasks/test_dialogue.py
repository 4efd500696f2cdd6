"""The simulated user, the task rules for asking and interruptions, and the automatic guess near miss."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from spa_bench.tasks.dialogue import NO_HELP, NO_USER, SimulatedUser, exchange
from spa_bench.tasks.model import Task
from spa_bench.tasks.near_misses import GUESS, write_near_miss_tree

USER = SimulatedUser.model_validate({"replies": [
    {"when": ["which", "哪个"], "reply": "The blue one."},
    {"when": ["Time", "几点"], "reply": "At 7."},
]})


@pytest.mark.parametrize(("question", "reply", "rule"), [
    ("Which colour?", "The blue one.", 0),
    ("WHICH  colour?", "The blue one.", 0),
    ("ｗｈｉｃｈ one", "The blue one.", 0),  # full-width letters, as a Chinese keyboard types them
    ("要用哪 个？", "The blue one.", 0),  # spaces are ignored
    ("What time?", "At 7.", 1),
    ("明天几点？", "At 7.", 1),
    ("Shall I go on?", NO_HELP["en"], None),
])
def test_the_first_rule_whose_keyword_the_question_holds_answers(question: str, reply: str,
                                                                 rule: int | None) -> None:
    assert USER.answer(question, "en") == (reply, rule)


def test_an_exchange_without_a_user_gets_no_help_and_keeps_the_step() -> None:
    said = exchange(None, "zh", 4, "哪个？")
    assert (said.step, said.reply, said.rule) == (4, NO_USER["zh"], None)
    assert exchange(USER, "zh", 0, "随便").reply == NO_HELP["zh"]


def _task(**extra: Any) -> dict[str, Any]:
    return {"id": "t_en", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
            "language": "en", "difficulty": 1, "category": "single_app", "instruction": "Do it.",
            "golden_steps": 2, "checks": [{"type": "shell", "command": "true"}], **extra}


@pytest.mark.parametrize(("extra", "message"), [
    ({"golden_script": [{"type": "ask_user", "question": "Which?"}, {"type": "finish"}]}, "needs a `user`"),
    ({"checks": [{"type": "ask_user"}]}, "needs a `user`"),
    ({"user": USER.model_dump(), "checks": [{"type": "ask_user", "reply": 2}]}, "reply 2 does not exist"),
    ({"interruptions": [{"kind": "low_battery", "after_step": 5}]}, "after_step 5 is not before"),
    ({"interruptions": [{"kind": "incoming_call", "after_step": 1, "number": "call me"}]}, "number"),
    ({"checks": [{"type": "ask_user", "min_questions": 2, "max_questions": 1}]}, "max_questions is below"),
])
def test_inconsistent_dialogue_and_interruptions_are_refused(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Task.model_validate(_task(**extra))


def test_a_task_that_asks_gets_a_guess_near_miss(tmp_path: Path) -> None:
    ask = _task(id="ask_en", user=USER.model_dump(), checks=[{"type": "ask_user", "reply": 0}],
                golden_script=[{"type": "ask_user", "question": "Which?"}, {"type": "key", "key": "home"},
                               {"type": "finish"}],
                near_misses=[{"description": "goes home only", "script": [{"type": "key", "key": "home"}]}])
    (tmp_path / "tasks" / "s").mkdir(parents=True)
    (tmp_path / "tasks" / "s" / "en.yaml").write_text(yaml.safe_dump([ask, _task()]))
    copies = write_near_miss_tree(tmp_path / "tasks", "s", tmp_path / "near")
    assert [(c.copy_id, c.description) for c in copies] == [("ask_en.near_miss0", "goes home only"),
                                                             ("ask_en.near_miss1", GUESS)]
    written = yaml.safe_load((tmp_path / "near" / "s" / "near_misses.yaml").read_text())
    assert written[1]["golden_script"] == [{"type": "key", "key": "home"}, {"type": "finish"}]
