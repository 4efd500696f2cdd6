"""Agents that run a whole episode in one go, and the import of SPA-Bench's recording format.

Most agents answer one observation at a time (`step`). An existing agent program does not: it is
started once, drives the phone itself over adb and writes down what it did. Such an agent implements
`EpisodeAgent.run_episode(context, stop) -> EpisodeOutcome`; the episode runner calls it once instead
of the step loop, records the returned steps as StepRecords (copying their screenshots into the
episode's screenshots/ folder), and then takes its own final screenshot and runs the state checks as
for any agent.

SPA-Bench's recording format (see agents/external.py for the whole contract): in the output folder,
`0.png, 1.png, ...` - the screen before each step, then the final screen - and `log.json`, a list of one
object per step `{"step": i, "prompt_tokens": n, "completion_tokens": m, "action": [TYPE, {"detail_type":
"string" | "coordinates", "detail": ...}], ...}` followed by one summary object `{"total_steps": n,
"finish_signal": 0 | 1, "elapsed_time_initial": s, "elapsed_time_exec": s, "total_prompt_tokens": n,
"total_completion_tokens": m}`; optionally `error.json`: `[{"error_message": "..."}]`.
`read_recording` turns that into ImportedSteps: actions converted to our Action types where the
meaning is clear (the raw action is kept otherwise), tokens priced when a price is known, and each
step's start time taken from its screenshot file (the program's clock is all there is).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from spa_bench.actions import Action, parse_action
from spa_bench.agent import TaskContext
from spa_bench.agent.parsing import normalize_action
from spa_bench.results.schema import AgentExit, ErrorInfo, Termination, TokenUsage

Pricer = Callable[[int, int], float | None]  # (prompt tokens, completion tokens) -> USD or unknown


@dataclass
class ImportedStep:
    """One step an agent recorded itself."""

    screenshot: Path | None  # the screen before the step (copied into the episode folder)
    action: Action | None  # None when the recorded action has no equivalent here
    raw_action: Any = None  # the action as recorded, kept when it could not be converted
    output: str | None = None
    usage: TokenUsage = field(default_factory=TokenUsage)
    started_at: datetime | None = None
    agent_s: float = 0.0


@dataclass
class EpisodeOutcome:
    """What an EpisodeAgent reports at the end of its episode."""

    steps: list[ImportedStep]
    termination: Termination
    answer: str | None = None
    errors: list[ErrorInfo] = field(default_factory=list)
    exit: AgentExit | None = None
    adb_calls: list[str] = field(default_factory=list)  # the program's adb command lines, for the audit


@runtime_checkable
class EpisodeAgent(Protocol):
    """An agent that does a whole episode in one call (see the module docstring)."""

    def reset(self, context: TaskContext) -> None:
        ...

    def run_episode(self, context: TaskContext, stop: threading.Event) -> EpisodeOutcome:
        ...

    def close(self) -> None:
        ...


@dataclass
class Recording:
    """An output folder in SPA-Bench's format, read."""

    steps: list[ImportedStep]
    finish_signal: int | None = None
    total_steps: int | None = None
    elapsed_initial_s: float | None = None
    elapsed_exec_s: float | None = None
    error_messages: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # what could not be read, for the log


