"""The episode recorder: the one writer of an episode's folder (log, screenshots, hierarchies).

The runner hands it what happened - an observation to keep, a screenshot an external agent left, the
log after each step - and the recorder decides where it goes (the layout of results/layout.py) and
writes it safely: images and XML first, then the log that names them, rewritten atomically, so a log
never points at a file that is not there yet. Modelled on inspect_ai's log recorders (`log_start`,
`log_sample`, `log_finish`): the code that runs an episode never builds a path itself.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from spa_bench.errors import ResultsError
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import EpisodeLog, ObservationRef


class RecordableObservation(Protocol):
    """What the recorder needs of an observation (spa_bench.device.observation.Observation has it)."""

    @property
    def screenshot_png(self) -> bytes: ...

    @property
    def hierarchy_xml(self) -> str: ...

    @property
    def package(self) -> str | None: ...

    @property
    def activity(self) -> str | None: ...

    @property
    def keyboard_shown(self) -> bool: ...

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...


class EpisodeRecorder:
    """Writes one episode of a run folder. `start` clears what an earlier attempt left."""

    def __init__(self, layout: RunLayout, episode_id: str) -> None:
        self.layout = layout
        self.episode_id = episode_id

    @property
    def folder(self) -> Path:
        return self.layout.episode_dir(self.episode_id)

    def start(self, log: EpisodeLog) -> None:
        """A fresh folder for this attempt, and the log as it stands (status running)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self.save(log)

    def save(self, log: EpisodeLog) -> None:
        """The log, rewritten atomically (after every step)."""
        self.layout.write_episode(log)

    def adopt(self, log: EpisodeLog, files: Mapping[str, bytes] | Path) -> None:
        """Record an episode that ran on another host (spa_bench.cluster): a fresh folder, its files
        (relative path -> bytes, or a folder whose files are copied), then the log that names them."""
        shutil.rmtree(self.folder, ignore_errors=True)
        if isinstance(files, Path):
            for source in sorted(files.rglob("*")):
                relative = source.relative_to(files)
                if source.is_file() and relative.as_posix() != self.layout.episode_file:
                    self._copy(source, relative.as_posix())
        else:
            for name, data in files.items():
                self._write(name, data)
        self.save(log)

    def observation(self, obs: RecordableObservation, name: str) -> ObservationRef:
        """Keep a screenshot and its UI tree under `name` ("003", "final"); the reference for the log."""
        shot, tree = self.layout.screenshot_file(name), self.layout.hierarchy_file(name)
        self._write(shot, obs.screenshot_png)
        self._write(tree, obs.hierarchy_xml.encode("utf-8"))
        return ObservationRef(screenshot=shot, hierarchy=tree, package=obs.package, activity=obs.activity,
                              keyboard_shown=obs.keyboard_shown, width=obs.width, height=obs.height)

    def imported_screenshot(self, source: Path, index: int) -> ObservationRef:
        """A screenshot an external agent program wrote (SPA-Bench's 0.png, 1.png, ...), copied in."""
        relative = self.layout.screenshot_file(f"{index:03d}", source.suffix.lower() or ".png")
        target = self.folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        return ObservationRef(screenshot=relative)

    def agent_dir(self) -> Path:
        """The folder an agent may write its own files into."""
        path = self.folder / self.layout.agent_folder
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _target(self, relative: str) -> Path:
        path = (self.folder / relative).resolve()
        if not path.is_relative_to(self.folder.resolve()) or relative == self.layout.episode_file:
            raise ResultsError(f"{self.episode_id}: file {relative!r} is outside the episode's folder")
        path.parent.mkdir(parents=True, exist_ok=True)
        return path

    def _write(self, relative: str, data: bytes) -> None:
        self._target(relative).write_bytes(data)

    def _copy(self, source: Path, relative: str) -> None:
        shutil.copyfile(source, self._target(relative))
