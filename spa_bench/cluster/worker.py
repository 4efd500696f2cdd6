"""`spa-bench worker`: join this host to a Ray cluster with its devices.

It checks the devices answer over adb, then runs `ray start --address HEAD --resources ... --block`
(Ray's own command, from the Python that runs spa-bench) with one resource per device
(spa_bench.cluster.resources), and stays in the foreground: Ctrl-C or SIGTERM leaves the cluster (Ray
drains the node), and the driver re-queues whatever was running on this host's devices.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from spa_bench.cluster.connect import check_reachable, import_ray
from spa_bench.cluster.resources import worker_resources
from spa_bench.device.console import parse_device

STOP_GRACE_S = 45.0  # Ray drains a node for up to 30 s on SIGTERM


@dataclass(frozen=True)
class WorkerConfig:
    address: str
    devices: list[str] = field(default_factory=list)
    phones: int = 0
    node_ip_address: str | None = None
    num_cpus: int | None = None
    temp_dir: Path | None = None
    ray_args: list[str] = field(default_factory=list)  # passed to `ray start` as they are


def ray_start_command(config: WorkerConfig) -> list[str]:
    resources = worker_resources(config.devices, config.phones)
    command = [sys.executable, "-m", "ray.scripts.scripts", "start", "--address", config.address,
               "--resources", json.dumps(resources, sort_keys=True), "--block"]
    if config.node_ip_address:
        command += ["--node-ip-address", config.node_ip_address]
    if config.num_cpus is not None:
        command += ["--num-cpus", str(config.num_cpus)]
    if config.temp_dir is not None:
        command += ["--temp-dir", str(config.temp_dir)]
    return command + list(config.ray_args)


def check_devices(serials: list[str]) -> None:  # SERIAL or SERIAL=CONSOLE_PORT
    """Every listed device answers now (a typo fails here, not as a removed device mid-run)."""
    if not serials:
        return
    from spa_bench.device.device import Device, start_adb_server

    start_adb_server()
    for text in serials:
        serial, console = parse_device(text)
        device = Device(serial, console_port=console)
        if ":" in serial:  # over TCP: adb must be connected to it (the device actor does the same)
            device.connect()
        device.health_check()


def run_worker(config: WorkerConfig) -> int:
    """Join the cluster and block until this host leaves it; the exit code of `ray start`."""
    command = ray_start_command(config)  # bad --device / --phones fail before anything starts
    import_ray()
    check_reachable(config.address)
    check_devices(config.devices)
    process = subprocess.Popen(command)

    def leave(signum: int, frame: FrameType | None) -> None:
        process.send_signal(signal.SIGTERM)

    previous = signal.signal(signal.SIGTERM, leave)
    try:
        while True:
            try:
                return process.wait()
            except KeyboardInterrupt:  # Ctrl-C reached ray start too (same process group): let it drain
                try:
                    return process.wait(timeout=STOP_GRACE_S)
                except subprocess.TimeoutExpired:
                    process.kill()
                    return process.wait()
    finally:
        signal.signal(signal.SIGTERM, previous)
