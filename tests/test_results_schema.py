"""The results contract: models round-trip through the layout, versions are checked, the CLI prints
the schemas, and secrets are redacted before anything is written."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from cli_helpers import run_cli

from spa_bench.actions import Tap
from spa_bench.errors import ResultsError
from spa_bench.results.layout import RunLayout, episode_id
from spa_bench.results.schema import (
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    Evidence,
    InstanceInfo,
    ObservationRef,
    RunManifest,
    StepRecord,
    TokenUsage,
    Verdict,
)
from spa_bench.secrets import REDACTED, redact_argv, redact_mapping, scrub_text
from spa_bench.tasks.repository import TaskRepository


def make_episode(run_id: str = "run1") -> EpisodeLog:
    task = TaskRepository().get("settings_wifi_off_en")
    now = datetime.now(UTC)
    return EpisodeLog(
        episode_id=episode_id("my agent", task.id, 0), run_id=run_id, task=task,
        instance=InstanceInfo(seed=123), agent=AgentSpec(name="my agent", reference="noop"),
        device=DeviceInfo(serial="127.0.0.1:5555", kind="virtual"), started_at=now,
        steps=[StepRecord(index=0, started_at=now,
                          observation=ObservationRef(screenshot="screenshots/000.png"),
                          action=Tap(x=1, y=2), usage=TokenUsage(prompt_tokens=10, completion_tokens=2,
                                                                 calls=1, cost_usd=None))],
        termination="done",
        verdicts=[Verdict(evaluator="state", success=True, created_at=now,
                          evidence=[Evidence(summary="wifi_on is 0", details={"output": "0"})])],
    )


def test_episode_round_trip_and_layout(tmp_path: Path) -> None:
    layout = RunLayout(tmp_path / "run1")
    log = make_episode()
    assert log.episode_id == "my-agent__settings_wifi_off_en__r0"
    layout.write_episode(log)
    assert layout.episode_ids() == [log.episode_id]
    assert layout.read_episode(log.episode_id) == log
    manifest = RunManifest(run_id="run1", created_at=datetime.now(UTC), spa_bench_version="0",
                           python="3.11", platform="linux", tasks_root="tasks")
    layout.write_manifest(manifest)
    assert layout.read_manifest() == manifest


def test_unknown_schema_version_is_refused(tmp_path: Path) -> None:
    layout = RunLayout(tmp_path)
    log = make_episode()
    layout.write_episode(log)
    path = layout.episode_path(log.episode_id)
    data = json.loads(path.read_text())
    data["schema_version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(ResultsError, match="schema_version 99 is not supported"):
        layout.read_episode(log.episode_id)


def test_token_usage_adds_and_unknown_cost_stays_unknown() -> None:
    a = TokenUsage(prompt_tokens=1, completion_tokens=2, calls=1, cost_usd=0.5)
    b = TokenUsage(prompt_tokens=3, completion_tokens=4, calls=1, cost_usd=None)
    assert (a + a).cost_usd == 1.0
    total = a + b
    assert (total.prompt_tokens, total.completion_tokens, total.calls, total.cost_usd) == (4, 6, 2, None)


def test_cli_prints_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    both = json.loads(run_cli(capsys, "results", "schema").out)
    assert set(both) == {"manifest", "episode"}
    episode = json.loads(run_cli(capsys, "results", "schema", "episode").out)
    assert "steps" in episode["properties"] and "verdicts" in episode["properties"]
    task = json.loads(run_cli(capsys, "tasks", "schema").out)
    assert {"id", "instruction", "checks", "golden_script"} <= set(task["properties"])
    bad = run_cli(capsys, "results", "schema", "nope")
    assert bad.code == 2 and "unknown schema 'nope'" in bad.err


def test_secrets_are_redacted() -> None:
    args = redact_mapping({"model": "gpt-4o", "api_key": "sk-live-123456789012345678", "max_tokens": 300,
                           "client": {"auth_token": "abc"}, "api_key_env": "MY_KEY", "token_file": "t.txt"})
    assert args == {"model": "gpt-4o", "api_key": REDACTED, "max_tokens": 300,
                    "client": {"auth_token": REDACTED}, "api_key_env": "MY_KEY", "token_file": "t.txt"}
    argv = redact_argv(["run", "--agent-arg", "api_key=hunter2hunter2", "--api-key", "abc", "--seed", "1"])
    assert "hunter2hunter2" not in " ".join(argv) and "abc" not in argv and "1" in argv
    assert scrub_text("key sk-abcdefghijklmnopqrstuvwx used") == f"key {REDACTED} used"
    assert scrub_text("my secret value here", ["secret value"]) == f"my {REDACTED} here"
