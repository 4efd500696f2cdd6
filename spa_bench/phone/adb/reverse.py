"""`adb reverse`: the `reverse:` service and the listeners it installs on the phone.

The host's adb server passes `adb reverse ...` to the device as `reverse:forward:[norebind:]DEV;HOST`,
`reverse:killforward:DEV`, `reverse:killforward-all` or `reverse:list-forward`; adbd answers as
handle_forward_request in AOSP's adb.cpp does on the device side: `OKAY` (then the port as a length-
prefixed string when `tcp:0` was resolved), `FAIL` + length-prefixed message, or for list-forward the
listing alone as a length-prefixed string, one `SERIAL DEV HOST` line per listener (adb_listeners.cpp's
format_listeners). The serial is adbd's name for the host connection that installed it: `host-N` for a
TCP transport (N is the accepted socket's fd in adbd; here the fd of the phone's accepted socket).
Listeners are adbd-wide, like AOSP's listener list, and go away when the connection that installed them
closes.

What a reverse carries: a connection to the device-side port is sent to the host as a stream that the
device OPENs with the host-side spec (`tcp:4000`), which the host's adb server connects to on the host.
On the virtual phone, the only things that connect to a device port are ADB's own `tcp:PORT` streams
(`adb forward tcp:X tcp:DEV`), so those are what `pipe_to_host` carries.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.phone.adb.stream import HostLink, Stream, StreamClosedError

LOCAL_SOCKET_KINDS = ("local", "localreserved", "localabstract", "localfilesystem")
EPHEMERAL_PORTS = range(32768, 61000)  # Linux's default ip_local_port_range, where `tcp:0` lands


@dataclass
class Listener:
    local: str  # the device-side spec, e.g. tcp:12345
    connect_to: str  # the host-side spec, e.g. tcp:4000
    link: HostLink


class ForwardError(Exception):
    """A request adbd answers with FAIL and this message."""


def protocol_string(text: str) -> bytes:
    data = text.encode()
    return f"{len(data):04x}".encode() + data


def fail(message: str) -> bytes:
    return b"FAIL" + protocol_string(message)


class ReverseListeners:
    """adbd's listener list for reverse forwards; thread-safe (each ADB stream runs in its own thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def listing(self) -> str:
        with self._lock:
            return "".join(f"{lst.link.serial or '(reverse)'} {lst.local} {lst.connect_to}\n"
                           for lst in self._listeners)

    def install(self, local: str, connect_to: str, link: HostLink, no_rebind: bool) -> int:
        """Add or retarget a listener; the resolved port when `local` was tcp:0, else 0."""
        with self._lock:
            for listener in self._listeners:
                if listener.local == local:
                    if no_rebind:
                        raise ForwardError("cannot rebind existing socket")
                    listener.connect_to = connect_to
                    if listener.link is not link:
                        listener.link = link
                        link.on_close(lambda: self._forget_link(link))
                    return 0
            resolved = self._check_listen_spec(local)
            if resolved:
                local = f"tcp:{resolved}"
            self._listeners.append(Listener(local, connect_to, link))
        link.on_close(lambda: self._forget_link(link))
        return resolved

    def remove(self, local: str) -> None:
        with self._lock:
            for listener in self._listeners:
                if listener.local == local:
                    self._listeners.remove(listener)
                    return
        raise ForwardError(f"listener '{local}' not found")

    def remove_all(self) -> None:
        with self._lock:
            self._listeners.clear()

    def find_tcp(self, port: int) -> Listener | None:
        with self._lock:
            return next((lst for lst in self._listeners if lst.local == f"tcp:{port}"), None)

    def _forget_link(self, link: HostLink) -> None:
        with self._lock:
            self._listeners = [lst for lst in self._listeners if lst.link is not link]

    def _check_listen_spec(self, spec: str) -> int:
        """socket_spec_listen's checks and errors; the port picked for tcp:0 (called with the lock)."""
        kind, _sep, rest = spec.partition(":")
        if kind == "tcp":
            try:
                port = int(rest)
            except ValueError:
                raise ForwardError("cannot bind listener: listening on specified hostname currently "
                                   "unsupported") from None
            if not 0 <= port <= 65535:
                raise ForwardError(f"cannot bind listener: bad port number '{port}'")
            if port:
                return 0
            taken = {lst.local for lst in self._listeners}
            return next(p for p in EPHEMERAL_PORTS if f"tcp:{p}" not in taken)
        if kind in LOCAL_SOCKET_KINDS and rest:
            return 0
        raise ForwardError(f"cannot bind listener: unknown socket specification: {spec}")


def answer(listeners: ReverseListeners, command: str, link: HostLink | None) -> bytes:
    """adbd's reply to `reverse:COMMAND` (AOSP handle_forward_request, device side)."""
    if command == "list-forward":
        return protocol_string(listeners.listing())
    if command == "killforward-all":
        listeners.remove_all()
        return b"OKAY"
    kill = command.startswith("killforward:")
    if not kill and not command.startswith("forward:"):
        return fail("not a reverse forwarding command")
    spec = command[len("killforward:"):] if kill else command[len("forward:"):]
    no_rebind = not kill and spec.startswith("norebind:")
    if no_rebind:
        spec = spec[len("norebind:"):]
    pieces = spec.split(";")
    if kill and (len(pieces) != 1 or not pieces[0]):
        return fail(f"bad killforward: {spec}")
    if not kill and (len(pieces) != 2 or not pieces[0] or not pieces[1] or pieces[1].startswith("*")):
        return fail(f"bad forward: {spec}")
    try:
        if kill:
            listeners.remove(pieces[0])
            return b"OKAY"
        if link is None:
            return fail("no host connection")
        resolved = listeners.install(pieces[0], pieces[1], link, no_rebind)
    except ForwardError as exc:
        return fail(str(exc))
    return b"OKAY" + (protocol_string(str(resolved)) if resolved else b"")


def reverse_handler(listeners: ReverseListeners, command: str) -> Callable[[Stream], None]:
    def handler(stream: Stream) -> None:
        stream.write(answer(listeners, command, stream.link))
    return handler


def pipe_to_host(listener: Listener) -> Callable[[Stream], None]:
    """A handler for a `tcp:PORT` stream whose port is reversed: a stream OPENed to the host with the
    listener's host-side spec, and the bytes of each side copied to the other until either closes."""

    def handler(device_side: Stream) -> None:
        try:
            host_side = listener.link.open_to_host(listener.connect_to)
        except StreamClosedError:
            return  # the host refused (nothing listens at its end): the connection just closes
        copier = threading.Thread(target=_copy, args=(host_side, device_side), daemon=True,
                                  name=f"reverse-{listener.local}")
        copier.start()
        _copy(device_side, host_side)
        copier.join(timeout=5)

    return handler


def _copy(source: Stream, target: Stream) -> None:
    try:
        while chunk := source.read():
            target.write(chunk)
    except (StreamClosedError, EOFError):
        pass
    finally:
        target.close()
        source.close()
