"""How fast the task registry lists and loads tasks.

Builds a task tree of N synthetic task files (default 1,000, one task each, in both languages), then
prints the median time of: the fast index (YAML only), filtering it, and building + validating every
Task with pydantic. With --spa-bench DIR it imports SPA-Bench's real files first and times those.

    python benchmarks/task_index.py [--tasks 1000] [--spa-bench ../shared/reference/spa-bench]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from spa_bench.tasks.repository import TaskFilter, TaskRepository
from spa_bench.tasks.spa_import import import_spa_bench

TEMPLATE = """\
id: synthetic_{i}
apps:
  - package: com.android.settings
    name: {{en: Settings, zh: 设置}}
language: {lang}
difficulty: {difficulty}
category: single_app
instruction: Task number {i}.
golden_steps: 3
key_components: [Wi-Fi]
checks:
  - type: shell
    command: settings get global wifi_on
    expect: "0"
golden_script:
  - {{type: tap, selector: {{text: Network & internet}}}}
  - {{type: finish}}
"""


def timed(fn: Callable[[], object], repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(name: str, repo: TaskRepository) -> None:
    count = len(repo.index())
    flt = TaskFilter(languages=["zh"], difficulties=[1, 2])
    print(f"{name}: {count} tasks")
    print(f"  index (YAML only)      {timed(repo.index) * 1000:8.1f} ms")
    print(f"  index + filter         {timed(lambda: repo.select(flt)) * 1000:8.1f} ms")
    print(f"  load + validate (all)  {timed(repo.load, repeats=3) * 1000:8.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--spa-bench", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "synthetic"
        (root / "suite").mkdir(parents=True)
        for i in range(args.tasks):
            text = TEMPLATE.format(i=i, lang="en" if i % 2 else "zh", difficulty=i % 3 + 1)
            (root / "suite" / f"t{i}.yaml").write_text(text, encoding="utf-8")
        report("synthetic", TaskRepository(root))
        if args.spa_bench:
            out = Path(tmp) / "spa" / "spa-bench"
            files = [*sorted(args.spa_bench.glob("*.csv")), args.spa_bench / "cross-app-split"]
            start = time.perf_counter()
            import_spa_bench(files, out)
            print(f"import of SPA-Bench's files: {(time.perf_counter() - start) * 1000:.0f} ms")
            report("SPA-Bench", TaskRepository(out.parent))


if __name__ == "__main__":
    main()
