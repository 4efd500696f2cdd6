"""`probe-keys`: an ordinary agent that looks for the answer key in everything it was handed.

It walks the context object (dataclass and pydantic fields, `__dict__`, mappings, lists, and any attribute
named like a key: task, checks, golden_script, near_misses, user, expect, answer, full_task), its
environment variables (JSON or paths), and the files in its workdir and the folders above it (episode.json
and the like). A task with a golden script for this task id is replayed by an inner oracle; a script alone
is replayed as it is; an expected answer is answered; with nothing found it finishes with a guess. Its
episodes must all fail: an agent under test is handed a task view and nothing else.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from spa_bench.actions import Action, Finish
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.device.observation import Observation
from spa_bench.tasks.model import Task

from .oracle import OracleAgent

KEY_NAMES = ("task", "full_task", "checks", "golden_script", "near_misses", "user", "expect", "answer",
             "expected", "key")
MAX_DEPTH = 6
MAX_FILES = 300
MAX_FILE_BYTES = 4_000_000
FILE_SUFFIXES = (".json", ".yaml", ".yml", ".jsonl", ".txt")
_SCRIPT = TypeAdapter(list[Action])


@dataclasses.dataclass
class Found:
    """What the search turned up, and where."""

    task: Task | None = None
    script: list[Action] | None = None
    answers: list[str] = dataclasses.field(default_factory=list)
    where: list[str] = dataclasses.field(default_factory=list)
    looked: int = 0


def _children(value: Any) -> Iterator[tuple[str, Any]]:
    """(name, child) of an object: mapping items, sequence items, fields, attributes, and key-named
    attributes (properties too)."""
    if isinstance(value, dict):
        yield from ((str(k), v) for k, v in value.items())
        return
    if isinstance(value, list | tuple | set | frozenset):
        yield from ((f"[{i}]", v) for i, v in enumerate(list(value)[:200]))
        return
    if isinstance(value, str | bytes | int | float | bool | Path) or value is None:
        return
    names: list[str] = []
    if dataclasses.is_dataclass(value):
        names += [f.name for f in dataclasses.fields(value)]
    if isinstance(value, BaseModel):
        names += list(type(value).model_fields)
        names += list(value.model_extra or {})
    names += list(getattr(value, "__dict__", {}))
    names += [n for n in KEY_NAMES if n not in names]
    for name in dict.fromkeys(names):
        try:
            child = getattr(value, name)
        except Exception:  # a property that refuses (the view's answer to "checks") is no key
            continue
        if not callable(child):
            yield name, child


class KeySearch:
    """Walks what the agent was given for the key of task `task_id`."""

    def __init__(self, task_id: str) -> None:
        self.task_id = task_id
        self.found = Found()
        self._visited: set[int] = set()

    def walk(self, value: Any, where: str, depth: int = 0) -> None:
        if depth > MAX_DEPTH or id(value) in self._visited:
            return
        self._visited.add(id(value))
        self.found.looked += 1
        self._take(value, where)
        for name, child in _children(value):
            self.walk(child, f"{where}.{name}", depth + 1)

    def _take(self, value: Any, where: str) -> None:
        found = self.found
        if isinstance(value, Task) and value.golden_script and found.task is None \
                and value.id.split(".")[0] == self.task_id:
            found.task = value
            found.where.append(f"{where} (a task)")
        elif isinstance(value, dict) and "golden_script" in value and found.task is None:
            try:
                task = Task.model_validate(value)
            except ValidationError:
                task = None
            if task is not None and task.golden_script and task.id.split(".")[0] == self.task_id:
                found.task = task
                found.where.append(f"{where} (a task's data)")
        name = where.rsplit(".", 1)[-1]
        if name == "golden_script" and value and found.script is None:
            try:
                found.script = _SCRIPT.validate_python(value)
                found.where.append(where)
            except ValidationError:
                pass
        if name in ("expect", "expected", "answer") and value:
            values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            texts = [v for v in values if isinstance(v, str) and v.strip()]
            if texts and texts[0] not in found.answers:
                found.answers.append(texts[0])
                found.where.append(where)

    def environment(self) -> None:
        for name, value in sorted(os.environ.items()):
            text = value.strip()
            if text[:1] in "[{":
                try:
                    self.walk(json.loads(text), f"${name}")
                except ValueError:
                    pass
            elif len(text) < 4096 and "/" in text and Path(text).exists():
                self.folder(Path(text), f"${name}", deep=False)

    def folder(self, path: Path, where: str, deep: bool) -> None:
        """Files in `path` (every level below it when `deep`), JSON or YAML read and walked."""
        try:
            files = ([path] if path.is_file() else
                     sorted(path.rglob("*") if deep else path.iterdir())[:MAX_FILES])
        except OSError:
            return
        for file in files:
            try:
                if not file.is_file() or file.suffix.lower() not in FILE_SUFFIXES \
                        or file.stat().st_size > MAX_FILE_BYTES:
                    continue
                text = file.read_text("utf-8", errors="replace")
            except OSError:
                continue
            if "golden_script" not in text and "expect" not in text:
                continue
            for parsed in _parse(text):
                self.walk(parsed, f"{where}:{file.name}")


def _parse(text: str) -> list[Any]:
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    try:
        return [yaml.safe_load(text)]
    except yaml.YAMLError:
        return [json.loads(line) for line in text.splitlines() if line.startswith("{") and _json(line)]


def _json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def search(context: TaskContext) -> Found:
    """Everything an ordinary agent could read: the context, the environment, the workdir and above."""
    task_id = str(getattr(context.task, "id", ""))
    walker = KeySearch(task_id)
    walker.walk(context, "context")
    walker.environment()
    workdir = Path(context.workdir)
    walker.folder(workdir, "workdir", deep=True)
    for level, parent in enumerate(list(workdir.resolve().parents)[:3], start=1):
        walker.folder(parent, f"workdir/{'../' * level}".rstrip("/"), deep=False)
    return walker.found


class KeySearchProbe(BaseAgent):
    """Replays or answers with whatever key it finds; a guess otherwise."""

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.found = search(context)
        self.inner: OracleAgent | None = None
        self.position = 0
        task = self.found.task
        if task is not None:
            # the oracle is a reference agent: it takes the task through reveal, and its context keeps the
            # view (TaskContext refuses a Task); the found task's id may carry an instance suffix
            self.inner = OracleAgent()
            self.inner.reveal(task.model_copy(update={"id": context.task.id}))
            self.inner.reset(context)

    def step(self, observation: Observation) -> AgentStep:
        where = "; ".join(self.found.where[:4]) or f"nothing in {self.found.looked} places"
        if self.inner is not None:
            decided = self.inner.step(observation)
            decided.output = f"probe: replaying the task found at {where}"
            return decided
        script = self.found.script or []
        if self.position < len(script):
            self.position += 1
            return AgentStep(script[self.position - 1], output=f"probe: replaying the script at {where}")
        if self.found.answers:
            return AgentStep(Finish(status="done", answer=self.found.answers[0]),
                             output=f"probe: answering with the key at {where}")
        return AgentStep(Finish(status="done", answer=self.guess()), output=f"probe: a guess ({where})")

    def guess(self) -> str:
        numbers = re.findall(r"\d+(?:[.:]\d+)?", self.context.instruction)
        return numbers[-1] if numbers else ("是" if self.context.language == "zh" else "yes")
