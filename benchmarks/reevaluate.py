"""How long re-evaluating a finished run takes: OCR per screenshot (cold and warm), then a 500-episode
run re-scored through the evaluation pipeline (`reevaluate_run`, what `spa-bench evaluate` calls) with
key components from a warm OCR cache, and with the MLLM judge against the local scripted server.

Screenshots are the virtual phone's own 1080x2400 screens (benchmarks/ocr_speed.py renders them); the
run's episodes are hard links to them, with a manifest, written in the real results layout. Prints:
  cold       first OCR in this process: import rapidocr/onnxruntime, create the engine, read one screen
  warm       median OCR time per screenshot (PNG decode + recognition)
  kc         re-scoring --episodes episodes with key components, cache warm (asserts: no OCR at all)
  judge      re-scoring them with the judge (annotated screenshots, PNG data URLs) against a scripted
             local OpenAI-compatible server, ungated (every episode judged, also where key components
             failed): the harness's own cost per episode (rendering, encoding, HTTP); a real judge's
             latency comes on top of it

    python benchmarks/reevaluate.py [--episodes 500] [--steps 6] [--workers 4] [--judge-episodes N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from ocr_speed import make_run, render_screens

from spa_bench.evaluation.judge_config import default_judge_config
from spa_bench.evaluation.ocr import OcrEngine, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path
from spa_bench.evaluation.pipeline import make_evaluators, reevaluate_run
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import RunManifest
from spa_bench.testing.openai_server import ScriptedOpenAIServer, TextReply

YES = TextReply("Reason: I believe this task is successful.\nResult: 1", prompt_tokens=6000,
                completion_tokens=30)


def ocr_figures(screens: list[Path], cache: OcrCache, engine: OcrEngine) -> dict[Path, str]:
    texts: dict[Path, str] = {}
    started = time.perf_counter()
    texts[screens[0]] = read_text(screens[0], cache=cache, engine=engine).text
    cold = time.perf_counter() - started
    print(f"cold    {cold:8.2f} s   first screenshot, incl. import + engine + models")
    warm = []
    for path in screens[1:]:
        started = time.perf_counter()
        texts[path] = read_text(path, cache=cache, engine=engine).text
        warm.append(time.perf_counter() - started)
    print(f"warm    {statistics.median(warm):8.2f} s   median per screenshot over {len(warm)} "
          f"(min {min(warm):.2f}, max {max(warm):.2f})")
    return texts


def write_manifest(layout: RunLayout) -> None:
    layout.write_manifest(RunManifest(run_id=layout.root.name, created_at=datetime.now(UTC),
                                      spa_bench_version="bench", python=sys.version.split()[0],
                                      platform=sys.platform, tasks_root="synthetic"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--distinct", type=int, default=24, help="distinct screenshots (max 28)")
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--steps", type=int, default=6, help="steps per episode (plus final.png)")
    parser.add_argument("--workers", type=int, default=4, help="episodes evaluated at once")
    parser.add_argument("--judge-episodes", type=int, default=None,
                        help="judge only the first N (default all)")
    args = parser.parse_args()
    if "rapidocr" in sys.modules:
        raise SystemExit("rapidocr is already imported: the cold figure would be wrong")

    with tempfile.TemporaryDirectory(prefix="spa-reeval-bench-") as tmp:
        base = Path(tmp)
        screens = render_screens(base / "screens", args.distinct)
        print(f"{len(screens)} distinct 1080x2400 virtual-phone screenshots")
        run_root = base / "run"
        engine = OcrEngine()
        cache = OcrCache(default_cache_path(run_root))
        texts = ocr_figures(screens, cache, engine)
        cache.close()
        layout = make_run(run_root, screens, texts, args.episodes, args.steps)
        write_manifest(layout)
        shots = args.episodes * (args.steps + 1)
        print(f"run     {args.episodes} episodes x {args.steps + 1} screenshots = {shots} screenshots")

        kc = make_evaluators(["key_components"], {"key_components": {"engine": engine}})
        before = engine.recognitions
        started = time.perf_counter()
        result = reevaluate_run(run_root, kc, workers=args.workers)
        elapsed = time.perf_counter() - started
        if engine.recognitions != before:
            raise SystemExit(f"the cache missed: {engine.recognitions - before} screenshots were read again")
        passed = sum(1 for log in result.logs for v in log.verdicts[-1:] if v.success)
        print(f"kc      {elapsed:8.2f} s   {result.evaluated} episodes, warm cache, {args.workers} workers: "
              f"{elapsed / result.evaluated * 1000:.1f} ms per episode (reading and rewriting each log "
              f"included; {passed} matched, 0 OCR calls)")

        count = args.judge_episodes or args.episodes
        chosen = set(sorted(log.episode_id for log in result.logs)[:count])
        with ScriptedOpenAIServer(when_empty=YES) as server:
            judge_model = default_judge_config("gpt-4o", base_url=server.base_url, api_key_env=None)
            judges = make_evaluators(["judge"], {"judge": {"model": judge_model}})
            started = time.perf_counter()
            judged = reevaluate_run(run_root, judges, workers=args.workers, gate=False,
                                    select=lambda log: log.episode_id in chosen)
            elapsed = time.perf_counter() - started
            requests = server.chat_requests()
            megabytes = sum(len(str(r.body)) for r in requests) / 1e6
        cost = sum(v.usage.cost_usd or 0.0 for log in judged.logs for v in log.verdicts
                   if v.evaluator.startswith("judge"))
        print(f"judge   {elapsed:8.2f} s   {judged.evaluated} episodes, {len(requests)} calls, "
              f"{args.workers} workers: {elapsed / judged.evaluated * 1000:.0f} ms per episode "
              f"({megabytes / len(requests):.1f} MB per request; accounted cost ${cost:.2f} at gpt-4o "
              f"prices for the scripted 6000+30 tokens per call)")


if __name__ == "__main__":
    main()
