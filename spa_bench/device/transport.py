"""The device I/O seam, as httpx's transports: `Device` decides what to run, a transport moves the bytes.

One method, `handle(request) -> Response`, for the three services a device is reached by: a shell
command on the device (exit code kept), a request to the adb server itself (`devices`, `connect:ADDR`,
`disconnect:ADDR`) and a line for the emulator console. `AdbTransport` does it over an adb server;
`ScriptedTransport(handler)` answers from a function, as `httpx.MockTransport`, so that Device is
unit-tested on canned device output with no phone.

Transports raise the device errors of spa_bench.errors (DeviceOffline, DeviceTimeout,
DeviceCommandFailed); a command that ran and failed is not an error here: its exit code is returned.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from spa_bench.device.console import EmulatorConsole
from spa_bench.errors import DeviceCommandFailed, DeviceError, DeviceOffline, DeviceTimeout

if TYPE_CHECKING:
    from adbutils import AdbClient
    from adbutils._adb import AdbConnection

Service = Literal["shell", "host", "service", "console"]
_OFFLINE = re.compile(r"not found|offline|closed|unauthorized|refused|connect", re.I)
_V1_EXIT = b"X4EXIT:"  # adbutils' marker for the exit code of a shell v1 command


@dataclass(frozen=True)
class Request:
    """`shell`: `command` runs on device `serial`; `host`: `command` goes to the adb server (e.g.
    `devices`); `service`: `command` is an adbd service opened on `serial` whose whole answer is read
    (e.g. `root:`); `console`: `command` is one emulator-console line on `port`."""

    service: Service
    command: str
    serial: str = ""
    port: int | None = None
    timeout: float = 30.0


@dataclass(frozen=True)
class Response:
    stdout: bytes = b""
    stderr: bytes = b""
    exit_code: int = 0

    @property
    def output(self) -> bytes:
        """stdout then stderr."""
        return self.stdout + self.stderr if self.stderr else self.stdout

    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")


class Transport(Protocol):
    def handle(self, request: Request) -> Response:
        """Carry out one request. Raises DeviceError subclasses for failures of the device or link."""
        ...

    def close(self) -> None: ...


Handler = Callable[[Request], "Response | str | bytes"]


@dataclass
class ScriptedTransport:
    """Answers every request from `handler` (a str or bytes answer is stdout with exit code 0) and keeps
    the requests in `requests`, for tests. The handler may raise DeviceError to play a failing device."""

    handler: Handler
    requests: list[Request] = field(default_factory=list)

    def handle(self, request: Request) -> Response:
        self.requests.append(request)
        answer = self.handler(request)
        if isinstance(answer, str):
            return Response(stdout=answer.encode("utf-8"))
        if isinstance(answer, bytes):
            return Response(stdout=answer)
        return answer

    def commands(self, service: Service = "shell") -> list[str]:
        return [r.command for r in self.requests if r.service == service]

    def close(self) -> None:
        pass


class AdbTransport:
    """An adb server's client (at $ANDROID_ADB_SERVER_HOST:$ANDROID_ADB_SERVER_PORT by default).

    Built on adbutils' connection API (AdbConnection: the socket to the server, the smart-socket
    handshake) rather than on AdbDevice, whose every call asks the server its version (and, for shell
    v2, the device's features) over extra connections and sleeps 10 ms in each close. Here the version
    and each device's features are asked once; shell commands use shell v2 (exit code and stderr kept);
    a finished stream's socket is just closed (the server has sent everything it will, so there is
    nothing to wait for).

    No stdin frame is ever sent, not even close-stdin (as adbutils' v1 `shell:` sends none): the harness
    has no input to give, and a frame that reaches the server after the command has ended is read by no
    one. adb 36 stops reading a finished stream's socket after 1 s; data arriving later makes the kernel
    answer with a reset, which throws away the output still in flight ("Connection reset by peer" when a
    loaded host stalls this thread for a second between the server's OKAY and the frame)."""

    def __init__(self, host: str | None = None, port: int | None = None) -> None:
        self.host = host or os.environ.get("ANDROID_ADB_SERVER_HOST", "127.0.0.1")
        self.port = port or int(os.environ.get("ANDROID_ADB_SERVER_PORT", "5037"))
        self._client: AdbClient | None = None
        self._version: int | None = None
        self._features: dict[str, frozenset[str]] = {}
        self._lock = threading.Lock()

    @property
    def client(self) -> AdbClient:
        if self._client is None:
            import adbutils

            self._client = adbutils.AdbClient(host=self.host, port=self.port)
        return self._client

    def handle(self, request: Request) -> Response:
        if request.service == "console":
            if request.port is None:
                raise DeviceCommandFailed("a console request needs a port", request.serial or None)
            return Response(stdout=EmulatorConsole(request.port, timeout=request.timeout)
                            .command(request.command).encode("utf-8"))
        what = f"shell {request.command[:60]!r}" if request.service == "shell" else f"adb {request.command}"
        with _adb_errors(what, request.serial or None):
            if request.service == "host":
                return Response(stdout=self._host(request.command, request.timeout).encode("utf-8"))
            if request.service == "service":
                return Response(stdout=self._device_service(request.serial, request.command, request.timeout))
            return self._shell(request.serial, request.command, request.timeout)

    def close(self) -> None:
        pass  # nothing stays open between requests

    # -- the smart-socket protocol ---------------------------------------------------------------------
    def _connect(self, timeout: float) -> AdbConnection:
        return self.client.make_connection(timeout=timeout)

    def _host(self, command: str, timeout: float) -> str:
        conn = self._connect(timeout)
        try:
            conn.send_command(f"host:{command}")
            conn.check_okay()
            answer: str = conn.read_string_block()
            return answer
        finally:
            conn.conn.close()

    def server_version(self) -> int:
        if self._version is None:
            with self._lock:
                if self._version is None:
                    self._version = int(self._host("version", 10.0), 16)
        return self._version

    def features(self, serial: str) -> frozenset[str]:
        if serial not in self._features:
            conn = self._connect(10.0)
            try:
                conn.send_command(f"host-serial:{serial}:features")
                conn.check_okay()
                self._features[serial] = frozenset(conn.read_string_block().split(","))
            finally:
                conn.conn.close()
        return self._features[serial]

    def _open(self, serial: str, service: str, timeout: float) -> AdbConnection:
        """A connection switched to `serial`'s transport with `service` opened on the device."""
        conn = self._connect(timeout)
        try:
            if self.server_version() >= 41:
                conn.send_command(f"host:tport:serial:{serial}")
                conn.check_okay()
                conn.read_exact(8)  # the transport id
            else:
                conn.send_command(f"host:transport:{serial}")
                conn.check_okay()
            conn.send_command(service)
            conn.check_okay()
        except BaseException:
            conn.conn.close()
            raise
        return conn

    def _device_service(self, serial: str, service: str, timeout: float) -> bytes:
        """Open an adbd service (`root:`, `unroot:`) and read its answer until adbd closes the stream."""
        conn = self._open(serial, service, timeout)
        sock = conn.conn
        try:
            sock.settimeout(timeout)
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        finally:
            sock.close()
        self._features.pop(serial, None)  # adbd may restart (root:), so ask its features again
        return b"".join(chunks)

    def _shell(self, serial: str, command: str, timeout: float) -> Response:
        if "shell_v2" not in self.features(serial):
            return self._shell_v1(serial, command, timeout)
        conn = self._open(serial, f"shell,v2,raw:{command}", timeout)
        sock = conn.conn
        sock.settimeout(timeout)
        reader = sock.makefile("rb", buffering=256 * 1024)
        try:
            stdout, stderr = bytearray(), bytearray()
            while True:
                header = reader.read(5)
                if len(header) < 5:
                    raise DeviceOffline(f"shell {command[:60]!r}: the stream ended before its exit code",
                                        serial)
                kind, length = header[0], int.from_bytes(header[1:5], "little")
                data = reader.read(length) if length else b""
                if len(data) < length:
                    raise DeviceOffline(f"shell {command[:60]!r}: the stream ended inside a frame", serial)
                if kind == 1:
                    stdout += data
                elif kind == 2:
                    stderr += data
                elif kind == 3:
                    return Response(bytes(stdout), bytes(stderr), data[0] if data else 255)
        finally:
            reader.close()
            sock.close()

    def _shell_v1(self, serial: str, command: str, timeout: float) -> Response:
        """Devices without shell v2 (Android < 7): the exit code comes from an echoed marker."""
        conn = self._open(serial, f"shell:{command}; echo {_V1_EXIT.decode()}$?", timeout)
        sock = conn.conn
        try:
            sock.settimeout(timeout)
            chunks = []
            while chunk := sock.recv(256 * 1024):
                chunks.append(chunk)
        finally:
            sock.close()
        output = b"".join(chunks)
        cut = output.rfind(_V1_EXIT)
        if cut < 0:
            raise DeviceCommandFailed(f"shell {command[:60]!r}: no exit code in the output", serial)
        code = output[cut + len(_V1_EXIT):].strip()
        return Response(stdout=output[:cut], exit_code=int(code) if code.isdigit() else 255)


@contextmanager
def _adb_errors(what: str, serial: str | None) -> Iterator[None]:
    """adbutils' and the socket's exceptions as spa-bench's device errors."""
    import adbutils

    try:
        yield
    except DeviceError:
        raise
    except adbutils.AdbTimeout as exc:
        raise DeviceTimeout(f"{what} timed out ({exc})", serial) from None
    except adbutils.AdbError as exc:
        text = str(exc)
        if _OFFLINE.search(text):
            raise DeviceOffline(f"{what}: {text}", serial) from None
        raise DeviceCommandFailed(f"{what}: {text}", serial) from None
    except TimeoutError:
        raise DeviceTimeout(f"{what} timed out", serial) from None
    except (ConnectionError, OSError, EOFError) as exc:
        raise DeviceOffline(f"{what}: {exc}", serial) from None
