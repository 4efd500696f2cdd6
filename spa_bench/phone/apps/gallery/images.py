"""Deterministic synthetic photos drawn with Pillow: a landscape "scene" (sky, sun or moon, hills,
water, a few trees) chosen by a hash of a seed string, so the same name always gives the same
picture and nothing binary ships with the repo. The camera's shots and the seeded photos are real
JPEG (or PNG) files that any image viewer - and `adb pull` - can open."""

from __future__ import annotations

import hashlib
import io
import random
from datetime import datetime
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

PHOTO_SIZE = (1024, 768)
SCREENSHOT_SIZE = (540, 1200)
_SKIES = (
    ((86, 150, 230), (200, 225, 250)),
    ((250, 140, 90), (255, 215, 150)),
    ((25, 30, 70), (90, 80, 140)),
    ((120, 190, 240), (235, 245, 255)),
    ((200, 110, 140), (250, 200, 170)),
)
_GROUNDS = ((70, 130, 60), (150, 120, 80), (60, 90, 110), (110, 150, 70), (190, 170, 120))


def _rng(seed: str) -> random.Random:
    return random.Random(int.from_bytes(hashlib.sha256(seed.encode("utf-8")).digest()[:8], "big"))


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def scene(seed: str, size: tuple[int, int] = PHOTO_SIZE) -> Image.Image:
    """The landscape for `seed`."""
    rng = _rng(seed)
    w, h = size
    img = Image.new("RGB", size)
    d = ImageDraw.Draw(img)
    top, bottom = _SKIES[rng.randrange(len(_SKIES))]
    horizon = int(h * rng.uniform(0.45, 0.65))
    for y in range(horizon):
        d.line([(0, y), (w, y)], fill=_mix(top, bottom, y / max(1, horizon)))
    night = top[0] < 40
    r = int(min(w, h) * rng.uniform(0.05, 0.09))
    cx, cy = int(w * rng.uniform(0.15, 0.85)), int(horizon * rng.uniform(0.2, 0.6))
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(240, 240, 220) if night else (255, 230, 120))
    if night:
        for _ in range(40):
            x, y = rng.randrange(w), rng.randrange(horizon)
            d.point((x, y), fill=(255, 255, 255))
    ground = _GROUNDS[rng.randrange(len(_GROUNDS))]
    for layer in range(3):
        shade = _mix(ground, (30, 40, 50), 0.25 * (2 - layer))
        base = horizon + layer * (h - horizon) // 6
        points = [(0, h)]
        for i in range(9):
            points.append((w * i // 8, base - int(h * rng.uniform(0.02, 0.18)) + layer * 10))
        points.append((w, h))
        d.polygon(points, fill=shade)
    if rng.random() < 0.5:  # a lake in the foreground
        lake_top = int(h * rng.uniform(0.75, 0.85))
        d.rectangle((0, lake_top, w, h), fill=_mix(top, (20, 60, 110), 0.5))
        for y in range(lake_top + 6, h, 14):
            d.line(
                [(rng.randrange(w // 2), y), (w // 2 + rng.randrange(w // 2), y)], fill=_mix(bottom, top, 0.4)
            )
    for _ in range(rng.randrange(2, 7)):  # trees
        x = rng.randrange(w)
        base = int(h * rng.uniform(0.72, 0.95))
        th = int(h * rng.uniform(0.08, 0.16))
        d.rectangle((x - 3, base - th // 3, x + 3, base), fill=(80, 55, 35))
        d.polygon(
            [(x - th // 3, base - th // 3), (x, base - th), (x + th // 3, base - th // 3)], fill=(35, 90, 45)
        )
    return img.filter(ImageFilter.SMOOTH)


def screenshot(seed: str, size: tuple[int, int] = SCREENSHOT_SIZE) -> Image.Image:
    """A phone screenshot look-alike: a status bar, an app bar and list rows in flat colours."""
    rng = _rng(seed)
    w, h = size
    img = Image.new("RGB", size, (248, 249, 252))
    d = ImageDraw.Draw(img)
    accent = _SKIES[rng.randrange(len(_SKIES))][0]
    d.rectangle((0, 0, w, 40), fill=(235, 238, 245))
    d.rectangle((0, 40, w, 140), fill=accent)
    y = 170
    while y < h - 80:
        d.ellipse((24, y, 84, y + 60), fill=_mix(accent, (255, 255, 255), rng.uniform(0.3, 0.7)))
        d.rounded_rectangle((104, y + 8, 104 + rng.randrange(200, 380), y + 26), 6, fill=(60, 64, 72))
        d.rounded_rectangle((104, y + 36, 104 + rng.randrange(120, 300), y + 50), 6, fill=(160, 164, 172))
        y += 92
    return img


def encode(img: Image.Image, fmt: str, when: datetime | None = None, model: str = "") -> bytes:
    """The picture as a JPEG (with the EXIF a phone camera writes: make, model, date taken) or PNG."""
    out = io.BytesIO()
    if fmt == "png":
        img.save(out, "PNG", optimize=True)
        return out.getvalue()
    exif = Image.Exif()
    if when is not None:
        stamp = when.strftime("%Y:%m:%d %H:%M:%S")
        exif[0x0132] = stamp  # DateTime
        exif[0x9003] = stamp  # DateTimeOriginal
    if model:
        exif[0x010F] = "Google"  # Make
        exif[0x0110] = model  # Model
    img.save(out, "JPEG", quality=82, exif=exif.tobytes())
    return out.getvalue()


def picture_for(name: str, when: datetime | None = None, model: str = "") -> bytes:
    """The file content of a seeded or captured picture called `name` (PNG screenshots, JPEG photos)."""
    if name.lower().endswith(".png"):
        return encode(screenshot(name), "png")
    return encode(scene(name), "jpeg", when, model)


@lru_cache(maxsize=64)
def seed_picture(name: str) -> bytes:
    """A seeded picture's file content: the same for every phone, so drawn once per process (a phone
    forked from a warm zygote, spa_bench.phone.zygote, finds it drawn: 0.4 s of its first boot)."""
    return picture_for(name)


@lru_cache(maxsize=96)
def thumbnail(data: bytes, side: int) -> Image.Image:
    """A square centre crop of the picture in `data`, `side` pixels wide (cached per file content)."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    w, h = img.size
    s = min(w, h)
    img = img.crop(((w - s) // 2, (h - s) // 2, (w - s) // 2 + s, (h - s) // 2 + s))
    return img.resize((side, side), Image.Resampling.BILINEAR)


@lru_cache(maxsize=16)
def fitted(data: bytes, width: int, height: int) -> Image.Image:
    """The whole picture scaled to fit (width, height)."""
    img = Image.open(io.BytesIO(data)).convert("RGB")
    scale = min(width / img.width, height / img.height)
    return img.resize(
        (max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.BILINEAR
    )


@lru_cache(maxsize=8)
def preview(seed: str, width: int, height: int) -> bytes:
    """The camera's viewfinder picture for `seed` (a quarter-size JPEG, scaled up on screen)."""
    return encode(scene(seed, (max(8, width // 2), max(8, height // 2))), "jpeg")


def dimensions(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        return img.size
