"""`spa-bench serve-env` and the phone's u2 RPC under hostile clients, while a well-behaved client steps.

Starts `spa-bench serve-env --port 0` from --repo (default: this checkout; give an old `git worktree` to
measure the code before a change) on a private adb server. A well-behaved HTTP client resets --task and
taps the screen's upper middle in a loop, one new connection per request (as `requests` without a
session does), and a probe opens a new connection every 0.1 s (connect, GET /health). Then, in turn:

  slowloris   --slowloris connections (a child process) each send `POST /step` with an unfinished
              header and a header line every 5 s, reopening what the server drops, for --hold s; then
              all are reset at once and the server's CPU over the next 10 s is read from /proc
  lengths     Content-Length -1 (then 40 MB, then close), abc, 10**12; a body without a length; a
              chunked body (valid, and over 1 MiB): the status and how long the answer took
  half-open   a header never finished, a body never sent, an idle keep-alive connection, a WebSocket
              handshake never finished: seconds until the server drops each (up to 60 s)
  resets      --max-sessions + 4 resets at once without a session: how many got 200 / 503 / other
  kills       a step whose connection is reset as soon as it is sent (HTTP and WebSocket), 5 each
  u2 scale    takeScreenshot at scale 1/6/20/40 through the u2 server's JSON-RPC, in a child process
              that holds the phone's OS (address space capped at 3 GiB so an unbounded scale fails
              there, not the host): its peak RSS and the answer

Prints the well-behaved client's reset/step p50/p99 before and during each phase, the new-connection p99
(connect and /health answer), the server's RSS before/after (its own process, without its phones), the
table of attacks, and the phone processes left after the server stops.

    python benchmarks/serve_env_abuse.py [--repo PATH] [--slowloris 1000] [--hold 20] [--max-sessions 4]
                                         [--size 1080x2400] [--task calculator_multiply_en]

Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import selectors
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_env_soak import Server, alive, tree

HERE = Path(__file__).resolve().parent.parent
U2_CHILD = """
import json, resource, sys, tempfile, time
cap = 3 << 30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from spa_bench.phone.api import PhoneConfig
from spa_bench.phone.system import PhoneOS
from spa_bench.phone.u2rpc import U2Server
from spa_bench.phone.vfs import VirtualFS
from pathlib import Path
w, h = (int(v) for v in sys.argv[2].split("x"))
with tempfile.TemporaryDirectory() as tmp:
    fs = VirtualFS(Path(tmp) / "fs"); fs.ensure_layout()
    server = U2Server(PhoneOS(PhoneConfig(width=w, height=h), fs))
    warm = {"jsonrpc": "2.0", "id": 0, "method": "takeScreenshot", "params": [1, 80]}
    server.rpc(json.dumps(warm).encode())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0 = time.monotonic()
    call = {"jsonrpc": "2.0", "id": 1, "method": "takeScreenshot", "params": [float(sys.argv[1]), 80]}
    reply = server.rpc(json.dumps(call).encode())
    took = time.monotonic() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    answer = (f"{len(reply['result'])} base64 chars" if "result" in reply
              else f"error {reply['error']['code']}: {reply['error']['message'][:70]}")
    print(json.dumps({"before": before, "peak": peak, "answer": answer, "s": took}))
