"""The verdict policy and the metrics tables on hand-built episode logs whose figures are worked out by
hand in the comments, and the CSV / JSON exports."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest
from eval_builders import episode, task, verdict

from spa_bench.evaluation.export import export_report, write_csv, write_json
from spa_bench.evaluation.metrics import (
    EPISODE_COLUMNS,
    compute_metrics,
    episode_table,
    summarize,
    wilson_interval,
)
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.schema import EpisodeLog, ErrorInfo

WIFI = [{"type": "shell", "command": "settings get global wifi_on", "expect": "1"}]

# -- tasks ---------------------------------------------------------------------------------------------
T_STATE_EN = task("wifi_on", key_components=["Wi-Fi"], checks=WIFI, golden_steps=4,
                  apps=("com.android.settings",))
T_ALARM_ZH = task("alarm_zh", language="zh", key_components=["闹钟", "07:30"], difficulty=2, golden_steps=5)
T_KC_EN = task("alarm_en", key_components=["Alarm", "07:30"], difficulty=3, golden_steps=3)
T_STATE_ZH = task("wifi_zh", language="zh", checks=WIFI, golden_steps=4, apps=("com.android.settings",))
T_JUDGE_ONLY = task("notes_judge", key_components=[], golden_steps=2, apps=("com.example.notes",))
T_CROSS = task("cross_1", difficulty=3, golden_steps=6,
               apps=("com.android.settings", "com.android.deskclock"))

KC = "key_components:rapidocr"
JUDGE = "judge:gpt-4o"


def logs() -> list[EpisodeLog]:
    device_error = ErrorInfo(kind="device", type="DeviceOffline", message="gone", step=1)
    return [
        # agent-a
        # a1: state True, done, 6 steps / golden 4 -> ratio 1.5; 30 s -> 5 s/step; 1200 tokens; $0.012
        episode(T_STATE_EN, agent="agent-a", steps=6, termination="done", total_s=30, prompt_tokens=1000,
                completion_tokens=200, cost=0.012,
                verdicts=[verdict(KC, False), verdict("state", True)]),  # state overrules the screen
        # a2: kc + judge True, but ran out of steps -> overdue; 11 / 5 = 2.2; judge cost $0.005
        episode(T_ALARM_ZH, agent="agent-a", steps=11, termination="max_steps", total_s=44,
                prompt_tokens=2000, completion_tokens=400, cost=0.024,
                verdicts=[verdict(KC, True), verdict(JUDGE, True, cost=0.005, tokens=3000)]),
        # a3: said done, key components missing -> fail without a judge -> premature
        episode(T_KC_EN, agent="agent-a", steps=3, termination="done", total_s=12, prompt_tokens=600,
                cost=0.006, verdicts=[verdict(KC, False)]),
        # a4: the device died: undecided, excluded from outcome rates; counts in completion (not done)
        episode(T_STATE_ZH, agent="agent-a", steps=2, termination="device_error", total_s=10,
                prompt_tokens=100, cost=0.001, errors=[device_error]),
        # agent-b
        # b1: state False though the agent said done -> premature; price unknown -> cost NaN
        episode(T_STATE_EN, agent="agent-b", steps=4, termination="done", total_s=20, prompt_tokens=500,
                completion_tokens=100, cost=None, verdicts=[verdict("state", False)]),
        # b2: kc True, judge False -> fail, premature
        episode(T_ALARM_ZH, agent="agent-b", steps=5, termination="done", total_s=15, prompt_tokens=800,
                completion_tokens=200, cost=0.01,
                verdicts=[verdict(KC, True), verdict(JUDGE, False, cost=0.004, tokens=2500)]),
        # b3: nothing to match, the judge alone says True; 2 / 2 = 1.0
        episode(T_JUDGE_ONLY, agent="agent-b", steps=2, termination="done", total_s=6, prompt_tokens=300,
                cost=0.002, verdicts=[verdict(KC, True), verdict(JUDGE, False, cost=0.001, tokens=900),
                                      verdict(JUDGE, True, cost=0.003, tokens=1000)]),  # re-judged: last wins
        # b4: cross-app, the judge could not decide and its price is unknown -> undecided, evaluator NaN
        episode(T_CROSS, agent="agent-b", steps=8, termination="max_steps", total_s=40, prompt_tokens=1500,
                completion_tokens=500, cost=0.02, verdicts=[verdict(JUDGE, None, cost=None)]),
    ]


# -- policy --------------------------------------------------------------------------------------------


def test_policy_decisions() -> None:
    a1, a2, a3, a4, b1, b2, b3, b4 = (decide_success(log) for log in logs())
    assert (a1.success, a1.source) == (True, "state")
    assert (a2.success, a2.source) == (True, "key_components+judge")
    assert (a3.success, a3.source) == (False, "key_components")
    assert (a4.success, a4.reason) == (None, "infrastructure failure (device_error)")
    assert (b1.success, b1.source) == (False, "state")
    assert (b2.success, b2.source) == (False, "judge")
    assert (b3.success, b3.source) == (True, "judge")
    assert (b4.success, b4.reason) == (None, "judge could not decide")


def test_policy_edge_cases() -> None:
    assert decide_success(episode(T_STATE_EN)).reason == "no ground-truth (state) verdict"
    assert decide_success(episode(T_STATE_EN, verdicts=[verdict("state", None)])).success is None
    kc_only = episode(T_KC_EN, verdicts=[verdict(KC, True)])
    assert decide_success(kc_only).success is None  # the judge has not spoken
    optimistic = decide_success(kc_only, key_components_alone=True)
    assert (optimistic.success, optimistic.source) == (True, "key_components")
    judge_only = episode(T_KC_EN, verdicts=[verdict(JUDGE, True)])
    assert decide_success(judge_only).reason == "no gate (key-component) verdict"
    kc_error = episode(T_KC_EN, verdicts=[verdict(KC, None), verdict(JUDGE, False)])
    assert decide_success(kc_error).success is False  # failed by the judge whatever the OCR said
    kc_error_judge_ok = episode(T_KC_EN, verdicts=[verdict(KC, None), verdict(JUDGE, True)])
    assert decide_success(kc_error_judge_ok).reason == "key_components could not decide"


# -- the episode table ---------------------------------------------------------------------------------


def test_episode_table_rows() -> None:
    table = episode_table(logs())
    assert list(table.columns) == EPISODE_COLUMNS and len(table) == 8
    a1, a2, a3, a4 = (table.iloc[i] for i in range(4))
    assert a1["success"] == True and a1["completed"]  # noqa: E712 (numpy bool) and not a1["premature"] and not a1["overdue"]
    assert a1["step_ratio"] == 1.5 and a1["time_per_step_s"] == 5.0
    assert a1["tokens"] == 1200 and a1["tokens_per_step"] == 200 and a1["model_calls"] == 6
    assert a1["cost_per_step_usd"] == pytest.approx(0.002)
    assert a2["overdue"] and a2["step_ratio"] == pytest.approx(2.2) and a2["language"] == "zh"
    assert a2["evaluator_tokens"] == 3000 and a2["evaluator_cost_usd"] == pytest.approx(0.005)
    assert a2["task_id"] == "alarm_zh" and a2["difficulty"] == 2
    assert a3["premature"] and math.isnan(a3["step_ratio"])
    assert a4["success"] is pd.NA and a4["premature"] is pd.NA and a4["infrastructure_failure"]
    assert a4["errors"] == 1 and a4["error_kinds"] == "device"
    b1, b4 = table.iloc[4], table.iloc[7]
    assert math.isnan(b1["cost_usd"]) and math.isnan(b1["cost_per_step_usd"])
    assert b4["apps"] == "com.android.settings;com.android.deskclock" and b4["category"] == "cross_app"
    assert math.isnan(b4["evaluator_cost_usd"])
    assert str(table["success"].dtype) == "boolean"


def test_usage_falls_back_to_the_steps_and_time_to_the_clock() -> None:
    from spa_bench.results.schema import TokenUsage

    log = episode(T_KC_EN, steps=2, total_s=0, verdicts=[verdict(KC, False)])
    log.steps[0].usage = TokenUsage(prompt_tokens=70, completion_tokens=5, calls=1, cost_usd=0.5)
    log.steps[1].usage = TokenUsage(prompt_tokens=30, completion_tokens=5, calls=1, cost_usd=None)
    log.finished_at = log.started_at.replace(second=9)
    row = episode_table([log]).iloc[0]
    assert row["tokens"] == 110 and row["model_calls"] == 2 and math.isnan(row["cost_usd"])
    assert row["time_s"] == 9.0


# -- aggregates ----------------------------------------------------------------------------------------


def test_wilson_interval() -> None:
    # k=2, n=3, z=1.96: centre = (2/3 + z²/6) / (1 + z²/3) = 0.5731; half = z·sqrt(2/27 + z²/36) / 2.2805
    # = 0.3654 -> [0.2077, 0.9385] (the usual tables agree)
    assert wilson_interval(2, 3) == pytest.approx((0.2077, 0.9385), abs=1e-4)
    assert wilson_interval(1, 3) == pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0
    assert all(math.isnan(x) for x in wilson_interval(0, 0))


def test_per_agent_aggregate() -> None:
    agents = summarize(episode_table(logs())).set_index("agent")
    a, b = agents.loc["agent-a"], agents.loc["agent-b"]
    # agent-a: decided a1 a2 a3 (a4 infra) -> 2 successes of 3
    assert (a["episodes"], a["decided"], a["successes"]) == (4, 3, 2)
    assert a["success_rate"] == pytest.approx(2 / 3)
    assert (a["success_ci_low"], a["success_ci_high"]) == pytest.approx((0.2077, 0.9385), abs=1e-4)
    assert a["completion_rate"] == 0.5  # a1, a3 said done, of 4
    assert a["premature_rate"] == pytest.approx(1 / 3)  # a3
    assert a["overdue_rate"] == pytest.approx(1 / 3)  # a2
    assert a["mean_step_ratio"] == pytest.approx((1.5 + 2.2) / 2)  # successes a1, a2
    assert a["steps"] == 22 and a["mean_steps"] == 5.5  # 6 + 11 + 3 + 2
    assert a["mean_time_s"] == 24.0  # (30 + 44 + 12 + 10) / 4
    assert a["time_per_step_s"] == pytest.approx(96 / 22)
    assert a["mean_tokens"] == 1075.0  # (1200 + 2400 + 600 + 100) / 4
    assert a["tokens_per_step"] == pytest.approx(4300 / 22)
    assert a["mean_cost_usd"] == pytest.approx(0.043 / 4) and a["cost_usd"] == pytest.approx(0.043)
    assert a["cost_per_step_usd"] == pytest.approx(0.043 / 22)
    assert a["evaluator_cost_usd"] == pytest.approx(0.005)
    assert a["errors"] == 1 and a["infrastructure_failures"] == 1
    # agent-b: decided b1 (F) b2 (F) b3 (T); b4 undecided
    assert (b["episodes"], b["decided"], b["successes"]) == (4, 3, 1)
    assert (b["success_ci_low"], b["success_ci_high"]) == pytest.approx((0.0615, 0.7923), abs=1e-4)
    assert b["completion_rate"] == 0.75 and b["premature_rate"] == pytest.approx(2 / 3)
    assert b["overdue_rate"] == 0.0 and b["mean_step_ratio"] == 1.0
    assert b["mean_tokens"] == 975.0  # (600 + 1000 + 300 + 2000) / 4
    # one unknown price makes the agent's cost unknown, never a partial sum or zero
    assert math.isnan(b["mean_cost_usd"]) and math.isnan(b["cost_usd"]) and math.isnan(b["cost_per_step_usd"])
    assert math.isnan(b["evaluator_cost_usd"])  # b4's judge price unknown


def test_breakdowns() -> None:
    report = compute_metrics(logs())
    assert set(report.breakdowns) == {"language", "difficulty", "category", "app"}
    lang = report.breakdowns["language"].set_index(["agent", "language"])
    assert lang.loc[("agent-a", "en"), "success_rate"] == 0.5  # a1 T, a3 F
    assert lang.loc[("agent-a", "zh"), "success_rate"] == 1.0  # a2 T (a4 undecided)
    assert lang.loc[("agent-a", "zh"), "episodes"] == 2
    diff = report.breakdowns["difficulty"].set_index(["agent", "difficulty"])
    assert diff.loc[("agent-a", 3), "success_rate"] == 0.0 and diff.loc[("agent-b", 3), "decided"] == 0
    cat = report.breakdowns["category"].set_index(["agent", "category"])
    assert math.isnan(cat.loc[("agent-b", "cross_app"), "success_rate"])  # nothing decided
    app = report.breakdowns["app"].set_index(["agent", "app"])
    # the cross-app episode b4 counts for both of its apps
    assert app.loc[("agent-b", "com.android.settings"), "episodes"] == 2
    assert app.loc[("agent-b", "com.android.deskclock"), "episodes"] == 2
    assert app.loc[("agent-b", "com.example.notes"), "success_rate"] == 1.0
    assert app["episodes"].sum() == 9  # 8 episodes, one of them in two apps


def test_empty_run() -> None:
    report = compute_metrics([])
    assert len(report.episodes) == 0 and len(report.agents) == 0
    assert "success_rate" in report.agents.columns


# -- exports -------------------------------------------------------------------------------------------


def test_csv_and_json_exports(tmp_path: Path) -> None:
    report = compute_metrics(logs())
    written = export_report(report, tmp_path / "metrics")
    assert {p.name for p in written} == {"episodes.csv", "agents.csv", "by_language.csv", "by_difficulty.csv",
                                          "by_category.csv", "by_app.csv", "metrics.json"}
    episodes = pd.read_csv(tmp_path / "metrics" / "episodes.csv")
    assert len(episodes) == 8 and episodes.loc[1, "task_id"] == "alarm_zh"
    assert pd.isna(episodes.loc[3, "success"]) and pd.isna(episodes.loc[4, "cost_usd"])  # empty cells
    agents = pd.read_csv(tmp_path / "metrics" / "agents.csv").set_index("agent")
    assert agents.loc["agent-a", "success_rate"] == pytest.approx(2 / 3)
    assert pd.isna(agents.loc["agent-b", "cost_usd"])

    document = json.loads((tmp_path / "metrics" / "metrics.json").read_text(encoding="utf-8"))
    by_agent = {row["agent"]: row for row in document["agents"]}
    assert by_agent["agent-b"]["mean_cost_usd"] is None and by_agent["agent-b"]["successes"] == 1
    assert by_agent["agent-a"]["mean_cost_usd"] == pytest.approx(0.01075)
    rows = document["episodes"]
    assert rows[3]["success"] is None and rows[0]["success"] is True and rows[1]["task_id"] == "alarm_zh"
    assert document["breakdowns"]["difficulty"][0]["difficulty"] == 1

    one = write_json(report.agents, tmp_path / "agents.json")
    assert json.loads(one.read_text())[0]["agent"] == "agent-a"
    assert write_csv(report.agents, tmp_path / "x" / "a.csv").is_file()
    chinese = write_json(pd.DataFrame([{"app": "闹钟", "rate": float("nan")}]), tmp_path / "zh.json")
    assert chinese.read_text(encoding="utf-8") == '[\n {\n  "app": "闹钟",\n  "rate": null\n }\n]\n'


def test_package_exports() -> None:
    import spa_bench.evaluation as evaluation

    for name in evaluation.__all__:
        assert hasattr(evaluation, name), name
