"""Bounded, seeded fuzzing of a phone's three ports: ADB, the console, and uiautomator2's RPC server
(reached as agents reach it, through `adb forward tcp:N tcp:9008`).

The phone runs in its own process, as in a benchmark run. After every batch: it still answers
`adb shell echo ok`; nothing outside its data directory was read (no reply carries the canary's secret
or the host's /etc/passwd) or written (the canary is unchanged, no file named by the fuzzing exists
outside the data dir, the folder around the data dir is as it was); its RSS (from /proc/PID/status) is
at most twice what it was before the batch. Every loop is bounded in count and in time, talks only to
127.0.0.1 and draws from a seeded random.Random.
"""

from __future__ import annotations

import os
import random
import socket
import struct
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from spa_bench.phone.adb.packet import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_STLS,
    A_SYNC,
    A_WRTE,
    Packet,
    PacketError,
    encode,
    read_packet,
)

if TYPE_CHECKING:
    from conftest import AdbCli

HOST = "127.0.0.1"
BATCH_SECONDS = 8.0  # every loop stops at this deadline even if its count is not reached
PATH_SECONDS = 25.0  # the path-traversal batch: ~300 streams that each end in milliseconds
MARKER = "fuzz-escape"  # every file the fuzzing tries to create outside the phone carries this name
PASSWD_HEAD = Path("/etc/passwd").read_bytes().split(b"\n", 1)[0] if Path("/etc/passwd").is_file() else b""


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for pid {pid}")


@dataclass
class Target:
    """The phone under fuzz and what must stay true about it."""

    adb: AdbCli
    serial: str
    pid: int
    adb_port: int
    console_port: int
    u2_port: int  # the adb-forwarded local port
    token: str
    data_dir: Path
    root: Path  # holds the data dir's parent and the canary folder
    canary: Path
    secret: bytes
    received: list[bytes] = field(default_factory=list)

    def outside_tree(self) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        for dirpath, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if Path(dirpath, d) != self.data_dir]
            for name in files:
                st = Path(dirpath, name).stat()
                out[os.path.relpath(Path(dirpath, name), self.root)] = (st.st_size, st.st_mtime_ns)
        return out

    def escaped_files(self) -> list[Path]:
        """Files the fuzzing named that exist anywhere outside the data dir we can look."""
        found = []
        for top in (self.root, Path.cwd(), Path("/tmp"), Path.home()):
            for dirpath, dirs, files in os.walk(top):
                dirs[:] = [d for d in dirs if Path(dirpath, d) != self.data_dir and not d.startswith(".")]
                found += [Path(dirpath, f) for f in files + dirs if MARKER in f]
                if top != self.root:
                    dirs[:] = []  # only the top level of the shared folders
        return found


