"""Nothing an agent can reach during its episode holds the answer key (issue 39): an external program and
a plug-in agent (tests/runner/key_searcher.py) gather every text they can reach - workdir, the files of
every folder up to /, environment, arguments, the context object, and even their own episode's folder in
the run folder - over one task of every kind; the key (the checks' expected values and regexes, the
golden script's answer, the near misses, the simulated user's replies) is in none of it. After the
episode the full task is in the log."""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from pim_runs import on_shared_phones
from spa_bench.agents.probe_keys import KeySearchProbe

from spa_bench.actions import Finish, Tap
from spa_bench.agent import TaskContext
from spa_bench.device.observation import Observation
from spa_bench.results.schema import EpisodeLog, task_ref
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import run_benchmark
from spa_bench.tasks.model import Task
from spa_bench.tasks.repository import TaskFilter

SEARCHER = Path(__file__).with_name("key_searcher.py")
TASKS = {
    "answer": "contacts_phone_lookup_en",  # a retrieval task with an answer check
    "infeasible": "clock_alarm_missing_en",
    "ask_user": "hard_ask_timer_eggs_en",  # a simulated user with replies
    "near_misses": "calculator_percent_en",
    "parameterised": "browser_open_site_en",
}
MARKERS = ("golden_script", "near_misses", "expect_rows")  # the task's own field names


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [str(value)] if isinstance(value, int | float) and not isinstance(value, bool) else []


def key_of(task: Task) -> set[str]:
    """The key's strings that the agent is not shown anyway (not in its instruction or app names)."""
    found: list[str] = []
    for check in task.checks:
        data = check.model_dump(mode="json")
        for field in ("expect", "regex", "expect_rows", "together_with"):
            found += _strings(data.get(field))
    found += [a.answer for a in task.golden_script or [] if isinstance(a, Finish) and a.answer]
    found += [m.description for m in task.near_misses]
    if task.user is not None:
        found += [r.reply for r in task.user.replies] + ([task.user.otherwise] if task.user.otherwise else [])
    shown = (task.instruction + json.dumps([a.model_dump(mode="json") for a in task.apps])).casefold()
    return {s for s in found if len(s) >= 4 and s.casefold() not in shown}


@pytest.mark.usefixtures("adb_env")
def test_agents_find_no_key_in_anything_they_can_reach(results_dir: Path, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = "key-search"
    run_dir = results_dir / run_id
    monkeypatch.setenv("SPA_TEST_RUN_DIR", str(run_dir))
    system_tmp = tmp_path / "tmp"  # the agents' workdirs: this test's own system temp dir
    system_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_tmp))
    started = time.time()
    config = RunConfig(
        filter=TaskFilter(ids=list(TASKS.values())), **on_shared_phones(1), out=results_dir, run_id=run_id,
        evaluate=False, agents=[
            AgentConfig(agent="external", name="ext", args={"cmd": f"{sys.executable} {SEARCHER}"}),
            AgentConfig(agent=f"{SEARCHER}:SearchingAgent", name="plug")])
    result = run_benchmark(config)
    logs: dict[str, EpisodeLog] = {log.episode_id: log for log in result.logs}
    assert len(logs) == 2 * len(TASKS), sorted(logs)
    keys_seen = 0
    for episode, log in sorted(logs.items()):
        # after the episode, the full task is in the log, and it is the one the running log referred to
        assert log.status == "finished" and log.task is not None, (episode, log.errors)
        assert log.task_ref == task_ref(log.task)
        corpus = json.loads((run_dir / "episodes" / episode / "agent" / "corpus.txt").read_text("utf-8"))
        workdir = Path(corpus["workdir"])
        assert workdir.is_relative_to(system_tmp.resolve()) and not workdir.exists(), workdir
        assert not workdir.is_relative_to(run_dir.resolve())
        texts: dict[str, str] = corpus["texts"]
        assert "environment" in texts and any(s.startswith("run:") for s in texts), sorted(texts)[:5]
        if log.agent.name == "plug":
            assert "context.task" in texts
        key = key_of(log.task)
        keys_seen += len(key)
        for source, text in texts.items():
            if source.startswith("parent:") and not source.startswith(f"parent:{tmp_path}"):
                path, _, mtime = source.removeprefix("parent:").rpartition("@")
                if float(mtime) < started:  # on the machine before the run (other programs' files)
                    continue
                if re.fullmatch(r"adb\.\d+\.log", Path(path).name):
                    # the adb server's own log in the system temp folder: transport events with times,
                    # pids and ports, where a numeric key ("1000") turns up by chance under a busy suite;
                    # spa-bench writes nothing of a task there
                    continue
            for secret in (*key, *MARKERS):
                assert secret not in text, (episode, source, secret)
    assert keys_seen >= 5, "the tasks' keys must be there to look for"
    assert os.environ["SPA_TEST_RUN_DIR"] == str(run_dir)


def test_the_key_probe_replays_a_key_it_finds_and_guesses_without_one(tmp_path: Path) -> None:
    """The probe of `tasks verify` (agents/probe_keys.py) must be able to use a key if one leaked, or its
    failing episodes prove nothing: a full task left in a file above its workdir is replayed by an inner
    oracle (revealed the task, its context still the view), and without the file it finds nothing."""
    task = Task.model_validate({
        "id": "leaky_lookup_en", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
        "language": "en", "difficulty": 1, "category": "single_app", "instruction": "Turn off Wi-Fi.",
        "golden_steps": 2,
        "checks": [{"type": "shell", "command": "settings get global wifi_on", "expect": "0"}],
        "golden_script": [{"type": "tap", "x": 13, "y": 37}, {"type": "finish"}]})
    workdir = tmp_path / "work"
    workdir.mkdir()
    context = TaskContext.for_task(task, max_steps=5, instance_seed=1, serial="s", screen_width=1080,
                                   screen_height=2400, workdir=workdir)
    screen = Observation(screenshot_png=b"", hierarchy_xml="<hierarchy/>", all_elements=[], package=None,
                         activity=None, keyboard_shown=False, width=1080, height=2400)
    honest = KeySearchProbe()
    honest.reset(context)
    assert honest.found.task is None and honest.inner is None
    assert isinstance(honest.step(screen).action, Finish)  # a guess, at once

    (tmp_path / "episode.json").write_text(json.dumps({"task": task.model_dump(mode="json")}), "utf-8")
    probe = KeySearchProbe()
    probe.reset(context)
    assert probe.found.task is not None and probe.inner is not None, probe.found.where
    assert probe.inner.full_task.checks == task.checks and probe.context.task == context.task
    first = probe.step(screen)
    assert first.action == Tap(x=13, y=37) and "replaying the task found at workdir/..:episode.json" in \
        str(first.output)
