"""The ADB device side alone: a tiny service table (fake shell + echo tcp service) behind the real
adb server, and a raw host that sends what adb never would (bad magic, early close, no OKAYs)."""

from __future__ import annotations

import hashlib
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spa_bench.phone.adb import AdbServer, Stream, StreamClosedError, make_banner, phone_services
from spa_bench.phone.adb.packet import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_WRTE,
    MAX_PAYLOAD,
    Packet,
    encode,
    read_packet,
)
from spa_bench.phone.vfs import VirtualFS

if TYPE_CHECKING:
    from conftest import AdbCli

BLOB = bytes(range(256)) * 4000  # 1 MB with every byte value, more than one max payload


@dataclass(frozen=True)
class FakeResult:
    stdout: bytes
    stderr: bytes = b""
    exit_code: int = 0


class FakeShell:
    """Just enough commands to exercise the transport."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, bytes]] = []

    def run(self, command: str, stdin: bytes | Callable[[], bytes] = b"",
            client: object = None) -> FakeResult:
        if command == "cat":  # the one command here that reads stdin, so the only one that waits for it
            stdin = stdin() if callable(stdin) else stdin
            self.ran.append((command, stdin))
            return FakeResult(stdin)
        self.ran.append((command, b""))
        if command.startswith("echo "):
            return FakeResult(command[5:].encode() + b"\n")
        if command == "blob":
            return FakeResult(BLOB)
        if command == "sleep":
            time.sleep(0.2)
            return FakeResult(b"slept\n")
        if command == "fail":
            return FakeResult(b"out\n", b"err\n", 3)
        return FakeResult(b"", f"{command}: not found\n".encode(), 127)


def echo_service(stream: Stream) -> None:
    while data := stream.read():
        stream.write(data.upper())


@dataclass
class Device:
    server: AdbServer
    shell: FakeShell
    fs: VirtualFS
    serial: str


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory, adb_cli: AdbCli) -> Iterator[Device]:
    fs = VirtualFS(tmp_path_factory.mktemp("fs"))
    fs.ensure_layout()
    shell = FakeShell()
    banner = make_banner({"ro.product.name": "tprod", "ro.product.model": "Test_Model",
                          "ro.product.device": "tdev"})
    server = AdbServer(0, banner, phone_services(shell, fs, {9009: echo_service}))  # 0: a free port
    server.start()
    serial = f"127.0.0.1:{server.port}"
    adb_cli.connect(serial)
    try:
        yield Device(server, shell, fs, serial)
    finally:
        adb_cli.run("disconnect", serial, check=False)
        server.stop()


class RawHost:
    """A hand-driven host side, for the things the real adb never does."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        self.sock.sendall(encode(Packet(command, arg0, arg1, payload)))

    def recv(self) -> Packet | None:
        return read_packet(self.sock)

    def connect(self, maxdata: int = MAX_PAYLOAD) -> Packet:
        self.send(A_CNXN, 0x01000001, maxdata, b"host::features=shell_v2")
        reply = self.recv()
        assert reply is not None
        return reply

    def close(self) -> None:
        self.sock.close()


# -- through the real adb ------------------------------------------------------------------------------

def test_devices_lists_banner(device: Device, adb_cli: AdbCli) -> None:
    out = adb_cli.text("devices", "-l")
    assert f"{device.serial}" in out
    assert "model:Test_Model" in out
    assert "product:tprod" in out
    assert "device:tdev" in out


def test_shell_v2_output_exit_code_and_stdin(device: Device, adb_cli: AdbCli) -> None:
    assert adb_cli.text("shell", "echo hi there", serial=device.serial) == "hi there\n"
    proc = adb_cli.run("shell", "fail", serial=device.serial, check=False)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, b"out\n", b"err\n")
    proc = adb_cli.run("shell", "cat", serial=device.serial, input="中文 stdin".encode())
    assert proc.stdout == "中文 stdin".encode()
    assert adb_cli.text("shell", "echo no input read", serial=device.serial) == "no input read\n"
    assert device.shell.ran[-1] == ("echo no input read", b"")


def test_exec_in_hands_stdin_to_a_command_that_reads_it(device: Device, adb_cli: AdbCli) -> None:
    adb_cli.run("exec-in", "cat", serial=device.serial, input=b"raw \x00 bytes")
    # the client may exit before the phone has started the command, or read the end of its input
    deadline = time.monotonic() + 30
    while (not device.shell.ran or device.shell.ran[-1][0] != "cat") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert device.shell.ran[-1] == ("cat", b"raw \x00 bytes")


