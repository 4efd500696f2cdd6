"""Chat messages in the OpenAI format, with screenshots inlined as data URLs.

Images go inline (base64) rather than by URL because phones' screenshots live only on this machine,
and every OpenAI-compatible server (OpenAI, Azure, vLLM, Ollama, LM Studio) accepts data URLs.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from spa_bench.models.config import ImageSettings

if TYPE_CHECKING:
    from PIL import Image

Message = dict[str, Any]
ImageInput = Union["Image.Image", bytes]
Part = Union[str, "Image.Image", bytes]

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def encode_image(image: ImageInput, settings: ImageSettings | None = None) -> str:
    """A data URL of the image, resized so its longer side is at most settings.max_side, as PNG or JPEG.

    PNG bytes that need neither resizing nor conversion are sent as they are (no re-encoding).
    """
    from PIL import Image

    settings = settings or ImageSettings()
    img: Image.Image
    if isinstance(image, bytes | bytearray):
        raw = bytes(image)
        try:
            img = Image.open(io.BytesIO(raw))
        except Exception as exc:  # PIL raises UnidentifiedImageError and others
            raise ValueError(f"not an image ({len(raw)} bytes): {exc}") from None
        if (settings.format == "png" and raw.startswith(_PNG_MAGIC)
                and not _needs_resize(img.size, settings.max_side)):
            return _data_url("png", raw)
        img.load()
    else:
        img = image
    img = resize_to_max_side(img, settings.max_side)
    buf = io.BytesIO()
    if settings.format == "jpeg":
        if img.mode not in ("RGB", "L"):
            img = _flatten(img)
        img.save(buf, format="JPEG", quality=settings.jpeg_quality, optimize=True)
    else:
        img.save(buf, format="PNG")
    return _data_url(settings.format, buf.getvalue())


def resize_to_max_side(img: Image.Image, max_side: int | None) -> Image.Image:
    """A copy scaled down (aspect kept) so the longer side is <= max_side; the image itself if it fits."""
    if not _needs_resize(img.size, max_side):
        return img
    assert max_side is not None
    from PIL import Image

    width, height = img.size
    scale = max_side / max(width, height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return img.resize(size, Image.Resampling.LANCZOS)


def image_part(image: ImageInput, settings: ImageSettings | None = None) -> dict[str, Any]:
    """One `image_url` content part carrying the image and the detail hint."""
    settings = settings or ImageSettings()
    url = encode_image(image, settings)
    return {"type": "image_url", "image_url": {"url": url, "detail": settings.detail}}


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def user_message(*parts: Part | Sequence[Part], settings: ImageSettings | None = None) -> Message:
    """A user message from text and images in the given order; lists of parts are flattened.

    `user_message("What is on screen?", screenshot)` or `user_message(prompt, [shot1, shot2])`.
    """
    content: list[dict[str, Any]] = []
    for part in _flatten_parts(parts):
        if isinstance(part, str):
            content.append(text_part(part))
        else:
            content.append(image_part(part, settings))
    return {"role": "user", "content": content}


def system_message(text: str) -> Message:
    return {"role": "system", "content": text}


def assistant_message(text: str) -> Message:
    return {"role": "assistant", "content": text}


def _flatten_parts(parts: Sequence[Any]) -> list[Part]:
    out: list[Part] = []
    for part in parts:
        if isinstance(part, list | tuple):
            out.extend(_flatten_parts(part))
        elif isinstance(part, str | bytes | bytearray) or _is_pil_image(part):
            out.append(bytes(part) if isinstance(part, bytearray) else part)
        else:
            raise TypeError("a message part must be text, a PIL image or image bytes, "
                            f"not {type(part).__name__}")
    return out


def _is_pil_image(obj: object) -> bool:
    from PIL import Image

    return isinstance(obj, Image.Image)


def _needs_resize(size: tuple[int, int], max_side: int | None) -> bool:
    return max_side is not None and max(size) > max_side


def _flatten(img: Image.Image) -> Image.Image:
    """RGB on white: JPEG has no alpha channel, and black behind transparent pixels reads badly."""
    from PIL import Image

    rgba = img.convert("RGBA")
    background = Image.new("RGB", rgba.size, (255, 255, 255))
    background.paste(rgba, mask=rgba.getchannel("A"))
    return background


def _data_url(fmt: str, data: bytes) -> str:
    return f"data:image/{fmt};base64,{base64.b64encode(data).decode('ascii')}"
