"""Probes that work on the device beside (or instead of) the GUI, for `spa-bench tasks verify`.

- `probe-act-infeasible`: the oracle replaying a copy of an infeasible task whose script first does what a
  feasible sibling does in each app and then declares the task infeasible (spa_bench.verify.act_infeasible
  writes the copies). It digests the files of the task's apps and of the system settings (md5sum, a read)
  at its first step and before it finishes, and says in its last output how many changed: only a pass
  after a change is a false pass.
- `probe-intent` (`store`): starts every activity of the task's apps it can name (from `dumpsys package`,
  `cmd package query-activities`, and the screens the oracle's run passed through, which the recorder
  kept in `store`) explicitly with extras built from the task's values (numbers in the instruction, the
  texts the golden script types, its answer), sends broadcasts with the same extras to each app, then
  finishes as the oracle does. The audit must mark it tampered and the episode must fail.
Both reach the device as an agent program would: adbutils, at the serial the context gives.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from spa_bench.actions import Finish, TypeText
from spa_bench.agent import AgentStep, TaskContext
from spa_bench.device.observation import Observation
from spa_bench.verify.act_infeasible import CHANGED_MARK

from .oracle import OracleAgent
from .probes import instance_key

if TYPE_CHECKING:
    from adbutils import AdbDevice

SYSTEM_STATE = ("/data/data/com.android.providers.settings",)
EXTRA_KEYS = ("number", "phone", "android.intent.extra.PHONE_NUMBER", "query", "text",
              "android.intent.extra.TEXT", "title", "body", "message", "sms_body", "address",
              "android.intent.extra.SUBJECT", "name", "value")
BROADCAST_ACTIONS = ("android.intent.action.VIEW", "android.intent.action.SEND",
                     "android.intent.action.SENDTO")
_COMPONENT = re.compile(r"\b([a-zA-Z][\w]*(?:\.[\w]+)+)/(\.?[\w$.]+)")
_NUMBER = re.compile(r"\+?\d[\d\s\-:.,]*\d|\d")


def _device(serial: str) -> AdbDevice:
    import adbutils

    return adbutils.AdbClient().device(serial)


def digest(device: AdbDevice, roots: list[str]) -> dict[str, str]:
    """md5 of every file under `roots` (missing roots are skipped)."""
    found = str(device.shell(["find", *roots, "-type", "f"], timeout=60))
    files = sorted(line.strip() for line in found.splitlines() if line.startswith("/"))
    sums: dict[str, str] = {}
    for start in range(0, len(files), 64):
        out = str(device.shell(["md5sum", *files[start:start + 64]], timeout=60))
        for line in out.splitlines():
            value, _, path = line.strip().partition(" ")
            if path.strip():
                sums[path.strip()] = value
    return sums


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


class ActThenInfeasibleProbe(OracleAgent):
    """The oracle, which digests the apps' files first and last and says how many changed."""

    def reset(self, context: TaskContext) -> None:
        super().reset(context)
        self.before: dict[str, str] | None = None

    def _roots(self) -> list[str]:
        return [*(f"/data/data/{p}" for p in self.context.task.packages), *SYSTEM_STATE]

    def step(self, observation: Observation) -> AgentStep:
        if self.before is None:  # after the task's setup and the app's launch: the state to leave alone
            self.before = digest(_device(self.context.serial), self._roots())
        decided = super().step(observation)
        if not isinstance(decided.action, Finish):
            return decided
        diff = changed(self.before, digest(_device(self.context.serial), self._roots()))
        shown = ", ".join(diff[:8]) + (" ..." if len(diff) > 8 else "")
        return AgentStep(decided.action, output=f"probe: {CHANGED_MARK}{len(diff)} ({shown})")


class IntentTamperProbe(OracleAgent):
    """Explicit intents with extras to every activity of the task's apps, broadcasts, then the oracle's
    finish: a 0-tap way to a screen (the in-call screen with a number) or a state."""

    def __init__(self, store: str = "", patience: int = 2) -> None:
        super().__init__(patience)
        self.store = Path(store) if store else None

    def step(self, observation: Observation) -> AgentStep:
        device = _device(self.context.serial)
        components = self.components(device)
        extras = self.extras()
        sent = refused = 0
        for component in components:
            for key_values in extras:
                out = str(device.shell(f"am start -n {shlex.quote(component)} {key_values}", timeout=30))
                sent += 1
                refused += "Permission Denial" in out or "Error" in out
        for package in self.context.task.packages:
            for action in BROADCAST_ACTIONS:
                device.shell(f"am broadcast -a {action} -p {shlex.quote(package)} {extras[0]}", timeout=30)
                sent += 1
        final = next((a for a in reversed(self.script) if isinstance(a, Finish)), Finish(status="done"))
        return AgentStep(final, output=f"probe: sent {sent} intents with extras to {len(components)} "
                                       f"activities ({refused} refused), then the oracle's finish")

    def components(self, device: AdbDevice) -> list[str]:
        """Every `package/activity` of the task's apps that the device or the oracle's run names."""
        packages = set(self.context.task.packages)
        text = "\n".join(str(device.shell(["dumpsys", "package", p], timeout=30)) for p in sorted(packages))
        text += "\n" + str(device.shell(["cmd", "package", "query-activities", "--components", "-a",
                                         "android.intent.action.MAIN"], timeout=30))
        seen: list[str] = []
        if self.store is not None:
            recorded = self.store / instance_key(self.context) / "end.json"
            if recorded.is_file():
                seen = list(json.loads(recorded.read_text("utf-8")).get("activities") or [])
        found: list[str] = []
        for package, activity in [*_COMPONENT.findall(text), *(c.split("/", 1) for c in seen)]:
            full = package + activity if activity.startswith(".") else activity
            component = f"{package}/{full}"
            if package in packages and component not in found:
                found.append(component)
        return found

    def extras(self) -> list[str]:
        """Two sets of `--es` extras: the task's numbers, then its typed texts and answer."""
        numbers = [n.strip() for n in _NUMBER.findall(self.context.instruction) if len(n.strip()) >= 1]
        texts = [a.text for a in self.script if isinstance(a, TypeText)]
        texts += [a.answer for a in self.script if isinstance(a, Finish) and a.answer]
        number = max(numbers, key=len) if numbers else "5550100"
        text = texts[0] if texts else self.context.instruction
        return [" ".join(f"--es {k} {shlex.quote(value)}" for k in EXTRA_KEYS) for value in (number, text)]
