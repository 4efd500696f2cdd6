"""How long `spa-bench evaluate` takes on the README's starter run (oracle, noop and random on the
`starter` suite: 66 episodes), with and without `--calibrate`.

Makes the run first (`spa-bench run --suite starter --phones 2`, virtual phones) unless --run names a
finished one; the phones are gone before anything is timed. Then prints:
  evaluate    wall time of the command `spa-bench evaluate RUN` in a fresh process (interpreter start,
              imports, reading and rewriting every log, state checks from the captured state, metrics)
  calibrate   `reevaluate_run(..., calibrate=True)` with key components on a copy of the run with an
              empty OCR cache: wall time, distinct screenshots read by OCR, and seconds per distinct
              screenshot (the whole evaluation's wall time divided by the screenshots OCR read)
  calibrate   wall time of the command `spa-bench evaluate --calibrate RUN` in a fresh process, its
  (cli)       OCR cache now warm (a second calibration costs no OCR)

    python benchmarks/evaluate_starter.py [--run results/<run-id>] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def make_run(out: Path) -> Path:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "spa_bench", "run", "--suite", "starter", "--phones", "2",
                    "--out", str(out)], check=True, stdout=subprocess.DEVNULL, env=_env())
    [run] = [p.parent for p in out.glob("*/manifest.json")]
    print(f"run         {time.perf_counter() - started:7.1f} s   spa-bench run --suite starter --phones 2")
    return run


def _env() -> dict[str, str]:
    return dict(os.environ, COLUMNS="80", NO_COLOR="1")


def time_cli(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "spa_bench", "evaluate", *args], check=True,
                   stdout=subprocess.DEVNULL, env=_env())
    return time.perf_counter() - started


def calibrate_in_process(run: Path) -> None:
    from spa_bench.evaluators.key_components import KeyComponentsEvaluator

    from spa_bench.evaluation.ocr import OcrEngine
    from spa_bench.evaluation.pipeline import make_evaluators, reevaluate_run

    engine = OcrEngine()
    engine.recognise(_blank())  # engine creation and model load off the clock, as in a long session
    engine.recognitions = 0
    evaluators = [*make_evaluators(["state"]), KeyComponentsEvaluator(engine=engine)]
    started = time.perf_counter()
    result = reevaluate_run(run, evaluators, calibrate=True)
    wall = time.perf_counter() - started
    for evaluator in evaluators:
        evaluator.close()
    distinct = engine.recognitions
    per = wall / distinct if distinct else float("nan")
    print(f"calibrate   {wall:7.2f} s   {result.evaluated} episodes, {distinct} distinct screenshots read "
          f"by OCR: {per:.2f} s per distinct screenshot (engine ready beforehand), of which "
          f"{engine.busy_s / max(1, distinct):.2f} s recognising; load average {_load()}")


def _load() -> str:
    """The machine's load average (1, 5, 15 min): OCR time depends on the CPU left to it."""
    return ", ".join(f"{x:.1f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"


def _blank() -> object:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (1080, 2400), "white")
    ImageDraw.Draw(image).text((100, 100), "warm up", fill="black")
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, help="a finished starter run (default: make one)")
    parser.add_argument("--repeat", type=int, default=3, help="timings of `evaluate` (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spa-eval-bench-") as tmp:
        base = Path(tmp)
        source = args.run or make_run(base / "results")
        episodes = len(list((source / "episodes").glob("*/episode.json")))
        shots = len(list((source / "episodes").glob("*/screenshots/*.png")))
        print(f"            {episodes} episodes, {shots} screenshots")
        run = base / "copy" / source.name
        shutil.copytree(source, run, ignore=shutil.ignore_patterns(".cache"))
        print(f"            load average {_load()}")
        times = [time_cli(str(run)) for _ in range(args.repeat)]
        print(f"evaluate    {statistics.median(times):7.2f} s   median of {len(times)} "
              f"(min {min(times):.2f}, max {max(times):.2f}): spa-bench evaluate RUN")
        calibrate_in_process(run)
        cli = time_cli("--calibrate", str(run))
        print(f"calibrate   {cli:7.2f} s   spa-bench evaluate --calibrate RUN, OCR cache warm")


if __name__ == "__main__":
    main()
