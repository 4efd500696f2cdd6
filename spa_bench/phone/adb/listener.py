"""A loopback TCP listener with one thread per accepted client, shared by ADB and the console.

At most `max_clients` are served at once (a thread each): one past that is closed as soon as it is
accepted, so that a flood of connections costs the phone no threads and leaves its open clients served.

Binding happens in `start()` so that a port already in use is reported to the caller right away
(as PhoneError), not lost in a background thread. `stop()` closes the listening socket and every client
socket, which unblocks their threads.
"""

from __future__ import annotations

import errno
import logging
import socket
import threading
from collections.abc import Callable

from spa_bench.errors import PhoneError, PortInUse

log = logging.getLogger(__name__)

ClientHandler = Callable[[socket.socket], None]
MAX_CLIENTS = 64  # an adb server holds one connection per device; tools and tests a few more


def bind_listener(host: str, port: int, what: str) -> socket.socket:
    """A listening socket on host:port; PhoneError with a clear message when that fails."""
    if host not in ("127.0.0.1", "localhost", "::1"):
        raise PhoneError(f"{what}: refusing to listen on {host!r}; the virtual phone binds 127.0.0.1 only")
    if not 0 <= port <= 65535:  # 0: a free port, chosen by the kernel as it binds (read it back)
        raise PhoneError(f"{what}: port {port} is out of range 0-65535")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(64)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise PortInUse(f"{what}: port {port} on 127.0.0.1 is already in use "
                             f"(another phone, emulator or adb server?); pick another --port") from None
        raise PhoneError(f"{what}: cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    return sock


class TcpListener:
    """Accepts clients on 127.0.0.1:port and runs `handler(sock)` for each in a daemon thread."""

    def __init__(self, port: int, handler: ClientHandler, name: str, host: str = "127.0.0.1",
                 max_clients: int = MAX_CLIENTS) -> None:
        self.host = host
        self.max_clients = max_clients
        self.port = port
        self.handler = handler
        self.name = name
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._clients: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def start(self) -> None:
        self._sock = bind_listener(self.host, self.port, self.name)
        self.port = self._sock.getsockname()[1]
        self._thread = threading.Thread(target=self._accept_loop, name=f"{self.name}-accept", daemon=True)
        self._thread.start()

    def _accept_loop(self) -> None:
        assert self._sock is not None
        while not self._stopping.is_set():
            try:
                client, _addr = self._sock.accept()
            except OSError:
                break
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                if self._stopping.is_set():
                    client.close()
                    break
                if len(self._clients) >= self.max_clients:
                    log.warning("%s: %d clients connected: refusing another", self.name, self.max_clients)
                    client.close()
                    continue
                self._clients.add(client)
            threading.Thread(target=self._run_client, args=(client,), name=f"{self.name}-client",
                             daemon=True).start()

    def _run_client(self, client: socket.socket) -> None:
        try:
            self.handler(client)
        except Exception:
            log.exception("%s: client handler failed", self.name)
        finally:
            with self._lock:
                self._clients.discard(client)
            try:
                client.close()
            except OSError:
                pass

    @property
    def client_count(self) -> int:
        with self._lock:
            return len(self._clients)

    def drop_clients(self) -> None:
        """Disconnect every client but keep accepting new ones."""
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        """Stop accepting and disconnect every client; safe to call twice."""
        self._stopping.set()
        if self._sock is not None:
            try:
                self._sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            self._sock.close()
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
