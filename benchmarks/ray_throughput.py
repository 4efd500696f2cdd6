"""Ray executor throughput against the local executor, on the same number of virtual phones and tasks.

Local: `spa-bench run --phones N` (one thread per phone, phones in their own processes). Ray: a cluster
on loopback on this same machine (a head and W worker hosts joined with `spa-bench worker --phones N/W`,
spa_bench.testing.ray_cluster) and `spa-bench run --executor ray` with the driver in this process; the
device actors start the phones, run the episodes and ship logs and screenshots back to the driver,
which records them. Both are timed over the episodes' span (first episode start to last episode end:
phone start-up excluded; the whole run's wall time is printed beside it). Two workloads:

- oracle: the golden actions with no thinking, so the harness and the engine are all there is (the
  worst case for an engine's cost);
- thinker: an agent that thinks 0.5 s per step (a stand-in for a model call) and scrolls.

    python benchmarks/ray_throughput.py [--phones 4] [--workers 2] [--suite starter] [--repeats 3]
                                        [--thinker-episodes 32] [--steps 6]
Target: Ray / local >= 0.9x. Runs against a private adb server on a free port; kills what it starts.
On a shared 2-core machine runs of a few seconds vary by +-30%: the defaults take about 4 minutes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from run_scaling import THINKER


def _span(result: object) -> tuple[float, float, int, int]:
    """The episodes' span, and the sum over devices of each device's episodes per second of its own
    span (first start to last end on it): that one leaves out devices that came up later than others
    (on Ray each actor starts its phone when it is placed; locally all phones are up before the first
    episode), so it compares the executors' cost per episode."""
    logs = result.logs  # type: ignore[attr-defined]
    first = min(log.started_at for log in logs)
    last = max(log.finished_at or log.started_at for log in logs)
    by_device: dict[tuple[str | None, str], list[object]] = {}
    for log in logs:
        by_device.setdefault((log.device.host, log.device.serial), []).append(log)
    device_rate = 0.0
    for device_logs in by_device.values():
        start = min(log.started_at for log in device_logs)  # type: ignore[attr-defined]
        end = max(log.finished_at or log.started_at for log in device_logs)  # type: ignore[attr-defined]
        device_rate += len(device_logs) / (end - start).total_seconds()
    return (last - first).total_seconds(), device_rate, len(logs), sum(len(log.steps) for log in logs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--phones", type=int, default=4, help="virtual phones in both runs")
    parser.add_argument("--workers", type=int, default=2, help="Ray worker hosts (phones split evenly)")
    parser.add_argument("--suite", default="starter", help="the oracle workload's suite")
    parser.add_argument("--repeats", type=int, default=3, help="of the oracle workload's tasks")
    parser.add_argument("--thinker-episodes", type=int, default=32)
    parser.add_argument("--steps", type=int, default=6, help="the thinker's steps per episode")
    parser.add_argument("--size", default="1080x2400")
    args = parser.parse_args()
    if args.phones % args.workers:
        parser.error("--phones must be a multiple of --workers")
    from adbutils._utils import adb_path

    tmp = Path(tempfile.mkdtemp(prefix="spa-bench-ray-"))
    port = str(_free_port())
    os.environ.update(ANDROID_ADB_SERVER_PORT=port, HOME=str(tmp), RAY_AUTH_MODE="disabled",
                      RAY_USAGE_STATS_ENABLED="0")
    subprocess.run([adb_path(), "start-server"], capture_output=True, check=True, timeout=60)
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import run_benchmark
    from spa_bench.tasks.repository import TaskFilter
    from spa_bench.testing.ray_cluster import LoopbackCluster

    agent_file = tmp / "thinker.py"
    agent_file.write_text(THINKER)
    thinker_ids = ["settings_wifi_off_en", "settings_bluetooth_on_zh", "settings_dark_theme_en",
                   "settings_airplane_on_zh"]
    workloads = {
        "oracle": dict(filter=TaskFilter(suites=[args.suite]), repeats=args.repeats,
                       agents=[AgentConfig(agent="oracle")]),
        "thinker": dict(filter=TaskFilter(ids=thinker_ids), max_steps=args.steps,
                        repeats=-(-args.thinker_episodes // len(thinker_ids)),
                        agents=[AgentConfig(agent=f"{agent_file}:Thinker")]),
    }
    cluster = LoopbackCluster.start()
    try:
        for i in range(args.workers):
            cluster.add_worker(f"w{i}", f"127.0.0.{3 + i}", phones=args.phones // args.workers)
        print(f"{args.phones} virtual phones at {args.size}; Ray: {args.workers} worker hosts on loopback "
              f"(this machine, {os.cpu_count()} cores)")
        print(f"{'workload':9} {'executor':8} {'episodes':>8} {'steps':>6} {'span s':>7} {'ep/s':>6} "
              f"{'steps/s':>7} {'ep/s/dev-sum':>12} {'wall s':>7}")
        for name, fields in workloads.items():
            rates: dict[str, float] = {}
            device_rates: dict[str, float] = {}
            for executor in ("local", "ray"):
                extra = (dict(executor="ray", ray_address=cluster.address) if executor == "ray"
                         else dict(phones=args.phones))
                config = RunConfig(out=tmp / f"{name}-{executor}", phone_size=args.size, **fields, **extra)
                start = time.monotonic()
                result = run_benchmark(config)
                wall = time.monotonic() - start
                span, device_rate, episodes, steps = _span(result)
                assert result.summary.finished == result.summary.planned, result.summary
                rates[executor], device_rates[executor] = episodes / span, device_rate
                print(f"{name:9} {executor:8} {episodes:8d} {steps:6d} {span:7.1f} {episodes / span:6.2f} "
                      f"{steps / span:7.2f} {device_rate:12.2f} {wall:7.1f}")
            print(f"{name:9} ray/local: {rates['ray'] / rates['local']:.2f}x episodes/s over the span, "
                  f"{device_rates['ray'] / device_rates['local']:.2f}x per device  (target >= 0.9x)")
    finally:
        cluster.close()
        subprocess.run([adb_path(), "-P", port, "kill-server"], capture_output=True, timeout=30, check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def _free_port() -> int:
    from spa_bench.testing.ray_cluster import free_port

    return free_port()


if __name__ == "__main__":
    main()
