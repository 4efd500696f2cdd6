"""spa-bench: a benchmark harness for smartphone GUI agents.

The public API is re-exported here; everything else is internal. Importing this package does no work:
no adb, no network, no model loading.
"""

from spa_bench.errors import (
    ConfigError,
    DeviceCommandFailed,
    DeviceError,
    DeviceOffline,
    DeviceTimeout,
    ImportFormatError,
    PhoneError,
    RegistryError,
    ResultsError,
    SpaBenchError,
    TaskError,
    TaskValidationError,
)

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "DeviceCommandFailed",
    "DeviceError",
    "DeviceOffline",
    "DeviceTimeout",
    "ImportFormatError",
    "PhoneError",
    "RegistryError",
    "ResultsError",
    "SpaBenchError",
    "TaskError",
    "TaskValidationError",
    "__version__",
]
