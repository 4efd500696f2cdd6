"""The device side of ADB: packets, connections with many streams, and the services a phone offers.

Layering: `packet` (wire codec) <- `stream` (one service's byte pipe with flow control) <- `connection`
(handshake + stream multiplexing) <- `services` (service table, listener, phone services) which uses
`shell_service` and `sync`.
"""

from spa_bench.phone.adb.connection import AdbConnection, Handler
from spa_bench.phone.adb.listener import TcpListener, bind_listener
from spa_bench.phone.adb.services import FEATURES, AdbServer, ServiceTable, make_banner, phone_services
from spa_bench.phone.adb.stream import Stream, StreamClosedError

__all__ = [
    "FEATURES",
    "AdbConnection",
    "AdbServer",
    "Handler",
    "ServiceTable",
    "Stream",
    "StreamClosedError",
    "TcpListener",
    "bind_listener",
    "make_banner",
    "phone_services",
]
