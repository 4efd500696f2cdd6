"""The episode recorder owns the episode folder: it writes observations where the layout says, the log
names exactly those files, an imported screenshot is copied in, and a new attempt starts clean; the
running log holds no task, the agent's workdir is outside the run folder and copied in at the end."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

from spa_bench.errors import ResultsError
from spa_bench.results.layout import RunLayout
from spa_bench.results.recorder import EpisodeRecorder
from spa_bench.results.schema import AgentSpec, DeviceInfo, EpisodeLog, InstanceInfo, task_ref
from spa_bench.tasks.model import Task

TASK = Task.model_validate({
    "id": "t1", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}], "language": "en",
    "difficulty": 1, "category": "single_app", "instruction": "Open Settings", "golden_steps": 1,
    "key_components": ["Settings"]})


@dataclass
class Screen:
    screenshot_png: bytes
    hierarchy_xml: str
    package: str | None = "com.android.settings"
    activity: str | None = ".Settings"
    keyboard_shown: bool = False
    width: int = 8
    height: int = 16


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 16), "white").save(out, format="PNG")
    return out.getvalue()


def test_recorder_writes_what_the_log_names(tmp_path: Path) -> None:
    layout = RunLayout(tmp_path / "run")
    log = EpisodeLog(episode_id="a__t1__r0", run_id="run", task=TASK, instance=InstanceInfo(seed=0),
                     agent=AgentSpec(name="a", reference="noop"), device=DeviceInfo(serial="x"),
                     started_at=datetime.now(UTC))
    recorder = EpisodeRecorder(layout, log.episode_id)
    stale = recorder.folder / "screenshots" / "007.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from an earlier attempt")
    recorder.start(log)
    assert not stale.exists(), "a new attempt starts from an empty folder"
    assert layout.read_episode(log.episode_id).status == "running"

    xml = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\" />"
    ref = recorder.observation(Screen(png(), xml), "000")
    assert (ref.screenshot, ref.hierarchy) == ("screenshots/000.png", "hierarchy/000.xml")
    assert ref.screenshot is not None and ref.hierarchy is not None
    assert (recorder.folder / ref.screenshot).read_bytes() == png()
    assert (recorder.folder / ref.hierarchy).read_text(encoding="utf-8") == xml
    assert (ref.package, ref.width, ref.height, ref.keyboard_shown) == ("com.android.settings", 8, 16, False)

    source = tmp_path / "agent-out" / "3.PNG"
    source.parent.mkdir()
    source.write_bytes(png())
    imported = recorder.imported_screenshot(source, 3)
    assert imported.screenshot == "screenshots/003.png"
    assert (recorder.folder / "screenshots/003.png").is_file()

    # the agent works outside the run folder; what it wrote (no symlink) is copied in when it ends
    workdir = recorder.agent_dir()
    assert workdir.is_dir() and not workdir.is_relative_to(layout.root.resolve())
    (workdir / "notes").mkdir()
    (workdir / "notes" / "a.txt").write_text("kept")
    (workdir / "link").symlink_to(source)
    # while it runs, the log on disk holds the task by sha256 only; the full task joins it at the end
    on_disk = layout.read_episode(log.episode_id)
    assert on_disk.task is None and on_disk.task_ref == task_ref(TASK) and log.task == TASK
    with pytest.raises(ResultsError, match="still running"):
        on_disk.full_task  # noqa: B018
    recorder.finish(log)
    assert layout.read_episode(log.episode_id).task == TASK
    recorder.keep_agent_files()
    assert (recorder.folder / "agent" / "notes" / "a.txt").read_text() == "kept"
    assert not (recorder.folder / "agent" / "link").exists() and not workdir.exists()


def test_adopt_records_an_episode_run_elsewhere(tmp_path: Path) -> None:
    """The Ray executor's path: files from another host (bytes, or a shared folder), then the log; a
    file name that would leave the episode folder is refused."""
    layout = RunLayout(tmp_path / "run")
    log = EpisodeLog(episode_id="a__t1__r0", run_id="run", task=TASK, instance=InstanceInfo(seed=0),
                     agent=AgentSpec(name="a", reference="noop"),
                     device=DeviceInfo(serial="x", host="10.0.0.7"), started_at=datetime.now(UTC),
                     status="finished", termination="done")
    recorder = EpisodeRecorder(layout, log.episode_id)
    stale = recorder.folder / "screenshots" / "009.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"from an earlier attempt")
    recorder.adopt(log, {"screenshots/000.png": png(), "hierarchy/000.xml": b"<hierarchy />"})
    assert not stale.exists()
    assert (recorder.folder / "screenshots" / "000.png").read_bytes() == png()
    assert layout.read_episode(log.episode_id).device.host == "10.0.0.7"

    shared = tmp_path / "shared" / "episodes" / log.episode_id
    (shared / "screenshots").mkdir(parents=True)
    (shared / "screenshots" / "final.png").write_bytes(png())
    (shared / "episode.json").write_text("the remote copy of the log: the driver's own is written instead")
    recorder.adopt(log, shared)
    assert sorted(p.relative_to(recorder.folder).as_posix() for p in recorder.folder.rglob("*.*")) == [
        "episode.json", "screenshots/final.png"]
    assert layout.read_episode(log.episode_id).termination == "done"

    for bad in ("../other/episode.json", "/etc/passwd", "episode.json"):
        with pytest.raises(ResultsError, match="outside the episode's folder"):
            recorder.adopt(log, {bad: b"x"})