def test_shell_without_command(device: Device, adb_cli: AdbCli) -> None:
    piped = adb_cli.run("shell", serial=device.serial, input=b"echo a\necho b\nfail", check=False)
    assert piped.stdout == b"a\nb\nout\nerr\n"  # no prompt or echo without a terminal
    assert piped.returncode == 3  # the last command's status

    host = RawHost(device.server.port)  # `shell:` with no command is a terminal session
    host.connect()
    host.send(A_OPEN, 5, 0, b"shell:\0")
    okay = host.recv()
    assert okay is not None
    received = b""
    host.send(A_WRTE, 5, okay.arg0, b"echo hi\r")
    while b"hi\r\n" + b"vphone" not in received:
        packet = host.recv()
        assert packet is not None
        if packet.command == A_WRTE:
            received += packet.payload
            host.send(A_OKAY, 5, okay.arg0)
    assert received.startswith(b"vphone:/ $ echo hi\r\nhi\r\n")
    host.close()


def test_exec_out_is_byte_exact(device: Device, adb_cli: AdbCli) -> None:
    proc = adb_cli.run("exec-out", "blob", serial=device.serial)
    assert hashlib.sha256(proc.stdout).digest() == hashlib.sha256(BLOB).digest()
    assert device.shell.ran[-1][0] == "blob"


def test_shell_v1_through_adbutils_is_byte_exact(device: Device, adb_cli: AdbCli) -> None:
    dev = adb_cli.client().device(device.serial)
    assert dev.shell("blob", encoding=None) == BLOB
    assert dev.shell("echo x") == "x"


