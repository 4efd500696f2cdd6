"""Every exception spa-bench raises, in one tree.

    SpaBenchError                 base of everything below; the CLI prints its message in one line
    ├── ConfigError               bad command-line option or configuration value
    ├── RegistryError             unknown or unloadable plug-in (agent, evaluator, validator)
    ├── TaskError                 task data problems
    │   └── TaskValidationError   a task file is invalid (names file, task id and field)
    ├── ImportFormatError         a foreign task file (SPA-Bench CSV/JSON) cannot be converted
    ├── ResultsError              a results folder is missing, unreadable or of an unknown schema version
    ├── PhoneError                the virtual phone cannot start or was given a bad argument
    ├── ModelError                a model API call failed (names model and endpoint, never the key)
    │   ├── ModelAuthError        the key is missing, wrong or not allowed (401, 403)
    │   ├── ModelRateLimited      still rate limited (429) after every retry
    │   └── ModelUnavailable      server errors (5xx), timeouts or connection failures outlasted the retries
    └── DeviceError               talking to a device over ADB failed
        ├── DeviceOffline         the device is gone (not listed, connection refused or reset)
        ├── DeviceTimeout         a device operation took longer than its limit
        └── DeviceCommandFailed   a command ran but reported failure (exit code, error text)

Failures raise; nothing returns an error value. DeviceOffline and DeviceTimeout mark infrastructure
failures: the scheduler retries such an episode on another device. A DeviceCommandFailed during a task's
setup ends the episode as a harness error; agent failures are recorded as the agent's. (An action that
makes no sense on the current screen - spa_bench.device.gesture.InvalidAction - is not an error of this
tree: the episode records it as an invalid step and goes on.)
"""

from __future__ import annotations


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
