"""Builders for the judge tests: small screenshots, episodes with actions and packages, image decoding."""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

from spa_bench.actions import Action, parse_action
from spa_bench.evaluation.judge_config import default_judge_config
from spa_bench.models import Backoff, ModelConfig
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    InstanceInfo,
    ObservationRef,
    StepRecord,
)
from spa_bench.tasks.model import Task

T0 = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
W, H = 360, 640  # small screens keep the requests small; the dot radius is the same 20 px


def screen(colour: tuple[int, int, int] = (255, 255, 255)) -> Image.Image:
    return Image.new("RGB", (W, H), colour)


def single_task(instruction: str = "Turn on Bluetooth", **extra: Any) -> Task:
    data: dict[str, Any] = {
        "id": "bt_on_en", "apps": [{"package": "com.android.settings", "name": {"en": "Settings"}}],
        "language": "en", "difficulty": 1, "category": "single_app", "instruction": instruction,
        "golden_steps": 3, "key_components": ["Bluetooth"]}
    data.update(extra)
    return Task.model_validate(data)


def cross_task(subtasks: Sequence[dict[str, Any]] | None = None) -> Task:
    return Task.model_validate({
        "id": "cross_en", "language": "en", "difficulty": 2, "category": "cross_app",
        "apps": [{"package": "com.example.shop", "name": {"en": "Shop", "zh": "商店"}},
                 {"package": "com.example.notes", "name": {"en": "Notes"}}],
        "instruction": "Find the cheapest kettle in Shop, then write its name in a new note in Notes.",
        "golden_steps": 8,
        "subtasks": list(subtasks or [
            {"app": "Shop", "instruction": "Find the cheapest kettle", "memory": "the cheapest kettle"},
            {"app": "com.example.notes", "instruction": "Write the kettle's name in a new note",
             "uses_history": True}])})


def write_episode(root: Path, the_task: Task, actions: Sequence[dict[str, Any] | None],
                  packages: Sequence[str | None] | None = None, shots: Sequence[Image.Image] | None = None,
                  hierarchy: dict[int, str] | None = None, episode: str = "a__t__r0") -> Path:
    """An episode with one step per action (None = an invalid step), screenshots 000.png... and final.png;
    `packages` gives the foreground package of each screenshot, the final one last."""
    folder = RunLayout(root).episode_dir(episode)
    (folder / "screenshots").mkdir(parents=True, exist_ok=True)
    steps = []
    images = list(shots) if shots is not None else [screen() for _ in range(len(actions) + 1)]
    pkgs = list(packages) if packages is not None else [None] * (len(actions) + 1)
    for i, raw in enumerate(actions):
        images[i].save(folder / "screenshots" / f"{i:03d}.png")
        xml = None
        if hierarchy and i in hierarchy:
            (folder / "hierarchy").mkdir(exist_ok=True)
            (folder / "hierarchy" / f"{i:03d}.xml").write_text(hierarchy[i], encoding="utf-8")
            xml = f"hierarchy/{i:03d}.xml"
        action: Action | None = parse_action(raw) if raw is not None else None
        steps.append(StepRecord(index=i, started_at=T0 + timedelta(seconds=i), action=action,
                                valid=action is not None, raw_action=raw,
                                observation=ObservationRef(screenshot=f"screenshots/{i:03d}.png",
                                                           hierarchy=xml, package=pkgs[i], width=W,
                                                           height=H)))
    images[len(actions)].save(folder / "screenshots" / "final.png")
    log = EpisodeLog(episode_id=episode, run_id="run-1", status="finished", task=the_task,
                     instance=InstanceInfo(seed=0), agent=AgentSpec(name="a", reference="scripted"),
                     device=DeviceInfo(serial="virtual-1"), started_at=T0, finished_at=T0, steps=steps,
                     final_observation=ObservationRef(screenshot="screenshots/final.png", package=pkgs[-1]),
                     termination="done")
    RunLayout(root).write_episode(log)
    return folder


def load(folder: Path) -> EpisodeLog:
    return EpisodeLog.model_validate_json((folder / "episode.json").read_text(encoding="utf-8"))


def decode(url: str) -> Image.Image:
    """A data URL back into an image."""
    assert url.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))).convert("RGB")


def local_model(base_url: str, model: str = "gpt-4o") -> ModelConfig:
    """A judge model on the scripted server (no key), named like a priced model so costs are known."""
    return default_judge_config(model, base_url=base_url, api_key_env=None, max_retries=0,
                                backoff=Backoff(base_s=0.0, max_s=0.0, jitter=0.0))
