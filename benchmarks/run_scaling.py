"""Harness overhead per step and parallel throughput of `spa-bench run` on virtual phones.

1. Overhead: the oracle over the Settings tasks on one 1080x2400 phone; per step, observe (screencap +
   uiautomator dump + focus, through the real adb server) plus execute, i.e. the harness's own time
   without the agent. Prints p50/p95.
2. Throughput: an agent that thinks a fixed 0.5 s per step (a stand-in for an LLM call) and then
   scrolls, on 1, 2, 4, 8 phones, the same number of episodes per phone. Prints steps/s and parallel
   efficiency = throughput(N) / (N x throughput(1)).

    python benchmarks/run_scaling.py [--phones 1 2 4 8] [--episodes-per-phone 6] [--steps 6]
Runs against a private adb server on a free port; needs nothing else.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


THINKER = textwrap.dedent('''
    import time
    from spa_bench.agent import AgentStep, BaseAgent

    class Thinker(BaseAgent):
        def step(self, observation):
            time.sleep(0.5)
            return AgentStep({"type": "scroll", "direction": "down"}, output="thought for 0.5 s")
''')


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--phones", type=int, nargs="+", default=[1, 2, 4, 8])
    parser.add_argument("--episodes-per-phone", type=int, default=6)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    from adbutils._utils import adb_path

    tmp = Path(tempfile.mkdtemp(prefix="spa-bench-scaling-"))
    port = str(_free_port())
    os.environ["ANDROID_ADB_SERVER_PORT"] = port
    os.environ["HOME"] = str(tmp)
    subprocess.run([adb_path(), "start-server"], capture_output=True, check=True, timeout=60)
    from spa_bench.runner.config import AgentConfig, RunConfig
    from spa_bench.runner.run import run_benchmark
    from spa_bench.tasks.repository import TaskFilter

    try:
        result = run_benchmark(RunConfig(filter=TaskFilter(suites=["settings"]), phones=1, out=tmp / "r",
                                         agents=[AgentConfig(agent="oracle")]))
        overhead = [s.timings.observe_s + s.timings.execute_s for log in result.logs for s in log.steps]
        observe = [s.timings.observe_s for log in result.logs for s in log.steps]
        print(f"harness overhead per step at 1080x2400 ({len(overhead)} steps, oracle, 1 phone):")
        print(f"  observe + execute  p50 {percentile(overhead, 0.5) * 1000:6.0f} ms   "
              f"p95 {percentile(overhead, 0.95) * 1000:6.0f} ms")
        print(f"  observe only       p50 {percentile(observe, 0.5) * 1000:6.0f} ms   "
              f"p95 {percentile(observe, 0.95) * 1000:6.0f} ms")

        agent_file = tmp / "thinker.py"
        agent_file.write_text(THINKER)
        ids = ["settings_wifi_off_en", "settings_bluetooth_on_zh", "settings_dark_theme_en",
               "settings_airplane_on_zh"]
        base = None
        print(f"\nthroughput, agent thinking 0.5 s/step, {args.episodes_per_phone} episodes per phone of "
              f"{args.steps} steps:")
        for n in args.phones:
            episodes = n * args.episodes_per_phone
            repeats = -(-episodes // len(ids))
            config = RunConfig(filter=TaskFilter(ids=ids), phones=n, out=tmp / f"s{n}", repeats=repeats,
                               max_steps=args.steps, agents=[AgentConfig(agent=f"{agent_file}:Thinker")])
            start = time.monotonic()
            cpu = time.process_time()
            result = run_benchmark(config)
            total = time.monotonic() - start
            cpu = time.process_time() - cpu
            # the episodes' span, from the first start to the last end: phone start-up excluded
            first = min(log.started_at for log in result.logs)
            last = max(log.finished_at or log.started_at for log in result.logs)
            wall = (last - first).total_seconds()
            setup = statistics.mean(log.timings.setup_s for log in result.logs)
            steps = sum(len(log.steps) for log in result.logs)
            rate = steps / wall
            base = base or rate / n
            print(f"  {n} phone(s): {len(result.logs):3d} episodes, {steps:4d} steps in {wall:6.1f} s "
                  f"-> {rate:5.2f} steps/s, efficiency {rate / (n * base) * 100:5.1f}%   "
                  f"(whole run {total:5.1f} s incl. phone start; process CPU {cpu / steps * 1000:4.0f} ms "
                  f"per step; mean episode setup {setup:.2f} s)")
    finally:
        subprocess.run([adb_path(), "-P", port, "kill-server"], capture_output=True, timeout=30, check=False)


if __name__ == "__main__":
    main()
