"""What a run folder says while it is being written: each phone's current episode and screen, and the
plan's episodes with their verdicts as they land (`spa-bench run --live`, `spa-bench studio --run`).

The runner writes as it goes (spa_bench/results/recorder.py): an episode's screenshot before each step
(screenshots/000.png, 001.png, ...), its log after each step, rewritten atomically, holding the task by
sha256 only (`task: null`) until the episode ends, then final.png and the full log, then the verdicts.
So the reader:
- takes the episode's task id and agent from the manifest's plan (agents x task ids x repeats, as
  results.layout.episode_id names them), never from the withheld task;
- takes the newest complete screenshot as the phone's screen: the one the agent is looking at now, which
  the log names only once the step is done (a screenshot is written in place, so a file still being
  written - a PNG without its IEND chunk, a JPEG without its end marker - is passed over);
- reads a log only when its file changed, and skips one it cannot read (a partial or foreign file):
  the last good reading of that episode stands, or the episode is left out until its log reads.
What leaves here is chosen field by field (`LiveEpisode`): the step count and limit, the last action,
the termination and, once the episode has ended, the verdict the report shows (the one policy,
spa_bench.evaluation.policy). Never a check, the golden script, captured state or parameter values.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from spa_bench.errors import ResultsError, TaskValidationError
from spa_bench.evaluation.policy import decide_success
from spa_bench.results.layout import SCREENSHOTS, SUMMARY, RunLayout, episode_id
from spa_bench.results.schema import EpisodeLog, RunManifest
from spa_bench.runner.run import UNFINISHED
from spa_bench.tasks.repository import read_task_file

Status = Literal["to do", "running", "done", "stopped"]
"""to do: no log yet; running: its log is being written; done: ended with a final log; stopped: ended
without one (interrupted, device failure: the run retries or resumes it) or abandoned by a driver that
is gone (the run ended while the log still says running)."""
IMAGE_ENDS = {".png": b"IEND\xaeB`\x82", ".jpg": b"\xff\xd9", ".jpeg": b"\xff\xd9"}


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LiveEpisode(_Out):
    episode_id: str
    agent: str
    task_id: str
    repeat: int | None
    status: Status
    device: str | None = None  # the phone it runs (ran) on: serial, with the cluster host if any
    attempt: int = 1
    steps: int = 0  # steps taken
    step_limit: int | None = None  # None: its task file is gone
    instruction: str | None = None  # the task view's; while the episode runs, as its file writes it (with
    # {placeholders}: the drawn values stay off the disk until it ends)
    started_at: datetime | None = None
    elapsed_s: float | None = None  # an ended episode's; a running one's is counted from started_at
    last_action: str | None = None
    termination: str | None = None
    success: bool | None = None  # the report's verdict, once the episode is done
    verdict: str | None = None  # "pass", "fail", "undecided", "scoring" (no verdict yet), with its reason


class LivePhone(_Out):
    device: str
    model: str | None = None
    episode_id: str | None = None  # the one running on it, else the last one it ran
    busy: bool = False
    screen: str | None = None  # the screenshot's file name in the episode's screenshots/, with ?v=<mtime>


class LiveRun(_Out):
    root: str
    run_id: str | None = None
    state: Literal["waiting", "running", "ended"] = "waiting"
    phones: list[LivePhone] = []
    episodes: list[LiveEpisode] = []
    counts: dict[str, int] = {}


@dataclass
class _Reading:
    stamp: tuple[int, int]  # the log file's (mtime_ns, size) when read
    log: EpisodeLog
    view: tuple[bool, LiveEpisode] | None = None  # what it shows (for a run ended or not) until it changes


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def complete_image(path: Path) -> bool:
    """Whether an image file is whole: written in place, it may be read half-way."""
    end = IMAGE_ENDS.get(path.suffix.lower())
    if end is None:
        return False
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size < len(end):
                return False
            f.seek(size - len(end))
            return f.read() == end
    except OSError:
        return False


def newest_screen(folder: Path, final_first: bool) -> Path | None:
    """The newest complete screenshot of an episode folder: final.* first for an ended episode, then the
    highest step number."""
    try:
        names = [p for p in (folder / SCREENSHOTS).iterdir() if p.suffix.lower() in IMAGE_ENDS]
    except OSError:
        return None
    steps = sorted((p for p in names if p.stem.isdigit()), key=lambda p: int(p.stem), reverse=True)
    finals = [p for p in names if p.stem == "final"]
    for path in (finals + steps) if final_first else steps:
        if complete_image(path):
            return path
    return None


def driver_holds(root: Path) -> bool:
    """Whether a spa-bench process holds the run folder's lock (spa_bench.runner.run.hold_run_folder, from
    the manifest to the summary), as /proc/locks lists it: only locks taken on this machine, and nothing
    where there is no /proc (then the summary decides alone)."""
    try:
        st = root.stat()
        table = Path("/proc/locks").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    ident = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    for line in table.splitlines():  # "3: FLOCK  ADVISORY  WRITE 1234 fe:00:2194709 0 EOF" ("->" if waiting)
        fields = [f for f in line.split()[1:] if f != "->"]
        if len(fields) >= 5 and fields[0] == "FLOCK" and fields[4] == ident:
            return True
    return False


def describe_action(log: EpisodeLog) -> str | None:
    """The last step's action as one line of JSON (what the report's step list shows), or why it was
    refused."""
    if not log.steps:
        return None
    step = log.steps[-1]
    if step.action is None:
        return f"invalid: {step.invalid_reason or (step.error.message if step.error else 'no action')}"[:300]
    text = json.dumps(step.action.model_dump(mode="json", exclude_none=True), ensure_ascii=False)
    return (text if step.valid else f"{text} (invalid: {step.invalid_reason})")[:300]


def device_key(serial: str, host: str | None) -> str:
    return serial if host is None else f"{host}/{serial}"


class RunWatcher:
    """One run folder, read again on every `read()`; only files that changed are parsed again."""

    def __init__(self, root: Path) -> None:
        self.layout = RunLayout(root)
        self._logs: dict[str, _Reading] = {}
        self._manifest: tuple[tuple[int, int], RunManifest] | None = None
        self._in_files: dict[tuple[str, str], tuple[int | None, str | None]] = {}

    @property
    def root(self) -> Path:
        return self.layout.root

    def manifest(self) -> RunManifest | None:
        stamp = _stamp(self.layout.manifest_path)
        if stamp is None:
            return None
        if self._manifest is None or self._manifest[0] != stamp:
            try:
                self._manifest = (stamp, self.layout.read_manifest())
            except ResultsError:
                return self._manifest[1] if self._manifest else None
        return self._manifest[1]

    def logs(self) -> dict[str, EpisodeLog]:
        """Every episode log that reads, by episode id (see the module docstring for one that does not)."""
        try:
            with os.scandir(self.layout.episodes_dir) as entries:  # no stat per entry where d_type says
                folders = [Path(e.path) for e in entries if e.is_dir()]
        except OSError:
            folders = []
        seen: dict[str, EpisodeLog] = {}
        for folder in folders:
            path = folder / self.layout.episode_file
            stamp = _stamp(path)
            if stamp is None:
                continue
            known = self._logs.get(folder.name)
            if known is None or known.stamp != stamp:
                try:
                    log = EpisodeLog.model_validate_json(path.read_bytes())
                except (OSError, ValidationError, ValueError):
                    log = None
                if log is not None and log.episode_id == folder.name:
                    known = self._logs[folder.name] = _Reading(stamp, log)
            if known is not None:
                seen[folder.name] = known.log
        self._logs = {k: v for k, v in self._logs.items() if k in seen}
        return seen

    def screen_path(self, episode: str, name: str) -> Path | None:
        """A screenshot of an episode the run has, by file name, if it is complete; None otherwise."""
        if "/" in name or "\\" in name or name.startswith(".") or episode not in self._logs:
            return None
        path = self.layout.episode_dir(episode) / SCREENSHOTS / name
        return path if path.is_file() and complete_image(path) else None

    def _ended(self, logs: dict[str, EpisodeLog]) -> bool:
        """No driver holds the run (where this machine can tell) and its summary is newer than every log
        of a running episode: a resumed run writes such logs after the first session's summary, while
        `spa-bench evaluate` adding verdicts afterwards rewrites only finished ones."""
        if driver_holds(self.root):
            return False
        summary = _stamp(self.root / SUMMARY)
        if summary is None:
            return False
        running = [self._logs[eid].stamp[0] for eid, log in logs.items() if log.status == "running"]
        return summary[0] > max(running, default=0)

    def _task_view(self, manifest: RunManifest | None, log: EpisodeLog,
                   task_id: str) -> tuple[int | None, str | None]:
        """(step limit, instruction): --max-steps or the task's limit, from the log once it holds the
        task, before that from the task file (max_steps, or 2 x golden_steps + 1 as Task.step_limit says)."""
        config = manifest.settings.get("config") if manifest else None
        given = config.get("max_steps") if isinstance(config, dict) else None
        if log.task is not None:
            limit, instruction = log.task.step_limit, log.task.instruction
        elif manifest is None or log.task_file is None:
            limit, instruction = None, None
        else:
            key = (log.task_file, task_id)
            if key not in self._in_files:
                self._in_files[key] = _in_task_file(Path(manifest.tasks_root) / log.task_file, task_id)
            limit, instruction = self._in_files[key]
        return (given if isinstance(given, int) else limit), instruction

    def read(self) -> LiveRun:
        manifest = self.manifest()
        logs = self.logs()
        ended = self._ended(logs)
        plan = _plan(manifest)
        episodes = [self._episode(manifest, logs.get(eid), eid, agent, task, repeat, ended)
                    for eid, (agent, task, repeat) in plan.items()]
        for eid in sorted(set(logs) - set(plan)):  # not in the plan: an older plan's, still shown
            log = logs[eid]
            parts = eid.split("__")
            task = parts[1] if len(parts) == 3 else eid
            episodes.append(self._episode(manifest, log, eid, log.agent.name, task, log.instance.repeat,
                                          ended))
        state = "ended" if ended else "running" if manifest is not None else "waiting"
        counts = {status: sum(1 for e in episodes if e.status == status)
                  for status in ("done", "running", "to do", "stopped")}
        counts.update(passed=sum(1 for e in episodes if e.success is True),
                      failed=sum(1 for e in episodes if e.success is False), planned=len(plan))
        return LiveRun(root=str(self.root), run_id=manifest.run_id if manifest else None, state=state,
                       phones=self._phones(manifest, logs, episodes), episodes=episodes, counts=counts)

    def _episode(self, manifest: RunManifest | None, log: EpisodeLog | None, eid: str, agent: str,
                 task_id: str, repeat: int | None, ended: bool) -> LiveEpisode:
        if log is None:
            return LiveEpisode(episode_id=eid, agent=agent, task_id=task_id, repeat=repeat, status="to do")
        reading = self._logs[eid]  # a large run reads again only the few logs that changed
        if reading.view is None or reading.view[0] != ended:
            reading.view = (ended, self._episode_view(manifest, log, eid, agent, task_id, repeat, ended))
        return reading.view[1]

    def _episode_view(self, manifest: RunManifest | None, log: EpisodeLog, eid: str, agent: str,
                      task_id: str, repeat: int | None, ended: bool) -> LiveEpisode:
        status: Status
        if log.status == "running":
            status = "stopped" if ended else "running"
        else:
            status = "stopped" if log.termination in UNFINISHED else "done"
        success, verdict = None, None
        if status == "done" and log.task is not None:
            if not log.verdicts and not ended:
                verdict = "scoring"
            else:
                decision = decide_success(log)
                success = decision.success
                word = {True: "pass", False: "fail", None: "undecided"}[decision.success]
                verdict = f"{word}: {decision.reason}"
        limit, instruction = self._task_view(manifest, log, task_id)
        return LiveEpisode(
            episode_id=eid, agent=agent, task_id=task_id, repeat=repeat, status=status,
            device=device_key(log.device.serial, log.device.host), attempt=log.attempt, steps=len(log.steps),
            step_limit=limit, instruction=instruction, started_at=log.started_at,
            elapsed_s=log.timings.total_s if log.status == "finished" else None,
            last_action=describe_action(log), termination=log.termination, success=success, verdict=verdict)

    def _phones(self, manifest: RunManifest | None, logs: dict[str, EpisodeLog],
                episodes: list[LiveEpisode]) -> list[LivePhone]:
        """Each device of the manifest (and any other a log names) with the episode it shows: the one
        running on it, else the last one it ran."""
        phones = {device_key(d.serial, d.host): LivePhone(device=device_key(d.serial, d.host), model=d.model)
                  for d in (manifest.devices if manifest else [])}
        by_id = {e.episode_id: e for e in episodes}
        newest: dict[str, tuple[bool, datetime, str]] = {}
        for eid, log in logs.items():
            key = device_key(log.device.serial, log.device.host)
            phones.setdefault(key, LivePhone(device=key, model=log.device.model))
            rank = (by_id[eid].status == "running", log.started_at, eid)
            if key not in newest or rank > newest[key]:
                newest[key] = rank
        for key, (busy, _, eid) in newest.items():
            shot = newest_screen(self.layout.episode_dir(eid), final_first=not busy)
            screen = None
            if shot is not None and (stamp := _stamp(shot)) is not None:
                screen = f"{shot.name}?v={stamp[0]}"
            phones[key] = phones[key].model_copy(update={"episode_id": eid, "busy": busy, "screen": screen})
        return list(phones.values())


def _plan(manifest: RunManifest | None) -> dict[str, tuple[str, str, int]]:
    """The run's episodes as its manifest plans them: episode id -> (agent, task id, repeat)."""
    if manifest is None:
        return {}
    return {episode_id(agent.name, task, repeat): (agent.name, task, repeat)
            for task in manifest.task_ids for repeat in range(manifest.repeats) for agent in manifest.agents}


def _in_task_file(path: Path, task_id: str) -> tuple[int | None, str | None]:
    """A task's step limit and instruction as its file writes them; (None, None) if it is not there."""
    try:
        raws = read_task_file(path)
    except (TaskValidationError, OSError):
        return None, None
    for raw in raws:
        if raw.get("id") != task_id:
            continue
        limit = None
        if isinstance(raw.get("max_steps"), int):
            limit = int(raw["max_steps"])
        elif isinstance(raw.get("golden_steps"), int):
            limit = 2 * int(raw["golden_steps"]) + 1
        instruction = raw.get("instruction")
        return limit, instruction if isinstance(instruction, str) else None
    return None, None
