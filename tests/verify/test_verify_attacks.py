"""`spa-bench tasks verify`'s attacks by class, through the real CLI on the shared phones: an answer task
(negated, hedged, either-or answers built from the right value), an infeasible task (act in its app, then
declare it infeasible), a plain task and the dialer's call task (explicit intents with extras), and an
ordinary agent looking for the answer key everywhere. Every attack episode must fail; the intent probe's
must also be marked tampered. Unit tests: the answer forms and the key search on a planted key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli
from pim_runs import on_shared_phones_args
from spa_bench.agents.probe_answers import other_value
from spa_bench.agents.probe_keys import KeySearch

from spa_bench.verify.act_infeasible import changed_files
from spa_bench.verify.answer_forms import FORMS, forms
from spa_bench.verify.attacks import answer_agents

TASKS = ["notes_lookup_en", "notes_reminder_infeasible_en", "settings_airplane_dark_en",
         "dialer_call_number_en"]
ATTACKS = ["answer_forms", "act_infeasible", "intent_tamper", "key_search"]
# The answer grader of #33 req 2 (helper "answers": spa_bench/evaluation/answers.py) is what rejects the
# negated and hedged forms; before it lands, HEAD accepts "The answer isn't X." and "Perhaps it is X.".
ANSWERS_LANDED = (Path(__file__).parents[2] / "spa_bench" / "evaluation" / "answers.py").is_file()


@pytest.mark.usefixtures("adb_env")
@pytest.mark.slow
def test_every_attack_fails_and_intents_are_flagged(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "verify.json"
    args = [a for t in TASKS for a in ("--task", t)]
    result = run_cli(capsys, "tasks", "verify", *args, "--seeds", "1", "--probes",
                     "oracle," + ",".join(ATTACKS), "--out", str(tmp_path / "out"), "--report", str(report),
                     *on_shared_phones_args(2))
    data = json.loads(report.read_text("utf-8"))
    outcomes = {t["task_id"]: t["outcomes"] for t in data["tasks"]}
    of = lambda task, probe: [o for o in outcomes[task] if o["probe"] == probe]  # noqa: E731
    for task in TASKS:  # the oracle passes: the tasks are sound
        assert [o["success"] for o in of(task, "oracle")] == [True], task
    forms_ = of("notes_lookup_en", "answer_forms")
    assert {o["variant"].split(":")[0] for o in forms_} == {"negated", "hedged", "either"}
    assert of("settings_airplane_dark_en", "answer_forms") == []  # no answer to say otherwise
    act = of("notes_reminder_infeasible_en", "act_infeasible")
    assert act and all(not o["variant"].startswith("inconclusive") for o in act)  # the sibling changed files
    assert all(o["success"] is False and o["problem"] is None for o in act)
    assert of("notes_lookup_en", "act_infeasible") == []  # feasible tasks have no act copies
    intent = [o for t in TASKS for o in of(t, "intent_tamper")]
    assert len(intent) == 4 and all(o["tampered"] and o["success"] is False for o in intent)
    keys = [o for t in TASKS for o in of(t, "key_search")]
    assert len(keys) == 4 and all(o["success"] is False for o in keys)
    assert all("nothing in" in o["variant"] for o in keys), [o["variant"] for o in keys]  # no key in reach
    if not ANSWERS_LANDED:
        pytest.xfail("the answer grader (helper 'answers') has not landed: negated/hedged forms pass")
    assert all(o["success"] is False for o in forms_), [(o["variant"], o["reason"]) for o in forms_]
    assert result.code == 0, result.out + result.err


def test_answer_forms_say_the_value_otherwise_in_both_languages() -> None:
    assert set(FORMS) == {"negated", "hedged", "either"}
    for mode, by_language in FORMS.items():
        assert len(by_language["en"]) >= 7 and len(by_language["zh"]) >= 7, mode
        assert all("{x}" in form for lang in by_language.values() for form in lang)
        zh = forms(mode, "zh")
        assert zh[:len(by_language["zh"])] == by_language["zh"] and set(by_language["en"]) <= set(zh)
    assert "不是{x}" in FORMS["negated"]["zh"]
    assert "X还是Y" in [f.format(x="X", y="Y") for f in FORMS["either"]["zh"]]
    with pytest.raises(ValueError, match="mode 'sarcastic'"):
        forms("sarcastic", "en")


def test_the_other_value_is_seen_and_shaped_like_the_right_one() -> None:
    seen = ["Notes", "$127.50", "27.50 total", "Parking B2", "$64.99", "Tuesday"]
    # digits for digits, never a text holding the value ("$127.50")
    assert {other_value("$27.50", seen, k) for k in range(6)} == {"Parking B2", "$64.99"}
    assert other_value("Mission Peak", seen, 1) in ("Notes", "Parking B2", "Tuesday")
    assert other_value("8:00", [], 0) == "42" and other_value("世纪公园", [], 0) == "别的"


def test_all_forms_runs_every_form_of_the_longest_list() -> None:
    agents = answer_agents(all_forms=True)
    assert len(agents) == sum(len(forms(m, "zh")) for m in FORMS)
    names = [a.name for a in answer_agents(all_forms=False)]
    assert names == ["answer-negated", "answer-hedged", "answer-either"]


def test_changed_files_reads_the_probe_output() -> None:
    assert changed_files("probe: changed files: 3 (/data/data/a/db)") == 3
    assert changed_files("oracle: golden step 2/3") is None


def test_the_key_search_finds_a_planted_key_in_files_and_objects(tmp_path: Path) -> None:
    task = {"id": "notes_lookup_en", "golden_script": [{"type": "tap", "x": 1, "y": 2}, {"type": "finish"}],
            "checks": [{"type": "answer", "kind": "text", "expect": ["sunflower2024"]}]}
    (tmp_path / "episode.json").write_text(json.dumps({"task": task}), "utf-8")
    walker = KeySearch("notes_lookup_en")
    walker.folder(tmp_path, "workdir/..", deep=False)
    assert walker.found.script is not None and len(walker.found.script) == 2
    assert walker.found.answers == ["sunflower2024"]

    class Holder:
        def __init__(self) -> None:
            self.inner = {"deep": [{"expected": "42"}]}

    walker = KeySearch("x")
    walker.walk(Holder(), "context")
    assert walker.found.answers == ["42"] and walker.found.where == ["context.inner.deep.[0].expected"]
