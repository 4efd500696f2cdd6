"""One host connection: the CNXN handshake, then a reader loop that multiplexes streams.

Threads: the caller's thread runs `serve()` (the reader); every accepted OPEN gets a worker thread that
runs the service with its `Stream`. Outgoing packets from all threads share one lock around sendall.
Anything unexpected from the host (bad magic, oversized payload, a reset) ends this connection only;
the phone and its other connections carry on. A host has HANDSHAKE_TIMEOUT_S to send its CNXN; after
that, a connection may stay idle for as long as the host likes (an adb server keeps one per device).
"""

from __future__ import annotations

import itertools
import logging
import socket
import threading
from collections.abc import Callable

from spa_bench.phone.adb.packet import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    MAX_PAYLOAD,
    MAX_PAYLOAD_V1,
    VERSION_MIN,
    VERSION_SKIP_CHECKSUM,
    Packet,
    PacketError,
    encode,
    read_packet,
)
from spa_bench.phone.adb.stream import Stream, StreamClosedError

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT_S = 10.0
OPEN_TIMEOUT_S = 10.0  # how long a stream the device OPENs waits for the host's answer
Handler = Callable[[Stream], None]
Resolver = Callable[[str], Handler | None]


class AdbConnection:
    """Speaks the device side of the ADB transport on one accepted socket."""

    def __init__(self, sock: socket.socket, banner: bytes, resolve: Resolver, name: str = "adb",
                 serial: str = "") -> None:
        self.sock = sock
        self.serial = serial  # adbd's name for this host (`host-FD` for TCP), as `reverse --list` shows
        self.banner = banner
        self.resolve = resolve
        self.name = name
        self.version = VERSION_MIN
        self.max_payload = MAX_PAYLOAD_V1
        self._send_lock = threading.Lock()
        self._streams: dict[int, Stream] = {}
        self._streams_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._dead = False
        self._connected = False
        self._close_callbacks: list[Callable[[], None]] = []
        self._ended = False  # close() ran its callbacks: a later one runs at once

    # -- sending --------------------------------------------------------------------------------------
    def send(self, packet: Packet) -> None:
        """Thread-safe send; StreamClosedError when the socket is gone."""
        data = encode(packet, with_checksum=self.version < VERSION_SKIP_CHECKSUM)
        with self._send_lock:
            if self._dead:
                raise StreamClosedError("connection closed")
            try:
                self.sock.sendall(data)
            except OSError as exc:
                self._dead = True
                raise StreamClosedError(str(exc)) from exc

    # -- reader loop ----------------------------------------------------------------------------------
    def serve(self) -> None:
        """Run until the host disconnects or misbehaves; always cleans up its streams."""
        try:
            self.sock.settimeout(HANDSHAKE_TIMEOUT_S)
            while True:
                packet = read_packet(self.sock, max_payload=MAX_PAYLOAD,
                                     verify_checksum=self._connected and self.version < VERSION_SKIP_CHECKSUM)
                if packet is None:
                    break
                self._dispatch(packet)
                if self._connected and self.sock.gettimeout() is not None:
                    self.sock.settimeout(None)
        except PacketError as exc:
            log.info("%s: dropping connection: %s", self.name, exc)
        except StreamClosedError:
            pass
        except OSError as exc:
            log.debug("%s: connection error: %s", self.name, exc)
        finally:
            self.close()

    def on_close(self, callback: Callable[[], None]) -> None:
        """Call `callback` once when this connection ends (adbd's transport disconnect hooks)."""
        with self._streams_lock:
            if not self._ended:
                self._close_callbacks.append(callback)
                return
        callback()

    def open_to_host(self, service: str) -> Stream:
        """A stream the device OPENs to the host (what `adb reverse` carries); StreamClosedError when
        the host refuses it or does not answer within OPEN_TIMEOUT_S."""
        local_id = next(self._ids)
        stream = Stream(self.send, local_id, 0, self.max_payload, on_closed=self._on_stream_closed, link=self)
        with self._streams_lock:
            self._streams[local_id] = stream
        self.send(Packet(A_OPEN, local_id, 0, service.encode() + b"\0"))
        if not stream.wait_accepted(OPEN_TIMEOUT_S):
            stream.close()
            raise StreamClosedError(f"the host did not accept {service!r}")
        return stream

    def close(self) -> None:
        with self._send_lock:
            self._dead = True
        with self._streams_lock:
            streams = list(self._streams.values())
            self._streams.clear()
        for stream in streams:
            stream.on_remote_close()
        with self._streams_lock:
            callbacks, self._close_callbacks, self._ended = self._close_callbacks, [], True
        for callback in callbacks:
            callback()
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()

    def _dispatch(self, packet: Packet) -> None:
        if packet.command == A_CNXN:
            self._handshake(packet)
        elif not self._connected:
            log.debug("%s: ignoring %r before CNXN", self.name, packet)
        elif packet.command == A_OPEN:
            self._open(packet)
        elif packet.command == A_WRTE:
            stream = self._stream(packet.arg1)
            if stream is None or stream.remote_id != packet.arg0:
                self._send_quietly(Packet(A_CLSE, packet.arg1, packet.arg0))
            else:
                stream.feed(packet.payload)
        elif packet.command == A_OKAY:
            stream = self._stream(packet.arg1)
            if stream is not None:
                stream.on_okay(packet.arg0)
        elif packet.command == A_CLSE:
            stream = self._forget(packet.arg1)
            if stream is not None:
                stream.on_remote_close()
        else:
            log.debug("%s: ignoring %r", self.name, packet)

    def _handshake(self, packet: Packet) -> None:
        """Reply CNXN without AUTH; a second CNXN (host restart) resets every stream."""
        if packet.arg0 < VERSION_MIN:
            raise PacketError(f"unsupported protocol version 0x{packet.arg0:08x}")
        if self._connected:
            with self._streams_lock:
                old = list(self._streams.values())
                self._streams.clear()
            for stream in old:
                stream.on_remote_close()
        self.version = min(packet.arg0, VERSION_SKIP_CHECKSUM)
        self.max_payload = max(MAX_PAYLOAD_V1, min(packet.arg1, MAX_PAYLOAD))
        self.send(Packet(A_CNXN, self.version, self.max_payload, self.banner))
        self._connected = True

    def _open(self, packet: Packet) -> None:
        remote_id = packet.arg0
        if remote_id == 0:
            return
        service = packet.payload.rstrip(b"\0").decode("utf-8", errors="replace")
        try:
            handler = self.resolve(service)
        except Exception:
            log.exception("%s: resolving service %r failed", self.name, service)
            handler = None
        if handler is None:
            log.debug("%s: refusing service %r", self.name, service)
            self._send_quietly(Packet(A_CLSE, 0, remote_id))
            return
        local_id = next(self._ids)
        stream = Stream(self.send, local_id, remote_id, self.max_payload, on_closed=self._on_stream_closed,
                        link=self)
        with self._streams_lock:
            self._streams[local_id] = stream
        self.send(Packet(A_OKAY, local_id, remote_id))
        worker = threading.Thread(target=self._run, args=(handler, stream, service),
                                  name=f"{self.name}-stream-{local_id}", daemon=True)
        worker.start()

    def _run(self, handler: Handler, stream: Stream, service: str) -> None:
        try:
            handler(stream)
        except (StreamClosedError, EOFError, BrokenPipeError):
            pass
        except Exception:
            log.exception("%s: service %r failed", self.name, service)
        finally:
            stream.close()

    # -- stream table ---------------------------------------------------------------------------------
    def _stream(self, local_id: int) -> Stream | None:
        with self._streams_lock:
            return self._streams.get(local_id)

    def _forget(self, local_id: int) -> Stream | None:
        with self._streams_lock:
            return self._streams.pop(local_id, None)

    def _on_stream_closed(self, stream: Stream) -> None:
        self._forget(stream.local_id)

    @property
    def open_streams(self) -> int:
        with self._streams_lock:
            return len(self._streams)

    def _send_quietly(self, packet: Packet) -> None:
        try:
            self.send(packet)
        except StreamClosedError:
            pass
