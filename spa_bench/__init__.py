"""spa-bench: a benchmark harness for smartphone GUI agents.

The public API is re-exported here; everything else is internal. Importing this package does no work:
no adb, no network, no model loading - the names below the errors are imported on first use.
"""

from typing import TYPE_CHECKING, Any

from spa_bench.errors import (
    ConfigError,
    DeviceCommandFailed,
    DeviceError,
    DeviceOffline,
    DeviceTimeout,
    ImportFormatError,
    ModelAuthError,
    ModelError,
    ModelRateLimited,
    ModelUnavailable,
    PhoneError,
    RegistryError,
    ResultsError,
    SpaBenchError,
    TaskError,
    TaskValidationError,
)

__version__ = "0.1.0"

# public name -> module that defines it, imported lazily (PEP 562)
_LAZY = {
    "Action": "spa_bench.actions",
    "parse_action": "spa_bench.actions",
    "Agent": "spa_bench.agent",
    "AgentStep": "spa_bench.agent",
    "BaseAgent": "spa_bench.agent",
    "TaskContext": "spa_bench.agent",
    "register_agent": "spa_bench.agent",
    "Device": "spa_bench.device.device",
    "Observation": "spa_bench.device.observation",
    "EpisodeLog": "spa_bench.results.schema",
    "RunManifest": "spa_bench.results.schema",
    "RunLayout": "spa_bench.results.layout",
    "AgentConfig": "spa_bench.runner.config",
    "RunConfig": "spa_bench.runner.config",
    "run_benchmark": "spa_bench.runner.run",
    "resume_run": "spa_bench.runner.run",
    "Task": "spa_bench.tasks.model",
    "TaskFilter": "spa_bench.tasks.repository",
    "TaskRepository": "spa_bench.tasks.repository",
    "start_phones": "spa_bench.phone.server",
}

if TYPE_CHECKING:
    from spa_bench.actions import Action, parse_action
    from spa_bench.agent import Agent, AgentStep, BaseAgent, TaskContext, register_agent
    from spa_bench.device.device import Device
    from spa_bench.device.observation import Observation
    from spa_bench.phone.server import start_phones
    from spa_bench.results.layout import RunLayout
    from spa_bench.results.schema import EpisodeLog, RunManifest
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import resume_run, run_benchmark
    from spa_bench.tasks.model import Task
    from spa_bench.tasks.repository import TaskFilter, TaskRepository


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'spa_bench' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

__all__ = [
    "Action",
    "Agent",
    "AgentConfig",
    "AgentStep",
    "BaseAgent",
    "ConfigError",
    "Device",
    "DeviceCommandFailed",
    "DeviceError",
    "DeviceOffline",
    "DeviceTimeout",
    "EpisodeLog",
    "ImportFormatError",
    "ModelAuthError",
    "ModelError",
    "ModelRateLimited",
    "ModelUnavailable",
    "Observation",
    "PhoneError",
    "RegistryError",
    "ResultsError",
    "RunConfig",
    "RunLayout",
    "RunManifest",
    "SpaBenchError",
    "Task",
    "TaskContext",
    "TaskError",
    "TaskFilter",
    "TaskRepository",
    "TaskValidationError",
    "__version__",
    "parse_action",
    "register_agent",
    "resume_run",
    "run_benchmark",
    "start_phones",
]
