"""The virtual phone: a pure-Python Android device that speaks the real ADB wire protocol.

Layers, each a sub-package with one owner module:
- `api`      the contract between the layers (PhoneSystem protocol, PhoneConfig, PackageInfo);
- `vfs`      the jailed file system under the phone's data dir;
- `ui`       the view toolkit: one view tree renders the screenshot, the uiautomator XML and hit-tests;
- `system`   the phone's OS: activity stacks, input, keyboard, status bar, settings, packages, providers;
- `apps`     one small module per app (Settings, launcher, ...);
- `shell`    the toybox-like shell and the commands agents and checks use;
- `adb`      the device side of the ADB transport and its services (shell, exec, sync, tcp);
- `u2rpc`    uiautomator2's device server on tcp:9008;
- `console`  the emulator-style console (snapshots);
- `server`   VirtualPhone (one phone with its sockets) and helpers to start N of them.
Nothing here runs at import time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.server import PhonePool, VirtualPhone, start_phones
    from spa_bench.phone.snapshot import SnapshotError

__all__ = ["PhoneConfig", "PhonePool", "SnapshotError", "VirtualPhone", "start_phones"]

# Resolved on first use, so importing a sub-module (e.g. phone.vfs) stays cheap.
_EXPORTS = {
    "PhoneConfig": "spa_bench.phone.api",
    "PhonePool": "spa_bench.phone.server",
    "VirtualPhone": "spa_bench.phone.server",
    "start_phones": "spa_bench.phone.server",
    "SnapshotError": "spa_bench.phone.snapshot",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'spa_bench.phone' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
