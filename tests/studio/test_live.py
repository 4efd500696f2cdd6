"""Watching a benchmark (`spa-bench run --live`, `spa-bench studio --run`): the reader of a run folder being
written, on folders made here (a half-written log, a screenshot still being written, a run that ends),
and a real run on the shared phones watched by the page in Chromium: each phone's screen, task and step
while the run goes, then the verdicts."""

from __future__ import annotations

import io
import json
import re
import signal
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium_browser
from cli_helpers import run_cli
from PIL import Image
from pim_runs import on_shared_phones, on_shared_phones_args, shared_devices
from spa_bench.agents.oracle import OracleAgent

from spa_bench.agent import AgentStep, register_agent
from spa_bench.device.observation import Observation
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    InstanceInfo,
    ObservationRef,
    RunManifest,
    RunSummary,
    StepRecord,
    Verdict,
)
from spa_bench.runner.config import AgentConfig, RunConfig
from spa_bench.runner.run import hold_run_folder, new_run_id, run_benchmark
from spa_bench.studio.live import LiveRuns, LiveServer
from spa_bench.studio.live_state import RunWatcher
from spa_bench.tasks.repository import TaskFilter, TaskRepository, default_tasks_root

chromium = chromium_browser
TASKS = ["settings_bluetooth_on_zh", "settings_wifi_off_en"]  # 3 golden steps each, limit 7
NOW = datetime(2026, 6, 15, 10, 30, tzinfo=UTC)


# -- reading a run folder while it is written (no phone) --------------------------------------------------


def _manifest(root: Path, serials: list[str]) -> RunManifest:
    manifest = RunManifest(run_id=root.name, created_at=NOW, spa_bench_version="test", python="3.11",
                           platform="test", tasks_root=str(default_tasks_root()), task_ids=TASKS,
                           agents=[AgentSpec(name="oracle", agent="oracle", reference=True)],
                           devices=[DeviceInfo(serial=s, model="SPA Virtual Phone") for s in serials])
    RunLayout(root).write_manifest(manifest)
    return manifest


def _png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (27, 60), color).save(out, "PNG")
    return out.getvalue()


def _running_log(task_id: str, serial: str, steps: int) -> EpisodeLog:
    """A log as the recorder writes it mid-episode: its task withheld, `steps` steps taken."""
    file = "settings/zh.yaml" if task_id.endswith("_zh") else "settings/en.yaml"
    return EpisodeLog(
        episode_id=f"oracle__{task_id}__r0", run_id="run", task=None, task_ref="0" * 64, task_file=file,
        instance=InstanceInfo(seed=1), agent=AgentSpec(name="oracle", agent="oracle", reference=True),
        device=DeviceInfo(serial=serial), started_at=NOW,
        steps=[StepRecord(index=i, started_at=NOW,
                          observation=ObservationRef(screenshot=f"screenshots/{i:03d}.png"),
                          action={"type": "tap", "x": 10 + i, "y": 20}) for i in range(steps)])


def _finished_log(task_id: str, serial: str, success: bool) -> EpisodeLog:
    task = TaskRepository(default_tasks_root()).get(task_id)
    log = _running_log(task_id, serial, 3).model_copy(update={
        "task": task, "status": "finished", "termination": "done", "finished_at": NOW})
    log.timings.total_s = 4.5
    log.verdicts.append(Verdict(evaluator="state", role="ground_truth", success=success, created_at=NOW))
    return log


