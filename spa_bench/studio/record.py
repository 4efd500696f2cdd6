"""Record a task by demonstration: the author acts on the studio page; each action becomes a golden step,
and the state change from start to end becomes proposed checks (spa_bench.studio.proposals).

A tap becomes a selector step wherever one finds the element (`elements.find`, as the oracle resolves
it): the top-most node under the finger, or the clickable node that holds it when the node's own centre
would land outside it; coordinates only for what nothing names. Text typed into a field names the field.
`ask_user` keeps the question and the reply the author gives as the simulated user's rule; `finish` ends
the recording with its status and answer. The task written is checked by the task model (the same
validation as `spa-bench tasks validate`) before it is saved.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from spa_bench.actions import Action, AskUser, Finish, Key, LongPress, OpenApp, Swipe, Tap, TypeText
from spa_bench.device.device import Device
from spa_bench.device.elements import UIElement
from spa_bench.device.observation import Observation
from spa_bench.device.selectors import OtherLanguage, propose
from spa_bench.device.state_digest import RawState, read_state
from spa_bench.errors import ConfigError
from spa_bench.studio.proposals import propose_checks

_ID = re.compile(r"^[A-Za-z0-9_.-]+$")
_STOP_WORDS = {"the", "a", "an", "is", "are", "what", "which", "do", "does", "you", "i", "to", "of", "for",
               "my", "me", "should", "want", "would", "it", "in", "on", "at", "and", "or"}


def _inside(point: tuple[int, int], element: UIElement) -> bool:
    left, top, right, bottom = element.bounds
    return left <= point[0] < right and top <= point[1] < bottom


def element_at(elements: list[UIElement], x: int, y: int) -> UIElement | None:
    """The node a tap at (x, y) is recorded on: the top-most (last in document order) node under it with
    something to name it by; if its centre falls outside the clickable node the finger was in, that one."""
    under = [e for e in elements if e.area > 0 and _inside((x, y), e)]
    if not under:
        return None
    named = [e for e in under if e.resource_id or e.text or e.content_desc]
    top = named[-1] if named else under[-1]
    clickable = [e for e in under if e.clickable or e.long_clickable or e.checkable]
    holder = clickable[-1] if clickable else None
    if holder is not None and not _inside(top.center, holder):
        return holder
    return top


def _keywords(question: str) -> list[str]:
    """Words of the author's question for the simulated user's rule (the author edits them)."""
    words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]{2,}", question)
    kept = [w.lower() for w in words
            if (w.lower() not in _STOP_WORDS and len(w) > 2) or re.match(r"[\u4e00-\u9fff]", w)]
    return list(dict.fromkeys(kept))[:4] or [question.strip()[:20]]


@dataclass
class Recording:
    """One demonstration on `device`, from the base snapshot of `language` (or a task's reset state)."""

    device: Device
    language: str
    translate_for: Any = None  # package -> OtherLanguage lookup (the virtual phone's label tables)
    start_task: str | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    replies: list[dict[str, Any]] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)
    before: RawState = field(default_factory=dict)
    after: RawState | None = None
    setup_shell: list[str] = field(default_factory=list)

    def begin(self, tasks_dir: Path | None = None) -> None:
        from spa_bench.runner.episode import set_up_task
        from spa_bench.runner.pool import BASE_SNAPSHOT
        from spa_bench.tasks.repository import TaskRepository, default_tasks_root

        if self.start_task:
            template = TaskRepository(tasks_dir or default_tasks_root()).get(self.start_task)
            task, _, _ = template.instantiate(0)
            self.language = task.language
            self.setup_shell = list(task.setup.shell)
            set_up_task(self.device, task)
        else:
            name = BASE_SNAPSHOT.format(language=self.language)
            if name not in self.device.snapshots():
                raise ConfigError(f"{self.device.serial} has no snapshot {name!r} to start from: run the "
                                  f"studio without --device (its virtual phone has one per language), or "
                                  f"start from a task whose reset needs none")
            self.device.load_snapshot(name)
            self.device.press_key("home")
        self.before = read_state(self.device)

    def _translate(self, obs: Observation) -> OtherLanguage | None:
        return self.translate_for(obs.package) if self.translate_for else None

    def _target(self, obs: Observation, x: int, y: int) -> dict[str, Any]:
        element = element_at(obs.all_elements, x, y)
        proposal = propose(element, obs.all_elements, self._translate(obs)) if element is not None else None
        if proposal is None:
            return {"x": x, "y": y}
        return {"selector": proposal.selector.model_dump(exclude_defaults=True, exclude_none=True)}

    def add(self, action: Action, obs: Observation, reply: str | None = None) -> dict[str, Any]:
        """Record `action`, taken on the screen `obs`, as a golden step; the step written."""
        if obs.package and obs.package not in self.packages and not obs.package.startswith(
                ("com.android.systemui", "com.google.android.apps.nexuslauncher")):
            self.packages.append(obs.package)
        step: dict[str, Any]
        if isinstance(action, Tap | LongPress) and action.x is not None and action.y is not None:
            step = {"type": action.type, **self._target(obs, action.x, action.y)}
            if isinstance(action, LongPress):
                step["duration_ms"] = action.duration_ms
        elif isinstance(action, TypeText):
            focused = next((e for e in obs.all_elements if e.focused and e.editable), None)
            step = {"type": "type", "text": action.text}
            if focused is not None:
                proposal = propose(focused, obs.all_elements, self._translate(obs))
                if proposal is not None:
                    step["selector"] = proposal.selector.model_dump(exclude_defaults=True, exclude_none=True)
            if action.enter:
                step["enter"] = True
        elif isinstance(action, AskUser):
            step = {"type": "ask_user", "question": action.question}
            if reply:
                self.replies.append({"when": _keywords(action.question), "reply": reply})
        elif isinstance(action, Finish):
            step = action.model_dump(exclude_none=True)
            if step.get("status") == "done":
                del step["status"]
        elif isinstance(action, Swipe | Key | OpenApp):
            step = action.model_dump(exclude_none=True)
            if isinstance(action, OpenApp) and action.app not in self.packages:
                self.packages.append(action.app)
        else:
            step = action.model_dump(exclude_none=True)
        self.steps.append(step)
        return step

    def end(self) -> list[dict[str, Any]]:
        """Read the state after the demonstration; the checks proposed from what changed."""
        self.after = read_state(self.device)
        return propose_checks(self.before, self.after)

    def task(self, task_id: str, instruction: str, checks: list[dict[str, Any]],
             app_names: dict[str, dict[str, str]] | None = None) -> dict[str, Any]:
        """The recorded task as a task file holds it (one entry of the YAML list)."""
        if not _ID.match(task_id):
            raise ValueError(f"task id {task_id!r}: use letters, digits, '_', '.' and '-'")
        script = list(self.steps)
        if not script or script[-1]["type"] != "finish":
            script.append({"type": "finish"})
        acted = [s for s in script if s["type"] not in ("finish", "ask_user")]
        apps = [{"package": p, "name": (app_names or {}).get(p, {"en": p.rsplit(".", 1)[-1]})}
                for p in self.packages] or [{"package": "com.google.android.apps.nexuslauncher",
                                             "name": {"en": "Home", "zh": "桌面"}}]
        out: dict[str, Any] = {
            "id": task_id, "apps": apps, "language": self.language,
            "difficulty": 1 if len(acted) <= 4 else 2 if len(acted) <= 9 else 3,
            "category": "single_app" if len(apps) == 1 else "cross_app",
            "instruction": instruction, "golden_steps": max(1, len(acted)),
        }
        if self.setup_shell:
            out["setup"] = {"shell": self.setup_shell}
        if self.replies:
            out["user"] = {"replies": self.replies}
            checks = [*checks, {"type": "ask_user", "reply": 0}]
        finish = script[-1]
        if finish.get("answer"):
            # the author sets the kind (number, time, person, ...): text is the loosest reading
            checks = [*checks, {"type": "answer", "kind": "text", "expect": [finish["answer"]]}]
        if finish.get("status") == "infeasible":
            checks = [*checks, {"type": "finish", "status": "infeasible"}]
        out["checks"] = checks
        out["golden_script"] = script
        return out


