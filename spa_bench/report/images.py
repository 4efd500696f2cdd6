"""Screenshots embedded as small JPEG data URLs (`--embed`): one portable file instead of a folder.

A 1080x2400 PNG becomes a ~360-pixel-wide JPEG of 15-25 kB: enough to see what the agent saw and where
it tapped. Pillow is imported here, only when embedding is asked for.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

from spa_bench.report.details import ImageSource

THUMB_WIDTH = 360
JPEG_QUALITY = 60


def thumbnail_data_url(path: Path, width: int = THUMB_WIDTH, quality: int = JPEG_QUALITY) -> str | None:
    """The image as a data URL, or None when the file is missing or not an image."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            image.load()
            factor = max(1, image.width // width)
            small = image.reduce(factor) if factor > 1 else image
            if small.width > width:
                small = small.resize((width, round(small.height * width / small.width)))
            buffer = io.BytesIO()
            small.convert("RGB").save(buffer, format="JPEG", quality=quality, optimize=True)
    except (OSError, UnidentifiedImageError):
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def embedded_images(episode_dir: Path) -> ImageSource:
    def source(relative: str) -> str | None:
        return thumbnail_data_url(episode_dir / relative)

    return source
