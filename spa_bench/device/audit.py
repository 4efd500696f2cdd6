"""Which commands reached a device during an episode from somewhere other than the harness.

A virtual phone records every shell command, exec, push, adbd switch and console command it is sent (its
console's `spa audit`). The harness's own commands (observations, the agent's actions carried out by
Device, its console commands: interruptions, snapshot checks) come through the same adb server and
console, so the phone cannot tell them apart: Device keeps a list of what it sent itself while an audit is
open, and `agent_entries` takes those out of the phone's record, one for one, in order. What is left was
sent by someone else: the agent's program (or anything else on the host). An emulator or a phone keeps no
such record: the audit then sees only what passed through the harness.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, cast

Channel = Literal["shell", "exec", "push", "service", "console"]
MARK_COMMAND = "spa audit mark"
SINCE_COMMAND = "spa audit since {mark}"


@dataclass(frozen=True)
class SentCommand:
    channel: Channel
    command: str


@dataclass(frozen=True)
class DeviceAudit:
    """What the device recorded from others during the audit. `complete` is False when the device keeps
    no record (not a virtual phone) or dropped entries; `commands` is then what the harness could see."""

    source: Literal["device", "harness"]
    complete: bool
    commands: list[SentCommand]


def parse_since(reply: str) -> tuple[list[SentCommand], bool]:
    """The entries of a `spa audit since N` reply, and whether some were dropped."""
    entries: list[SentCommand] = []
    dropped = False
    for line in reply.splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        if "dropped" in item:
            dropped = bool(item["dropped"])
        else:
            entries.append(SentCommand(cast(Channel, item["channel"]), str(item["command"])))
    return entries, dropped


def agent_entries(recorded: Iterable[SentCommand], own: Iterable[SentCommand]) -> list[SentCommand]:
    """`recorded` without the harness's `own` commands (each own command takes out one recorded one)."""
    left = Counter(own)
    out = []
    for entry in recorded:
        if left[entry] > 0:
            left[entry] -= 1
        else:
            out.append(entry)
    return out