def validate_task(task: dict[str, Any]) -> list[str]:
    """The task model's objections to a recorded task (empty when `tasks validate` would accept it)."""
    from pydantic import ValidationError

    from spa_bench.tasks.model import Task

    try:
        Task.model_validate(task)
    except ValidationError as exc:
        return [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
    return []


class _FlowStep(dict[str, Any]):
    """A golden step, written on one line as the shipped tasks write them."""


class _TaskDumper(yaml.SafeDumper):
    pass


_TaskDumper.add_representer(
    _FlowStep, lambda dumper, data: dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def task_yaml(task: dict[str, Any]) -> str:
    """The task as a task file: block style, each golden step one flow line
    (`- {type: tap, selector: {resource_id: fab}}`)."""
    shown = {**task, "golden_script": [_FlowStep(step) for step in task.get("golden_script", [])]}
    return yaml.dump([shown], Dumper=_TaskDumper, allow_unicode=True, sort_keys=False, width=110)


def save_task(task: dict[str, Any], tasks_dir: Path) -> Path:
    """Write the task to TASKS_DIR/<id>/<language>.yaml (a suite of its own), replacing an earlier take."""
    suite = tasks_dir / re.sub(r"[^A-Za-z0-9_]", "_", str(task["id"]))
    suite.mkdir(parents=True, exist_ok=True)
    path = suite / f"{task['language']}.yaml"
    path.write_text(task_yaml(task), "utf-8")
    return path
