"""How long the HTML report of 10,000 episodes takes to build, and how big it is.

Generates a synthetic run folder of N episode logs (default 10,000; see report_synth.py for their
shape and sizes), then builds the report as `spa-bench report` does (screenshots referenced, not
embedded) and prints the time, the HTML size, the size of the episode-detail files beside it and of the
logs it was made from. Targets: < 10 s and < 10 MB.

    python benchmarks/report_scale.py [--episodes 10000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from report_synth import generate

from spa_bench.report.build import details_dir, write_report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--keep", type=Path, help="generate into (or reuse) this folder and keep the report")
    parser.add_argument("--workers", type=int, help="worker processes (default: one per core, up to 8)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        run = root / f"synthetic-{args.episodes}"
        if not (run / "manifest.json").is_file():
            t = time.perf_counter()
            generate(root, args.episodes)
            print(f"generated {args.episodes} episode logs in {time.perf_counter() - t:.1f} s")
        logs = sum(p.stat().st_size for p in run.glob("episodes/*/episode.json"))
        out = root / "report.html"
        cpu = time.process_time()
        result = write_report([run], out, workers=args.workers)
        cpu = time.process_time() - cpu
        size = result.size_bytes
        details = sum(p.stat().st_size for p in details_dir(out).glob("details-*.js"))
        steps = sum(result.metrics.episodes["steps"])
        print(f"{result.episodes} episodes, {steps} steps, {logs / 1e6:.1f} MB of episode logs")
        print(f"report built in {result.seconds:.2f} s (target < 10 s); HTML {size / 1e6:.2f} MB "
              f"(target < 10 MB); episode details beside it {details / 1e6:.1f} MB in "
              f"{len(result.chunks)} files, loaded one at a time when an episode is opened")
        if args.workers == 1:
            print(f"CPU time {cpu:.2f} s in one process (wall time above depends on other load)")
        if args.keep:
            print(f"report: {out}")


if __name__ == "__main__":
    main()
