"""Virtual phones at scale on one host: start time, memory per phone, and steps/s at 1 to 32 phones.

Prints, side by side for phones forked from a warm zygote (spa_bench.phone.zygote, the default) and phones
started as new interpreters (SPA_BENCH_PHONE_ZYGOTE=0), with ratios:
1. start: the first phone of a process (for the zygote: its own start included), then the p50 / max of
   the cold starts of the 2nd..Kth phones, one at a time (from the request to the phone accepting ADB);
2. memory after 50 steps, at 1 and at 8 phones: per phone RSS, PSS (its pages, shared ones split among
   the processes that map them: what N phones really cost is N x PSS) and USS (its private pages); the
   zygote's PSS is added to the phones' total, spread over them. Each twice: "busy", the moment a phone's
   50th step is answered (it still holds its 2 MB band buffer: screencap -p draws the screen in bands),
   and "idle", after a tick without commands, when a phone lets go of that buffer and trims malloc (as
   between an agent's steps);
3. scaling (zygote): N = 1, 4, 8, 16, 32 phones, each stepped by a scripted agent with the same work (tap
   a calculator key, which redraws the display, then observe: screencap -p + uiautomator dump + focus,
   through the real adb server, as the harness does), by one driver process per core with a thread per
   phone, for --seconds after a warm-up. Prints steps/s; efficiency against N x the single-phone rate;
   and against the 2-core limit = cores / CPU per step, where CPU per step is everything one step costs at
   1 phone (phone: drawing + PNG encode + serving ADB; adb server; driver), read from /proc. The phone's
   own share of it is printed too.

    python benchmarks/phone_scale.py [--phones 1 4 8 16 32] [--seconds 20] [--rounds 3] [--starts 8]
                                     [--skip-spawn] [--skip-scaling | --scaling-only]

Runs against a private adb server on a free port; needs nothing else. Linux only (it reads /proc).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spa_bench.phone.process import ProcessPhonePool

SIZE = "1080x2400"
CALCULATOR = "com.android.calculator2"
KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "AC"]  # every tap changes the display
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (its threads included), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def memory(pid: int) -> dict[str, float]:
    """RSS, PSS and USS of a process in MiB (/proc/PID/smaps_rollup)."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        key, _, rest = line.partition(":")
        values[key] = int(rest.split()[0])
    uss = values["Private_Clean"] + values["Private_Dirty"]
    return {"rss": values["Rss"] / 1024, "pss": values["Pss"] / 1024, "uss": uss / 1024}


def adb_server_pid(port: str) -> int:
    """The private adb server's pid: its command line is `adb -L tcp:PORT fork-server server ...`."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                args = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"fork-server" in args and f"tcp:{port}".encode() in args:
                return int(entry.name)
    raise SystemExit(f"no adb server on port {port}")


# -- the scripted agent --------------------------------------------------------------------------------

class Keypresser:
    """The scripted agent: taps the calculator's keys in turn (every tap changes the display), observing
    after each tap as the harness does."""

    def __init__(self, serial: str) -> None:
        from spa_bench.device.device import Device

        self.device = Device(serial)
        self.device.connect()
        self.obs = self.device.observe()
        self.keys = {e.text: e.center for e in self.obs.elements if e.text in KEYS}
        self.taps = 0

    def step(self) -> None:
        from spa_bench.actions import Tap

        x, y = self.keys[KEYS[self.taps % len(KEYS)]]
        self.device.execute(Tap(x=x, y=y), self.obs)
        self.obs = self.device.observe()
        self.taps += 1


# -- the driver: one process per core, a thread per phone ----------------------------------------------

def drive(serials: list[str], start_at: float, seconds: float, out: Path) -> None:
    """Step each phone in its own thread from `start_at` (wall clock) for `seconds`; write the counts."""
    import threading

    counts = [0] * len(serials)

    def loop(i: int, serial: str) -> None:
        agent = Keypresser(serial)
        while time.time() < start_at:  # warm-up steps until the common start
            agent.step()
        end = start_at + seconds
        while time.time() < end:
            agent.step()
            counts[i] += 1

    threads = [threading.Thread(target=loop, args=(i, s)) for i, s in enumerate(serials)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.write_text(json.dumps({"steps": sum(counts), "per_phone": counts}))


# -- the measurements ------------------------------------------------------------------------------------

def starts(k: int, root: Path) -> tuple[float, list[float]]:
    """The first phone's start, then k - 1 more, one at a time."""
    from spa_bench.phone.process import start_phone_processes

    times = []
    for i in range(k):
        t0 = time.perf_counter()
        pool = start_phone_processes(1, size=SIZE, data_root=root / f"start-{i}")
        times.append(time.perf_counter() - t0)
        pool.stop()
    return times[0], times[1:]


