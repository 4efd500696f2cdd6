"""Episode details for the episode browser: steps, actions, verdicts and errors of every episode.

Details are most of a report's weight (agent outputs of 10,000 episodes are tens of megabytes of text),
so they are packed in chunks of CHUNK_SIZE episodes, each gzip-compressed and base64-encoded into the
page; the page decompresses a chunk only when one of its episodes is opened (DecompressionStream).
Screenshots are URLs relative to the report, or JPEG data URLs with `--embed`.
"""

from __future__ import annotations

import base64
import gzip
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote

from spa_bench.drawing import StepGestures
from spa_bench.report.overlay import describe, overlay
from spa_bench.results.schema import EpisodeLog, ErrorInfo, ObservationRef, TokenUsage, Verdict
from spa_bench.tasks.interruptions import AppDialog, IncomingCall, Interruption, LowBattery

CHUNK_SIZE = 50
TEXT_LIMIT = 20_000  # characters of one agent output / traceback / evidence value kept in the page
ImageSource = Callable[[str], str | None]
_URL_SAFE = re.compile(r"[A-Za-z0-9_./-]+")  # path relative to the episode folder -> src for <img>


def clip(text: str | None, limit: int = TEXT_LIMIT) -> str | None:
    """Very long texts are cut (the episode log keeps them whole) and say so."""
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"\n… [{len(text) - limit} more characters in episode.json]"


UNIT_SEP, RECORD_SEP = "\x1f", "\x1e"  # what the state checks pass to sqlite3 -separator / -newline
FIELD_MARK = " │ "  # a unit separator as shown: a box-drawing bar, not "|" that values often hold
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def readable_command(command: str) -> str:
    """A captured command with its control characters written as escapes (`-separator '\\x1f'`): a
    browser draws them as empty boxes, or not at all."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", command)


def readable_output(output: str) -> str:
    """sqlite3 output as rows and fields: a record separator ends a row (a line), a unit separator
    parts fields (FIELD_MARK); other control characters are written as escapes."""
    rows = output.removesuffix(RECORD_SEP).split(RECORD_SEP)
    return "\n".join(readable_command(row.replace(UNIT_SEP, FIELD_MARK)) for row in rows)


class RelativeImages:
    """Screenshots referenced relative to the report: `base` is the episode folder seen from it (the
    page joins it and each file name; names are quoted only when they need it)."""

    def __init__(self, prefix: str) -> None:
        self.base = quote(prefix.replace("\\", "/")) + "/"

    def __call__(self, path: str) -> str:
        return path if _URL_SAFE.fullmatch(path) else quote(path)


def _usage(usage: TokenUsage) -> list[Any]:
    return [usage.prompt_tokens, usage.completion_tokens, usage.calls, usage.cost_usd]


def _error(error: ErrorInfo | None) -> dict[str, Any] | None:
    if error is None:
        return None
    return {"kind": error.kind, "type": error.type, "message": clip(error.message, 4000),
            "traceback": clip(error.traceback, 8000), "step": error.step}


def _plain(value: Any) -> Any:
    """Evidence details are free-form: keep them JSON, cut long strings."""
    if isinstance(value, str):
        return clip(value, 4000)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, bool | int):
        return value
    return str(value)


def _verdict(verdict: Verdict) -> dict[str, Any]:
    return {"evaluator": verdict.evaluator, "success": verdict.success,
            "evidence": [{"summary": clip(e.summary, 4000), "step": e.screenshot_index,
                          "details": _plain(e.details)} for e in verdict.evidence],
            "usage": _usage(verdict.usage), "error": _error(verdict.error)}


def _image(observation: ObservationRef | None, images: ImageSource) -> list[Any] | None:
    if observation is None or not observation.screenshot:
        return None
    return [images(observation.screenshot), observation.width, observation.height]


def interruption_text(interruption: Interruption) -> str:
    """One line for the episode view, e.g. `incoming call from 5550123 (after step 2)`."""
    if isinstance(interruption, IncomingCall):
        what = f"incoming call from {interruption.number}"
    elif isinstance(interruption, LowBattery):
        what = f"low battery ({interruption.level}%)"
    elif isinstance(interruption, AppDialog):
        what = f"app dialog: {interruption.dialog}"
    else:
        what = f"notification {interruption.title!r}: {interruption.text!r}"
    note = f"; {interruption.description}" if interruption.description else ""
    return f"{what} (after step {interruption.after_step}{note})"


def episode_details(log: EpisodeLog, gestures: StepGestures, images: ImageSource) -> dict[str, Any]:
    """What the episode view shows, compact: steps are lists (see the `S_*` indices in report.js)."""
    steps = []
    for step in log.steps:
        action = step.action
        steps.append([
            step.index,
            _image(step.observation, images),
            describe(action) if action is not None else None,
            overlay(step, gestures),
            clip(step.agent_output),
            step.valid,
            step.invalid_reason,
            None if step.valid else clip(json.dumps(step.raw_action, ensure_ascii=False, default=str), 2000),
            _usage(step.usage),
            [round(step.timings.observe_s, 3), round(step.timings.agent_s, 3),
             round(step.timings.execute_s, 3),
             None if step.timings.model_s is None else round(step.timings.model_s, 3)],
            _error(step.error),
            step.observation.package,
            step.user_reply,
        ])
    return {
        "id": log.episode_id, "status": log.status, "attempt": log.attempt,
        "started": log.started_at.isoformat(timespec="seconds"),
        "device": log.device.model_dump(exclude_none=True),
        "package_map": dict(log.package_map),  # the task's apps this device has under other names
        "seed": str(log.instance.seed), "params": _plain(log.instance.parameters),
        "images": getattr(images, "base", ""),
        "task_file": log.task_file, "answer": clip(log.answer, 4000), "steps": steps,
        "final": _image(log.final_observation, images),
        "verdicts": [_verdict(v) for v in log.verdicts],
        "errors": [_error(e) for e in log.errors],
        "usage": _usage(log.usage),
        "timings": [round(log.timings.setup_s, 3), round(log.timings.total_s, 3),
                    round(log.timings.agent_s, 3), round(log.timings.device_s, 3)],
        "dialogue": [[x.step, clip(x.question, 2000), clip(x.reply, 2000), x.rule] for x in log.dialogue],
        "fired": [[i, interruption_text(log.full_task.interruptions[i])] for i in log.interruptions_fired
                  if 0 <= i < len(log.full_task.interruptions)],
        "variation": None if log.variation is None else log.variation.model_dump(mode="json",
                                                                                 exclude_none=True),
        "state": {readable_command(c.command): readable_output(clip(c.output, 2000) or "")
                  for check in log.captured_state for c in check.commands},
        "audit": None if log.shell_audit is None else {
            "source": log.shell_audit.source, "complete": log.shell_audit.complete,
            "tampered": log.shell_audit.tampered,
            "commands": [[c.channel, clip(c.command, 500), c.kind, c.changes_state, c.reason]
                         for c in log.shell_audit.commands[:200]]},
    }


def pack_chunk(details: Sequence[dict[str, Any]]) -> str:
    """gzip + base64 of the JSON of a chunk of episodes. Base64 text cannot close a <script> element.
    Level 1: a quarter of the time of level 6 for a fifth more bytes, and these bytes stay on disk."""
    text = json.dumps(list(details), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    raw = text.encode("utf-8")
    return base64.b64encode(gzip.compress(raw, compresslevel=1, mtime=0)).decode("ascii")
