"""Pictures in Circle: seeded posts carry a `scene:<kind>` drawn with Pillow (the same pixels on every
phone: the drawing is seeded by the kind), and posts made on the phone carry the path of a photo from
shared storage, shown as the real image when the file decodes and otherwise as a scene chosen from
its name (the seeded files under /sdcard are placeholders of the right size, not pictures)."""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, UnidentifiedImageError

from spa_bench.phone.ui import Callback, Canvas, Rect, View

SCENES = (
    "sunset",
    "sunrise",
    "fog",
    "city",
    "mountain",
    "food",
    "dumplings",
    "bread",
    "fruit",
    "coffee",
    "plant",
    "flowers",
    "books",
    "guitar",
    "concert",
    "lake",
)
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp")
W, H = 360, 270  # drawing size; scaled to the view


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def scene_for(key: str) -> str:
    """The scene a key draws: `scene:<kind>` itself, else one picked from the key's hash."""
    if key.startswith("scene:") and key[6:] in SCENES:
        return key[6:]
    return SCENES[_seed(key) % len(SCENES)]


def _sky(d: ImageDraw.ImageDraw, top: tuple[int, int, int], bottom: tuple[int, int, int], h: int) -> None:
    for y in range(h):
        t = y / max(1, h - 1)
        d.line([(0, y), (W, y)], fill=tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))


def _ridge(
    d: ImageDraw.ImageDraw, rnd: random.Random, base: int, amp: int, color: tuple[int, int, int]
) -> None:
    points = [(0, H)]
    for x in range(0, W + 40, 40):
        points.append((x, base - rnd.randint(0, amp)))
    points.append((W, H))
    d.polygon(points, fill=color)


