"""The MLLM judge (`judge:<model>@<host>`): SPA-Bench's fine evaluation step.

Single-app tasks: one call with the guidelines, the task and every screenshot (annotated with the
actions by default, see spa_bench.evaluation.annotate). Cross-app tasks with subtasks: the trajectory is
split by app (recorded packages, else a judge call; see spa_bench.evaluation.cross_app), each subtask is
judged on its slice in order, a subtask that produces a memory has it summarised by another call, and
later subtasks that use history get those summaries. The first failed subtask fails the task.

A reply without a parsable `Result: 1|0` (or an invalid split) is re-asked `parse_retries` times, with
a reminder of the format; then the verdict is an evaluator error (success None), never a success. Model
errors after the client's own retries end the same way. Every call's tokens and cost go into the
verdict's usage, apart from the agent's.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import ValidationError

from spa_bench.errors import ConfigError, ModelError, ResultsError
from spa_bench.evaluation.annotate import ActionMode, Frame, action_list, render, trajectory
from spa_bench.evaluation.base import RunContext, now
from spa_bench.evaluation.cross_app import (
    Split,
    split_by_packages,
    subtask_app_names,
    subtask_packages,
    validate_split,
)
from spa_bench.evaluation.judge_config import (
    DEFAULT_JUDGE_MODEL,
    default_judge_config,
    judge_identity,
    model_spec,
    prompt_sha256,
)
from spa_bench.evaluation.judge_prompt import (
    MEMORY_SYSTEM,
    SPLIT_SYSTEM,
    Judgement,
    UnparsableReply,
    app_labels,
    judgement_prompt,
    memory_prompt,
    parse_judgement,
    parse_split,
    split_prompt,
    system_prompt,
)
from spa_bench.models import ModelClient, ModelConfig, PriceTable
from spa_bench.models.messages import Message, assistant_message, image_part, system_message, text_part
from spa_bench.results.schema import EpisodeLog, ErrorInfo, Evidence, Role, TokenUsage, Verdict
from spa_bench.tasks.model import Task

T = TypeVar("T")
log = logging.getLogger("spa_bench.evaluators.judge")
SplitMode = Literal["auto", "packages", "judge"]
FORMAT_REMINDER = ("Your answer did not follow the required format. Answer again, ending with the line "
                   "'Result: 1' or 'Result: 0'.")
SPLIT_REMINDER = "Your split cannot be used: {problem}. Answer again with one JSON object as described."


class JudgeFailed(Exception):
    """Raised inside an evaluation to end it as an evaluator error; carries the error's kind."""

    def __init__(self, type_name: str, message: str) -> None:
        super().__init__(message)
        self.type_name = type_name


@dataclass
class _Tally:
    """Usage and evidence gathered over the calls of one evaluation."""

    usage: TokenUsage = field(default_factory=TokenUsage)
    evidence: list[Evidence] = field(default_factory=list)