def test_half_written_run_folder(tmp_path: Path) -> None:
    root = tmp_path / "run-1"
    watcher = RunWatcher(root)
    assert watcher.read().state == "waiting"  # no folder yet: the run has not written its manifest
    _manifest(root, ["phone-a", "phone-b"])
    layout = RunLayout(root)
    # phone-a: the wifi episode has taken 2 steps; its third screenshot is still being written
    running = _running_log("settings_wifi_off_en", "phone-a", 2)
    layout.write_episode(running)
    shots = layout.episode_dir(running.episode_id) / "screenshots"
    shots.mkdir()
    (shots / "000.png").write_bytes(_png("red"))
    (shots / "001.png").write_bytes(_png("blue"))
    (shots / "002.png").write_bytes(_png("green")[:-30])
    # phone-b: the bluetooth episode's log is half written (by a writer that does not write atomically)
    finished = _finished_log("settings_bluetooth_on_zh", "phone-b", success=True)
    text = finished.model_dump_json(indent=1)
    half = layout.episode_path(finished.episode_id)
    half.parent.mkdir(parents=True)
    half.write_text(text[: len(text) // 2], encoding="utf-8")

    run = watcher.read()
    assert run.state == "running" and run.counts["planned"] == 2
    by_id = {e.episode_id: e for e in run.episodes}
    wifi = by_id["oracle__settings_wifi_off_en__r0"]
    assert (wifi.status, wifi.task_id, wifi.agent, wifi.steps, wifi.step_limit) == (
        "running", "settings_wifi_off_en", "oracle", 2, 7)  # the limit from the task file: 2 x 3 + 1
    assert wifi.instruction == TaskRepository(default_tasks_root()).get("settings_wifi_off_en").instruction
    assert json.loads(wifi.last_action or "") == {"type": "tap", "x": 11, "y": 20}
    assert by_id["oracle__settings_bluetooth_on_zh__r0"].status == "to do"  # the partial log is skipped
    phones = {p.device: p for p in run.phones}
    assert phones["phone-a"].busy and phones["phone-a"].episode_id == wifi.episode_id
    assert (phones["phone-a"].screen or "").startswith("001.png?v=")  # 002.png is not whole yet
    assert phones["phone-b"].episode_id is None
    assert watcher.screen_path(wifi.episode_id, "002.png") is None
    assert watcher.screen_path(wifi.episode_id, "../episode.json") is None

    # the bluetooth log lands whole, with its verdict; then a writer truncates it: the last reading stands
    half.write_text(text, encoding="utf-8")
    done = {e.episode_id: e for e in watcher.read().episodes}["oracle__settings_bluetooth_on_zh__r0"]
    assert (done.status, done.success, done.steps, done.elapsed_s) == ("done", True, 3, 4.5)
    assert done.verdict == "pass: state: checks passed"
    half.write_text(text[:100], encoding="utf-8")
    again = {e.episode_id: e for e in watcher.read().episodes}["oracle__settings_bluetooth_on_zh__r0"]
    assert again == done
    (shots / "002.png").write_bytes(_png("green"))
    assert ({p.device: p for p in watcher.read().phones}["phone-a"].screen or "").startswith("002.png?v=")

    # the driver writes its summary and is gone: the episode still marked running was abandoned
    layout.write_summary(RunSummary(run_id=root.name, started_at=NOW, finished_at=NOW, planned=2))
    run = watcher.read()
    assert run.state == "ended"
    assert {e.episode_id: e.status for e in run.episodes}["oracle__settings_wifi_off_en__r0"] == "stopped"
    # verdicts added later (spa-bench evaluate) rewrite a finished log: the run is still over
    half.write_text(text, encoding="utf-8")
    assert watcher.read().state == "ended"
    # a driver resuming the run holds its folder (and writes running logs after the old summary)
    with hold_run_folder(root):
        assert watcher.read().state == "running"
    assert watcher.read().state == "ended"
    layout.write_episode(running)
    assert watcher.read().state == "running"


def test_state_holds_no_answer_key(tmp_path: Path) -> None:
    """A finished log holds its task (checks, golden script, parameters): the state shows none of them."""
    root = tmp_path / "run-2"
    _manifest(root, ["phone-a"])
    log = _finished_log("settings_wifi_off_en", "phone-a", success=False)
    RunLayout(root).write_episode(log)
    _, body = LiveRuns([root]).state()
    text = body.decode("utf-8")
    task = log.full_task
    secrets = [c.command for c in task.checks if c.type == "shell"]
    secrets += [s.resource_id for a in task.golden_script or [] if (s := getattr(a, "selector", None))
                if s.resource_id]
    assert secrets and not [s for s in secrets if s in text], secrets
    state = next(e for e in json.loads(body)["runs"][0]["episodes"] if e["episode_id"] == log.episode_id)
    assert (state["status"], state["success"]) == ("done", False)
    assert state["verdict"] == "fail: state: checks failed"


def test_running_episode_shows_the_instruction_as_written(tmp_path: Path) -> None:
    """A parameterised task's drawn values stay off the disk while its episode runs: the page shows the
    instruction with its placeholders, then the one the agent was given once the episode has ended."""
    root = tmp_path / "run-4"
    _manifest(root, ["phone-a"])
    running = _running_log("settings_wifi_off_en", "phone-a", 1).model_copy(update={
        "episode_id": "oracle__social_follow_en__r0", "task_file": "social/en.yaml"})
    RunLayout(root).write_episode(running)
    watcher = RunWatcher(root)
    view = {e.episode_id: e for e in watcher.read().episodes}[running.episode_id]
    assert (view.task_id, view.step_limit) == ("social_follow_en", 9)  # 2 x 4 golden steps + 1
    assert view.instruction == "Follow {who.name} on Circle."
    task, _, values = TaskRepository(default_tasks_root()).get("social_follow_en").instantiate(11, 0)
    RunLayout(root).write_episode(running.model_copy(update={"task": task, "status": "finished",
                                                              "termination": "done", "finished_at": NOW}))
    view = {e.episode_id: e for e in watcher.read().episodes}[running.episode_id]
    assert view.instruction == task.instruction and "{" not in task.instruction
    assert str(values["who"]["name"]) in task.instruction  # type: ignore[index]


def test_server_watches_several_runs_for_loopback_only(tmp_path: Path) -> None:
    ended, waiting = tmp_path / "run-ended", tmp_path / "run-not-started"
    _manifest(ended, ["phone-a"])
    log = _finished_log("settings_wifi_off_en", "phone-a", success=True)
    RunLayout(ended).write_episode(log)
    (RunLayout(ended).episode_dir(log.episode_id) / "screenshots").mkdir()
    (RunLayout(ended).episode_dir(log.episode_id) / "screenshots" / "final.png").write_bytes(_png("red"))
    RunLayout(ended).write_summary(RunSummary(run_id=ended.name, started_at=NOW, finished_at=NOW, planned=2))
    server = LiveServer([ended, waiting])
    server.start()
    try:
        status, _, body = _get(server.url + "api/state")
        runs = json.loads(body)["runs"]
        assert status == 200 and [r["state"] for r in runs] == ["ended", "waiting"]
        assert runs[0]["phones"][0]["screen"].startswith("final.png?v=")
        assert _get(f"{server.url}shot/0/{log.episode_id}/final.png")[0] == 200
        for path in (f"shot/0/{log.episode_id}/episode.json", f"shot/0/{log.episode_id}/..%2Fepisode.json",
                     f"shot/1/{log.episode_id}/final.png", "shot/x/y/final.png"):
            assert _get(server.url + path)[0] == 404, path
        # a page elsewhere that rebinds its name to 127.0.0.1 is refused
        assert _get(server.url + "api/state", {"Host": f"rebound.example:{server.port}"})[0] == 403
        assert _get(server.url + "api/state", {"Host": f"localhost:{server.port}"})[0] == 200
    finally:
        server.stop()


# -- a real run, watched in Chromium -----------------------------------------------------------------------


@register_agent("live-test-gated-oracle")
class GatedOracle(OracleAgent):
    """The oracle, holding its second step until the test opens the gate: the page is looked at while
    every phone is mid-episode."""

    gate = threading.Event()
    waiting = threading.Semaphore(0)

    def step(self, observation: Observation) -> AgentStep:
        if self.position == 1 and not self.gate.is_set():
            self.waiting.release()
            self.gate.wait(timeout=120)
        return super().step(observation)


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


@pytest.fixture
def gated_run(tmp_path: Path) -> Iterator[tuple[Path, threading.Thread]]:
    GatedOracle.gate.clear()
    config = RunConfig(filter=TaskFilter(ids=TASKS), agents=[AgentConfig(agent="live-test-gated-oracle")],
                       out=tmp_path, run_id=new_run_id(), **on_shared_phones(2))
    failure: list[BaseException] = []

    def run() -> None:
        try:
            run_benchmark(config)
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=run, name="live-test-run")
    yield tmp_path / (config.run_id or ""), thread
    GatedOracle.gate.set()
    if thread.ident is not None:
        thread.join(timeout=120)
    assert not failure, failure


@pytest.mark.usefixtures("adb_env")
@pytest.mark.xdist_group("studio")
def test_page_watches_a_run(gated_run: tuple[Path, threading.Thread], chromium: Any) -> None:
    run_dir, thread = gated_run
    server = LiveServer([run_dir])
    server.start()
    page = chromium.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.url)
        page.wait_for_selector("section.run[data-state=waiting]")  # before the run writes anything
        thread.start()
        for _ in TASKS:  # both phones hold an episode at its second step
            assert GatedOracle.waiting.acquire(timeout=120)
        page.wait_for_function("[...document.querySelectorAll('.phone[data-status=running] .step')]"
                               ".filter((s) => s.innerText === 'step 1 / 7').length === 2")
        devices = {d.serial: d for d in shared_devices(2)}
        repo = TaskRepository(default_tasks_root())
        for task in TASKS:
            episode = f"live-test-gated-oracle__{task}__r0"
            card = page.locator(f".phone[data-episode='{episode}']")
            assert card.locator(".task").inner_text() == task
            assert card.locator(".instruction").inner_text() == repo.get(task).instruction
            assert card.locator(".agent").inner_text() == "live-test-gated-oracle"
            assert '"type": "tap"' in card.locator(".action").inner_text()
            img = card.locator("img.screen")
            # the second screenshot (a poll made while it was being written may show the first a moment)
            page.wait_for_function("(img) => img.complete && img.naturalWidth === 1080 && "
                                   "new URL(img.src).pathname.endsWith('/001.png')", arg=img.element_handle())
            src = img.get_attribute("src") or ""
            assert re.search(rf"/shot/0/{episode}/001\.png\?v=\d+$", src), src
            # the screen shown is the phone's screen now (the agent is holding its step)
            shown = Image.open(io.BytesIO(_get(server.url.rstrip("/") + src)[2])).convert("RGB")
            now = Image.open(io.BytesIO(devices[card.get_attribute("data-device") or ""].screenshot_png()))
            assert shown.tobytes() == now.convert("RGB").tobytes()
        assert page.locator("tr[data-status='to do'], tr[data-status=done]").count() == 0
        GatedOracle.gate.set()
        thread.join(timeout=120)
        page.wait_for_selector("section.run[data-state=ended]")
        rows = page.locator("tbody tr")
        assert rows.count() == 2
        for i in range(2):
            assert rows.nth(i).get_attribute("data-status") == "done"
            assert rows.nth(i).get_attribute("data-success") == "true"
        assert "passed 2" in page.locator("section.run h2").inner_text()
        page.wait_for_function("document.querySelectorAll(\".phone img.screen[src*='/final.png?']\")"
                               ".length === 2")
        # the state's ETag: a poll that changes nothing gets 304
        status, headers, _ = _get(server.url + "api/state")
        assert status == 200 and _get(server.url + "api/state", {"If-None-Match": headers["ETag"]})[0] == 304
        assert not errors, errors
    finally:
        page.close()
        server.stop()