@dataclass
class Batch:
    target: Target
    rss_before: int
    tree_before: dict[str, tuple[int, int]]
    started: float = field(default_factory=time.monotonic)

    def time_left(self, budget: float = BATCH_SECONDS) -> bool:
        return time.monotonic() - self.started < budget

    def check(self) -> None:
        t = self.target
        assert t.adb.text("shell", "echo ok", serial=t.serial, timeout=30) == "ok\n"
        leaked = [r for r in t.received if t.secret in r or (PASSWD_HEAD and PASSWD_HEAD in r)]
        assert not leaked, f"a reply carried data from outside the phone: {leaked[0][:200]!r}"
        assert t.canary.read_bytes() == t.secret
        assert t.outside_tree() == self.tree_before
        assert t.escaped_files() == []
        rss_after = rss_kb(t.pid)
        print(f"phone RSS {self.rss_before} kB -> {rss_after} kB")  # shown by pytest -rP
        assert rss_after <= 2 * self.rss_before, f"RSS {self.rss_before} kB -> {rss_after} kB"
        t.received.clear()


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, adb_cli: AdbCli) -> Iterator[Target]:
    from spa_bench.phone.process import start_phone_processes

    root = tmp_path_factory.mktemp("fuzz-root")
    outside = root / "outside"
    outside.mkdir()
    secret = b"canary-" + random.Random(7).randbytes(12).hex().encode()
    (outside / "canary.txt").write_bytes(secret)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HOME", str(adb_cli.home))  # the phone's console token goes beside adb's
        pool = start_phone_processes(1, data_root=root / "phones")
    phone = pool.phones[0]
    try:
        adb_cli.connect(phone.serial)
        u2_port = int(adb_cli.text("forward", "tcp:0", "tcp:9008", serial=phone.serial))  # adb's free port
        token = (adb_cli.home / ".emulator_console_auth_token").read_text().strip()
        t = Target(adb_cli, phone.serial, phone.process.pid, phone.port, phone.console_port, u2_port, token,
                   phone.data_dir, root, outside / "canary.txt", secret)
        # Warm every path once, so lazily imported code is not counted as growth.
        assert adb_cli.text("shell", "echo ok", serial=phone.serial) == "ok\n"
        http(t, b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
        console_lines(t, [f"auth {token}", "avd name"])
        yield t
    finally:
        adb_cli.run("forward", "--remove-all", serial=phone.serial, check=False)
        adb_cli.run("disconnect", phone.serial, check=False)
        pool.stop()


@pytest.fixture
def batch(target: Target) -> Iterator[Batch]:
    b = Batch(target, rss_kb(target.pid), target.outside_tree())
    yield b
    b.check()


# -- raw clients -----------------------------------------------------------------------------------------
def drain(sock: socket.socket, deadline: float, limit: int = 4 << 20) -> bytes:
    """What the peer sends until it closes, `deadline` passes or `limit` bytes arrived."""
    data = bytearray()
    while time.monotonic() < deadline and len(data) < limit:
        sock.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = sock.recv(65536)
        except (TimeoutError, OSError):
            break
        if not chunk:
            break
        data += chunk
    return bytes(data)


def one_shot(t: Target, port: int, payload: bytes, wait: float = 1.0) -> bytes:
    """Connect, send, half-close, and keep what comes back."""
    with socket.create_connection((HOST, port), timeout=2) as sock:
        try:
            sock.sendall(payload)
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        reply = drain(sock, time.monotonic() + wait)
    t.received.append(reply)
    return reply


class RawAdb:
    """A host that speaks just enough ADB to open streams and read them, acknowledging every WRTE."""

    def __init__(self, t: Target) -> None:
        self.t = t
        self.sock = socket.create_connection((HOST, t.adb_port), timeout=3)

    def send(self, command: int, arg0: int, arg1: int, payload: bytes = b"") -> None:
        self.sock.sendall(encode(Packet(command, arg0, arg1, payload)))

    def recv(self) -> Packet | None:
        try:
            return read_packet(self.sock)
        except (OSError, PacketError):
            return None

    def handshake(self) -> None:
        self.send(A_CNXN, 0x01000001, 256 * 1024, b"host::features=shell_v2,cmd,stat_v2,ls_v2")
        while (p := self.recv()) is not None and p.command != A_CNXN:
            pass
        assert p is not None, "the phone did not answer CNXN"

    def stream(self, local: int, service: bytes, send: bytes = b"", wait: float = 3.0) -> bytes:
        """OPEN a service, write `send` to it, and return everything it wrote back before closing."""
        self.send(A_OPEN, local, 0, service + b"\0")
        remote, out = 0, bytearray()
        deadline = time.monotonic() + wait
        self.sock.settimeout(wait)
        while time.monotonic() < deadline:
            p = self.recv()
            if p is None:
                break
            if p.arg1 != local:
                continue
            if p.command == A_OKAY and not remote:
                remote = p.arg0
                if send:
                    self.send(A_WRTE, local, remote, send)
            elif p.command == A_WRTE:
                out += p.payload
                self.send(A_OKAY, local, p.arg0)
            elif p.command == A_CLSE:
                break
        self.t.received.append(bytes(out))
        return bytes(out)

    def close(self) -> None:
        self.sock.close()


def console_lines(t: Target, lines: list[str], raw: bytes = b"") -> bytes:
    return one_shot(t, t.console_port, "".join(f"{line}\r\n" for line in lines).encode() + raw, wait=2.0)


def http(t: Target, request: bytes, wait: float = 2.0) -> bytes:
    """One request on a fresh connection; the first response (headers + Content-Length body), or what
    came before the server closed or `wait` passed. No half-close: adb forward would end the stream."""
    deadline = time.monotonic() + wait
    data = bytearray()
    with socket.create_connection((HOST, t.u2_port), timeout=2) as sock:
        try:
            sock.sendall(request)
        except OSError:
            pass
        while time.monotonic() < deadline:
            head, sep, body = bytes(data).partition(b"\r\n\r\n")
            if sep and not head.startswith(b"HTTP/1.1 100"):
                length = next((int(v) for k, _, v in (h.partition(b":") for h in head.split(b"\r\n"))
                               if k.strip().lower() == b"content-length"), 0)
                if len(body) >= length:
                    break
            elif sep:  # an interim "100 Continue": the final answer follows
                data = bytearray(body)
                continue
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            try:
                chunk = sock.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    t.received.append(bytes(data))
    return bytes(data)


def traversal_paths(t: Target) -> list[str]:
    """Paths that would reach the canary if the phone's file system let a client out of its root."""
    up = [("../" * n) + "outside/canary.txt" for n in range(1, 9)]
    return [*(f"/{p}" for p in up), *up, str(t.canary), f"/{t.canary}",
            f"/sdcard/{'../' * 6}outside/canary.txt",
            "/sdcard/Download/../../../../../../etc/passwd", "/etc/passwd", "/proc/self/environ",
            f"file://{t.canary}", "/sdcard/..%2f..%2f..%2fetc/passwd"]


def write_paths(t: Target) -> list[str]:
    up = [("../" * n) + f"outside/{MARKER}-{n}" for n in range(1, 9)]
    return [*(f"/{p}" for p in up), *up, str(t.canary.parent / f"{MARKER}-abs"),
            f"/sdcard/{'../' * 6}{MARKER}-sd", f"/tmp/{MARKER}-tmp", f"{Path.cwd()}/{MARKER}-cwd"]


# -- ADB port ----------------------------------------------------------------------------------------------
def test_adb_malformed_framing_and_oversized_lengths(target: Target, batch: Batch) -> None:
    rng = random.Random(1701)
    kinds: list[Callable[[], bytes]] = [
        lambda: rng.randbytes(rng.randint(1, 3000)),
        lambda: struct.pack("<6I", A_CNXN, 0x01000001, 4096, 0, 0, rng.getrandbits(32)),  # bad magic
        lambda: struct.pack("<6I", A_WRTE, 1, 1, rng.choice([2**32 - 1, 2**31, 50 << 20]), 0,
                            A_WRTE ^ 0xFFFFFFFF),  # oversized length
        lambda: rng.randbytes(rng.randint(1, 23)),  # a truncated header
        lambda: encode(Packet(A_CNXN, rng.choice([0, 1, 0x7FFFFFFF]), rng.choice([0, 1, 2**32 - 1]),
                              rng.randbytes(rng.randint(0, 300)))),
        lambda: encode(Packet(rng.choice([A_AUTH, A_STLS, A_SYNC]), rng.getrandbits(32), rng.getrandbits(32),
                              rng.randbytes(rng.randint(0, 500)))),
        lambda: encode(Packet(A_CNXN, 0x01000001, 4096, b"host::")) * rng.randint(2, 50),
        lambda: struct.pack("<6I", A_CNXN, 0x01000000, 4096, 100, 12345, A_CNXN ^ 0xFFFFFFFF) + b"x" * 100,
    ]
    replies = []
    for _ in range(1000):
        if not batch.time_left():
            break
        replies.append(one_shot(target, target.adb_port, rng.choice(kinds)(), wait=0.5))
    assert len(replies) >= 100  # the loop may stop at its deadline on a slow machine, not before 100
    assert any(r.startswith(b"CNXN") for r in replies)  # the well-framed ones were answered


def test_adb_many_connections_and_streams(target: Target, batch: Batch) -> None:
    rng = random.Random(1702)
    services = [b"framebuffer:", b"shell:echo hi", b"exec:echo hi", b"sync:", b"tcp:9008", b"jdwp:1",
                b"reverse:forward:tcp:1;tcp:2", b"localabstract:x", b"\xff\xfe", b"", b"shell:" + b"a" * 5000]
    hosts: list[RawAdb] = []
    try:
        for _ in range(50):  # many hosts at once, each with streams it never reads
            host = RawAdb(target)
            host.handshake()
            for local in range(1, 31):
                host.send(A_OPEN, local, 0, rng.choice(services) + b"\0")
            hosts.append(host)
        crowded = RawAdb(target)  # one host, 2,000 OPENs, stray ids, then gone mid-transfer
        crowded.handshake()
        opened = 0
        for local in range(1, 2001):
            crowded.send(A_OPEN, local, 0, rng.choice(services[:3]) + b"\0")
            opened += 1
            if local % 50 == 0:
                crowded.send(rng.choice([A_OKAY, A_WRTE, A_CLSE]), rng.getrandbits(32), rng.getrandbits(32),
                             rng.randbytes(rng.randint(0, 64)))
            if not batch.time_left():
                break
        hosts.append(crowded)
        answered: set[int] = set()  # every OPEN gets its OKAY or CLSE; the WRTEs that follow wait for us
        crowded.sock.settimeout(2)
        while len(answered) < opened and batch.time_left():
            p = crowded.recv()
            if p is None:
                break
            if p.command in (A_OKAY, A_CLSE) and 1 <= p.arg1 <= opened:
                answered.add(p.arg1)
        assert len(answered) == opened
    finally:
        for host in hosts:
            host.close()


def test_adb_tcp_and_local_services_reach_nothing_on_the_host(target: Target, batch: Batch) -> None:
    """tcp:PORT reaches only the phone's own in-process servers (uiautomator2 on 9008), never a host port."""
    host = RawAdb(target)
    host.handshake()
    services = [f"tcp:{p}" for p in (22, 80, 5037, target.adb_port, target.console_port, target.u2_port, 0,
                                      65535, 99999)]
    services += ["tcp:-1", "tcp:127.0.0.1:22", "tcp:localhost", "localfilesystem:/tmp/x",
                 "localabstract:adbd", "localreserved:x", "dev:/dev/null", "jdwp:1"]
    try:
        for local, service in enumerate(services, start=1):
            host.send(A_OPEN, local, 0, service.encode() + b"\0")
            host.sock.settimeout(3)
            while (p := host.recv()) is not None and p.arg1 != local:
                pass
            assert p is not None and p.command == A_CLSE, (service, p)
        host.send(A_OPEN, 100, 0, b"tcp:9008\0")
        while (p := host.recv()) is not None and p.arg1 != 100:
            pass
        assert p is not None and p.command == A_OKAY
        # `adb reverse` is installed (adbd answers OKAY) but opens nothing towards the host by itself
        host.send(A_OPEN, 101, 0, b"reverse:forward:tcp:9999;tcp:22\0")
        while (p := host.recv()) is not None and p.command != A_WRTE:
            assert p.command != A_OPEN, p
        assert p is not None and p.payload == b"OKAY"
    finally:
        host.close()


def test_adb_random_bytes_after_a_valid_handshake(target: Target, batch: Batch) -> None:
    rng = random.Random(1703)
    commands = [A_OPEN, A_OKAY, A_WRTE, A_CLSE, A_CNXN, A_AUTH, A_SYNC, A_STLS, 0, 0xFFFFFFFF]
    done = 0
    for i in range(300):
        if not batch.time_left():
            break
        host = RawAdb(target)
        host.handshake()
        try:
            if i % 2:
                host.sock.sendall(rng.randbytes(rng.randint(1, 20000)))
            else:
                for _ in range(rng.randint(1, 40)):
                    cmd = rng.choice(commands)
                    payload = rng.randbytes(rng.randint(0, 2048))
                    host.send(cmd, rng.getrandbits(32), rng.getrandbits(32), payload)
            host.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        target.received.append(drain(host.sock, time.monotonic() + 0.5))
        host.close()
        done += 1
    assert done >= 30


def test_sync_and_shell_paths_stay_inside_the_phone(target: Target, batch: Batch) -> None:
    host = RawAdb(target)
    host.handshake()
    local = 1
    try:
        for path in traversal_paths(target):
            if not batch.time_left(PATH_SECONDS):  # bounded in time as well as in count
                break
            for request in (b"STAT", b"STA2", b"LIST", b"LIS2", b"RECV"):
                blob = path.encode()
                sync = request + struct.pack("<I", len(blob)) + blob + b"QUIT\0\0\0\0"
                reply = host.stream(local, b"sync:", sync)
                assert reply[:4] in (b"STAT", b"STA2", b"DENT", b"DNT2", b"DONE", b"FAIL"), (sync, reply)
                local += 1
            assert host.stream(local, f"shell:cat '{path}'; ls -la '{path}'".encode())  # an error message
            host.stream(local + 1, f"exec:cat '{path}'".encode())
            local += 2
        for path in write_paths(target):
            if not batch.time_left(PATH_SECONDS):  # bounded in time as well as in count
                break
            spec = f"{path},33188".encode()
            data = b"DATA" + struct.pack("<I", 6) + b"pwned\n"
            request = b"SEND" + struct.pack("<I", len(spec)) + spec + data + b"DONE\0\0\0\0QUIT\0\0\0\0"
            host.stream(local, b"sync:", request)
            shell = f"shell:echo pwned > '{path}'; touch '{path}'; mkdir -p '{path}.d'"
            host.stream(local + 1, shell.encode())
            host.stream(local + 2, f"shell:cp /system/build.prop '{path}'".encode())
            local += 3
        # Through a symlink, and by walking up with cd.
        up = "/sdcard/Download/up"
        host.stream(local, f"shell:ln -s /../../../../outside {up}; cat {up}/canary.txt; "
                           f"echo pwned > {up}/{MARKER}-link; ls {up}".encode())
        host.stream(local + 1, b"shell:cd /; cd ../../../..; ls; cat outside/canary.txt; pwd")
        # Sync garbage: unknown ids, oversized lengths, a path longer than adb allows.
        rng = random.Random(1704)
        for i in range(40):
            if not batch.time_left(PATH_SECONDS):
                break
            junk = rng.choice([b"RECV" + struct.pack("<I", 2**32 - 1),
                               b"SEND" + struct.pack("<I", 5000) + b"x" * 5000,
                               rng.randbytes(rng.randint(1, 300)),
                               b"DATA" + struct.pack("<I", 2**31) + b"zz"])
            host.stream(local + 2 + i, b"sync:", junk, wait=0.5)
    finally:
        host.close()
        target.adb.run("shell", "rm -rf /sdcard/Download/up", serial=target.serial, check=False)


# -- console port ---------------------------------------------------------------------------------------
def test_console_garbage_and_many_clients(target: Target, batch: Batch) -> None:
    rng = random.Random(1705)
    words = ["kill", "avd", "snapshot", "load", "save", "gsm", "sms", "geo", "auth", "help", "quit", "..",
             "/",
             "\t", " ", "%s%n", "\\x00"]
    for _ in range(80):
        if not batch.time_left():
            break
        lines = [" ".join(rng.choice(words) for _ in range(rng.randint(0, 6)))
                 for _ in range(rng.randint(1, 20))]
        reply = console_lines(target, lines, raw=rng.choice([b"", rng.randbytes(rng.randint(1, 200))]))
        assert b"OK: killing emulator" not in reply
    one_shot(target, target.console_port, b"A" * (1 << 20) + b"\r\nping\r\n", wait=2.0)  # 1 MB line
    socks = [socket.create_connection((HOST, target.console_port), timeout=2) for _ in range(60)]
    for s in socks:
        s.sendall(b"kil")  # half a command, never finished
    for s in socks:
        s.close()
    assert b"I am alive!" in console_lines(target, ["ping"])


def test_console_snapshot_names_cannot_leave_the_phone(target: Target, batch: Batch) -> None:
    names = [f"../{MARKER}", f"../../{MARKER}", f"../../../outside/{MARKER}", f"/tmp/{MARKER}",
             f"{target.canary.parent}/{MARKER}", f"a/../../{MARKER}", "..", ".", "", f"{MARKER}\\..\\x",
             "x" * 300, f"{MARKER}\0x", "~", f"%2e%2e/{MARKER}"]
    lines = [f"auth {target.token}"]
    for name in names:
        lines += [f"avd snapshot save {name}", f"avd snapshot load {name}", f"avd snapshot del {name}"]
    reply = console_lines(target, lines).decode("utf-8", "replace")
    assert reply.count("KO:") >= 3 * (len(names) - 1)
    assert "OK: killing" not in reply
    snapshots = target.data_dir / "snapshots"
    assert all(MARKER not in p.name for p in snapshots.iterdir())


# -- uiautomator2 RPC port (through adb forward) --------------------------------------------------------
def test_u2_rpc_malformed_requests(target: Target, batch: Batch) -> None:
    rng = random.Random(1706)

    def post(body: bytes, length: str | None = None) -> bytes:
        size = str(len(body)) if length is None else length
        return b"POST /jsonrpc/0 HTTP/1.1\r\nHost: x\r\nContent-Length: " + size.encode() + b"\r\n\r\n" + body

    requests = [
        b"garbage\r\n\r\n", rng.randbytes(4000),
        post(b"{}", "999999999"), post(b"{}", "-5"), post(b"{}", "abc"),
        post(b"{not json"), post(b"[1, 2, 3]"), post(b'"a string"'),
        post(b'{"jsonrpc": "2.0", "id": 1, "method": "noSuchMethod", "params": []}'),
        post(b'{"jsonrpc": "2.0", "id": 1, "method": "click", "params": ["a", {}]}'),
        b"GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /" + str(target.canary).encode() + b" HTTP/1.1\r\n\r\n",
        b"GET /ping HTTP/1.1\r\n" + b"X-Long: " + b"a" * 200_000 + b"\r\n\r\n",
        b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n" + rng.randbytes(3000),
        b"POST /jsonrpc/0 HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nffffffff\r\n",
    ]
    for request in requests:
        reply = http(target, request)
        if reply:
            status = reply.split(b"\r\n", 1)[0]
            assert status.startswith(b"HTTP/1.1 "), reply[:100]
            code = int(status.split()[1])
            assert code < 500, reply[:300]
            assert code >= 400 or b'"error"' in reply or b"pong" in reply, reply[:300]
    for _ in range(40):
        if not batch.time_left():
            break
        reply = http(target, rng.randbytes(rng.randint(1, 2000)) + b"\r\n\r\n", wait=0.3)
        assert not reply or reply.startswith(b"HTTP/1.1 400"), reply[:200]
    socks = [socket.create_connection((HOST, target.u2_port), timeout=2) for _ in range(40)]
    headers_only = b"POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: 10\r\n\r\n"
    threads = [threading.Thread(target=s.sendall, args=(headers_only,)) for s in socks]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for s in socks:
        s.close()
    assert b"pong" in http(target, b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