"""


# -- the well-behaved client ------------------------------------------------------------------------------

class Client:
    """Resets and steps in a loop over new connections; latencies are filed under the current phase."""

    def __init__(self, port: int, task: str, tap: dict[str, Any]) -> None:
        self.port, self.task, self.tap = port, task, tap
        self.phase = "before"
        self.times: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.errors: list[str] = []
        self.stop = threading.Event()
        self.session: str | None = None

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
            reply = conn.getresponse()
            return reply.status, json.loads(reply.read() or b"{}")
        finally:
            conn.close()

    def timed(self, kind: str, path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        phase, t0 = self.phase, time.monotonic()
        try:
            status, reply = self.call("POST", path, body)
        except Exception as exc:
            self.errors.append(f"{phase} {kind}: {type(exc).__name__}: {exc}")
            return None
        self.times[(phase, kind)].append(time.monotonic() - t0)
        if status != 200:
            self.errors.append(f"{phase} {kind}: {status} {reply}")
            return None
        return reply

    def run(self) -> None:
        done = True
        while not self.stop.is_set():
            if done:
                kind = "reset" if self.session else "open"  # opening starts a phone: not a reset's usual time
                reply = self.timed(kind, "/reset", {"task": self.task, "session_id": self.session})
                if reply is None:
                    self.session = None
                    time.sleep(0.5)
                    continue
                self.session, done = reply["session_id"], False
            reply = self.timed("step", "/step", {"session_id": self.session, "action": self.tap})
            done = reply is None or bool(reply["done"])
            if reply is None:
                time.sleep(0.2)


class Probe:
    """A new connection every 0.1 s: the connect time and the time to the /health answer."""

    def __init__(self, port: int, client: Client) -> None:
        self.port, self.client = port, client
        self.connect: dict[str, list[float]] = defaultdict(list)
        self.health: dict[str, list[float]] = defaultdict(list)
        self.failures: dict[str, int] = defaultdict(int)

    def run(self) -> None:
        while not self.client.stop.wait(0.1):
            phase, t0 = self.client.phase, time.monotonic()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
                    self.connect[phase].append(time.monotonic() - t0)
                    sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    while sock.recv(65536):
                        pass
                self.health[phase].append(time.monotonic() - t0)
            except OSError:
                self.failures[phase] += 1


# -- raw attacks ------------------------------------------------------------------------------------------

def raw(port: int, data: bytes, then: bytes = b"", wait_s: float = 10.0) -> tuple[str, float]:
    """Send `data` (and `then`), read the answer's status line; (what came back, seconds to it)."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=wait_s) as sock:
            sock.sendall(data)
            if then:
                try:
                    sock.sendall(then)
                except OSError:
                    pass  # answered and closed before reading it all: fine
            head = sock.recv(200)
    except TimeoutError:
        return f"no answer in {wait_s:g} s", time.monotonic() - t0
    except OSError as exc:
        return f"{type(exc).__name__}", time.monotonic() - t0
    line = head.split(b"\r\n", 1)[0].decode("latin-1")
    return (line.split(" ", 1)[1] if " " in line else (line or "closed, no answer")), time.monotonic() - t0


def dropped_after(port: int, data: bytes, limit_s: float = 60.0) -> str:
    """Seconds until the server closes a connection that sent `data` and then nothing."""
    t0 = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=limit_s) as sock:
            sock.sendall(data)
            while sock.recv(65536):  # an answer (a keep-alive request's) may come first
                pass
    except TimeoutError:
        return f"held > {limit_s:g} s"
    except OSError:
        pass
    return f"dropped after {time.monotonic() - t0:.1f} s"