def draw_scene(kind: str, seed: int) -> Image.Image:
    rnd = random.Random(seed)
    img = Image.new("RGB", (W, H), (230, 230, 230))
    d = ImageDraw.Draw(img)
    if kind in ("sunset", "sunrise"):
        top, low = (
            ((255, 122, 89), (255, 214, 140)) if kind == "sunset" else ((120, 170, 230), (255, 200, 160))
        )
        _sky(d, top, low, H)
        d.ellipse((W // 2 - 40, 120, W // 2 + 40, 200), fill=(255, 240, 200))
        d.rectangle((0, 175, W, H), fill=(40, 70, 110) if kind == "sunset" else (60, 110, 160))
        for _ in range(14):
            y = rnd.randint(185, H - 5)
            x = rnd.randint(0, W - 60)
            d.line([(x, y), (x + rnd.randint(20, 70), y)], fill=(255, 210, 160), width=2)
    elif kind in ("fog", "lake"):
        _sky(d, (190, 200, 210), (230, 235, 238), H)
        _ridge(d, rnd, 150, 40, (150, 165, 175))
        if kind == "fog":
            d.rectangle((60, 90, 70, 200), fill=(192, 54, 44))
            d.rectangle((250, 90, 260, 200), fill=(192, 54, 44))
            d.line([(0, 165), (W, 165)], fill=(192, 54, 44), width=6)
            d.arc((65, 60, 255, 210), 190, 350, fill=(192, 54, 44), width=3)
        d.rectangle((0, 200, W, H), fill=(120, 150, 170))
    elif kind == "city":
        _sky(d, (110, 160, 220), (200, 225, 245), H)
        x = 0
        while x < W:
            w = rnd.randint(24, 52)
            h = rnd.randint(60, 190)
            shade = rnd.randint(70, 140)
            d.rectangle((x, H - h, x + w, H), fill=(shade, shade - 10, shade + 20))
            for wy in range(H - h + 8, H - 8, 14):
                for wx in range(x + 5, x + w - 6, 10):
                    if rnd.random() < 0.55:
                        d.rectangle((wx, wy, wx + 4, wy + 6), fill=(255, 230, 150))
            x += w + rnd.randint(0, 6)
    elif kind == "mountain":
        _sky(d, (120, 180, 235), (220, 238, 250), H)
        d.polygon([(20, H), (150, 60), (280, H)], fill=(100, 120, 140))
        d.polygon([(150, 60), (120, 105), (185, 110)], fill=(245, 248, 250))
        d.polygon([(160, H), (280, 95), (W, 200), (W, H)], fill=(80, 105, 120))
        _ridge(d, rnd, 235, 25, (70, 130, 80))
    elif kind in ("food", "dumplings", "bread", "fruit", "coffee"):
        wood = (150 + rnd.randint(-10, 10), 105, 70)
        d.rectangle((0, 0, W, H), fill=wood)
        for y in range(0, H, 18):
            d.line([(0, y), (W, y + rnd.randint(-4, 4))], fill=(wood[0] - 20, 90, 60), width=2)
        d.ellipse((70, 30, 290, 250), fill=(245, 245, 240), outline=(210, 210, 205), width=4)
        if kind == "food":
            d.ellipse((100, 60, 260, 220), fill=(200, 90, 40))
            for _ in range(7):
                cx, cy = rnd.randint(125, 235), rnd.randint(85, 195)
                d.ellipse((cx - 16, cy - 12, cx + 16, cy + 12), fill=(250, 235, 200))
                d.ellipse((cx - 6, cy - 5, cx + 6, cy + 5), fill=(245, 170, 40))
            for _ in range(12):
                cx, cy = rnd.randint(110, 250), rnd.randint(70, 210)
                d.ellipse((cx - 4, cy - 4, cx + 4, cy + 4), fill=(60, 150, 60))
        elif kind == "dumplings":
            for cx, cy in ((140, 100), (220, 100), (120, 170), (180, 180), (240, 165)):
                d.ellipse((cx - 30, cy - 24, cx + 30, cy + 24), fill=(250, 245, 230), outline=(220, 210, 190))
                d.arc((cx - 18, cy - 20, cx + 18, cy + 4), 200, 340, fill=(200, 190, 170), width=2)
        elif kind == "bread":
            d.ellipse((105, 75, 255, 205), fill=(190, 120, 55))
            for i in range(3):
                d.arc((125 + i * 25, 95, 185 + i * 25, 185), 250, 290, fill=(240, 220, 180), width=5)
        elif kind == "fruit":
            for _ in range(8):
                cx, cy = rnd.randint(120, 240), rnd.randint(80, 200)
                d.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=(250, 150 + rnd.randint(0, 40), 90))
        else:
            d.ellipse((120, 80, 240, 200), fill=(120, 75, 45))
            d.ellipse((150, 110, 210, 170), fill=(230, 200, 160))
            d.arc((230, 115, 280, 165), 270, 90, fill=(245, 245, 240), width=10)
    elif kind in ("plant", "flowers"):
        _sky(d, (240, 236, 226), (225, 220, 210), H)
        d.polygon([(130, 200), (230, 200), (215, H), (145, H)], fill=(190, 110, 80))
        if kind == "plant":
            for _ in range(9):
                x, y = rnd.randint(90, 270), rnd.randint(30, 160)
                d.line([(180, 200), (x, y)], fill=(40, 110, 50), width=4)
                d.ellipse((x - 30, y - 20, x + 30, y + 20), fill=(50 + rnd.randint(0, 40), 140, 60))
        else:
            for _ in range(9):
                x, y = rnd.randint(100, 260), rnd.randint(40, 150)
                d.line([(180, 200), (x, y)], fill=(60, 120, 60), width=3)
                color = rnd.choice(((240, 120, 150), (250, 200, 80), (250, 250, 250), (200, 120, 220)))
                for a in range(5):
                    ox, oy = ((-10, 0), (10, 0), (0, -10), (0, 10), (0, 0))[a]
                    d.ellipse((x + ox - 9, y + oy - 9, x + ox + 9, y + oy + 9), fill=color)
    elif kind == "books":
        d.rectangle((0, 0, W, H), fill=(235, 225, 205))
        x = 30
        while x < W - 30:
            w = rnd.randint(18, 34)
            h = rnd.randint(120, 200)
            color = rnd.choice(((170, 60, 50), (40, 90, 140), (60, 120, 80), (200, 150, 60), (90, 70, 120)))
            d.rectangle((x, 230 - h, x + w, 230), fill=color)
            d.line([(x + 4, 240 - h), (x + w - 4, 240 - h)], fill=(240, 230, 200), width=2)
            x += w + 3
        d.rectangle((0, 230, W, H), fill=(130, 90, 60))
    else:  # guitar, concert
        _sky(d, (30, 20, 60), (90, 40, 110), H)
        for _ in range(5):
            x = rnd.randint(20, W - 20)
            d.polygon([(x, 0), (x - 40, H), (x + 40, H)], fill=(120, 70, 150))
        if kind == "guitar":
            d.ellipse((120, 130, 220, 230), fill=(200, 120, 50))
            d.ellipse((140, 100, 210, 170), fill=(200, 120, 50))
            d.ellipse((160, 160, 185, 185), fill=(40, 20, 10))
            d.rectangle((170, 20, 180, 120), fill=(90, 50, 20))
        else:
            for _ in range(40):
                x = rnd.randint(0, W)
                d.ellipse((x - 10, 220 + rnd.randint(0, 30), x + 10, H + 20), fill=(20, 15, 30))
    return img


@lru_cache(maxsize=64)
def _fitted(key: str, host: str, width: int, height: int, radius: int) -> Image.Image:
    picture: Image.Image | None = None
    if host:
        try:
            with Image.open(host) as opened:
                picture = opened.convert("RGB")
        except (OSError, UnidentifiedImageError, ValueError):
            picture = None
    if picture is None:
        picture = draw_scene(scene_for(key), _seed(key))
    # centre crop to the view's aspect ratio, then scale
    pw, ph = picture.size
    target = width / max(1, height)
    if pw / ph > target:
        cw = round(ph * target)
        picture = picture.crop(((pw - cw) // 2, 0, (pw - cw) // 2 + cw, ph))
    else:
        ch = round(pw / target)
        picture = picture.crop((0, (ph - ch) // 2, pw, (ph - ch) // 2 + ch))
    picture = picture.resize((max(1, width), max(1, height)), Image.Resampling.BILINEAR)
    if radius:
        mask = Image.new("L", picture.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=255)
        picture.putalpha(mask)
    return picture


class PhotoView(View):
    """A picture filling its bounds (centre-cropped), with rounded corners."""

    class_name = "android.widget.ImageView"

    def __init__(
        self,
        bounds: Rect,
        key: str,
        host: Path | None = None,
        *,
        radius: int = 0,
        rid: str = "",
        desc: str = "",
        on_click: Callback | None = None,
    ) -> None:
        super().__init__(bounds, rid=rid, desc=desc, on_click=on_click)
        self.key = key
        self.host = str(host) if host is not None else ""
        self.radius = radius

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        img = _fitted(self.key, self.host, b.width, b.height, self.radius)
        x, y = b.left - canvas.origin[0], b.top - canvas.origin[1]
        if img.mode == "RGBA":
            canvas.image.paste(img, (x, y), img)
        else:
            canvas.image.paste(img, (x, y))