def prepared(n: int, root: Path) -> tuple[ProcessPhonePool, list[str], list[int]]:
    """n phones on the calculator; the pool, their serials and pids."""
    from spa_bench.device.device import Device
    from spa_bench.phone.process import start_phone_processes

    pool = start_phone_processes(n, size=SIZE, data_root=root)
    for phone in pool.phones:
        device = Device(phone.serial, console_port=phone.console_port)
        device.connect()
        device.open_app(CALCULATOR)
    return pool, [p.serial for p in pool.phones], [p.pid for p in pool.phones]


def measured_run(n: int, seconds: float, tmp: Path, adb_port: str) -> dict[str, float]:
    """Steps/s of n phones and the CPU each step cost (phones, zygote, adb server, drivers)."""
    pool, serials, pids = prepared(n, tmp / f"scale-{n}")
    try:
        adb_pid = adb_server_pid(adb_port)
        warmup = 3.0 + 0.3 * n
        drivers = min(n, os.cpu_count() or 1)
        start_at = time.time() + warmup
        procs, outs = [], []
        for d in range(drivers):
            out = tmp / f"driver-{d}-{n}.json"
            outs.append(out)
            part = json.dumps(serials[d::drivers])
            procs.append(subprocess.Popen([sys.executable, __file__, "--drive", part, str(start_at),
                                           str(seconds), str(out)]))
        time.sleep(max(0.0, start_at - time.time()))
        watched = [*pids, *(p.pid for p in procs), adb_pid]
        before = {pid: cpu_seconds(pid) for pid in watched}
        time.sleep(seconds)
        after = {pid: cpu_seconds(pid) for pid in watched}
        codes = [p.wait() for p in procs]
        if any(codes):
            raise SystemExit(f"a driver failed at {n} phones: exit codes {codes}")
        steps = sum(json.loads(o.read_text())["steps"] for o in outs)
        phone_cpu = sum(after[p] - before[p] for p in pids)
        total_cpu = sum(after[p] - before[p] for p in watched)
        return {"steps": steps, "rate": steps / seconds, "cpu_per_step": total_cpu / max(steps, 1),
                "phone_cpu_per_step": phone_cpu / max(steps, 1)}
    finally:
        pool.stop()


def memory_after_steps(n: int, tmp: Path) -> dict[str, dict[str, float]]:
    """Per-phone RSS / PSS / USS after 50 steps each (the zygote's PSS spread over the phones), twice: each
    phone the moment its 50th step is answered ("busy": what a phone stepped back to back holds), and all
    of them once they have been idle for a tick ("idle": between an agent's steps, when a phone lets go of
    its band buffer and trims malloc; spa_bench.phone.foreground.IdleTrim)."""
    from spa_bench.phone import zygote
    from spa_bench.phone.foreground import IDLE_TICK_S
    from spa_bench.phone.process import use_zygote

    pool, serials, pids = prepared(n, tmp / f"memory-{n}")
    try:
        busy = []
        for serial, pid in zip(serials, pids, strict=True):
            agent = Keypresser(serial)
            for _ in range(50):
                agent.step()
            busy.append(memory(pid))
        time.sleep(3 * IDLE_TICK_S)
        idle = [memory(pid) for pid in pids]
        zygote_pss = memory(zygote.shared_zygote().process.pid)["pss"] if use_zygote() else 0.0
        figures = {}
        for state, per in (("busy", busy), ("idle", idle)):
            mean = {key: statistics.mean(m[key] for m in per) for key in ("rss", "pss", "uss")}
            figures[state] = {**mean, "max_rss": max(m["rss"] for m in per),
                              "cost": (sum(m["pss"] for m in per) + zygote_pss) / n}
        return figures
    finally:
        pool.stop()


def child_report(mode: str, starts_k: int, tmp: Path) -> None:
    """Start and memory figures of one mode, in a fresh process (its own zygote), printed as JSON."""
    first, later = starts(starts_k, tmp / f"{mode}-starts")
    result = {"first": first, "later_p50": statistics.median(later), "later_max": max(later),
              "memory": {str(n): memory_after_steps(n, tmp / mode) for n in (1, 8)}}
    print("RESULT " + json.dumps(result), flush=True)


def mode_figures(mode: str, starts_k: int, tmp: Path) -> dict[str, object]:
    env = dict(os.environ, SPA_BENCH_PHONE_ZYGOTE="0" if mode == "spawn" else "1")
    out = subprocess.run([sys.executable, __file__, "--child", mode, str(starts_k), str(tmp)], env=env,
                         capture_output=True, text=True, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("RESULT ")]
    if out.returncode or not lines:
        raise SystemExit(f"the {mode} measurement failed:\n{out.stdout[-2000:]}\n{out.stderr[-3000:]}")
    figures: dict[str, object] = json.loads(lines[-1].removeprefix("RESULT "))
    return figures


