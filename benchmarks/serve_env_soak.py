"""`spa-bench serve-env` under a long load: memory growth, throughput, errors, and a killed client's phone.

Starts `spa-bench serve-env --port 0` as a subprocess (on a private adb server) and opens --sessions
WebSocket sessions, each in a client thread of its own that resets --task and taps the screen's upper
middle in a loop (resetting when the episode ends) for --seconds from the moment every session is open.
Every 10 s it samples the total memory of the server and all its descendant processes (the phones, the
zygote they fork from): the sum of their PSS (/proc/PID/smaps_rollup; shared pages split among the
processes that map them, so the sum is what they cost together). The private adb server is not a
descendant and is not counted.

Prints a table (time, steps so far, errors so far, processes, total PSS MiB, the server process's own PSS
MiB), then the warm-up figure (the sample at 20% of the run), the end figure, the growth between them in %,
the server's share per session, total steps, steps/s and errors.
Then the killed-client check, with the sessions still stepping: a client in a subprocess opens a session
and is killed with SIGKILL; prints the seconds until its phone process is gone (target: 30 s) and until
/health counts its session closed. Exits non-zero on any error, or if that phone outlives the target.

    python benchmarks/serve_env_soak.py [--sessions 64] [--seconds 600] [--size 1080x2400]
                                        [--task calculator_multiply_en]

Linux only (it reads /proc). Needs nothing else: it starts its own adb server and phones.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SAMPLE_EVERY_S = 10.0
KILL_TARGET_S = 30.0
URL_LINE = re.compile(r"http://127\.0\.0\.1:(\d+)")
KILLED_CLIENT = """
import json, sys
from websockets.sync.client import connect
with connect(sys.argv[1], max_size=None, open_timeout=120) as ws:
    ws.send(json.dumps({"type": "reset", "data": {"task": sys.argv[2]}}))
    reply = json.loads(ws.recv())
    print(json.dumps(reply["data"].get("session_id") or reply), flush=True)
    sys.stdin.read()  # hold the session until killed
"""


# -- processes and memory -----------------------------------------------------------------------------

def _parents() -> dict[int, int]:
    """pid -> parent pid, for every process now."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    return parents


def tree(root: int) -> set[int]:
    """`root` and all its descendants."""
    children: dict[int, list[int]] = {}
    for pid, parent in _parents().items():
        children.setdefault(parent, []).append(pid)
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def pss_mib(pids: set[int]) -> float:
    total_kib = 0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        except OSError:  # gone meanwhile
            continue
        total_kib += sum(int(line.split()[1]) for line in lines if line.startswith("Pss:"))
    return total_kib / 1024


