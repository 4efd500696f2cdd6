"""Every exception spa-bench raises, in one tree.

    SpaBenchError                 base of everything below; the CLI prints its message in one line
    ├── ConfigError               bad command-line option or configuration value
    ├── RegistryError             unknown or unloadable plug-in (agent, evaluator, validator)
    ├── TaskError                 task data problems
    │   └── TaskValidationError   a task file is invalid (names file, task id and field)
    ├── ImportFormatError         a foreign task file (SPA-Bench CSV/JSON) cannot be converted
    ├── ResultsError              a results folder is missing, unreadable or of an unknown schema version
    ├── PhoneError                the virtual phone cannot start or was given a bad argument
    │   └── PortInUse             a port it was to listen on is taken (a phone on automatic ports
    │                             picks another pair instead)
    ├── RemoteEpisodeError        an episode failed on a device of another host (Ray executor): its
    │                             exception's type and message as raised there
    ├── ModelError                a model API call failed (names model and endpoint, never the key)
    │   ├── ModelAuthError        the key is missing, wrong or not allowed (401, 403)
    │   ├── ModelRateLimited      still rate limited (429) after every retry
    │   └── ModelUnavailable      server errors (5xx), timeouts or connection failures outlasted the retries
    └── DeviceError               talking to a device over ADB failed
        ├── DeviceOffline         the device is gone (not listed, connection refused or reset)
        ├── DeviceTimeout         a device operation took longer than its limit
        └── DeviceCommandFailed   a command ran but reported failure (exit code, error text)

Failures raise; nothing returns an error value. What an exception means for an episode is decided in
one place, `classify` below, used by the episode (setup, step loop and final capture alike) and by the
scheduler:

    exception                        termination      kind      infrastructure (retried elsewhere)
    DeviceOffline, DeviceTimeout     device_error     device    yes: the device, not the agent, failed
    other DeviceError                device_error     device    yes
    DeviceCommandFailed              harness_error    harness   no: the command would fail on any device
                                                                (a task's setup or a harness bug)
    KeyboardInterrupt                interrupted      harness   no (the run stops; resume runs it again)
    anything else                    harness_error    harness   no: a bug in spa-bench, recorded with its
                                                                traceback; the run goes on

Exceptions raised by the agent itself (its `reset` or `step`, or its program) are the agent's and are
recorded as `agent_error` before they reach `classify`. An action that makes no sense on the current
screen (spa_bench.device.gesture.InvalidAction) is not an error of this tree: the episode records it as an
invalid step and goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ErrorTermination = Literal["device_error", "harness_error", "interrupted"]
ErrorOrigin = Literal["device", "harness"]


class SpaBenchError(Exception):
    """Base class of all spa-bench errors."""


class ConfigError(SpaBenchError):
    """A command-line option or configuration value is invalid."""


class RegistryError(SpaBenchError):
    """A plug-in name or reference cannot be resolved."""


class TaskError(SpaBenchError):
    """A problem with task data."""


class TaskValidationError(TaskError):
    """A task file is invalid. `problems` holds one line per problem, each naming file, task and field."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        head = problems[0] if problems else "invalid task"
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        super().__init__(head + more)


class ImportFormatError(SpaBenchError):
    """A foreign task file cannot be converted."""


class ResultsError(SpaBenchError):
    """A results folder or log cannot be read."""


class PhoneError(SpaBenchError):
    """The virtual phone cannot start or was misused."""


class PortInUse(PhoneError):
    """A loopback port the phone was to listen on is taken by another program."""


class RemoteEpisodeError(SpaBenchError):
    """An episode raised on a device actor of a Ray cluster (spa_bench.cluster); the original exception
    stays on its host, its type, message and traceback are in the episode log's errors."""


class ModelError(SpaBenchError):
    """A model API call failed. `status` is the HTTP status when the server answered (None otherwise)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        self.status = status
        super().__init__(message)


class ModelAuthError(ModelError):
    """The API key is missing, wrong or lacks permission: retrying cannot help."""


class ModelRateLimited(ModelError):
    """The endpoint kept answering 429 until the retries ran out."""


class ModelUnavailable(ModelError):
    """Server errors, timeouts or connection failures lasted longer than the retries."""


class DeviceError(SpaBenchError):
    """Talking to a device failed. `serial` names the device."""

    def __init__(self, message: str, serial: str | None = None) -> None:
        self.serial = serial
        super().__init__(f"{serial}: {message}" if serial else message)


class DeviceOffline(DeviceError):
    """The device is not reachable."""


class DeviceTimeout(DeviceError):
    """A device operation exceeded its time limit."""


class DeviceCommandFailed(DeviceError):
    """A command ran on the device and reported failure."""


@dataclass(frozen=True)
class Classification:
    """What an exception means for an episode: how it ends, whose error it is, whether to retry it."""

    termination: ErrorTermination
    kind: ErrorOrigin
    infrastructure: bool


def classify(exc: BaseException) -> Classification:
    """The one mapping from exception to episode outcome (the table in the module docstring)."""
    if isinstance(exc, DeviceCommandFailed):
        return Classification("harness_error", "harness", infrastructure=False)
    if isinstance(exc, DeviceError):
        return Classification("device_error", "device", infrastructure=True)
    if isinstance(exc, KeyboardInterrupt):
        return Classification("interrupted", "harness", infrastructure=False)
    return Classification("harness_error", "harness", infrastructure=False)
