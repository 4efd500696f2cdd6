"""Which service answers an OPEN, and the ADB listener that ties connections to a service table.

`ServiceTable` maps service-name prefixes to factories; a factory gets the rest of the name and returns
a handler (run in the stream's worker thread) or None to refuse the OPEN with CLSE. `phone_services`
fills a table for a phone: shell v1/v2, exec, sync, tcp:PORT, framebuffer:, reverse: (adb reverse, whose
listeners a `tcp:PORT` stream to a reversed port goes through) and polite answers to reboot/root/remount;
with a `CommandAudit`, every command line, push and root switch is recorded as it is opened, and every
line an interactive shell session (`adb shell` with no command, piped or typed) runs, as it runs.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Mapping

from spa_bench.phone.adb.adbd import Adbd
from spa_bench.phone.adb.audit import CommandAudit
from spa_bench.phone.adb.connection import AdbConnection, Handler
from spa_bench.phone.adb.framebuffer import FramebufferService
from spa_bench.phone.adb.listener import TcpListener
from spa_bench.phone.adb.reverse import ReverseListeners, pipe_to_host, reverse_handler
from spa_bench.phone.adb.shell_service import ShellRunner, run_exec, run_v1, run_v2
from spa_bench.phone.adb.stream import Stream
from spa_bench.phone.adb.sync import SyncService
from spa_bench.phone.shell.permissions import fs_for
from spa_bench.phone.vfs import VirtualFS

Factory = Callable[[str], Handler | None]

# shell_v2 and fixed_push_mkdir must go together (adb assumes one from the other).
FEATURES = ("shell_v2", "fixed_push_mkdir", "stat_v2", "ls_v2")

POLITE_REPLIES = {
    "remount:": b"remount is not supported on the virtual phone (its file system is always writable)\n",
    "reboot:": b"reboot is not supported on the virtual phone; use a snapshot to reset it\n",
    "enable-verity:": b"verity is not supported on the virtual phone\n",
    "disable-verity:": b"verity is not supported on the virtual phone\n",
}


class ServiceTable:
    """Longest-prefix dispatch from service names ("shell:", "tcp:", ...) to handler factories."""

    def __init__(self) -> None:
        self._entries: dict[str, Factory] = {}

    def add(self, prefix: str, factory: Factory) -> None:
        self._entries[prefix] = factory

    def resolve(self, service: str) -> Handler | None:
        for prefix in sorted(self._entries, key=len, reverse=True):
            if service.startswith(prefix):
                return self._entries[prefix](service[len(prefix):])
        return None


def make_banner(props: Mapping[str, str], features: tuple[str, ...] = FEATURES) -> bytes:
    """`device::ro.product.name=..;ro.product.model=..;ro.product.device=..;features=..`."""
    keys = ("ro.product.name", "ro.product.model", "ro.product.device")
    fields = [f"{key}={props.get(key, '')}" for key in keys]
    fields.append("features=" + ",".join(features))
    return ("device::" + ";".join(fields)).encode()


class AdbServer:
    """The phone's ADB endpoint: a loopback listener whose clients each get an AdbConnection."""

    def __init__(self, port: int, banner: bytes, services: ServiceTable, name: str = "adb") -> None:
        self.banner = banner
        self.services = services
        self.name = name
        self.listener = TcpListener(port, self._serve_client, name=name)

    @property
    def port(self) -> int:
        return self.listener.port

    def drop_clients(self) -> None:
        """What an adbd restart does to the hosts: every connection closes; new ones are accepted."""
        self.listener.drop_clients()

    def start(self) -> None:
        self.listener.start()

    def stop(self) -> None:
        self.listener.stop()

    def _serve_client(self, sock: socket.socket) -> None:
        # adbd names a TCP host `host-FD` after the accepted socket's fd (what `adb reverse --list` shows)
        AdbConnection(sock, self.banner, self.services.resolve, name=f"{self.name}:{self.port}",
                      serial=f"host-{sock.fileno()}").serve()


def _split_v2(rest: str) -> tuple[str, str]:
    """`v2,TERM=xterm,raw:CMD` -> ("v2,TERM=xterm,raw", "CMD")."""
    args, _sep, command = rest.partition(":")
    return args, command


def phone_services(shell: ShellRunner, fs: VirtualFS, tcp_handlers: Mapping[int, Handler],
                   adbd: Adbd | None = None, audit: CommandAudit | None = None) -> ServiceTable:
    """The service table of a phone with this shell, file system and in-process tcp:PORT servers; with
    `adbd`, `root:`/`unroot:` switch adbd's user and the sync service follows its permissions; with
    `audit`, what each opened service runs is recorded there."""
    table = ServiceTable()

    def line_hook() -> Callable[[str], None] | None:
        return None if audit is None else lambda line: audit.record("shell", line)

    def opened(command: str) -> None:
        # an interactive session (no command) is recorded line by line as it runs (line_hook), not as
        # one empty command that would hide what it typed
        if audit is not None and command.strip():
            audit.record("shell", command)

    def shell_v1(command: str) -> Handler:
        opened(command)
        return lambda s: run_v1(s, shell, command, line_hook())

    def shell_v2(rest: str) -> Handler | None:
        args, command = _split_v2(rest)
        if "v2" not in args.split(","):
            return None
        opened(command)
        return lambda s: run_v2(s, shell, args, command, line_hook())

    def exec_(command: str) -> Handler:
        if audit is not None:
            audit.record("exec", command)
        return lambda s: run_exec(s, shell, command)

    table.add("shell:", shell_v1)
    table.add("shell,", shell_v2)
    table.add("exec:", exec_)

    def sync_fs() -> VirtualFS:
        return fs_for(fs, adbd.system.adb_root) if adbd is not None else fs

    def pushed(path: str) -> None:
        if audit is not None:
            audit.record("push", path)

    table.add("sync:", lambda _rest: lambda s: SyncService(s, sync_fs(), on_push=pushed).serve())

    reversed_ports = ReverseListeners()

    def tcp(rest: str) -> Handler | None:
        port_text = rest.split(":", 1)[0]
        if not port_text.isdigit():
            return None
        # a port `adb reverse` bound belongs to adbd's listener, which carries the connection to the host
        listener = reversed_ports.find_tcp(int(port_text))
        return pipe_to_host(listener) if listener is not None else tcp_handlers.get(int(port_text))

    table.add("tcp:", tcp)
    capture_turn = threading.Semaphore(1)
    table.add("framebuffer:", lambda _rest: FramebufferService(shell, capture_turn))
    table.add("reverse:", lambda command: reverse_handler(reversed_ports, command))
    for service, reply in POLITE_REPLIES.items():
        table.add(service, _polite(reply))
    if adbd is not None:
        table.add("root:", lambda _rest: _recorded(audit, "root:", adbd.root))
        table.add("unroot:", lambda _rest: _recorded(audit, "unroot:", adbd.unroot))
    else:
        table.add("root:", _polite(b"adbd cannot run as root in production builds\n"))
        table.add("unroot:", _polite(b"adbd not running as root\n"))
    return table


def _recorded(audit: CommandAudit | None, service: str, handler: Handler) -> Handler:
    if audit is not None:
        audit.record("service", service)
    return handler


def _polite(reply: bytes) -> Factory:
    def factory(_rest: str) -> Handler:
        def handler(stream: Stream) -> None:
            stream.write(reply)
        return handler
    return factory
