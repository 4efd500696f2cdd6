"""`spa-bench tasks verify` on the shared virtual phones: shipped tasks come out clean, and tasks with
weak checks are caught (a false pass, exit 1), through the real CLI, the runs and their episode logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from cli_helpers import run_cli
from pim_runs import TASKS_ROOT, on_shared_phones_args

from spa_bench.tasks.repository import TaskRepository, read_task_file

pytestmark = [pytest.mark.usefixtures("adb_env"), pytest.mark.slow]
SHIPPED = ["notes_lookup_en", "notes_trash_en", "notes_reminder_infeasible_en", "settings_airplane_dark_en"]


def _raw(task_id: str) -> dict[str, object]:
    record = next(r for r in TaskRepository(TASKS_ROOT).index() if r.id == task_id)
    return dict(read_task_file(record.file)[record.position])


def _tree(root: Path) -> Path:
    """The shipped tasks above, and two copies whose checks are too weak: a question whose answer check
    takes any text (a regex matching everything), and a settings task whose only check reads something
    nobody changes."""
    tasks = [_raw(task_id) for task_id in SHIPPED]
    loose_answer = _raw("notes_lookup_en") | {"id": "weak_answer_en"}
    loose_answer["checks"] = [{"type": "answer", "kind": "text", "expect": [r"[\s\S]+"], "match": "regex"}]
    unchanged = _raw("settings_airplane_dark_en") | {"id": "weak_state_en", "near_misses": []}
    unchanged["checks"] = [{"type": "shell", "command": "settings get global device_name", "regex": "."}]
    (root / "mixed").mkdir(parents=True)
    (root / "mixed" / "en.yaml").write_text(yaml.safe_dump([*tasks, loose_answer, unchanged],
                                                           allow_unicode=True), "utf-8")
    return root


def test_verify_passes_shipped_tasks_and_catches_weak_checks(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    tree = _tree(tmp_path / "tasks")
    report = tmp_path / "verify.json"
    result = run_cli(capsys, "tasks", "verify", "--tasks-dir", str(tree), "--seeds", "1", "--all",
                     "--out", str(tmp_path / "out"), "--report", str(report), *on_shared_phones_args(2))
    assert result.code == 1, result.out + result.err
    data = json.loads(report.read_text("utf-8"))
    tasks = {t["task_id"]: t["outcomes"] for t in data["tasks"]}
    assert set(tasks) == {*SHIPPED, "weak_answer_en", "weak_state_en"}
    for task_id in SHIPPED:  # every probe as it must be
        assert [o for o in tasks[task_id] if o["problem"]] == [], task_id
        probes = {o["probe"] for o in tasks[task_id]}
        assert {"oracle", "noop", "infeasible", "shell_tamper"} <= probes, task_id
    assert {o["variant"] for o in tasks["notes_lookup_en"] if o["probe"] == "answer_spam"} == \
        {"junk", "echo", "candidates", "numbers", "words"}
    assert any(o["probe"] == "near_miss" for o in tasks["notes_trash_en"])
    infeasible = [o for o in tasks["notes_reminder_infeasible_en"] if o["probe"] == "infeasible"]
    assert infeasible and all(o["must_pass"] and o["success"] for o in infeasible)
    # the weak answer check lets every spam answer through; the weak state check passes noop
    spam = [o for o in tasks["weak_answer_en"] if o["probe"] == "answer_spam"]
    assert len(spam) == 5 and all(o["success"] and o["problem"].startswith("FALSE PASS") for o in spam)
    noop = [o for o in tasks["weak_state_en"] if o["probe"] == "noop"]
    assert noop and all(o["success"] for o in noop)
    # the tamper probe reached what the shipped checks want, over adb alone; the audit failed it anyway
    tamper = [o for t in SHIPPED for o in tasks[t] if o["probe"] == "shell_tamper"]
    assert tamper and all(o["tampered"] and o["success"] is False for o in tamper)
    assert all(o["state_passed"] for o in tamper)
    assert "FALSE PASS" in result.err and "weak_answer_en" in result.err
    # every probe episode is an ordinary run's episode log, with the audit of what the agent sent
    log_path = next((tmp_path / "out").glob("shell-tamper-*/episodes/*/episode.json"))
    log = json.loads(log_path.read_text("utf-8"))
    assert log["shell_audit"]["source"] == "device" and log["shell_audit"]["tampered"]
    assert any(c["channel"] == "push" for c in log["shell_audit"]["commands"])


def test_verify_refuses_a_bad_report_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_cli(capsys, "tasks", "verify", "--report", str(tmp_path / "out.txt"))
    assert result.code != 0 and "--report" in result.err and "out.txt" in result.err
