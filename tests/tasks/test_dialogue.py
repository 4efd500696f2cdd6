"""The simulated user, the task rules for asking and interruptions, and the automatic guess near miss. The
user answers one question, not a bag of keywords: the red team's "keyword soup" gets no rule on any shipped
task, and every shipped golden question still gets its rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from spa_bench.actions import AskUser
from spa_bench.tasks.checks import AskUserCheck
from spa_bench.tasks.dialogue import (
    NO_HELP,
    NO_USER,
    ONE_AT_A_TIME,
    SimulatedUser,
    exchange,
    not_one_question,
)
from spa_bench.tasks.model import Task
from spa_bench.tasks.near_misses import GUESS, write_near_miss_tree
from spa_bench.tasks.repository import TaskRepository, default_tasks_root

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


SOUP = [  # the red team's "keyword soup" and its variants: never answered by a rule
    "Which one, what, who, when, where, how long, what time, 哪个, 几点, 多久, 谁, 哪里 - name, number, "
    "city, colour, model, bank, flight, minutes?",
    "which what who when where how",  # no question mark, only question words
    "Which? What time? Who? Where?",  # several questions
    "Which one do you mean? 哪个？",  # both languages
    "哪个 几点 谁 哪里 多久",
    "Which one " + "and the number and the name and the city and the colour " * 3 + "?",  # long
]


@pytest.mark.parametrize("question", SOUP)
def test_a_keyword_soup_gets_no_rule(question: str) -> None:
    assert not_one_question(question) is not None
    assert USER.answer(question, "en") == (ONE_AT_A_TIME["en"], None)
    assert USER.answer(question, "zh") == (ONE_AT_A_TIME["zh"], None)
    told = USER.model_copy(update={"otherwise": "I can't help with that."})
    assert told.answer(question, "en") == ("I can't help with that.", None)


@pytest.mark.parametrize(("question", "why"), [
    ("Which time?", "rules 0 and 1"),  # 'which' (rule 0) and 'time' (rule 1): different replies
    ("哪个几点？", "rules 0 and 1"),
])
def test_a_question_with_the_keywords_of_several_rules_gets_none(question: str, why: str) -> None:
    assert [i for i, rule in enumerate(USER.replies) if rule.matches(question)] == [0, 1], why
    assert USER.answer(question, "en") == (ONE_AT_A_TIME["en"], None)
    same = SimulatedUser.model_validate({"replies": [{"when": ["which"], "reply": "Blue."},
                                                     {"when": ["colour"], "reply": "Blue."}]})
    assert same.answer("Which colour?", "en") == ("Blue.", 0)  # rules that say the same thing agree


@pytest.mark.parametrize("question", ["Which alarm is the one for your flight? None of them is labelled.",
                                      "What time, and which day?", "你说的是哪家银行，什么时候的短信？",
                                      "Who is Em: Emily Davis or Emma Wilson?"])
def test_one_question_is_one_question(question: str) -> None:
    assert not_one_question(question) is None


def _shipped_ask_tasks() -> list[Task]:
    repo = TaskRepository(default_tasks_root())
    return [t for t in repo.load(repo.index()) if t.user is not None]


def test_every_shipped_golden_question_gets_its_rule_and_the_soup_none() -> None:
    tasks = _shipped_ask_tasks()
    assert len(tasks) >= 36  # hard_ask_* and hard_infask_*, in both languages
    for task in tasks:
        assert task.user is not None
        wanted = [c.reply for c in task.checks if isinstance(c, AskUserCheck)]
        questions = [a.question for a in task.golden_script or [] if isinstance(a, AskUser)]
        assert questions, task.id
        for question in questions:
            reply, rule = task.user.answer(question, task.language)
            assert rule is not None, (task.id, question, reply)
            assert all(w is None or w == rule for w in wanted), (task.id, question, rule)
        for question in SOUP:
            assert task.user.answer(question, task.language)[1] is None, (task.id, question)