def read_recording(folder: Path, pricer: Pricer | None = None) -> Recording:
    """Read `log.json`, the numbered screenshots and `error.json` of `folder` (all optional)."""
    problems: list[str] = []
    entries: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    log_path = folder / "log.json"
    if log_path.is_file():
        try:
            raw = json.loads(log_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            problems.append(f"log.json unreadable: {exc}")
            raw = []
        if not isinstance(raw, list):
            problems.append("log.json is not a JSON list")
            raw = []
        for item in raw:
            if isinstance(item, dict) and "total_steps" in item:
                summary = item
            elif isinstance(item, dict):
                entries.append(item)
    shots = _screenshots(folder)
    if not entries and shots:  # no log: every screenshot but the last (the final screen) is a step
        entries = [{"step": i} for i in sorted(shots)[:-1]]
    steps = []
    for position, entry in enumerate(entries):
        number = entry.get("step", position)
        number = number if isinstance(number, int) else position
        shot = shots.get(number)
        action, raw_action = convert_action(entry.get("action"))
        steps.append(ImportedStep(
            screenshot=shot, action=action, raw_action=raw_action, output=_output(entry),
            usage=_usage(entry, pricer), started_at=_mtime(shot)))
    for current, following in itertools.pairwise(steps):
        if current.started_at and following.started_at:
            current.agent_s = max(0.0, (following.started_at - current.started_at).total_seconds())
    return Recording(
        steps=steps, finish_signal=_int(summary.get("finish_signal")),
        total_steps=_int(summary.get("total_steps")),
        elapsed_initial_s=_float(summary.get("elapsed_time_initial")),
        elapsed_exec_s=_float(summary.get("elapsed_time_exec")),
        error_messages=_errors(folder / "error.json", problems), problems=problems)


def convert_action(recorded: Any) -> tuple[Action | None, Any]:
    """(our action, None) when the recorded action converts, else (None, the recorded action)."""
    if recorded is None:
        return None, None
    try:
        data = _as_dict(recorded)
        return (parse_action(normalize_action(data)), None) if data is not None else (None, recorded)
    except (ValidationError, ValueError, TypeError):
        return None, recorded


def _as_dict(recorded: Any) -> dict[str, Any] | None:
    """SPA-Bench's [TYPE, {"detail_type", "detail"}] (or a dict in our format) as an action dict."""
    if isinstance(recorded, dict):
        return dict(recorded)
    if not (isinstance(recorded, list | tuple) and recorded and isinstance(recorded[0], str)):
        return None
    kind = recorded[0].strip()
    info = recorded[1] if len(recorded) > 1 and isinstance(recorded[1], dict) else {}
    detail, detail_type = info.get("detail"), info.get("detail_type")
    canon = kind.replace("_", "").replace(" ", "").lower()
    out: dict[str, Any] = {"type": kind}
    if detail_type == "coordinates" and isinstance(detail, list | tuple):
        flat = [v for p in detail for v in (p if isinstance(p, list | tuple) else [p])]
        if len(flat) == 2:
            out |= {"x": round(flat[0]), "y": round(flat[1])}
        elif len(flat) == 4:
            out |= {"type": "swipe", "x1": round(flat[0]), "y1": round(flat[1]), "x2": round(flat[2]),
                    "y2": round(flat[3])}
        else:
            return None
    elif isinstance(detail, str) and detail.strip():
        text = detail.strip()
        if canon in ("swipe", "scroll") and text.lower() in ("up", "down", "left", "right"):
            # a swipe moves the finger: swiping up scrolls the content down
            flip = {"up": "down", "down": "up", "left": "right", "right": "left"}
            out = {"type": "scroll", "direction": flip[text.lower()] if canon == "swipe" else text.lower()}
        elif canon in ("type", "text", "input", "inputtext", "typetext"):
            out["text"] = detail
        elif canon in ("openapp", "launch", "launchapp", "open"):
            out["app"] = text
        elif canon in ("finish", "done", "stop", "answer", "complete"):
            out["answer"] = text
        elif canon == "wait":
            seconds = _float(text)
            if seconds is not None:
                out["seconds"] = seconds
    return out


def _screenshots(folder: Path) -> dict[int, Path]:
    out: dict[int, Path] = {}
    if folder.is_dir():
        for path in folder.iterdir():
            if path.suffix.lower() in (".png", ".jpg", ".jpeg") and path.stem.isdigit():
                out.setdefault(int(path.stem), path)
    return out


def _usage(entry: dict[str, Any], pricer: Pricer | None) -> TokenUsage:
    prompt, completion = _int(entry.get("prompt_tokens")), _int(entry.get("completion_tokens"))
    if prompt is None and completion is None:
        return TokenUsage()
    prompt, completion = max(0, prompt or 0), max(0, completion or 0)
    cost = pricer(prompt, completion) if pricer is not None else None
    return TokenUsage(prompt_tokens=prompt, completion_tokens=completion, calls=1, cost_usd=cost)


def _output(entry: dict[str, Any]) -> str | None:
    for key in ("thought", "response", "reasoning", "reason", "summary", "output"):
        if isinstance(entry.get(key), str):
            return str(entry[key])
    return None


def _errors(path: Path, problems: list[str]) -> list[str]:
    if not path.is_file():
        return []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        problems.append(f"error.json unreadable: {exc}")
        return []
    items = raw if isinstance(raw, list) else [raw]
    return [str(i.get("error_message", i)) if isinstance(i, dict) else str(i) for i in items]


def _mtime(path: Path | None) -> datetime | None:
    if path is None:
        return None
    try:
        return datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError:
        return None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _float(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None