def _ours(pid: int) -> bool:
    """A phone (or zygote) process, not a short-lived helper (an `rm` of a snapshot's old files)."""
    try:
        return b"spa_bench" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def alive(pid: int) -> bool:
    """Running: a zombie (dead, not yet waited for) is not."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


# -- the server -----------------------------------------------------------------------------------------

class Server:
    """`spa-bench serve-env --port 0` in a subprocess; its port read from the line it prints first."""

    def __init__(self, task: str, size: str, max_sessions: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "spa_bench", "serve-env", "--port", "0", "--task", task, "--size", size,
             "--max-sessions", str(max_sessions)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, COLUMNS="200"))
        assert self.process.stdout is not None
        self.log: list[str] = []
        for line in self.process.stdout:  # until the line that names the URL (a warning may come first)
            self.log.append(line.rstrip())
            found = URL_LINE.search(line)
            if found is not None:
                self.port = int(found.group(1))
                break
        else:
            self.process.wait()
            raise SystemExit("serve-env stopped before it said where it listens:\n" + "\n".join(self.log))
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.log.append(line.rstrip())

    def health(self) -> dict[str, Any]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=60) as reply:
            result: dict[str, Any] = json.loads(reply.read())
            return result

    def stop(self) -> int:
        """Ctrl-C, as a user would (the server closes its sessions and phones); SIGKILL after 120 s."""
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return -9


# -- the clients ----------------------------------------------------------------------------------------

@dataclass
class Tally:
    steps: int = 0
    resets: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)
            if len(self.errors) <= 10:  # as they happen: a long run's first errors are worth seeing at once
                print(f"error: {what}", file=sys.stderr, flush=True)


def client(url: str, task: str, tap: dict[str, Any], opened: threading.Barrier, stop: threading.Event,
           tally: Tally) -> None:
    """One session: reset, wait for every session to be open, then tap until `stop` (reset when done)."""
    from websockets.sync.client import connect

    def ask(ws: Any, message: dict[str, Any]) -> dict[str, Any] | None:
        ws.send(json.dumps(message))
        reply: dict[str, Any] = json.loads(ws.recv(timeout=600))
        if reply["type"] == "error":
            tally.error(f"{message['type']}: {reply['data']['code']}: {reply['data']['message']}")
            return None
        return reply

    reset = {"type": "reset", "data": {"task": task}}
    try:
        with connect(url, max_size=None, open_timeout=120) as ws:
            ok = ask(ws, reset) is not None
            opened.wait()
            while ok and not stop.is_set():
                reply = ask(ws, {"type": "step", "data": tap})
                if reply is None:
                    break
                with tally.lock:
                    tally.steps += 1
                if reply["data"]["done"]:
                    ok = ask(ws, reset) is not None
                    with tally.lock:
                        tally.resets += 1
            ws.send(json.dumps({"type": "close"}))
    except threading.BrokenBarrierError:
        pass  # another client failed to open: the run is over
    except Exception as exc:
        tally.error(f"client: {type(exc).__name__}: {exc}")
        opened.abort()  # if it never got there, the others must not wait for it (once past: a no-op)


def killed_client(server: Server, url: str, task: str, sessions: int) -> float:
    """Open a session in a subprocess, SIGKILL it; seconds until its phone process is gone."""
    before = tree(server.process.pid)
    process = subprocess.Popen([sys.executable, "-c", KILLED_CLIENT, url, task], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    answer = json.loads(process.stdout.readline() or "null")
    if not isinstance(answer, str):
        process.kill()
        raise SystemExit(f"the killed-client check got no session: {answer!r}")
    phones = {pid for pid in tree(server.process.pid) - before if _ours(pid)}  # what its reset started
    if not phones:
        process.kill()
        raise SystemExit("the killed-client check found no new process for its session's phone")
    process.send_signal(signal.SIGKILL)
    t0 = time.monotonic()
    process.wait()
    closed_s = gone_s = None
    while time.monotonic() - t0 < 120 and (closed_s is None or gone_s is None):
        if closed_s is None and server.health()["sessions"] <= sessions:
            closed_s = time.monotonic() - t0
        if gone_s is None and not any(alive(pid) for pid in phones):
            gone_s = time.monotonic() - t0
        time.sleep(0.05)
    print(f"killed client: session closed after {_s(closed_s)}, its phone process(es) {sorted(phones)} gone "
          f"after {_s(gone_s)} (target {KILL_TARGET_S:g} s: "
          f"{'met' if gone_s is not None and gone_s <= KILL_TARGET_S else 'NOT met'})")
    return gone_s if gone_s is not None else float("inf")


def _s(seconds: float | None) -> str:
    return "never (120 s)" if seconds is None else f"{seconds:.2f} s"


# -- the run ----------------------------------------------------------------------------------------------

def soak(args: argparse.Namespace) -> int:
    width, height = (int(v) for v in args.size.lower().split("x"))
    tap = {"type": "tap", "x": width // 2, "y": height // 8}  # the calculator's display: changes nothing
    server = Server(args.task, args.size, args.sessions + 1)
    url = f"ws://127.0.0.1:{server.port}/ws"
    print(f"{os.cpu_count()} CPU core(s); serve-env on port {server.port}; {args.sessions} sessions of "
          f"{args.task} at {args.size} for {args.seconds:g} s")
    tally, stop = Tally(), threading.Event()
    opened = threading.Barrier(args.sessions + 1)
    threads = [threading.Thread(target=client, args=(url, args.task, tap, opened, stop, tally), daemon=True)
               for _ in range(args.sessions)]
    failed = False
    try:
        t_open = time.monotonic()
        for thread in threads:
            thread.start()
        try:
            opened.wait()
        except threading.BrokenBarrierError:
            raise SystemExit(f"the sessions did not all open: {tally.errors[:5]}") from None
        t0 = time.monotonic()  # the clients step from here
        print(f"{args.sessions} sessions open after {t0 - t_open:.1f} s "
              f"(/health: {server.health()['sessions']})")
        samples: list[tuple[float, int, int, int, float, float]] = []
        print(f"{'time s':>7} {'steps':>8} {'errors':>7} {'procs':>6} {'PSS MiB':>9} {'server':>8}")
        while True:
            now = time.monotonic() - t0
            pids = tree(server.process.pid)
            with tally.lock:
                row = (now, tally.steps, len(tally.errors), len(pids), pss_mib(pids),
                       pss_mib({server.process.pid}))
            samples.append(row)
            print(f"{row[0]:7.1f} {row[1]:8d} {row[2]:7d} {row[3]:6d} {row[4]:9.1f} {row[5]:8.1f}",
                  flush=True)
            if now >= args.seconds - 0.5:
                break
            next_at = min(t0 + len(samples) * SAMPLE_EVERY_S, t0 + args.seconds)
            time.sleep(max(0.0, next_at - time.monotonic()))
        elapsed, steps = samples[-1][0], samples[-1][1]
        warm = next(s for s in samples if s[0] >= 0.2 * args.seconds - 0.5)
        end = samples[-1]
        growth = (end[4] - warm[4]) / warm[4] * 100
        print(f"memory: warm-up {warm[4]:.1f} MiB (at {warm[0]:.0f} s), end {end[4]:.1f} MiB (at "
              f"{end[0]:.0f} s), growth {growth:+.1f}%; of it the server process (without its phones): "
              f"{end[5]:.1f} MiB, {end[5] / args.sessions:.1f} MiB per session")
        print(f"steps: {steps} in {elapsed:.0f} s = {steps / elapsed:.1f} steps/s "
              f"({steps / elapsed / args.sessions:.2f} per session; {tally.resets} resets on the way); "
              f"errors: {len(tally.errors)}")
        gone_s = killed_client(server, url, args.task, args.sessions)
        failed = gone_s > KILL_TARGET_S
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=600)
        pids = tree(server.process.pid)
        code = server.stop()
        deadline = time.monotonic() + 60  # the zygote stops when its parent's pipe closes: let it see that
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = [pid for pid in pids if alive(pid)]
        if code != 0 or left:
            print(f"serve-env exited with {code}; processes left behind: {left}; its last lines:")
            print("\n".join(server.log[-20:]))
            failed = True
    if tally.errors:
        print(f"{len(tally.errors)} error(s); the first ones:")
        for line in tally.errors[:10]:
            print(f"  {line}")
    return 1 if failed or tally.errors else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--size", default="1080x2400")
    parser.add_argument("--task", default="calculator_multiply_en")
    args = parser.parse_args()
    from private_adb import private_adb_server

    with private_adb_server("spa-serve-env-soak-"):
        code = soak(args)
    raise SystemExit(code)


if __name__ == "__main__":
    main()
