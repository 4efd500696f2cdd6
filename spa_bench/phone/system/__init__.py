"""The virtual phone's OS (`PhoneOS`), implementing the `PhoneSystem` protocol of `phone.api`."""

from spa_bench.phone.system.clock import PhoneClock
from spa_bench.phone.system.phone_os import PhoneOS
from spa_bench.phone.system.providers import ContentProvider, ProviderRegistry, SqliteTableProvider

__all__ = ["ContentProvider", "PhoneClock", "PhoneOS", "ProviderRegistry", "SqliteTableProvider"]