class JudgeEvaluator:
    """The MLLM judge. `model` is a ModelConfig or a model name (then OpenAI's endpoint)."""

    role: Role = "judge"

    def __init__(self, model: ModelConfig | str | None = None, *, action_mode: ActionMode = "annotated",
                 with_reason: bool = True, parse_retries: int = 2, split: SplitMode = "auto",
                 split_detail: Literal["low", "high", "auto"] = "low", prices: PriceTable | None = None,
                 client: ModelClient | None = None) -> None:
        if model is None or isinstance(model, str):
            model = default_judge_config(model or DEFAULT_JUDGE_MODEL)
        if parse_retries < 0:
            raise ValueError("parse_retries must be >= 0")
        self.config = model
        self.action_mode: ActionMode = action_mode
        self.with_reason = with_reason
        self.parse_retries = parse_retries
        self.split_mode: SplitMode = split
        self.split_detail: Literal["low", "high", "auto"] = split_detail
        self.client = client or ModelClient(model, prices=prices)
        self.name = judge_identity(model)

    # -- its spec (recorded with every verdict; `spa-bench evaluate RUN` rebuilds the judge from it) -----
    def spec_args(self) -> dict[str, Any]:
        """Every argument that changes the verdicts, as JSON data, without secrets."""
        return {"model": model_spec(self.config), "action_mode": self.action_mode,
                "with_reason": self.with_reason, "parse_retries": self.parse_retries,
                "split": self.split_mode,
                "split_detail": self.split_detail, "prompt": self.prompt_version()}

    @classmethod
    def from_spec(cls, args: dict[str, Any]) -> JudgeEvaluator:
        """The judge a logged spec describes. A spec recorded with other prompts still builds (the
        verdicts may then differ: a warning says so)."""
        args = dict(args)
        recorded = args.pop("prompt", None)
        try:
            model = ModelConfig.model_validate(args.pop("model"))
        except (KeyError, ValidationError) as exc:
            raise ConfigError(f"judge spec: no usable model settings: {exc}") from None
        judge = cls(model, **args)
        if recorded is not None and recorded != judge.prompt_version():
            log.warning("the judge's prompts changed since its verdicts were logged (prompt %s, now %s): "
                        "its new verdicts may differ", recorded, judge.prompt_version())
        return judge

    def prompt_version(self) -> str:
        """A fingerprint of the prompts this judge sends (its mode and answer format included)."""
        return prompt_sha256(system_prompt(self.action_mode),
                             judgement_prompt("{instruction}", self.action_mode, actions="{actions}",
                                              history=[("{memory}", "{summary}")],
                                              with_reason=self.with_reason, screenshots=1),
                             FORMAT_REMINDER, SPLIT_SYSTEM, split_prompt(["{app}"], 1), SPLIT_REMINDER,
                             MEMORY_SYSTEM, memory_prompt("{description}"))

    def applies(self, log: EpisodeLog) -> bool:
        return True

    def open(self, context: RunContext) -> None:
        return None  # the client connects on the first call

    def close(self) -> None:
        self.client.close()

    # -- the Evaluator protocol ------------------------------------------------------------------
    def evaluate(self, log: EpisodeLog, episode_dir: Path) -> Verdict:
        frames = trajectory(log, episode_dir)
        if not frames:
            raise ResultsError(f"episode {log.episode_id}: no screenshots to judge")
        tally = _Tally()
        images: dict[tuple[int, str, str], dict[str, Any]] = {}
        try:
            if log.full_task.category == "cross_app" and log.full_task.subtasks:
                success = self._cross_app(log.full_task, frames, tally, images)
            else:
                judgement = self._judge(log.full_task.instruction, frames, tally, images, None)
                success = judgement.success
        except JudgeFailed as exc:
            return Verdict(evaluator=self.name, role=self.role, success=None, evidence=tally.evidence,
                           usage=tally.usage,
                           created_at=now(), error=ErrorInfo(kind="evaluator", type=exc.type_name,
                                                             message=str(exc)))
        return Verdict(evaluator=self.name, role=self.role, success=success, evidence=tally.evidence,
                       usage=tally.usage, created_at=now())

    # -- calls ------------------------------------------------------------------------------------
    def _ask(self, messages: list[Message], parse: Callable[[str], T], tally: _Tally, what: str,
             reminder: Callable[[UnparsableReply], str]) -> tuple[T, str, int]:
        """Call the model; re-ask with a reminder while the reply does not parse. Returns the parsed
        value, the reply text and the number of calls."""
        conversation = list(messages)
        problems: list[str] = []
        for attempt in range(1, self.parse_retries + 2):
            try:
                reply = self.client.chat(conversation)
            except ModelError as exc:
                raise JudgeFailed(type(exc).__name__, f"{what}: {exc}") from None
            tally.usage = tally.usage + reply.usage
            try:
                return parse(reply.text), reply.text, attempt
            except UnparsableReply as exc:
                problems.append(str(exc))
                conversation = [*messages, assistant_message(reply.text), _user_text(reminder(exc))]
        tally.evidence.append(Evidence(summary=f"{what}: no usable answer after {len(problems)} replies",
                                       details={"problems": problems}))
        raise JudgeFailed("UnparsableReply", f"{what}: no usable answer after {len(problems)} replies; "
                                             f"last: {problems[-1]}")

    def _image(self, frame: Frame, mode: ActionMode, detail: str,
               images: dict[tuple[int, str, str], dict[str, Any]]) -> dict[str, Any]:
        """One frame as an image part, encoded once per evaluation and reused across calls."""
        key = (frame.position, mode, detail)
        if key not in images:
            settings = self.config.image.model_copy(update={"detail": detail})
            if mode == "plain" or frame.mark is None:  # the PNG as recorded: no decode, no re-encode
                images[key] = image_part(frame.path.read_bytes(), settings)
            else:
                images[key] = image_part(render(frame, mode), settings)
        return images[key]

    def _judge(self, instruction: str, frames: Sequence[Frame], tally: _Tally,
               images: dict[tuple[int, str, str], dict[str, Any]],
               history: list[tuple[str, str]] | None, label: str | None = None) -> Judgement:
        numbered = [dataclasses.replace(f, position=i) for i, f in enumerate(frames)]
        prompt = judgement_prompt(instruction, self.action_mode, actions=action_list(numbered),
                                  history=history, with_reason=self.with_reason, screenshots=len(frames))
        content: list[dict[str, Any]] = [text_part(prompt)]
        detail = self.config.image.detail
        for i, frame in enumerate(frames):
            content.append(text_part(f"Screenshot {i + 1}:"))
            content.append(self._image(frame, self.action_mode, detail, images))
        messages = [system_message(system_prompt(self.action_mode)), {"role": "user", "content": content}]
        what = f"subtask {label!r}" if label else "judgement"
        judgement, text, calls = self._ask(messages, parse_judgement, tally, what, lambda _: FORMAT_REMINDER)
        verdict = "success" if judgement.success else "failure"
        steps = [f.step for f in frames]
        tally.evidence.append(Evidence(
            summary=f"{label + ': ' if label else ''}{verdict}: {judgement.reason or '(no reason given)'}",
            details={"stage": "subtask" if label else "judgement", "subtask": label,
                     "instruction": instruction, "success": judgement.success, "reason": judgement.reason,
                     "reply": text, "calls": calls, "action_mode": self.action_mode,
                     "screenshots": len(frames), "steps": steps, "history": history or []}))
        return judgement

    # -- cross-app --------------------------------------------------------------------------------
    def _cross_app(self, task: Task, frames: list[Frame], tally: _Tally,
                   images: dict[tuple[int, str, str], dict[str, Any]]) -> bool:
        names = subtask_app_names(task)
        labels = app_labels(names)
        split = self._split(task, frames, labels, tally, images)
        details: dict[str, Any] = {"stage": "split", "method": split.method,
                                   "segments": [{"subtask": s.label, "start": s.start, "end": s.end}
                                                for s in split.segments],
                                   "missing": list(split.missing)}
        if split.missing:
            tally.evidence.append(Evidence(summary=f"split by {split.method}: app(s) never used: "
                                                   f"{', '.join(split.missing)}; the task failed",
                                           details=details))
            return False
        tally.evidence.append(Evidence(summary=f"split by {split.method} into {len(split.segments)} segments",
                                       details=details))
        memories: list[tuple[str, str]] = []
        for subtask, segment in zip(task.subtasks, split.segments, strict=True):
            part = segment.frames(frames)
            history = list(memories) if subtask.uses_history else None
            judgement = self._judge(subtask.instruction, part, tally, images, history, segment.label)
            if not judgement.success:
                return False
            if subtask.memory and subtask.memory.strip().casefold() != "none":
                memories.append((subtask.memory, self._memory(subtask.memory, part, tally, images)))
        return True

    def _split(self, task: Task, frames: list[Frame], labels: list[str], tally: _Tally,
               images: dict[tuple[int, str, str], dict[str, Any]]) -> Split:
        if self.split_mode != "judge":
            split = split_by_packages(frames, subtask_packages(task), labels)
            if split is not None:
                return split
            if self.split_mode == "packages":
                raise JudgeFailed("SplitUnavailable", "the recorded packages cannot split this trajectory")
        content: list[dict[str, Any]] = [text_part(split_prompt(labels, len(frames)))]
        for i, frame in enumerate(frames):
            content.append(text_part(f"Screenshot {i + 1}:"))
            content.append(self._image(frame, "plain", self.split_detail, images))
        messages = [system_message(SPLIT_SYSTEM), {"role": "user", "content": content}]

        def parse(text: str) -> Split:
            return validate_split(parse_split(text, labels), labels, len(frames))

        judged, _, _ = self._ask(messages, parse, tally, "split",
                                 lambda exc: SPLIT_REMINDER.format(problem=exc))
        return judged

    def _memory(self, description: str, frames: Sequence[Frame], tally: _Tally,
                images: dict[tuple[int, str, str], dict[str, Any]]) -> str:
        content: list[dict[str, Any]] = [text_part(memory_prompt(description))]
        content += [self._image(f, self.action_mode, self.config.image.detail, images) for f in frames]
        messages = [system_message(MEMORY_SYSTEM), {"role": "user", "content": content}]

        def parse(text: str) -> str:
            if not text.strip():
                raise UnparsableReply("empty summary")
            return " ".join(text.split())

        summary, _, _ = self._ask(messages, parse, tally, f"memory {description!r}",
                                  lambda _: "Answer with the summary paragraph.")
        details = {"stage": "memory", "memory": description, "summary": summary}
        tally.evidence.append(Evidence(summary=f"memory '{description}': {summary}", details=details))
        return summary


def _user_text(text: str) -> Message:
    return {"role": "user", "content": [text_part(text)]}
