"""The task model: defaults, derived values, parameters and their seeds, actions."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from spa_bench.actions import Finish, Tap, parse_action
from spa_bench.tasks.model import Task
from spa_bench.tasks.params import instance_seed


def task_data(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "clock_alarm_1",
        "apps": [{"package": "com.android.deskclock", "name": {"en": "Clock", "zh": "时钟"}}],
        "language": "en", "difficulty": 2, "category": "single_app",
        "instruction": "Set an alarm for {t} labelled {label}.",
        "golden_steps": 6,
        "parameters": {"t": {"type": "time", "start": "06:00", "end": "08:00", "step_minutes": 15},
                       "label": {"type": "choice", "values": ["Gym", "Work", "School"]}},
        "checks": [{"type": "sqlite", "db": "/data/data/com.android.deskclock/databases/alarms.db",
                    "query": "SELECT label FROM alarm_templates WHERE hour={t.hour} AND minutes={t.minute}",
                    "expect_rows": [["{label}"]]}],
        "golden_script": [{"type": "tap", "selector": {"content_desc": "Add alarm"}},
                          {"type": "type", "text": "{label}"}, {"type": "finish"}],
    }
    data.update(overrides)
    return data


def test_defaults_and_derived_values() -> None:
    task = Task.model_validate(task_data())
    assert task.step_limit == 13  # 2 x golden + 1, as SPA-Bench
    assert task.start_package == "com.android.deskclock"
    assert task.setup.reset == "snapshot"
    assert Task.model_validate(task_data(max_steps=20)).step_limit == 20
    cross = Task.model_validate(task_data(
        category="cross_app", apps=[task_data()["apps"][0],
                                    {"package": "com.android.settings", "name": {"en": "Settings"}}]))
    assert cross.start_package is None  # cross-app tasks start on the home screen


def test_instantiate_is_seeded_and_fills_every_string() -> None:
    task = Task.model_validate(task_data())
    one, seed, values = task.instantiate(run_seed=7, index=0)
    again, seed_again, _ = task.instantiate(run_seed=7, index=0)
    assert one == again and seed == seed_again == instance_seed(7, task.id, 0)
    assert "{" not in one.instruction and one.parameters == {}
    label = values["label"]
    t = values["t"]
    assert isinstance(t, dict)
    assert one.instruction == f"Set an alarm for {t['value']} labelled {label}."
    check = one.checks[0]
    assert check.type == "sqlite" and check.expect_rows == [[label]]
    assert f"hour={t['hour']}" in check.query
    assert one.golden_script is not None and one.golden_script[1].type == "type"
    # different instances / run seeds draw independently but reproducibly
    seeds = {task.instantiate(run_seed=7, index=i)[1] for i in range(20)}
    assert len(seeds) == 20
    drawn = {task.instantiate(run_seed=s, index=0)[2]["label"] for s in range(40)}
    assert drawn == {"Gym", "Work", "School"}


def test_time_parameter_stays_on_its_grid() -> None:
    task = Task.model_validate(task_data())
    for i in range(50):
        t = task.instantiate(1, i)[2]["t"]
        assert isinstance(t, dict)
        hour, minute = int(str(t["hour"])), int(str(t["minute"]))
        assert 6 * 60 <= hour * 60 + minute <= 8 * 60 and minute % 15 == 0


def test_unknown_parameter_field_is_an_error() -> None:
    bad = task_data(instruction="Set an alarm for {t.seconds}.")
    with pytest.raises(KeyError, match="no field 'seconds'"):
        Task.model_validate(bad).instantiate(0)


@pytest.mark.parametrize("data", [
    {"type": "tap", "x": 10, "y": 20},
    {"type": "tap", "element": 3},
    {"type": "long_press", "selector": {"text": "Wi-Fi"}},
    {"type": "swipe", "x1": 1, "y1": 2, "x2": 3, "y2": 4},
    {"type": "scroll", "direction": "down"},
    {"type": "type", "text": "你好", "enter": True},
    {"type": "key", "key": "back"},
    {"type": "open_app", "app": "设置"},
    {"type": "wait", "seconds": 2},
    {"type": "finish", "status": "infeasible", "answer": "no"},
])
def test_every_action_round_trips(data: dict[str, Any]) -> None:
    action = parse_action(data)
    assert parse_action(action.model_dump()) == action


@pytest.mark.parametrize("data", [
    {"type": "tap"},  # no target
    {"type": "tap", "x": 1},  # half a coordinate
    {"type": "tap", "x": 1, "y": 2, "element": 0},  # two targets
    {"type": "key", "key": "volume_up"},
    {"type": "fly"},
    {"type": "tap", "selector": {}},
])
def test_invalid_actions_are_rejected(data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        parse_action(data)


def test_action_types() -> None:
    assert isinstance(parse_action({"type": "tap", "x": 1, "y": 1}), Tap)
    assert parse_action({"type": "finish"}) == Finish()


def test_instances_of_one_task_are_distinct_while_the_parameters_allow() -> None:
    """`--repeats K` gives K different instances: a draw that repeats an earlier one is drawn again."""
    few = task_data(parameters={"label": {"type": "choice", "values": ["Gym", "Work", "School"]},
                                "t": {"type": "time", "start": "07:00", "end": "07:00"}})
    task = Task.model_validate(few)
    for run_seed in range(40):
        drawn = [task.instantiate(run_seed, i)[2]["label"] for i in range(3)]
        assert sorted(drawn) == ["Gym", "School", "Work"], (run_seed, drawn)
        # reproducible: the same instance again gives the same values and seed
        assert task.instantiate(run_seed, 2)[1:] == task.instantiate(run_seed, 2)[1:]
    # more instances than combinations: the extra ones repeat (nothing else can be drawn)
    assert len({task.instantiate(3, i)[2]["label"] for i in range(5)}) == 3


INFEASIBLE_CHECKS = [{"type": "finish", "status": "infeasible"},
                     {"type": "sqlite", "db": "/data/data/com.android.deskclock/databases/alarms.db",
                      "query": "SELECT count(*) FROM alarm_templates", "expect_rows": [["3"]]}]


def test_infeasible_and_retrieval_tasks_are_known_by_their_checks() -> None:
    task = Task.model_validate(task_data(checks=INFEASIBLE_CHECKS,
                                         golden_script=[{"type": "finish", "status": "infeasible"}]))
    assert task.infeasible and not task.retrieval
    answer = Task.model_validate(task_data(checks=[{"type": "answer", "kind": "time", "expect": "07:30"}]))
    assert answer.retrieval and not answer.infeasible
    with pytest.raises(ValidationError, match="needs at least one check on device state"):
        Task.model_validate(task_data(checks=INFEASIBLE_CHECKS[:1]))


def test_near_misses_are_scripts_filled_like_the_rest() -> None:
    near = [{"description": "wrong label", "script": [{"type": "type", "text": "not {label}"},
                                                      {"type": "finish"}]}]
    task = Task.model_validate(task_data(near_misses=near))
    filled, _, values = task.instantiate(1, 0)
    assert filled.near_misses[0].script[0] == parse_action({"type": "type", "text": f"not {values['label']}"})
    with pytest.raises(ValidationError, match="near_misses"):
        Task.model_validate(task_data(near_misses=[{"description": "empty", "script": []}]))


def test_combinations_count_what_the_parameters_can_draw() -> None:
    from spa_bench.tasks.params import combinations

    task = Task.model_validate(task_data())  # 9 times (06:00-08:00 by 15) x 3 labels
    assert combinations(dict(task.parameters)) == 27
    assert combinations({}) == 1
