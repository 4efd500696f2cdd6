"""Ray, imported only when a Ray run or worker asks for it, with an install hint; and a cluster's
address, checked before Ray is asked to connect (Ray waits a long time on an address nobody answers)."""

from __future__ import annotations

import socket
from types import ModuleType

from spa_bench.errors import ConfigError

INSTALL_HINT = "pip install 'spa-bench[ray]'"
REACH_TIMEOUT_S = 5.0


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError as exc:
        raise ConfigError(f"the Ray executor needs Ray, which is not installed ({exc}); "
                          f"install the extra: {INSTALL_HINT}") from None
    return ray


def split_address(address: str) -> tuple[str, int]:
    host, sep, port = address.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"Ray address {address!r}: expected HOST:PORT (the head's `ray start --head "
                          f"--port PORT`), e.g. 10.0.0.5:6379")
    return host.strip("[]"), int(port)


def check_reachable(address: str, timeout_s: float = REACH_TIMEOUT_S) -> None:
    """Raise ConfigError naming the address when nothing accepts connections there."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            return
    except OSError as exc:
        raise ConfigError(f"Ray address {address}: cannot reach the cluster's head ({exc}); is "
                          f"`ray start --head --port {port}` running there, and is the port open?") from None
