"""Start and stop virtual phones: one `VirtualPhone` with its sockets, or a `PhonePool` of N of them.

A phone is its data dir (fs/ = the VFS root, snapshots/), the OS (`PhoneOS`), the shell, uiautomator2's
server on tcp:9008, the ADB endpoint on 127.0.0.1:port and the console on port - 1. Everything runs in
daemon threads of the calling process, so a pool of phones costs no extra processes. Sockets are bound
in `start()`, so a busy port fails right there with a PhoneError that names it.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, get_args

from spa_bench.errors import PhoneError, PortInUse
from spa_bench.phone.adb import AdbServer, make_banner, phone_services
from spa_bench.phone.adb.adbd import Adbd
from spa_bench.phone.adb.audit import CommandAudit
from spa_bench.phone.adb.connection import Handler
from spa_bench.phone.api import Locale, PhoneConfig
from spa_bench.phone.console import Console
from spa_bench.phone.console_audit import audit_commands, console_recorder
from spa_bench.phone.console_modem import PhoneModem
from spa_bench.phone.snapshot import SnapshotStore
from spa_bench.phone.u2rpc import U2_PORT, U2Server
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from spa_bench.phone.shell import Shell
    from spa_bench.phone.system import PhoneOS

class U2Port(Mapping[int, Handler]):
    """`tcp:9008` while uiautomator2's server process runs (`ps` shows it; `kill` ends it and the port
    then refuses connections, as a device's does, until a client's `app_process` starts it again)."""

    def __init__(self, system: PhoneOS, u2: U2Server) -> None:
        self.system, self.u2 = system, u2

    def __getitem__(self, port: int) -> Handler:
        if port != U2_PORT or self.system.processes.u2_server() is None:
            raise KeyError(port)
        return self.u2.handle_stream

    def __iter__(self) -> Iterator[int]:
        return iter([U2_PORT] if self.system.processes.u2_server() is not None else [])

    def __len__(self) -> int:
        return len(list(iter(self)))


# adb servers probe 5555-5585 at start (emulator-5554 ...): automatic ports stay out of that range.
ADB_PROBE_RANGE = range(5554, 5586)
AUTO_PORT = 0  # PhoneConfig.port: pick a free pair when the phone starts (VirtualPhone._listen)
PORT_ATTEMPTS = 20
MIN_SIDE, MAX_SIDE = 240, 4096


def parse_size(size: str | tuple[int, int]) -> tuple[int, int]:
    """"1080x2400" -> (1080, 2400); PhoneError for anything else."""
    if isinstance(size, tuple):
        width, height = size
    else:
        m = re.fullmatch(r"\s*(\d+)\s*[xX*]\s*(\d+)\s*", size)
        if not m:
            raise PhoneError(f"invalid screen size {size!r}: expected WIDTHxHEIGHT, e.g. 1080x2400")
        width, height = int(m.group(1)), int(m.group(2))
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise PhoneError(f"invalid screen size {width}x{height}: "
                         f"each side must be {MIN_SIDE}-{MAX_SIDE} pixels")
    return width, height


def check_locale(locale: str) -> Locale:
    if locale not in get_args(Locale):
        raise PhoneError(f"invalid locale {locale!r}: choose one of {', '.join(get_args(Locale))}")
    return locale  # type: ignore[return-value]


def validate_config(config: PhoneConfig) -> None:
    """PhoneError naming the first bad field of a config."""
    check_locale(config.locale)
    parse_size((config.width, config.height))
    if config.port != AUTO_PORT and not 2 <= config.port <= 65535:
        raise PhoneError(f"invalid port {config.port}: must be 2-65535 (the console uses port - 1), "
                         f"or {AUTO_PORT} for a free pair")
    if config.host not in ("127.0.0.1", "localhost"):
        raise PhoneError(f"invalid host {config.host!r}: the virtual phone binds 127.0.0.1 only")


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def find_free_port_pair(avoid: set[int] | None = None) -> int:
    """An odd ADB port P with P and P - 1 both free, outside adb's probe range."""
    avoid = avoid or set()
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1]) | 1
        if port > 65535 or port in ADB_PROBE_RANGE or port - 1 in ADB_PROBE_RANGE:
            continue
        if port in avoid or port - 1 in avoid:
            continue
        if _port_free(port) and _port_free(port - 1):
            return port
    raise PhoneError("could not find two adjacent free ports on 127.0.0.1")


