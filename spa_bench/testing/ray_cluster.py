"""A Ray cluster on loopback for tests and benchmarks: a head and worker nodes, each a process group
of its own (`ray start --block`), the workers joined with `spa-bench worker`. Every node gets a short
temp dir of its own (Ray's Unix sockets live there; their paths are limited to ~107 bytes) and an
address of its own on 127.0.0.0/8 (Ray rewrites 127.0.0.1 to the host's outward address). Authentication
and usage stats are off. Nodes are stopped by killing their process groups, never by `ray stop`, which
kills every Ray process of the machine by name.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

OBJECT_STORE_BYTES = 80 * 1024 * 1024
START_TIMEOUT_S = 180.0  # how long a broken node may take to say so; not a speed limit
JOINED = "Ray runtime started."  # what `ray start` prints once its node has joined
PORT_ATTEMPTS = 3  # tries with fresh ports when Ray reports one taken


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def ray_env(base: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(base if base is not None else os.environ)
    env.update(RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    return env


@dataclass
class Node:
    name: str
    ip: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def kill(self) -> None:
        """Die like a host that lost power: every process of the node at once."""
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)


@dataclass
class LoopbackCluster:
    root: Path
    env: dict[str, str]
    head_ip: str = "127.0.0.2"
    port: int = field(default_factory=free_port)
    nodes: dict[str, Node] = field(default_factory=dict)
    started: int = 0  # nodes started so far: each gets a temp dir never used before

    @property
    def address(self) -> str:
        return f"{self.head_ip}:{self.port}"

    @classmethod
    def start(cls, env: dict[str, str] | None = None, head_cpus: int = 1) -> LoopbackCluster:
        root = Path(tempfile.mkdtemp(prefix="sbr", dir="/tmp"))
        cluster = cls(root, ray_env(env))
        for attempt in range(1, PORT_ATTEMPTS + 1):  # a picked port can be taken before Ray binds it
            command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--head",
                       "--port", str(cluster.port), "--node-ip-address", cluster.head_ip,
                       "--include-dashboard=false",
                       "--num-cpus", str(head_cpus), *cluster._node_args(f"h{attempt}")]
            head = cluster._spawn("head", cluster.head_ip, command)
            deadline = time.monotonic() + START_TIMEOUT_S
            while not _accepts(cluster.head_ip, cluster.port) and head.process.poll() is None:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            if head.process.poll() is None and _accepts(cluster.head_ip, cluster.port):
                return cluster
            log = head.log_path.read_text(errors="replace")[-2000:]
            head.kill()
            if attempt == PORT_ATTEMPTS or not _port_taken(log):
                cluster.close()
                raise RuntimeError(f"the Ray head did not start: {log}")
            cluster.port = free_port()
        raise AssertionError("unreachable")  # pragma: no cover

    def _node_args(self, short: str) -> list[str]:
        return ["--temp-dir", str(self.root / short), "--object-store-memory", str(OBJECT_STORE_BYTES),
                "--dashboard-agent-listen-port", str(free_port()), "--ray-client-server-port",
                str(free_port()), "--disable-usage-stats", "--block"]

    def _spawn(self, name: str, ip: str, command: list[str]) -> Node:
        log_path = self.root / f"{name}.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env,
                                       start_new_session=True)
        node = Node(name, ip, process, log_path)
        self.nodes[name] = node
        return node

    def add_worker(self, name: str, ip: str, phones: int = 2, devices: tuple[str, ...] = (),
                   cpus: int = 1) -> Node:
        """A worker host joined with `spa-bench worker` (its `ray start` arguments passed through); returns
        once the node has joined. Its ports are picked here: one taken meanwhile means another try."""
        for attempt in range(1, PORT_ATTEMPTS + 1):
            self.started += 1
            short = f"w{self.started}"
            ray_args = [arg for arg in self._node_args(short)
                        if arg != "--block"][2:]  # the worker gives --temp-dir and --block itself
            command = [sys.executable, "-m", "spa_bench", "worker", "--address", self.address,
                       "--phones", str(phones), "--node-ip-address", ip, "--num-cpus", str(cpus),
                       "--temp-dir", str(self.root / short),
                       *[f"--device={d}" for d in devices], *[f"--ray-arg={a}" for a in ray_args]]
            node = self._spawn(name, ip, command)
            try:
                self._wait_joined(node)
                return node
            except RuntimeError as exc:
                node.kill()
                self.nodes.pop(name, None)
                if attempt == PORT_ATTEMPTS or not _port_taken(str(exc)):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _wait_joined(self, node: Node) -> None:
        """Until `ray start` says the node's runtime has started: its raylet has registered with the head,
        so that a driver started next sees the node (and its device resources) in `ray.nodes()`."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while JOINED not in node.log_path.read_text(errors="replace"):
            if node.process.poll() is not None or time.monotonic() > deadline:
                log = node.log_path.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"worker {node.name} did not join the cluster: {log}")
            time.sleep(0.1)

    def kill(self, name: str) -> None:
        self.nodes.pop(name).kill()

    def close(self) -> None:
        for name in list(self.nodes):
            self.kill(name)
        shutil.rmtree(self.root, ignore_errors=True)


def _port_taken(log: str) -> bool:
    return "already in use" in log.lower() or "address in use" in log.lower()


def _accepts(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        try:
            s.connect((host, port))
        except OSError:
            return False
        return True
