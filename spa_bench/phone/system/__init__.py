"""The virtual phone's OS (`PhoneOS`), implementing the `PhoneSystem` protocol of `phone.api`.

`PhoneOS` assembles the apps with the system, so it is imported on first use: the system's own modules
(tasks, providers, clock) import no app, and the apps may import them without importing `PhoneOS`
and, through it, every app."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.system.providers import ContentProvider, ProviderRegistry, SqliteTableProvider

if TYPE_CHECKING:
    from spa_bench.phone.system.phone_os import PhoneOS

__all__ = ["ContentProvider", "PhoneClock", "PhoneOS", "ProviderRegistry", "SqliteTableProvider"]


def __getattr__(name: str) -> Any:
    if name == "PhoneOS":
        from spa_bench.phone.system.phone_os import PhoneOS

        return PhoneOS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
