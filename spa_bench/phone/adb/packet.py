"""ADB transport packets: a 24-byte header of six little-endian u32 words, then the payload.

The header is (command, arg0, arg1, data_length, data_check, magic) with magic = command ^ 0xFFFFFFFF.
A bad magic or an oversized payload means the peer is not speaking ADB (or is corrupt): the connection
is dropped rather than resynchronised, as adbd does.
"""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass

_HEADER = struct.Struct("<6I")
HEADER_SIZE = _HEADER.size  # 24


def _cmd(name: bytes) -> int:
    value: int = struct.unpack("<I", name)[0]
    return value


A_SYNC = _cmd(b"SYNC")
A_CNXN = _cmd(b"CNXN")
A_AUTH = _cmd(b"AUTH")
A_OPEN = _cmd(b"OPEN")
A_OKAY = _cmd(b"OKAY")
A_CLSE = _cmd(b"CLSE")
A_WRTE = _cmd(b"WRTE")
A_STLS = _cmd(b"STLS")

COMMAND_NAMES = {A_SYNC: "SYNC", A_CNXN: "CNXN", A_AUTH: "AUTH", A_OPEN: "OPEN", A_OKAY: "OKAY",
                 A_CLSE: "CLSE", A_WRTE: "WRTE", A_STLS: "STLS"}

VERSION_MIN = 0x01000000
VERSION_SKIP_CHECKSUM = 0x01000001
MAX_PAYLOAD_V1 = 4096
MAX_PAYLOAD = 1024 * 1024


class PacketError(Exception):
    """The byte stream is not valid ADB; the connection must be dropped."""


@dataclass(frozen=True)
class Packet:
    command: int
    arg0: int
    arg1: int
    payload: bytes = b""

    @property
    def name(self) -> str:
        return COMMAND_NAMES.get(self.command, f"0x{self.command:08x}")

    def __repr__(self) -> str:
        more = "..." if len(self.payload) > 40 else ""
        return f"Packet({self.name}, {self.arg0}, {self.arg1}, {self.payload[:40]!r}{more})"


def checksum(data: bytes) -> int:
    """adb's data_check: the byte sum modulo 2**32 (only needed below VERSION_SKIP_CHECKSUM)."""
    return sum(data) & 0xFFFFFFFF


def encode(packet: Packet, with_checksum: bool = True) -> bytes:
    """Header + payload, ready for sendall."""
    check = checksum(packet.payload) if with_checksum and packet.payload else 0
    header = _HEADER.pack(packet.command, packet.arg0 & 0xFFFFFFFF, packet.arg1 & 0xFFFFFFFF,
                          len(packet.payload), check, packet.command ^ 0xFFFFFFFF)
    return header + packet.payload


def decode_header(header: bytes) -> tuple[int, int, int, int, int]:
    """(command, arg0, arg1, length, check) of a 24-byte header; PacketError if the magic is wrong."""
    if len(header) != HEADER_SIZE:
        raise PacketError(f"short header ({len(header)} bytes)")
    command, arg0, arg1, length, check, magic = _HEADER.unpack(header)
    if magic != command ^ 0xFFFFFFFF:
        raise PacketError(f"bad magic 0x{magic:08x} for command 0x{command:08x}")
    return command, arg0, arg1, length, check


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    """Exactly n bytes; b"" if the peer closed before the first byte, PacketError if mid-way."""
    if n == 0:
        return b""
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            if not buf:
                return b""
            raise PacketError(f"connection closed after {len(buf)} of {n} bytes")
        buf += chunk
    return bytes(buf)


def read_packet(sock: socket.socket, max_payload: int = MAX_PAYLOAD,
                verify_checksum: bool = False) -> Packet | None:
    """The next packet, or None at a clean end of stream (peer closed between packets)."""
    header = _recv_exact(sock, HEADER_SIZE)
    if not header:
        return None
    command, arg0, arg1, length, check = decode_header(header)
    if length > max_payload:
        raise PacketError(f"payload of {length} bytes exceeds the maximum {max_payload}")
    payload = _recv_exact(sock, length)
    if len(payload) != length:
        raise PacketError("connection closed inside a payload")
    if verify_checksum and length and checksum(payload) != check:
        raise PacketError("payload checksum mismatch")
    return Packet(command, arg0, arg1, payload)
