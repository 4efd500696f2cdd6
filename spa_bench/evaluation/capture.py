"""Capturing the device state that success checks read, so that they can be scored without a device.

At the end of an episode the runner runs every check's reads through a `RecordingReader`: each shell
command and what it printed (and its exit code) go into the log (`EpisodeLog.captured_state`, one
`CheckCapture` per check, with the hash of the check's definition). The state evaluator then scores the
checks from a `ReplayReader` over those records - right after the episode, or days later in
`spa-bench evaluate` with no phone running - and gets the same verdicts, because a check is a pure
function of what it reads. A check whose definition changed since the capture (another hash) may read
other commands or compare differently: it is not scored from the old reads but reported as needing a
rerun of the episode.

On a device that has an app under another package name (spa_bench.device.packages: Google's Clock on a
stock emulator image), each command is run with the device's names in it (`MappedReader`), and the
capture records the command as it was run. The episode log keeps the substitutions
(`EpisodeLog.package_map`), so that replaying maps the checks' commands the same way and finds them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from spa_bench.device.packages import PackageMap
from spa_bench.errors import DeviceError
from spa_bench.results.schema import CapturedCommand, CheckCapture
from spa_bench.tasks.checks import Check


class CommandResult(Protocol):
    """A finished shell command (spa_bench.device.device.ShellResult has this shape)."""

    @property
    def output(self) -> str: ...

    @property
    def exit_code(self) -> int: ...


class DeviceReader(Protocol):
    """What success checks and validators may do with a device: run a shell command and read what it
    printed. spa_bench.device.Device satisfies it; so do the recording and replaying readers here."""

    def run(self, command: str) -> CommandResult: ...

    def shell(self, command: str) -> str: ...


@dataclass(frozen=True)
class Output:
    output: str
    exit_code: int


class RecordingReader:
    """Reads through a device and logs every command with its output, in order."""

    def __init__(self, device: DeviceReader) -> None:
        self.device = device
        self.commands: list[CapturedCommand] = []

    def run(self, command: str) -> Output:
        result = self.device.run(command)
        self.commands.append(CapturedCommand(command=command, output=result.output,
                                             exit_code=result.exit_code))
        return Output(result.output, result.exit_code)

    def shell(self, command: str) -> str:
        return self.run(command).output


class MappedReader:
    """Runs every command with the package names a device has in place of the task's (PackageMap.text)."""

    def __init__(self, device: DeviceReader, packages: PackageMap) -> None:
        self.device = device
        self.packages = packages

    def run(self, command: str) -> CommandResult:
        return self.device.run(self.packages.text(command))

    def shell(self, command: str) -> str:
        return self.run(command).output


def mapped(reader: DeviceReader, packages: PackageMap | None) -> DeviceReader:
    """`reader` itself where nothing is substituted (the virtual phone), else a MappedReader over it."""
    return reader if packages is None or packages.identity else MappedReader(reader, packages)


class NotCaptured(LookupError):
    """A check asked for a command whose output the episode did not capture."""


class ReplayReader:
    """Answers commands from a capture, in the order they were made (a command read twice gets its
    second output the second time, then the last one again)."""

    def __init__(self, commands: Sequence[CapturedCommand]) -> None:
        self._outputs: dict[str, list[CapturedCommand]] = {}
        for command in commands:
            self._outputs.setdefault(command.command, []).append(command)
        self._served: dict[str, int] = {}

    def run(self, command: str) -> Output:
        recorded = self._outputs.get(command)
        if not recorded:
            raise NotCaptured(f"the episode did not capture the output of `{command}`")
        n = self._served.get(command, 0)
        self._served[command] = n + 1
        hit = recorded[min(n, len(recorded) - 1)]
        return Output(hit.output, hit.exit_code)

    def shell(self, command: str) -> str:
        return self.run(command).output


def check_sha256(check: Check) -> str:
    """The hash of a check's definition (as run: parameters filled in), in a canonical JSON form."""
    canonical = json.dumps(check.model_dump(mode="json"), sort_keys=True, ensure_ascii=False,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


ReadFn = Callable[[Check, DeviceReader], object]
"""Runs one check's reads against a reader (the check function itself; its result is not kept)."""


def capture_checks(checks: Sequence[Check], device: DeviceReader, read: ReadFn,
                   packages: PackageMap | None = None) -> list[CheckCapture]:
    """Run each check's reads on the device (with `packages`' names in its commands) and keep every
    command as run with its output. Device failures propagate (the episode is retried elsewhere); a check
    that fails for another reason keeps what it read so far: scoring it from the capture fails the same
    way and records the error there."""
    captures = []
    for index, check in enumerate(checks):
        reader = RecordingReader(device)
        try:
            read(check, mapped(reader, packages))
        except DeviceError:
            raise
        except Exception:  # the state evaluator reproduces it from the capture and records it
            pass
        captures.append(CheckCapture(index=index, type=check.type, check_sha256=check_sha256(check),
                                     commands=reader.commands))
    return captures
