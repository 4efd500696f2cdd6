"""The folder layout of a run, and safe reading/writing of its files.

    results/<run-id>/
        manifest.json                      RunManifest
        summary.json                       RunSummary, when the run ends (also on Ctrl-C)
        episodes/<episode-id>/episode.json EpisodeLog, rewritten atomically after every step
                                           (its task withheld, by sha256, until the episode ends)
        episodes/<episode-id>/screenshots/ 000.png, 001.png, ... (before each step), final.png
        episodes/<episode-id>/hierarchy/   000.xml, ... (uiautomator XML, same numbering)
        episodes/<episode-id>/agent/       files the agent wrote in its workdir (a temporary folder
                                           outside the run folder), copied in when it ends
        report.html                        the HTML report, when made
        verification.json                  `spa-bench bundle verify`'s record, when verified
                                           (spa_bench.bundle.verification; the report's badge)

Episode ids are `<agent>__<task-id>__r<repeat>`; every part is file-name safe. The runner writes an
episode's folder only through the episode recorder (results/recorder.py), which takes its paths from here.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar, get_args

from pydantic import BaseModel, ValidationError

from spa_bench.errors import ResultsError
from spa_bench.results.schema import RESULTS_SCHEMA_VERSION, EpisodeLog, RunManifest, RunSummary
from spa_bench.secrets import scrub_values

M = TypeVar("M", bound=BaseModel)

MANIFEST = "manifest.json"
SUMMARY = "summary.json"
EPISODES = "episodes"
EPISODE_FILE = "episode.json"
SCREENSHOTS, HIERARCHY, AGENT = "screenshots", "hierarchy", "agent"
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def safe_name(text: str) -> str:
    """A file-name-safe version of an agent label or task id."""
    cleaned = _SAFE.sub("-", text).strip("-.")
    return cleaned or "x"


def episode_id(agent: str, task_id: str, repeat: int) -> str:
    return f"{safe_name(agent)}__{safe_name(task_id)}__r{repeat}"


def write_json_atomic(path: Path, text: str) -> None:
    """Write through a temporary file and rename, so readers never see half a file. Known secret
    values (spa_bench.secrets) are removed first: every JSON and HTML file of a run is written here."""
    text = scrub_values(text)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def schema_versions(model: type[BaseModel]) -> tuple[object, ...]:
    """The versions a model reads: the values its `schema_version` Literal allows (episode logs: 1, 2)."""
    field = model.model_fields.get("schema_version")
    allowed = get_args(field.annotation) if field is not None else ()
    return allowed or (RESULTS_SCHEMA_VERSION,)


def read_model(path: Path, model: type[M]) -> M:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise ResultsError(f"{path}: unreadable: {exc}") from None
    version = raw.get("schema_version") if isinstance(raw, dict) else None
    readable = schema_versions(model)
    if version not in readable:
        shown = " and ".join(str(v) for v in readable)
        raise ResultsError(f"{path}: schema_version {version!r} is not supported "
                           f"(this spa-bench reads version {shown})")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ResultsError(f"{path}: field '{where}': {first['msg']}") from None


@dataclass(frozen=True)
class RunLayout:
    """Paths of one run folder."""

    root: Path

    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    @property
    def episodes_dir(self) -> Path:
        return self.root / EPISODES

    def episode_dir(self, episode: str) -> Path:
        return self.episodes_dir / episode

    def episode_path(self, episode: str) -> Path:
        return self.episode_dir(episode) / EPISODE_FILE

    # Files inside an episode folder, as the log names them (relative to the folder): the recorder
    # (results/recorder.py) writes them, evaluators and the report read them.
    agent_folder = AGENT
    episode_file = EPISODE_FILE

    @staticmethod
    def screenshot_file(name: str, suffix: str = ".png") -> str:
        return f"{SCREENSHOTS}/{name}{suffix}"

    @staticmethod
    def hierarchy_file(name: str) -> str:
        return f"{HIERARCHY}/{name}.xml"

    def write_manifest(self, manifest: RunManifest) -> None:
        write_json_atomic(self.manifest_path, manifest.model_dump_json(indent=2))

    def read_manifest(self) -> RunManifest:
        if not self.root.is_dir():
            raise ResultsError(f"{self.root}: no such run folder")
        return read_model(self.manifest_path, RunManifest)

    @property
    def summary_path(self) -> Path:
        return self.root / SUMMARY

    def write_summary(self, summary: RunSummary) -> None:
        write_json_atomic(self.summary_path, summary.model_dump_json(indent=2))

    def read_summary(self) -> RunSummary:
        return read_model(self.summary_path, RunSummary)

    def write_episode(self, log: EpisodeLog) -> None:
        write_json_atomic(self.episode_path(log.episode_id), log.model_dump_json(indent=1))

    def read_episode(self, episode: str) -> EpisodeLog:
        return read_model(self.episode_path(episode), EpisodeLog)

    def episode_ids(self) -> list[str]:
        if not self.episodes_dir.is_dir():
            return []
        return sorted(p.parent.name for p in self.episodes_dir.glob(f"*/{EPISODE_FILE}"))

    def episodes(self) -> Iterator[EpisodeLog]:
        for episode in self.episode_ids():
            yield self.read_episode(episode)
