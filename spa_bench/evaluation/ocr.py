"""Reading the text of a screenshot with RapidOCR (ONNX models shipped inside the wheel, no download).

Text is detected on the screenshot scaled to at most DETECTION_SIDE pixels on its longer side (a
540-pixel short side on a 1080x2400 phone) and recognised on crops of the full-size image: detection
is most of the cost and finds the same lines at that size on phone screens (benchmarks/ocr_speed.py
compares the strings and the times against rapidocr's default, which detects at full size). The
text-direction classifier is off: a screenshot's text is never upside down.

Creating the engine imports OpenCV and onnxruntime and takes seconds, so it happens once per process,
on first use, and every call goes through one lock (`RapidOCR.__call__` mutates shared settings, so it
is not safe to call from two threads at once). Results are cached by image content (see ocr_cache), so
evaluating an episode again costs no OCR and does not even create the engine.
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from spa_bench.errors import ConfigError

if TYPE_CHECKING:
    from PIL import Image


@dataclass(frozen=True)
class OcrLine:
    """One line of recognised text; `box` holds the four corners (x, y) clockwise from top left."""

    text: str
    box: tuple[tuple[float, float], ...]
    score: float

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "box": [list(p) for p in self.box], "score": self.score}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> OcrLine:
        return cls(text=str(data["text"]), box=tuple((float(x), float(y)) for x, y in data["box"]),
                   score=float(data["score"]))


@dataclass(frozen=True)
class OcrResult:
    """The lines of one image, top to bottom, as the engine ordered them."""

    lines: tuple[OcrLine, ...]
    engine: str
    seconds: float = 0.0  # time spent recognising; 0 when the result came from the cache
    cached: bool = False

    @property
    def text(self) -> str:
        """All lines, one per line of text."""
        return "\n".join(line.text for line in self.lines)


DETECTION_SIDE = 1200
"""Longest side of the image text detection runs on (None: rapidocr's default, full size)."""


def engine_identity(detection_side: int | None = DETECTION_SIDE) -> str:
    """Names the engine, its models (they ship with the wheel, so the version fixes them) and the
    detection size, without importing it; cache entries made otherwise are not reused."""
    try:
        version = metadata.version("rapidocr")
    except metadata.PackageNotFoundError:
        version = "missing"
    return f"rapidocr-{version}-nocls" + (f"-det{detection_side}" if detection_side else "")


def rapidocr_engine(detection_side: int | None = DETECTION_SIDE) -> Any:
    """A RapidOCR engine set up as the evaluators read screens (what `engine_identity` names); called on
    an image it returns rapidocr's own output."""
    try:
        from rapidocr import RapidOCR
    except ImportError as exc:  # pragma: no cover - rapidocr is a declared dependency
        raise ConfigError("OCR needs the rapidocr and onnxruntime packages: "
                          "pip install rapidocr onnxruntime") from exc
    # log_level warning: rapidocr logs every model load at info level, which floods a run's output.
    # no text-direction classifier: screenshots are never upside down, and it costs a model call per line
    params: dict[str, Any] = {"Global.log_level": "warning", "Global.use_cls": False}
    if detection_side:
        params.update({"Det.limit_type": "max", "Det.limit_side_len": detection_side})
    return RapidOCR(params=params)


class OcrEngine:
    """A lazily created RapidOCR engine behind a lock. One per process is enough: see `default_engine`."""

    def __init__(self, detection_side: int | None = DETECTION_SIDE) -> None:
        self._lock = threading.Lock()
        self._engine: Any = None
        self.detection_side = detection_side
        self.identity = engine_identity(detection_side)
        self.created_in_s: float | None = None
        self.recognitions = 0  # images actually read (cache misses), for statistics and benchmarks
        self.busy_s = 0.0  # time spent recognising them

    def _create(self) -> Any:
        started = time.perf_counter()
        engine = rapidocr_engine(self.detection_side)
        self.created_in_s = time.perf_counter() - started
        return engine

    def recognise(self, image: Image.Image) -> OcrResult:
        """Run the engine on a decoded image (no cache)."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        with self._lock:
            if self._engine is None:
                self._engine = self._create()
            started = time.perf_counter()
            output = self._engine(rgb)
            seconds = time.perf_counter() - started
            self.recognitions += 1
            self.busy_s += seconds
        return OcrResult(lines=_lines_of(output), engine=self.identity, seconds=seconds)


def _lines_of(output: Any) -> tuple[OcrLine, ...]:
    texts = getattr(output, "txts", None) or ()
    scores = getattr(output, "scores", None) or ()
    boxes = getattr(output, "boxes", None)
    lines = []
    for i, text in enumerate(texts):
        corners: tuple[tuple[float, float], ...] = ()
        if boxes is not None and i < len(boxes):
            corners = tuple((float(x), float(y)) for x, y in boxes[i].tolist())
        score = float(scores[i]) if i < len(scores) else 0.0
        lines.append(OcrLine(text=str(text), box=corners, score=round(score, 5)))
    return tuple(lines)


_default: OcrEngine | None = None
_default_lock = threading.Lock()


def default_engine() -> OcrEngine:
    """The process-wide engine (created on first recognition, not here)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = OcrEngine()
        return _default


def pixel_key(image: Image.Image) -> str:
    """Content key of decoded pixels: equal for the same picture saved with different PNG settings."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    digest = hashlib.sha256(f"{rgb.width}x{rgb.height}:".encode())
    digest.update(rgb.tobytes())
    return "px:" + digest.hexdigest()


def file_key(data: bytes) -> str:
    """Content key of an encoded file; cheaper than `pixel_key` (no decoding), used for paths first."""
    return "file:" + hashlib.sha256(data).hexdigest()


class LineCache(Protocol):
    """Where read_text keeps what it read, by engine and content key (ocr_cache.OcrCache is one)."""

    def get(self, engine: str, key: str) -> tuple[OcrLine, ...] | None: ...

    def put(self, engine: str, keys: Iterable[str], lines: Iterable[OcrLine]) -> None: ...


def read_text(image: Image.Image | Path | str | bytes, cache: LineCache | None = None,
              engine: OcrEngine | None = None) -> OcrResult:
    """The text lines of `image`, from `cache` when this content was read before.

    A file is first looked up by the hash of its bytes, which needs no decoding; on a miss it is
    decoded and looked up by its pixels, and a new result is stored under both keys.
    """
    from PIL import Image as PilImage

    engine = engine or default_engine()
    keys: list[str] = []
    if isinstance(image, (str, Path, bytes)):
        data = image if isinstance(image, bytes) else Path(image).read_bytes()
        keys.append(file_key(data))
        if cache is not None:
            hit = cache.get(engine.identity, keys[0])
            if hit is not None:
                return OcrResult(lines=hit, engine=engine.identity, cached=True)
        with PilImage.open(io.BytesIO(data)) as opened:
            picture = opened.convert("RGB")
    else:
        picture = image.convert("RGB") if image.mode != "RGB" else image
    keys.append(pixel_key(picture))
    if cache is not None:
        hit = cache.get(engine.identity, keys[-1])
        if hit is not None:
            if len(keys) > 1:
                cache.put(engine.identity, keys[:-1], hit)
            return OcrResult(lines=hit, engine=engine.identity, cached=True)
    result = engine.recognise(picture)
    if cache is not None:
        cache.put(engine.identity, keys, result.lines)
    return result