# -- the command line ----------------------------------------------------------------------------------------


@pytest.mark.usefixtures("adb_env")
@pytest.mark.xdist_group("studio")
def test_run_live_prints_its_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    result = run_cli(capsys, "run", "--task", "settings_wifi_off_en", "--agent", "noop", "--live",
                     "--live-port", "0", *on_shared_phones_args(1), "--out", str(tmp_path))
    assert result.code == 0, result.err
    line = next(line for line in result.out.splitlines() if line.startswith("live: "))
    run_dir = next(p for p in tmp_path.iterdir() if p.is_dir())
    assert re.fullmatch(rf"live: http://127\.0\.0\.1:\d+/ \(watching {re.escape(str(run_dir))}\)", line)
    # a resumed run takes --live too (nothing is left to run here: no phone is needed)
    result = run_cli(capsys, "run", "--resume", str(run_dir), "--live", "--live-port", "0")
    assert result.code == 0, result.err
    assert f"(watching {run_dir})" in result.out


def test_studio_run_serves_a_finished_run_until_ctrl_c(tmp_path: Path) -> None:
    root = tmp_path / "run-3"
    _manifest(root, ["phone-a"])
    RunLayout(root).write_episode(_finished_log("settings_wifi_off_en", "phone-a", success=True))
    command = [sys.executable, "-m", "spa_bench", "studio", "--run", str(root), "--port", "0"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert url, (line, process.stderr.read() if process.poll() is not None and process.stderr else "")
        status, _, body = _get(url.group(0) + "api/state")
        episodes = json.loads(body)["runs"][0]["episodes"]
        assert status == 200 and [e["status"] for e in episodes] == ["to do", "done"]
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
