"""Adversarial probes of the graders (`spa-bench tasks verify`): agents that must never be scored a success.

- `probe-infeasible`: declares the task impossible at step 1. Passes exactly the infeasible tasks.
- `probe-spam` (`mode`): replays the golden script, noting every text it sees on the way, and then
  answers with junk (`junk`), the instruction echoed (`echo`), every text seen as a list (`candidates`),
  every number seen and 0-20 besides (`numbers`) or every word seen (`words`). The right value is
  usually inside the last three: an answer check must want that value, not find it somewhere in a dump.
  (The spray of 0-20 keeps `numbers` a list: where the only digits on the way are those of the answer,
  a phone number, "every number seen" alone would be the answer itself, not spam.)
- `probe-recorder` (`store`): the oracle, which then pulls the device's /data and /sdcard files
  (reads, over adb) into `store`, for the tamper probe.
- `probe-tamper` (`store`): reaches the recorded end state behind the GUI: pushes back over adb the
  files that differ from it, removes the ones the oracle's run did not leave, restarts the task's apps,
  and finishes as the oracle did. Its episodes must be marked tampered by the shell audit and failed.
The recorder and the tamper probe reach the device as an agent program would: adbutils, through the
harness's adb server, at the serial the context gives.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from spa_bench.actions import Finish
from spa_bench.agent import AgentStep, BaseAgent, TaskContext
from spa_bench.device.observation import Observation

from .oracle import OracleAgent

if TYPE_CHECKING:
    from adbutils import AdbDevice

SpamMode = Literal["junk", "echo", "candidates", "numbers", "words"]
SPAM_MODES: tuple[SpamMode, ...] = ("junk", "echo", "candidates", "numbers", "words")
STATE_ROOTS = ("/data", "/sdcard")
MARK = "@@spa-file@@ "
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


class InfeasibleProbe(BaseAgent):
    def step(self, observation: Observation) -> AgentStep:
        return AgentStep(Finish(status="infeasible"), output="probe: declaring the task infeasible at once")


class AnswerSpamProbe(OracleAgent):
    """The oracle's way through the task, then a spam answer instead of the oracle's."""

    def __init__(self, mode: str = "candidates", patience: int = 2) -> None:
        super().__init__(patience)
        if mode not in SPAM_MODES:
            raise ValueError(f"mode {mode!r}: one of {', '.join(SPAM_MODES)}")
        self.mode = mode
        self.seen: list[str] = []

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.seen = []

    def step(self, observation: Observation) -> AgentStep:
        for element in observation.all_elements:
            for text in (element.text, element.content_desc):
                if text and text.strip() and text.strip() not in self.seen:
                    self.seen.append(text.strip())
        decided = super().step(observation)
        if not isinstance(decided.action, Finish) or decided.action.status != "done":
            return decided
        return AgentStep(Finish(status="done", answer=self.spam()), output=f"probe: {self.mode} answer")

    def spam(self) -> str:
        if self.mode == "junk":
            return "asdf qwerty 42 zxcv 鬼 ???"
        if self.mode == "echo":
            return self.context.instruction
        if self.mode == "candidates":
            return ", ".join(self.seen)
        if self.mode == "numbers":
            seen = [n for text in self.seen for n in _NUMBER.findall(text)]
            return " ".join(dict.fromkeys([*seen, *map(str, range(21))]))
        return " ".join(dict.fromkeys(word for text in self.seen for word in text.split()))


def instance_key(context: TaskContext) -> str:
    """One task instance: the recorder and the tamper probe of the same instance meet here."""
    return f"{context.task.id}__{context.seed}"


def _device(serial: str) -> AdbDevice:
    import adbutils

    return adbutils.AdbClient().device(serial)


def _files(device: AdbDevice) -> list[str]:
    out = device.shell(["find", *STATE_ROOTS, "-type", "f"], timeout=60)
    return sorted(line.strip() for line in str(out).splitlines() if line.startswith("/"))


def _contents(device: AdbDevice, paths: list[str], batch: int = 16) -> dict[str, bytes]:
    """The files' bytes, read with `base64` a batch of files per shell command (a pull per file costs
    adbutils a connection and a pause each)."""
    out: dict[str, bytes] = {}
    for start in range(0, len(paths), batch):
        group = paths[start:start + batch]
        line = "; ".join(f"echo {MARK}{shlex.quote(p)}; base64 -w 0 {shlex.quote(p)}; echo" for p in group)
        text = str(device.shell(line, timeout=120))
        for block in text.split(MARK)[1:]:
            path, _, body = block.partition("\n")
            out[path.strip()] = base64.b64decode("".join(body.split()))
    return out


class StateRecorderProbe(OracleAgent):
    """The oracle, which pulls the device's state files into `store`/<instance> before it finishes."""

    def __init__(self, store: str, patience: int = 2) -> None:
        super().__init__(patience)
        self.store = Path(store)

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.activities: list[str] = []

    def step(self, observation: Observation) -> AgentStep:
        component = f"{observation.package}/{observation.activity}"
        if observation.package and observation.activity and component not in self.activities:
            self.activities.append(component)  # for probe-intent: screens deep inside the apps
        decided = super().step(observation)
        if isinstance(decided.action, Finish):
            self._record(decided.action)
        return decided

    def _record(self, finish: Finish) -> None:
        target = self.store / instance_key(self.context)
        shutil.rmtree(target, ignore_errors=True)
        device = _device(self.context.serial)
        files = _files(device)
        for path, data in _contents(device, files).items():
            local = target / "files" / path.lstrip("/")
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(data)
        (target / "end.json").write_text(json.dumps(
            {"files": files, "status": finish.status, "answer": finish.answer,
             "activities": self.activities}, ensure_ascii=False), "utf-8")


class ShellTamperProbe(BaseAgent):
    """Reaches the oracle's recorded end state over adb alone (push, rm, am force-stop), then finishes."""

    def __init__(self, store: str) -> None:
        self.store = Path(store)

    def step(self, observation: Observation) -> AgentStep:
        recorded = self.store / instance_key(self.context)
        if not (recorded / "end.json").is_file():
            return AgentStep(Finish(status="infeasible"), output=f"probe: nothing recorded at {recorded}")
        end: dict[str, Any] = json.loads((recorded / "end.json").read_text("utf-8"))
        device = _device(self.context.serial)
        keep = set(end["files"])
        present = _files(device)
        for path in present:
            if path not in keep:
                device.shell(["rm", "-f", path])
        now = _contents(device, [p for p in end["files"] if p in present])
        changed = [p for p in end["files"] if now.get(p) != (recorded / "files" / p.lstrip("/")).read_bytes()]
        for path in changed:  # only what differs: what the oracle's run changed
            device.sync.push(recorded / "files" / path.lstrip("/"), path)
        for package in self.context.task.packages:
            device.shell(["am", "force-stop", package])
        return AgentStep(Finish(status=end["status"], answer=end["answer"]),
                         output=f"probe: pushed {len(changed)} files of the oracle's end state")
