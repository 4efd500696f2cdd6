"""`adb reverse` against the phone, through the real adb binary and adbutils: the replies follow AOSP's
handle_forward_request (adb.cpp, device side) and format_listeners (adb_listeners.cpp: `SERIAL LOCAL
REMOTE` lines, the serial `host-FD` of a TCP host); a reversed port carries bytes to the host's port."""

from __future__ import annotations

import socket
import socketserver
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from spa_bench.phone.adb.reverse import ReverseListeners, answer


class _Echo(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        while data := self.request.recv(4096):
            self.request.sendall(b"echo:" + data)


@pytest.fixture
def echo_port() -> Iterator[int]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def phone(running_phone: Any) -> Iterator[Any]:
    running_phone.adb.run("reverse", "--remove-all", serial=running_phone.serial, check=False)
    yield running_phone
    running_phone.adb.run("reverse", "--remove-all", serial=running_phone.serial, check=False)


def _list(phone: Any) -> list[list[str]]:
    """`adb reverse --list` rows (the adb client prints the device's listing and then a newline)."""
    out = phone.adb.text("reverse", "--list", serial=phone.serial)
    return [line.split() for line in out.splitlines() if line]


def test_reverse_list_and_remove_with_adb(phone: Any) -> None:
    adb, serial = phone.adb, phone.serial
    assert adb.text("reverse", "tcp:12345", "tcp:4000", serial=serial) == ""
    adb.run("reverse", "localabstract:chrome_devtools", "tcp:9222", serial=serial)
    listing = _list(phone)
    assert [row[1:] for row in listing] == [["tcp:12345", "tcp:4000"],
                                            ["localabstract:chrome_devtools", "tcp:9222"]]
    assert all(row[0].startswith("host-") and row[0][5:].isdigit() for row in listing)
    adb.run("reverse", "tcp:12345", "tcp:4001", serial=serial)  # rebinding retargets in place
    assert _list(phone)[0][1:] == ["tcp:12345", "tcp:4001"]

    refused = adb.run("reverse", "--no-rebind", "tcp:12345", "tcp:5000", serial=serial, check=False)
    assert refused.returncode != 0
    assert b"cannot rebind existing socket" in refused.stderr

    adb.run("reverse", "--remove", "tcp:12345", serial=serial)
    assert [row[1:] for row in _list(phone)] == [["localabstract:chrome_devtools", "tcp:9222"]]
    missing = adb.run("reverse", "--remove", "tcp:12345", serial=serial, check=False)
    assert missing.returncode != 0
    assert b"listener 'tcp:12345' not found" in missing.stderr
    adb.run("reverse", "--remove-all", serial=serial)
    assert _list(phone) == []


def test_reverse_tcp_0_prints_the_port_it_bound(phone: Any) -> None:
    printed = phone.adb.text("reverse", "tcp:0", "tcp:4000", serial=phone.serial).strip()
    assert printed.isdigit() and 32768 <= int(printed) < 61000
    assert [row[1:] for row in _list(phone)] == [[f"tcp:{printed}", "tcp:4000"]]


def test_reverse_through_adbutils(phone: Any) -> None:
    device = phone.device()
    device.reverse("tcp:12345", "tcp:4000")
    items = device.reverse_list()
    assert [(item.remote, item.local) for item in items] == [("tcp:12345", "tcp:4000")]
    device.reverse_remove("tcp:12345")
    device.reverse("tcp:7000", "tcp:7001")
    device.reverse_remove_all()
    assert device.reverse_list() == []


def test_a_reversed_port_carries_bytes_to_the_host(phone: Any, echo_port: int) -> None:
    adb, serial = phone.adb, phone.serial
    adb.run("reverse", "tcp:23456", f"tcp:{echo_port}", serial=serial)
    host_port = int(adb.text("forward", "tcp:0", "tcp:23456", serial=serial).strip())
    try:
        with socket.create_connection(("127.0.0.1", host_port), timeout=10) as conn:
            conn.sendall(b"ping")
            received = b""
            while len(received) < len(b"echo:ping"):
                chunk = conn.recv(64)
                assert chunk, f"closed after {received!r}"
                received += chunk
            assert received == b"echo:ping"
    finally:
        adb.run("forward", "--remove", f"tcp:{host_port}", serial=serial, check=False)


class _Link:
    serial = "host-7"

    def open_to_host(self, service: str) -> Any:
        raise AssertionError("not used")

    def on_close(self, callback: Any) -> None:
        self.closed = callback


@pytest.mark.parametrize(("command", "reply"), [
    # the texts of handle_forward_request and socket_spec_listen, each as FAIL + 4-hex length + message
    ("garbage", "not a reverse forwarding command"),
    ("forward:tcp:1", "bad forward: tcp:1"),
    ("forward:norebind:tcp:1;*smartsocket*", "bad forward: tcp:1;*smartsocket*"),
    ("killforward:", "bad killforward: "),
    ("forward:tcp:70000;tcp:1", "cannot bind listener: bad port number '70000'"),
    ("forward:udp:1;tcp:1", "cannot bind listener: unknown socket specification: udp:1"),
    ("killforward:tcp:1", "listener 'tcp:1' not found"),
])
def test_refusals_use_aosp_texts(command: str, reply: str) -> None:
    data = reply.encode()
    assert answer(ReverseListeners(), command, _Link()) == b"FAIL" + f"{len(data):04x}".encode() + data


def test_listeners_go_with_their_host_connection() -> None:
    listeners, link = ReverseListeners(), _Link()
    assert answer(listeners, "forward:tcp:5;tcp:6", link) == b"OKAY"
    assert answer(listeners, "list-forward", link) == b"0013host-7 tcp:5 tcp:6\n"
    link.closed()
    assert answer(listeners, "list-forward", link) == b"0000"
