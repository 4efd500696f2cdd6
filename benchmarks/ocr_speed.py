"""How long OCR and key-component evaluation take, cold, warm and from the cache.

Screenshots are the virtual phone's own 1080x2400 screens (launcher and every Settings page, in English
and Chinese). Prints:
  cold    the first OCR in this process: importing rapidocr/onnxruntime, creating the engine, loading
          the models and reading one screenshot;
  warm    the median time to read one screenshot (PNG decode + OCR) over --warm other screenshots;
  detect  the same screenshots read with rapidocr's default detection (full size) and with ours
          (longer side DETECTION_SIDE): median time of each, the ratio, and every line the default
          finds that ours does not (as key-component matching compares: whitespace-free, case-folded);
  rerun   re-evaluating --episodes synthetic episodes (--steps screenshots each plus final.png, all
          hard links to the --distinct screenshots, as a run whose episodes revisit the same screens)
          with the key-component evaluator and the run's OCR cache already filled: no OCR at all.

    python benchmarks/ocr_speed.py [--distinct 24] [--warm 10] [--episodes 500] [--steps 6] [--no-compare]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from spa_bench.evaluators.key_components import KeyComponentsEvaluator

from spa_bench.evaluation.ocr import DETECTION_SIDE, OcrEngine, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path
from spa_bench.results.layout import RunLayout
from spa_bench.results.schema import (
    AgentSpec,
    DeviceInfo,
    EpisodeLog,
    InstanceInfo,
    ObservationRef,
    StepRecord,
)
from spa_bench.tasks.model import Task

SETTINGS = "com.android.settings"
PAGES = ["", "NetworkDashboardActivity", "ConnectedDeviceDashboardActivity",
         "ConfigureNotificationSettingsActivity", "PowerUsageSummaryActivity", "StorageDashboardActivity",
         "SoundSettingsActivity", "DisplaySettingsActivity", "LocationSettingsActivity",
         "SystemDashboardActivity", "LanguageSettingsActivity", "DateTimeSettingsActivity",
         "MyDeviceInfoActivity"]


def render_screens(folder: Path, count: int) -> list[Path]:
    """Save up to `count` distinct phone screenshots (home first, then Settings pages; en, then zh)."""
    from spa_bench.phone.api import PhoneConfig
    from spa_bench.phone.system import PhoneOS
    from spa_bench.phone.vfs import VirtualFS

    paths: list[Path] = []
    for locale in ("en", "zh"):
        phone = PhoneOS(PhoneConfig(locale=locale, data_dir=folder / f"data-{locale}"),
                        VirtualFS(folder / f"fs-{locale}"))
        for page in [None, *PAGES]:
            if len(paths) >= count:
                break
            if page is None:
                phone.go_home()
            else:
                phone.start_activity(SETTINGS, f"com.android.settings.Settings${page}" if page else None)
            path = folder / f"screen-{len(paths):02d}-{locale}.png"
            phone.screenshot().save(path)
            paths.append(path)
        phone.close()
    return paths


def make_run(root: Path, screens: list[Path], texts: dict[Path, str], episodes: int, steps: int,
             seed: int = 7) -> RunLayout:
    """Episodes whose screenshots are hard links to `screens`; half of them look for a line of their
    final screen (matched at once), half for an absent string (every screenshot is searched)."""
    rng = random.Random(seed)
    layout = RunLayout(root)
    start = datetime(2025, 1, 6, tzinfo=UTC)
    for e in range(episodes):
        shots = [rng.choice(screens) for _ in range(steps + 1)]
        lines = [line for line in texts[shots[-1]].splitlines() if len(line) > 2] or ["x"]
        components = [rng.choice(lines)] if e % 2 == 0 else ["no such text on any screen"]
        task = Task.model_validate({
            "id": f"synthetic_{e}", "apps": [{"package": SETTINGS, "name": {"en": "Settings"}}],
            "language": "en", "difficulty": 1, "category": "single_app", "instruction": "Benchmark.",
            "golden_steps": steps, "key_components": components})
        log = EpisodeLog(
            episode_id=f"bench__synthetic_{e}__r0", run_id="ocr-bench", task=task,
            instance=InstanceInfo(seed=0), agent=AgentSpec(name="bench", reference="scripted"),
            device=DeviceInfo(serial="virtual"), started_at=start, status="finished", termination="done",
            steps=[StepRecord(index=i, started_at=start, observation=ObservationRef(
                screenshot=f"screenshots/{i:03d}.png")) for i in range(steps)],
            final_observation=ObservationRef(screenshot="screenshots/final.png"))
        folder = layout.episode_dir(log.episode_id) / "screenshots"
        folder.mkdir(parents=True)
        for i, shot in enumerate(shots):
            os.link(shot, folder / (f"{i:03d}.png" if i < steps else "final.png"))
        layout.write_episode(log)
    return layout


def compare_detection(screens: list[Path], texts: dict[Path, str], ours: list[float]) -> None:
    """Read `screens` again with full-size detection; compare times and strings with ours."""
    full = OcrEngine(detection_side=None)
    full.recognise(_image(screens[0]))  # engine creation and model load off the clock
    times: list[float] = []
    missed: list[str] = []
    for path in screens[1:len(ours) + 1]:
        started = time.perf_counter()
        reference = read_text(path, engine=full).text
        times.append(time.perf_counter() - started)
        found = "".join(texts[path].split()).casefold()
        missed += [f"{path.name}: {line!r}" for line in reference.splitlines()
                   if "".join(line.split()).casefold() not in found]
    default, small = statistics.median(times), statistics.median(ours)
    print(f"detect  {default:7.2f} s   median per screenshot, full-size detection (rapidocr default)")
    print(f"        {small:7.2f} s   median per screenshot, detection at longer side {DETECTION_SIDE} "
          f"({small / default:.2f}x)")
    print(f"        {len(missed)} line(s) found at full size but not at {DETECTION_SIDE}"
          + ("".join(f"\n          {m}" for m in missed[:20])))


def _image(path: Path) -> object:
    from PIL import Image

    with Image.open(path) as img:
        return img.convert("RGB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--distinct", type=int, default=24, help="distinct screenshots (max 28)")
    parser.add_argument("--warm", type=int, default=10, help="screenshots timed warm")
    parser.add_argument("--episodes", type=int, default=500)
    parser.add_argument("--steps", type=int, default=6, help="steps per episode (plus final.png)")
    parser.add_argument("--no-compare", dest="compare", action="store_false",
                        help="skip the comparison with full-size detection")
    args = parser.parse_args()
    if "rapidocr" in sys.modules:
        raise SystemExit("rapidocr is already imported: the cold figure would be wrong")

    with tempfile.TemporaryDirectory(prefix="spa-ocr-bench-") as tmp:
        base = Path(tmp)
        screens = render_screens(base / "screens", args.distinct)
        size_kb = statistics.mean(p.stat().st_size for p in screens) / 1024
        print(f"{len(screens)} distinct 1080x2400 screenshots, {size_kb:.0f} KiB per PNG on average")
        run_root = base / "run"
        engine = OcrEngine()
        cache = OcrCache(default_cache_path(run_root))
        texts: dict[Path, str] = {}

        started = time.perf_counter()
        texts[screens[0]] = read_text(screens[0], cache=cache, engine=engine).text
        cold = time.perf_counter() - started
        print(f"cold    {cold:7.2f} s   first screenshot, incl. import + engine + model load")

        warm: list[float] = []
        for path in screens[1:]:
            started = time.perf_counter()
            texts[path] = read_text(path, cache=cache, engine=engine).text
            if len(warm) < args.warm:
                warm.append(time.perf_counter() - started)
        print(f"warm    {statistics.median(warm):7.2f} s   median per screenshot over {len(warm)} "
              f"(min {min(warm):.2f}, max {max(warm):.2f})")
        cache.close()
        if args.compare:
            compare_detection(screens, texts, warm)

        started = time.perf_counter()
        layout = make_run(run_root, screens, texts, args.episodes, args.steps)
        print(f"        {time.perf_counter() - started:7.2f} s   to write {args.episodes} episodes "
              f"x {args.steps + 1} screenshots (hard links)")

        started = time.perf_counter()
        logs = list(layout.episodes())
        loaded = time.perf_counter() - started
        before = engine.recognitions
        evaluator = KeyComponentsEvaluator(engine=engine)
        started = time.perf_counter()
        verdicts = [evaluator.evaluate(log, layout.episode_dir(log.episode_id)) for log in logs]
        rerun = time.perf_counter() - started
        evaluator.close()
        if engine.recognitions != before:
            raise SystemExit(f"the cache missed: {engine.recognitions - before} screenshots were read again")
        passed = sum(1 for v in verdicts if v.success)
        checked = sum(int(v.evidence[0].details.get("screenshots_checked", 0)) for v in verdicts)
        per_episode_ms = rerun / len(logs) * 1000
        print(f"rerun   {rerun:7.2f} s   {len(logs)} episodes from the cache ({per_episode_ms:.1f} ms "
              f"per episode, {checked} screenshots looked up, {passed} matched); reading the logs took "
              f"{loaded:.2f} s")
        cached = OcrCache(default_cache_path(run_root))
        print(f"cache   {len(cached)} entries, "
              f"{default_cache_path(run_root).stat().st_size / 1024:.0f} KiB")
        cached.close()


if __name__ == "__main__":
    main()
