"""The episode recorder: the one writer of an episode's folder (log, screenshots, hierarchies).

The runner hands it what happened - an observation to keep, a screenshot an external agent left, the
log after each step - and the recorder decides where it goes (the layout of results/layout.py) and
writes it safely: images and XML first, then the log that names them, rewritten atomically, so a log
never points at a file that is not there yet. Modelled on inspect_ai's log recorders (`log_start`,
`log_sample`, `log_finish`): the code that runs an episode never builds a path itself.

The answer key stays out of the agent's reach: while the episode runs, the log on disk holds `task: null`
and the task's sha256 (`task_ref`), and no parameter values (they fill in the checks' expected values);
the full task and the parameters join it when the episode ends (`finish`, also after an infrastructure
failure). The agent works in a fresh temporary folder outside the run folder
(`agent_dir`), copied into the episode's agent/ folder when the episode ends (`keep_agent_files`).

After the episode, verdicts are added only through `add_verdicts`: under an exclusive lock on a
`.episode.json.lock` file beside the log, it re-reads the log, appends, and replaces the file only if its
bytes are still those it read - two `spa-bench evaluate` on one run then both keep their verdicts (a
plain read-modify-write would let the slower one drop the faster one's). The lock alone would do between
processes that take it; the byte comparison also catches a writer that does not (a resumed run
re-running the episode), as inspect_ai guards a log rewrite with an etag.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from pydantic import ValidationError

from spa_bench.errors import ResultsError
from spa_bench.results.layout import RunLayout, read_model, write_json_atomic
from spa_bench.results.schema import EpisodeLog, ObservationRef, Verdict, task_ref

AGENT_WORKDIR_PREFIX = "spa-bench-agent-"
CAS_ATTEMPTS = 5


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
        self._ended = False  # the full task may go to disk
        self._workdir: Path | None = None

    @property
    def folder(self) -> Path:
        return self.layout.episode_dir(self.episode_id)

    def start(self, log: EpisodeLog) -> None:
        """A fresh folder for this attempt, and the log as it stands (status running, task withheld)."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._ended = False
        if log.task is not None:
            log.task_ref = task_ref(log.task)
        self.save(log)

    def save(self, log: EpisodeLog) -> None:
        """The log, rewritten atomically (after every step). Until `finish`, without its task: the
        in-memory log keeps it, the file holds `task_ref` only."""
        if self._ended or log.task is None:
            self.layout.write_episode(log)
            return
        ref = log.task_ref or task_ref(log.task)
        hidden = log.instance.model_copy(update={"parameters": {}})  # drawn values fill in the checks
        self.layout.write_episode(log.model_copy(update={"task": None, "task_ref": ref, "instance": hidden}))

    def finish(self, log: EpisodeLog) -> None:
        """The episode has ended (finished, errored, or failed on its device): the full log from now on."""
        self._ended = True
        self.save(log)

    def adopt(self, log: EpisodeLog, files: Mapping[str, bytes] | Path) -> None:
        """Record an episode that ran on another host (spa_bench.cluster): a fresh folder, its files
        (relative path -> bytes, or a folder whose files are copied), then the log that names them."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self._ended = True  # it ended where it ran
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
        """The folder the agent works in: a fresh temporary folder outside the run folder (made on first
        call), so that nothing of the run - its other logs, this one's task - is a `..` away."""
        if self._workdir is None:
            self._workdir = Path(tempfile.mkdtemp(prefix=AGENT_WORKDIR_PREFIX)).resolve()
        return self._workdir

    def keep_agent_files(self) -> None:
        """Copy what the agent wrote into the episode's agent/ folder, then remove its workdir. Regular
        files only: a symlink the agent left is not followed. Called when the episode ends, however."""
        workdir, self._workdir = self._workdir, None
        if workdir is None:
            return
        try:
            target = self.folder / self.layout.agent_folder
            for folder, dirs, files in os.walk(workdir):
                dirs[:] = [d for d in dirs if not (Path(folder) / d).is_symlink()]
                for name in files:
                    source = Path(folder) / name
                    if source.is_symlink() or not source.is_file():
                        continue
                    copy = target / source.relative_to(workdir)
                    copy.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, copy)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)

    def add_verdicts(self, verdicts: Sequence[Verdict], evaluated: EpisodeLog | None = None) -> EpisodeLog:
        """Append verdicts to the log on disk (see the module docstring) and return the log as written.
        `evaluated`: the log the verdicts were made from; if the episode on disk is another attempt
        (it was run again meanwhile), nothing is added (ResultsError)."""
        path = self.layout.episode_path(self.episode_id)
        with _exclusive(path.with_name(f".{path.name}.lock")):
            for _ in range(CAS_ATTEMPTS):
                try:
                    before = path.read_bytes()
                except OSError as exc:
                    raise ResultsError(f"{path}: unreadable: {exc}") from None
                log = _parse(path, before)
                if evaluated is not None and (log.started_at, log.attempt) != (evaluated.started_at,
                                                                               evaluated.attempt):
                    raise ResultsError(f"{path}: the episode was run again while it was evaluated; "
                                       f"its new verdicts are not added")
                log.verdicts.extend(verdicts)
                text = log.model_dump_json(indent=1)
                if path.read_bytes() == before:  # compare, then replace (atomically)
                    write_json_atomic(path, text)
                    return log
        raise ResultsError(f"{path}: changed under every one of {CAS_ATTEMPTS} attempts to add verdicts")

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


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """An exclusive flock on `lock_path` (created if needed), released when the block ends or the process
    dies. The lock file is left in place: removing it would let two processes lock two different files."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _parse(path: Path, data: bytes) -> EpisodeLog:
    try:
        return EpisodeLog.model_validate_json(data)
    except ValidationError:
        return read_model(path, EpisodeLog)  # its precise message (file, field), or the version refused