def reset_hard(sock: socket.socket) -> None:
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def slowloris_worker(port: int, count: int, hold_s: float) -> None:
    """The child process: `count` half-open requests, kept open (reopened when dropped) for `hold_s`."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sel = selectors.DefaultSelector()
    socks: set[socket.socket] = set()
    opened = reopened = failed = 0

    def open_one() -> bool:
        sock = socket.socket()
        sock.settimeout(3)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"POST /step HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n")
        except OSError:
            sock.close()
            return False
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ)
        socks.add(sock)
        return True

    t0 = time.monotonic()
    for _ in range(count):
        if open_one():
            opened += 1
        else:
            failed += 1
    print(json.dumps({"opened": opened, "failed": failed, "open_s": time.monotonic() - t0}), flush=True)
    t0 = time.monotonic()  # the hold starts once all are open
    next_drip = t0 + 5
    while time.monotonic() - t0 < hold_s:
        for key, _ in sel.select(timeout=0.5):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            sel.unregister(sock)
            socks.discard(sock)
            sock.close()
            if open_one():
                reopened += 1
        if time.monotonic() >= next_drip:
            next_drip += 5
            for sock in list(socks):
                try:
                    sock.send(b"X-a: b\r\n")
                except OSError:
                    pass
    held = len(socks)
    for sock in socks:
        reset_hard(sock)  # all at once, as a killed attacker's kernel would
    print(json.dumps({"held_at_end": held, "reopened": reopened}), flush=True)


# -- measuring the server -----------------------------------------------------------------------------------

def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def phones(pid: int) -> set[int]:
    found = set()
    for child in tree(pid) - {pid}:
        try:
            if b"spa_bench" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            pass
    return found


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def ms(value: float) -> str:
    return "-" if value != value else f"{value * 1000:.0f}"


# -- the run ------------------------------------------------------------------------------------------------

def abuse(args: argparse.Namespace) -> int:
    repo = Path(args.repo).resolve()
    width, height = (int(v) for v in args.size.lower().split("x"))
    tap = {"type": "tap", "x": width // 2, "y": height // 8}
    os.environ["PYTHONPATH"] = str(repo)
    os.chdir(repo)  # `python -m spa_bench` imports the checkout in the current folder first
    server = Server(args.task, args.size, args.max_sessions)
    port, pid = server.port, server.process.pid
    print(f"{os.cpu_count()} CPU core(s); serve-env from {repo} on port {port}; --max-sessions "
          f"{args.max_sessions}; {args.task} at {args.size}")
    client = Client(port, args.task, tap)
    probe = Probe(port, client)
    threads = [threading.Thread(target=client.run, daemon=True),
               threading.Thread(target=probe.run, daemon=True)]
    rows: list[tuple[str, str, str]] = []
    notes: list[str] = []
    code = 0
    try:
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 300
        while not client.times[("before", "step")] and time.monotonic() < deadline:
            time.sleep(0.2)
            if client.errors:
                raise SystemExit(f"the well-behaved client failed: {client.errors[:3]}")
        time.sleep(args.baseline)
        rss_before = rss_mib(pid)

        # slowloris
        client.phase = "slowloris"
        worker = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--slowloris-worker",
                                   str(port), str(args.slowloris), str(args.hold)],
                                  stdout=subprocess.PIPE, text=True)
        assert worker.stdout is not None
        opened = json.loads(worker.stdout.readline() or "{}")
        ended = json.loads(worker.stdout.readline() or "{}")
        worker.wait()
        cpu0, t0 = cpu_s(pid), time.monotonic()
        client.phase = "after reset"
        time.sleep(10)
        cpu_after = (cpu_s(pid) - cpu0) / (time.monotonic() - t0) * 100
        rows.append((f"slowloris x{args.slowloris}",
                     f"opened {opened.get('opened')} in {opened.get('open_s', 0):.1f} s "
                     f"({opened.get('failed')} failed to open), held {ended.get('held_at_end')} at the end, "
                     f"{ended.get('reopened')} reopened after a drop", f"RSS {rss_mib(pid):.0f} MiB"))
        rows.append(("reset of all of them at once", f"server CPU over the next 10 s: {cpu_after:.0f}%", ""))

        # lengths and bodies
        client.phase = "other attacks"
        head = b"POST /step HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        big = b"x" * (40 << 20)
        before = rss_mib(pid)
        answer, took = raw(port, head + b"Content-Length: -1\r\n\r\n", big, wait_s=10)
        time.sleep(1)
        rows.append(("Content-Length: -1, then 40 MB", answer, f"{took:.2f} s; RSS {before:.0f} -> "
                                                                f"{rss_mib(pid):.0f} MiB"))
        for label, data in [("Content-Length: abc", head + b"Content-Length: abc\r\n\r\n{}"),
                            ("Content-Length: 1.5", head + b"Content-Length: 1.5\r\n\r\n{}"),
                            ("Content-Length: 10**12", head + b"Content-Length: 1000000000000\r\n\r\n{}"),
                            ("body without a length",
                             head + b"Connection: close\r\n\r\n{\"session_id\": \"x\"}"),
                            ("chunked body (valid)", head + b"Transfer-Encoding: chunked\r\n\r\n"
                             b"11\r\n{\"session_id\":\"x\"\r\n1\r\n}\r\n0\r\n\r\n"),
                            ("chunked body over 1 MiB", head + b"Transfer-Encoding: chunked\r\n\r\n"
                             + (b"100000\r\n" + b" " * 0x100000 + b"\r\n") * 2 + b"0\r\n\r\n")]:
            answer, took = raw(port, data)
            rows.append((label, answer, f"{took:.2f} s"))

        # half-open connections, side by side
        with ThreadPoolExecutor(4) as pool:
            waits = {
                "header never finished": pool.submit(dropped_after, port, head),
                "body never sent": pool.submit(dropped_after, port, head + b"Content-Length: 100\r\n\r\n"),
                "idle keep-alive": pool.submit(dropped_after, port,
                                               b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"),
                "WebSocket handshake unfinished": pool.submit(dropped_after, port,
                                                              b"GET /ws HTTP/1.1\r\nHost: x\r\n"),
            }
            for label, future in waits.items():
                rows.append((label, future.result(), ""))

        # resets past --max-sessions
        with ThreadPoolExecutor(args.max_sessions + 4) as pool:
            replies = list(pool.map(lambda _: client.call("POST", "/reset", {"task": args.task}),
                                    range(args.max_sessions + 4)))
        statuses: dict[int, int] = defaultdict(int)
        for status, reply in replies:
            statuses[status] += 1
            if status == 200:
                client.call("POST", "/close", {"session_id": reply["session_id"]})
        rows.append((f"{args.max_sessions + 4} resets at once (--max-sessions {args.max_sessions})",
                     ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())),
                     f"sessions after closing: {client.call('GET', '/health')[1].get('sessions')}"))

        # mid-step kills
        status, reply = client.call("POST", "/reset", {"task": args.task})
        victim = reply.get("session_id")
        for _ in range(5):
            sock = socket.create_connection(("127.0.0.1", port))
            body = json.dumps({"session_id": victim, "action": tap}).encode()
            sock.sendall(head + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            reset_hard(sock)
        status, _ = client.call("POST", "/step", {"session_id": victim, "action": tap})
        client.call("POST", "/close", {"session_id": victim})
        rows.append(("HTTP step, connection reset at once, x5", f"the session steps after: {status}", ""))
        ws_before = client.call("GET", "/health")[1].get("sessions")
        from websockets.sync.client import connect

        for _ in range(5):
            with connect(f"ws://127.0.0.1:{port}/ws", max_size=None, open_timeout=60) as ws:
                ws.send(json.dumps({"type": "reset", "data": {"task": args.task}}))
                ws.recv(timeout=120)
                ws.send(json.dumps({"type": "step", "data": tap}))
                reset_hard(ws.socket)
        time.sleep(3)
        rows.append(("WebSocket step, connection reset at once, x5",
                     f"sessions {ws_before} -> {client.call('GET', '/health')[1].get('sessions')} after 3 s",
                     f"phones now: {len(phones(pid))}"))
        rss_after = rss_mib(pid)
    finally:
        client.stop.set()
        for thread in threads:
            thread.join(timeout=120)
        pids = tree(pid)
        exit_code = server.stop()
        deadline = time.monotonic() + 60
        while any(alive(p) for p in pids - {pid}) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [p for p in pids if alive(p)]
        notes.append(f"serve-env exited with {exit_code}; processes left after it stopped: {len(left)}")

    # u2 screenshot scale, one child process per scale
    for scale in (1, 6, 20, 40):
        t0 = time.monotonic()
        done = subprocess.run([sys.executable, "-c", U2_CHILD, str(scale), args.size], capture_output=True,
                              text=True, timeout=600)
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            rows.append((f"u2 takeScreenshot scale {scale}", f"child failed ({done.returncode})",
                         (done.stderr.strip().splitlines() or [""])[-1][:80]))
            continue
        result = json.loads(lines[-1])
        rows.append((f"u2 takeScreenshot scale {scale}", result["answer"],
                     f"{result['s']:.2f} s; phone RSS {result['before']:.0f} -> peak {result['peak']:.0f} MiB"
                     f" ({time.monotonic() - t0:.0f} s with start)"))

    # the figures
    print(f"\n{'phase':<14} {'reset p50/p99 ms':>17} {'step p50/p99 ms':>16} {'steps':>6} "
          f"{'connect p99 ms':>15} {'/health p99 ms':>15} {'probe fails':>11}")
    for phase in ("before", "slowloris", "after reset", "other attacks"):
        resets, steps = client.times[(phase, "reset")], client.times[(phase, "step")]
        print(f"{phase:<14} {ms(pct(resets, 50)) + '/' + ms(pct(resets, 99)):>17} "
              f"{ms(pct(steps, 50)) + '/' + ms(pct(steps, 99)):>16} {len(steps):>6} "
              f"{ms(pct(probe.connect[phase], 99)):>15} {ms(pct(probe.health[phase], 99)):>15} "
              f"{probe.failures[phase]:>11}")
    print(f"\nserver RSS (its own process): before {rss_before:.0f} MiB, after {rss_after:.0f} MiB")
    print(f"\n{'attack':<44} | {'answer':<60} | effect")
    for label, answer, effect in rows:
        print(f"{label:<44} | {answer:<60} | {effect}")
    for note in notes:
        print(note)
    if client.errors:
        print(f"the well-behaved client's errors ({len(client.errors)}); the first ones:")
        for line in client.errors[:8]:
            print(f"  {line[:200]}")
        code = 1
    return code


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--slowloris-worker":
        slowloris_worker(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=str(HERE), help="the checkout whose serve-env to run")
    parser.add_argument("--slowloris", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=20.0, help="seconds the slowloris connections stay")
    parser.add_argument("--baseline", type=float, default=15.0, help="seconds of stepping before attacks")
    parser.add_argument("--max-sessions", type=int, default=4)
    parser.add_argument("--size", default="1080x2400")
    parser.add_argument("--task", default="calculator_multiply_en")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    from private_adb import private_adb_server

    with private_adb_server("spa-serve-env-abuse-"):
        code = abuse(args)
    raise SystemExit(code)


if __name__ == "__main__":
    main()
