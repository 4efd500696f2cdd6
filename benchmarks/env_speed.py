"""The Gymnasium environment's speed on virtual phones at 1080x2400 (spa_bench.env).

Prints:
- `reset` p50 / p95 (the task's snapshot load and setup, then the first observation: screenshot decoded
  to an HxWx3 array, element list); target p50 <= 50 ms;
- `step` p50 / p95 with a tap (the tap, then the next observation); target p50 <= 60 ms;
- vector-env throughput (gymnasium AsyncVectorEnv, one phone per worker process) in env steps per
  second at 1, 2, 4 phones (and 8 with --phones 1,2,4,8).

Runs against a private adb server on a free port; needs nothing else. The machine's core count bounds
the vector figures: each phone renders its own screens.

    python benchmarks/env_speed.py [--resets 20] [--steps 30] [--rounds 15] [--phones 1,2,4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

TASK = "calculator_multiply_en"
TAP = '{"type": "tap", "x": 540, "y": 300}'  # the calculator's display: a real tap that changes nothing
SIZE = "1080x2400"
RESET_TARGET_MS, STEP_TARGET_MS = 50.0, 60.0


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(0.95 * (len(ordered) - 1))] * 1000


def single(resets: int, steps: int) -> None:
    from spa_bench.env import SpaBenchEnv

    env = SpaBenchEnv([TASK], size=SIZE, max_steps=100_000)
    try:
        env.reset(options={"task": TASK})  # warm-up
        reset_times, setup_times, observe_times = [], [], []
        for _ in range(resets):
            t0 = time.perf_counter()
            env.reset(options={"task": TASK})
            reset_times.append(time.perf_counter() - t0)
            setup_times.append(env.timings["setup_s"])
            observe_times.append(env.timings["observe_s"])
        step_times = []
        for _ in range(steps):
            t0 = time.perf_counter()
            _, _, _, _, info = env.step(TAP)
            step_times.append(time.perf_counter() - t0)
            if not info["valid"]:
                raise SystemExit(f"the benchmark's tap was refused: {info['error']}")
    finally:
        env.close()
    p50, p95 = _percentiles(reset_times)
    print(f"env reset ({resets}x, {SIZE}): p50 {p50:.1f} ms, p95 {p95:.1f} ms "
          f"(target p50 <= {RESET_TARGET_MS:.0f} ms: {'met' if p50 <= RESET_TARGET_MS else 'NOT met'}); "
          f"of it: snapshot + setup p50 {_percentiles(setup_times)[0]:.1f} ms, "
          f"first observation p50 {_percentiles(observe_times)[0]:.1f} ms")
    p50, p95 = _percentiles(step_times)
    print(f"env step with a tap ({steps}x, {SIZE}): p50 {p50:.1f} ms, p95 {p95:.1f} ms "
          f"(target p50 <= {STEP_TARGET_MS:.0f} ms: {'met' if p50 <= STEP_TARGET_MS else 'NOT met'})")


def vector(n: int, rounds: int) -> None:
    from spa_bench.env import make_vector_env

    envs = make_vector_env(n, tasks=[TASK], size=SIZE, max_steps=100_000)
    try:
        envs.reset(options={"task": TASK})
        envs.step((TAP,) * n)  # warm-up
        t0 = time.perf_counter()
        for _ in range(rounds):
            _, _, _, _, info = envs.step((TAP,) * n)
            if not all(info["valid"]):
                raise SystemExit(f"a tap was refused: {info['error']}")
        elapsed = time.perf_counter() - t0
    finally:
        envs.close()
    print(f"vector env, {n} phone(s): {n * rounds / elapsed:.1f} steps/s "
          f"({rounds} rounds of {n} taps in {elapsed:.2f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--resets", type=int, default=20)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=15, help="vector steps per phone count")
    parser.add_argument("--phones", default="1,2,4", help="phone counts for the vector env, e.g. 1,2,4,8")
    args = parser.parse_args()
    from private_adb import private_adb_server

    with private_adb_server("spa-env-speed-"):
        print(f"{os.cpu_count()} CPU core(s)")
        single(args.resets, args.steps)
        for n in (int(p) for p in args.phones.split(",")):
            vector(n, args.rounds)

if __name__ == "__main__":
    main()
