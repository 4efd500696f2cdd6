"""OCR on rendered phone screenshots (English and Chinese), the content-keyed cache, thread safety, and
that nothing heavy is imported before it is needed."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from eval_builders import CountingEngine, Row, alarm_zh, render_screen, settings_en, settings_zh
from PIL import Image

from spa_bench.evaluation.ocr import OcrEngine, OcrResult, file_key, pixel_key, read_text
from spa_bench.evaluation.ocr_cache import OcrCache, default_cache_path


def texts(result: OcrResult) -> list[str]:
    return [line.text for line in result.lines]


def small(title: str) -> Image.Image:
    """A quick-to-read strip for the tests about caching mechanics."""
    return render_screen(title, [Row("Wi-Fi", "on")], size=(540, 400))


@pytest.mark.slow
def test_reads_english_settings_with_boxes_and_scores(engine: CountingEngine, shared_cache: OcrCache) -> None:
    image = settings_en()
    result = read_text(image, cache=shared_cache, engine=engine)
    for label in ("Settings", "Wi-Fi", "Bluetooth", "Dark mode", "HomeNet-5G"):
        assert label in texts(result), texts(result)
    wifi = next(line for line in result.lines if line.text == "Wi-Fi")
    assert len(wifi.box) == 4
    xs, ys = [p[0] for p in wifi.box], [p[1] for p in wifi.box]
    # the row title is drawn at x=48, y=330 with a 50 px font: the box must be around it
    assert 20 < min(xs) < 80 and 300 < min(ys) < 360 and max(ys) < 420
    assert wifi.score > 0.9
    lines_top_down = [min(p[1] for p in line.box) for line in result.lines]
    assert lines_top_down.index(min(lines_top_down)) == 0  # the status bar clock comes first
    assert result.text.split("\n") == texts(result)


@pytest.mark.slow
def test_reads_chinese_screens(engine: CountingEngine, shared_cache: OcrCache) -> None:
    result = read_text(settings_zh(), cache=shared_cache, engine=engine)
    for label in ("设置", "蓝牙", "深色模式", "亮度、字体大小"):
        assert label in texts(result), texts(result)
    alarm = read_text(alarm_zh(), cache=shared_cache, engine=engine)
    assert "闹钟" in texts(alarm) and "07:30" in texts(alarm) and "周一至周五" in texts(alarm)
    assert "07:31" not in alarm.text


def test_cache_hits_by_file_bytes_and_by_pixels(tmp_path: Path, engine: CountingEngine) -> None:
    image = small("Cache")
    png = tmp_path / "a.png"
    image.save(png, compress_level=1)
    other_encoding = tmp_path / "b.png"
    image.save(other_encoding, compress_level=9)
    assert png.read_bytes() != other_encoding.read_bytes()

    cache = OcrCache(tmp_path / "ocr.sqlite")
    before = engine.calls
    first = read_text(png, cache=cache, engine=engine)
    assert engine.calls == before + 1 and not first.cached and first.seconds > 0
    assert "Cache" in texts(first)
    assert len(cache) == 2  # stored under the file hash and the pixel hash

    again = read_text(png, cache=cache, engine=engine)
    same_pixels = read_text(other_encoding, cache=cache, engine=engine)
    in_memory = read_text(image, cache=cache, engine=engine)
    as_bytes = read_text(png.read_bytes(), cache=cache, engine=engine)
    assert engine.calls == before + 1 and engine.recognitions == engine.calls
    for hit in (again, same_pixels, in_memory, as_bytes):
        assert hit.cached and hit.seconds == 0 and hit.lines == first.lines
    assert len(cache) == 3  # the second encoding's file hash was added
    cache.close()

    reopened = OcrCache(tmp_path / "ocr.sqlite")  # persisted on disk
    assert reopened.get(engine.identity, file_key(png.read_bytes())) == first.lines
    assert reopened.get("other-engine-9", pixel_key(image)) is None  # another engine's results differ
    reopened.close()


def test_different_pixels_are_different_keys() -> None:
    a, b = small("Alarm 07:30"), small("Alarm 07:31")
    assert pixel_key(a) != pixel_key(b)
    assert pixel_key(a) == pixel_key(a.convert("RGBA"))  # alpha of an opaque screenshot is ignored


def test_no_cache_always_recognises(engine: CountingEngine) -> None:
    image = small("Again")
    before = engine.calls
    read_text(image, engine=engine)
    read_text(image, engine=engine)
    assert engine.calls == before + 2


def test_one_engine_is_safe_from_many_threads(engine: CountingEngine) -> None:
    images = [small("Bluetooth"), small("深色模式"), small("Bluetooth"), small("深色模式")]
    results: dict[int, list[str]] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            results[i] = texts(read_text(images[i], engine=engine))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(images))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert "Bluetooth" in results[0] and "深色模式" in results[1]
    assert results[0] == results[2] and results[1] == results[3]


def test_default_cache_path_is_inside_the_run(tmp_path: Path) -> None:
    assert default_cache_path(tmp_path / "run-1") == tmp_path / "run-1" / ".cache" / "ocr.sqlite"


@pytest.mark.parametrize("module", ["spa_bench.evaluation", "spa_bench.evaluators.key_components"])
def test_importing_loads_no_ocr_or_pandas(module: str) -> None:
    code = (f"import sys, {module}; from spa_bench.evaluation.ocr import OcrEngine; OcrEngine(); "
            "print([m for m in ('rapidocr', 'onnxruntime', 'cv2', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


class _FakeOutput:
    txts = ("Wi-Fi",)
    scores = (0.99,)
    boxes = None


class _SlowFakeEngine(OcrEngine):
    """Counts engine creations and how many threads are inside the (fake) model call at once."""

    def __init__(self) -> None:
        super().__init__()
        self.created = 0
        self.inside = 0
        self.most_inside = 0

    def _create(self) -> object:
        self.created += 1
        time.sleep(0.05)  # creation is slow: a race would create two
        return self._call

    def _call(self, image: Image.Image) -> _FakeOutput:
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        time.sleep(0.02)
        self.inside -= 1
        return _FakeOutput()


def test_engine_is_created_once_and_called_one_thread_at_a_time() -> None:
    fake = _SlowFakeEngine()
    image = Image.new("RGB", (8, 8))
    threads = [threading.Thread(target=fake.recognise, args=(image,)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert fake.created == 1 and fake.most_inside == 1 and fake.recognitions == 6
    assert fake.recognise(image).lines[0].text == "Wi-Fi"