class VirtualPhone:
    """One virtual phone. `start()` brings up the OS and both sockets; `stop()` takes them down."""

    def __init__(self, config: PhoneConfig, token_path: Path | None = None) -> None:
        validate_config(config)
        self.config = config
        self.token_path = token_path
        self.data_dir = Path(config.data_dir)
        self.system: PhoneOS | None = None
        self.snapshots: SnapshotStore | None = None
        self._adb: AdbServer | None = None
        self._console: Console | None = None
        self.audit = CommandAudit()  # what agents and the harness sent over adb (spa audit on the console)
        self._stopped = threading.Event()
        self._lock = threading.Lock()

    @property
    def serial(self) -> str:
        """What `adb connect` shows: 127.0.0.1:PORT."""
        return self.config.serial

    @property
    def emulator_serial(self) -> str:
        """The serial an adb server gives the phone when it finds it by probing (ports 5555-5585)."""
        return f"emulator-{self.config.console_port}"

    @property
    def console_token(self) -> str:
        """The token the console expects after `auth` ("" when authentication is off)."""
        return self._console.token if self._console is not None else ""

    @property
    def adb_connections(self) -> int:
        """How many hosts (adb servers, raw clients) are connected to the ADB port right now."""
        return self._adb.listener.client_count if self._adb is not None else 0

    @property
    def running(self) -> bool:
        return self._adb is not None and not self._stopped.is_set()

    def start(self) -> VirtualPhone:
        from spa_bench.phone.shell import Shell
        from spa_bench.phone.system import PhoneOS

        with self._lock:
            if self._adb is not None:
                raise PhoneError(f"phone on port {self.config.port} is already started")
            try:
                (self.data_dir / "fs").mkdir(parents=True, exist_ok=True)
                (self.data_dir / "snapshots").mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PhoneError(f"cannot create the data dir {self.data_dir}: "
                                 f"{exc.strerror or exc}") from None
            fs = VirtualFS(self.data_dir / "fs")
            fs.ensure_layout()
            system = PhoneOS(self.config, fs)
            shell = Shell(system)
            u2 = U2Server(system)
            snapshots = SnapshotStore(self.data_dir, system)
            snapshots.recover()
            adbd = Adbd(system)
            try:
                adb, console = self._listen(system, shell, fs, u2, snapshots, adbd)
            except PhoneError:
                snapshots.close()
                system.close()
                raise
            self.system, self.snapshots, self._adb, self._console = system, snapshots, adb, console
            self._stopped.clear()
            system.heartbeat.start()  # stopped by system.close() in stop()
        return self

    def _listen(self, system: PhoneOS, shell: Shell, fs: VirtualFS, u2: U2Server, snapshots: SnapshotStore,
                adbd: Adbd) -> tuple[AdbServer, Console]:
        """Bind the console and the ADB port and start serving them. On automatic ports (port 0) a pair
        is picked and bound here; one that another process took since it was picked is given up for
        another pair, so that concurrent starts (pytest-xdist workers, a user's programs) never fail."""
        automatic = self.config.port == AUTO_PORT
        for attempt in range(1, PORT_ATTEMPTS + 1):
            port = find_free_port_pair() if automatic else self.config.port
            if automatic:  # the phone's own properties (ro.serialno) follow its port
                system.config = replace(system.config, port=port)
            adb = AdbServer(port, make_banner(system.getprop()),
                            phone_services(shell, fs, U2Port(system, u2), adbd, self.audit), name="adb")
            adbd.on_restart = adb.drop_clients
            console = Console(port - 1, self.config.product, snapshots, on_kill=self._kill_from_console,
                              token_path=self.token_path, modem=PhoneModem(system),
                              extra=(audit_commands(self.audit, snapshots),),
                              on_line=console_recorder(self.audit))
            try:
                console.start()
                try:
                    adb.start()
                except PhoneError:
                    console.stop()
                    raise
            except PortInUse:
                if not automatic or attempt == PORT_ATTEMPTS:
                    raise
                continue
            if automatic:
                self.config = replace(self.config, port=port)
            return adb, console
        raise AssertionError("unreachable: the last attempt raises")  # pragma: no cover

    def release_frame_buffer(self) -> None:
        """Between commands: the OS lets go of its screen's band buffer (see ScreenMixin.rendered_bands)."""
        system = self.system
        if system is not None:
            system.release_frame_buffer()

    def _kill_from_console(self) -> None:
        threading.Thread(target=self.stop, name="console-kill", daemon=True).start()

    def stop(self) -> None:
        """Close both sockets and every connection, finish background snapshot work, close the OS."""
        with self._lock:
            adb, console, snapshots, system = self._adb, self._console, self.snapshots, self.system
            self._adb = self._console = None
            self._stopped.set()
        if adb is not None:
            adb.stop()
        if console is not None:
            console.stop()
        if snapshots is not None:
            snapshots.close()
        if system is not None:
            system.close()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the phone is stopped (e.g. by the console's `kill`); True if it was."""
        return self._stopped.wait(timeout)

    def __enter__(self) -> VirtualPhone:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


class PhonePool:
    """N running phones; stopping the pool stops them all (and removes a data root it created)."""

    def __init__(self, phones: list[VirtualPhone], owned_root: Path | None = None) -> None:
        self.phones = phones
        self._owned_root = owned_root

    @property
    def serials(self) -> list[str]:
        return [phone.serial for phone in self.phones]

    def __len__(self) -> int:
        return len(self.phones)

    def __getitem__(self, index: int) -> VirtualPhone:
        return self.phones[index]

    def stop(self) -> None:
        for phone in self.phones:
            phone.stop()
        if self._owned_root is not None:
            shutil.rmtree(self._owned_root, ignore_errors=True)
            self._owned_root = None

    def __enter__(self) -> PhonePool:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def start_phones(n: int, base_port: int | None = None, data_root: Path | str | None = None,
                 locale: str = "en", size: str | tuple[int, int] = "1080x2400",
                 token_path: Path | None = None, config: PhoneConfig | None = None) -> PhonePool:
    """Start n phones in this process. With base_port, phone i uses base_port + 2*i (console one below);
    without, each phone picks and binds a free pair outside 5554-5585 as it starts. Data dirs are
    data_root/phone-PORT with base_port, data_root/phone-I without (a temporary root, removed by
    PhonePool.stop, when data_root is None)."""
    if n < 1:
        raise PhoneError(f"invalid number of phones {n}: must be at least 1")
    width, height = parse_size(size)
    template = replace(config or PhoneConfig(), locale=check_locale(locale), width=width, height=height)
    owned = None
    if data_root is None:
        owned = Path(tempfile.mkdtemp(prefix="spa-phones-"))
    root = Path(data_root) if data_root is not None else owned
    assert root is not None
    ports = [base_port + 2 * i for i in range(n)] if base_port is not None else [AUTO_PORT] * n
    phones = [VirtualPhone(replace(template, port=port, data_dir=root / f"phone-{port if port else i}"),
                           token_path)
              for i, port in enumerate(ports)]
    pool = PhonePool(phones, owned)
    with ThreadPoolExecutor(max_workers=min(n, 8)) as executor:
        errors = [f.exception() for f in [executor.submit(phone.start) for phone in phones]]
    failures = [e for e in errors if e is not None]
    if failures:
        with contextlib.suppress(Exception):
            pool.stop()
        first = failures[0]
        if isinstance(first, PhoneError):
            raise first
        raise PhoneError(f"a phone failed to start: {first!r}") from first
    return pool