def _row(label: str, values: list[float], unit: str) -> None:
    ratio = f"   {values[1] / values[0]:6.2f}x" if len(values) == 2 and values[0] else ""
    digits = 3 if unit == "s" else 1
    print(f"{label:50}" + "".join(f"{v:>10.{digits}f} {unit:3}" for v in values) + ratio)


def print_start_and_memory(figures: dict[str, Any], modes: list[str], k: int, cores: int) -> None:
    print(f"phones at {SIZE} on {cores} cores; zygote: forked from a warm zygote; spawn: a new interpreter "
          "per phone\n")
    print(f"{'':50}" + "".join(f"{m:>14}" for m in modes) + ("   spawn/zygote" if len(modes) == 2 else ""))
    _row("first phone start (the zygote's included)", [figures[m]["first"] for m in modes], "s")
    _row(f"cold start of phones 2-{k}, p50", [figures[m]["later_p50"] for m in modes], "s")
    _row(f"cold start of phones 2-{k}, max", [figures[m]["later_max"] for m in modes], "s")
    for state in ("busy", "idle"):
        for n in ("1", "8"):
            for key, label in (("rss", "RSS"), ("max_rss", "RSS, max"), ("pss", "PSS"),
                               ("uss", "USS (private)"), ("cost", "PSS + zygote share")):
                _row(f"{n} phone(s), 50 steps, {state}: {label}",
                     [figures[m]["memory"][n][state][key] for m in modes], "MiB")


def print_scaling(phones: list[int], seconds: float, rounds: int, tmp: Path, port: str, cores: int) -> None:
    """Each round measures every N, its efficiencies against that round's own single phone; then the
    medians over the rounds (a shared 2-core VM gives the same step a different CPU cost from one minute
    to the next, so one round can mislead)."""
    print(f"\nscaling (zygote), {seconds:g} s per point, {rounds} round(s), a driver process per core, "
          "tap + observe per step:")
    table: dict[int, list[tuple[float, float, float, float]]] = {n: [] for n in phones}
    for r in range(rounds):
        base: dict[str, float] | None = None
        for n in phones:
            result = measured_run(n, seconds, tmp, port)
            base = base or result
            rate = result["rate"]
            limit, phone_limit = cores / base["cpu_per_step"], cores / base["phone_cpu_per_step"]
            table[n].append((rate, rate / (n * base["rate"]), rate / limit, rate / phone_limit))
            print(f"  round {r + 1}, {n:2d} phone(s): {rate:6.1f} steps/s | vs {n} x 1 phone "
                  f"{rate / (n * base['rate']):6.1%} | vs {cores}-core limit {limit:5.1f}/s "
                  f"{rate / limit:6.1%}"
                  f" | vs phones-only limit {phone_limit:5.1f}/s {rate / phone_limit:6.1%}"
                  f" | CPU/step {result['cpu_per_step'] * 1000:5.1f} ms"
                  f" (phone {result['phone_cpu_per_step'] * 1000:4.1f})")
    print("\nmedians over the rounds:")
    for n, rows in table.items():
        rate, single, limit, phone_only = (statistics.median(column) for column in zip(*rows, strict=True))
        print(f"  {n:2d} phone(s): {rate:6.1f} steps/s | vs {n} x 1 phone {single:6.1%} | vs {cores}-core "
              f"limit {limit:6.1%} | vs phones-only limit {phone_only:6.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--phones", type=int, nargs="+", default=[1, 4, 8, 16, 32])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--starts", type=int, default=8)
    parser.add_argument("--skip-spawn", action="store_true", help="zygote figures only")
    parser.add_argument("--rounds", type=int, default=3, help="scaling rounds (medians are printed)")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--scaling-only", action="store_true")
    parser.add_argument("--drive", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        serials, start_at, seconds, out = args.drive
        drive(json.loads(serials), float(start_at), float(seconds), Path(out))
        return
    if args.child:
        mode, k, tmp_dir = args.child
        child_report(mode, int(k), Path(tmp_dir))
        return

    from private_adb import private_adb_server

    cores = os.cpu_count() or 1
    with private_adb_server("spa-phone-scale-") as (tmp, port):
        modes = ["zygote"] if args.skip_spawn else ["zygote", "spawn"]
        if not args.scaling_only:
            figures = {mode: mode_figures(mode, args.starts, tmp) for mode in modes}
            print_start_and_memory(figures, modes, args.starts, cores)
        if not args.skip_scaling:
            print_scaling(args.phones, args.seconds, args.rounds, tmp, port, cores)

if __name__ == "__main__":
    main()