def test_push_pull_5mb_and_listing(device: Device, adb_cli: AdbCli, tmp_path: Path) -> None:
    src = tmp_path / "big.bin"
    payload = hashlib.sha256(b"seed").digest() * (5 * 1024 * 1024 // 32)
    src.write_bytes(payload)
    adb_cli.run("push", str(src), "/sdcard/new/dir/big.bin", serial=device.serial)  # parents are made
    assert device.fs.read_bytes("/sdcard/new/dir/big.bin") == payload
    back = tmp_path / "back.bin"
    adb_cli.run("pull", "/sdcard/new/dir/big.bin", str(back), serial=device.serial)
    assert back.read_bytes() == payload
    listing = adb_cli.text("ls", "/sdcard/new/dir", serial=device.serial)
    assert "big.bin" in listing
    missing = adb_cli.run("pull", "/sdcard/none.txt", str(tmp_path / "x"), serial=device.serial, check=False)
    assert missing.returncode != 0
    assert b"No such file" in missing.stderr


def test_adbutils_sync_and_stat(device: Device, adb_cli: AdbCli) -> None:
    dev = adb_cli.client().device(device.serial)
    dev.sync.push(b"hello", "/sdcard/Download/h.txt")
    assert dev.sync.read_bytes("/sdcard/Download/h.txt") == b"hello"
    st = dev.sync.stat("/sdcard/Download/h.txt")
    assert st.size == 5
    names = [e.path for e in dev.sync.list("/sdcard/Download")]
    assert "h.txt" in names


def test_tcp_service_and_refusals(device: Device, adb_cli: AdbCli) -> None:
    import adbutils

    dev = adb_cli.client().device(device.serial)
    sock = dev.create_connection(adbutils.Network.TCP, 9009)
    sock.sendall(b"ping")
    assert sock.recv(100) == b"PING"
    sock.close()
    with pytest.raises(adbutils.AdbError):
        dev.create_connection(adbutils.Network.TCP, 9999)
    with pytest.raises(adbutils.AdbError):
        dev.create_connection(adbutils.Network.LOCAL_ABSTRACT, "nothing")
    assert "production builds" in adb_cli.text("root", serial=device.serial)


def test_many_concurrent_shells(device: Device, adb_cli: AdbCli) -> None:
    dev = adb_cli.client().device(device.serial)
    results: dict[int, str] = {}

    def one(i: int) -> None:
        results[i] = dev.shell(f"echo n{i}")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results == {i: f"n{i}" for i in range(50)}


def test_stream_holds_acks_while_a_slow_service_lags() -> None:
    from spa_bench.phone.adb.stream import HIGH_WATER

    sent: list[Packet] = []
    stream = Stream(sent.append, local_id=1, remote_id=9, max_payload=4096)
    chunk = b"x" * (256 * 1024)
    for _ in range(HIGH_WATER // len(chunk)):
        stream.feed(chunk)
    assert [p.command for p in sent] == [A_OKAY] * 4  # acked at once while the backlog is small
    stream.feed(chunk)
    assert len(sent) == 4  # over the high-water mark: the host must wait
    while len(stream.read(256 * 1024)) and len(sent) == 4:
        pass
    assert sent[-1].command == A_OKAY  # released once the service caught up
    stream.on_remote_close()
    with pytest.raises(StreamClosedError):
        stream.write(b"late")


# -- raw host: misbehaviour must never kill the device --------------------------------------------------

def test_handshake_negotiates_payload(device: Device) -> None:
    host = RawHost(device.server.port)
    reply = host.connect(maxdata=4096)
    assert reply.command == A_CNXN
    assert reply.arg1 == 4096
    assert reply.payload.startswith(b"device::")
    assert b"shell_v2" in reply.payload
    assert b"fixed_push_mkdir" in reply.payload
    host.close()


def test_flow_control_waits_for_okay(device: Device) -> None:
    host = RawHost(device.server.port)
    host.connect(maxdata=4096)
    host.send(A_OPEN, 7, 0, b"exec:blob\0")
    okay = host.recv()
    assert okay is not None
    assert okay.command == A_OKAY
    assert okay.arg1 == 7
    dev_id = okay.arg0
    first = host.recv()
    assert first is not None
    assert first.command == A_WRTE
    assert len(first.payload) == 4096
    host.sock.settimeout(0.3)
    with pytest.raises(socket.timeout):
        host.recv()  # no second WRTE before our OKAY
    host.sock.settimeout(5)
    received = bytearray(first.payload)
    while True:
        host.send(A_OKAY, 7, dev_id)
        packet = host.recv()
        assert packet is not None
        if packet.command == A_CLSE:
            break
        received += packet.payload
    assert bytes(received) == BLOB
    host.close()


def test_malformed_and_abrupt_clients_do_not_kill_device(device: Device, adb_cli: AdbCli) -> None:
    port = device.server.port
    bad = RawHost(port)
    bad.sock.sendall(b"GET / HTTP/1.1\r\n\r\n" + b"x" * 100)  # not ADB at all
    assert bad.recv() is None  # dropped
    bad.close()

    bad = RawHost(port)
    bad.sock.sendall(struct.pack("<6I", A_CNXN, 0x01000001, 4096, 0, 0, 0))  # wrong magic
    assert bad.recv() is None
    bad.close()

    huge = RawHost(port)
    huge.connect()
    huge.sock.sendall(struct.pack("<6I", A_WRTE, 1, 1, 50 * 1024 * 1024, 0, A_WRTE ^ 0xFFFFFFFF))
    assert huge.recv() is None
    huge.close()

    early = RawHost(port)
    early.send(A_OPEN, 1, 0, b"shell:echo x\0")  # OPEN before CNXN is ignored
    early.connect()
    early.send(A_OPEN, 2, 0, b"exec:blob\0")
    assert early.recv() is not None
    early.sock.shutdown(socket.SHUT_RDWR)  # crash in the middle of a transfer
    early.close()

    unknown = RawHost(port)
    unknown.connect()
    unknown.send(A_OPEN, 3, 0, b"no-such-service:\0")
    refused = unknown.recv()
    assert refused is not None
    assert refused.command == A_CLSE
    assert refused.arg1 == 3
    unknown.send(A_WRTE, 99, 12345, b"to nowhere")  # a write to an unknown stream is answered with CLSE
    answer = unknown.recv()
    assert answer is not None
    assert answer.command == A_CLSE
    unknown.send(0x12345678, 0, 0)  # unknown command: ignored
    unknown.send(A_OPEN, 4, 0, b"shell:echo alive\0")
    packets = [unknown.recv() for _ in range(2)]
    assert packets[1] is not None
    assert packets[1].payload == b"alive\n"
    unknown.close()

    assert adb_cli.text("shell", "echo still here", serial=device.serial) == "still here\n"
    deadline = time.monotonic() + 60
    while device.server.listener.client_count > 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert device.server.listener.client_count == 1  # only the adb server's connection remains
