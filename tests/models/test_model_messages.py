"""Images in messages: data URLs with the configured format, size and detail, as the server receives them."""

from __future__ import annotations

import base64
import io
from collections.abc import Callable

import pytest
from PIL import Image

from spa_bench.models import ImageSettings, ModelClient, encode_image, system_message, user_message
from spa_bench.testing.openai_server import ScriptedOpenAIServer


def _screenshot(width: int = 1080, height: int = 2400, mode: str = "RGB") -> Image.Image:
    img = Image.new(mode, (width, height), (30, 120, 200) if mode == "RGB" else (30, 120, 200, 0))
    img.paste((250, 250, 250) if mode == "RGB" else (250, 250, 250, 255), (0, 0, width, height // 10))
    return img


def _png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def _decode(url: str) -> tuple[str, bytes, Image.Image]:
    head, _, data = url.partition(",")
    raw = base64.b64decode(data)
    return head, raw, Image.open(io.BytesIO(raw))


def test_images_reach_the_server_as_resized_data_urls(server: ScriptedOpenAIServer,
                                                      make_client: Callable[..., ModelClient]) -> None:
    server.add("tap(540, 1200)")
    client = make_client(image={"format": "jpeg", "jpeg_quality": 70, "max_side": 1000, "detail": "high"})
    shot, small = _screenshot(), _png_bytes(_screenshot(400, 300))
    client.chat([system_message("You operate a phone."),
                 client.user_message("Task: open Wi-Fi settings", shot, "before:", small)])
    request = server.chat_requests()[0]
    assert request.texts() == ["You operate a phone.", "Task: open Wi-Fi settings", "before:"]
    # Parts stay in the order given: text, image, text, image.
    kinds = [p["type"] for p in request.messages[1]["content"]]
    assert kinds == ["text", "image_url", "text", "image_url"]
    first, second = request.image_urls()
    assert first["detail"] == "high" and second["detail"] == "high"
    head, _, img = _decode(first["url"])
    assert head == "data:image/jpeg;base64" and img.format == "JPEG"
    assert img.size == (450, 1000)  # 1080x2400 scaled by 1000/2400
    head, _, img = _decode(second["url"])
    assert img.format == "JPEG" and img.size == (400, 300)  # fits: converted, not resized


def test_png_bytes_that_fit_pass_through_unchanged() -> None:
    raw = _png_bytes(_screenshot(200, 100))
    head, sent, _ = _decode(encode_image(raw, ImageSettings(max_side=500)))
    assert head == "data:image/png;base64" and sent == raw


def test_png_resize_keeps_png_and_aspect() -> None:
    _, _, img = _decode(encode_image(_png_bytes(_screenshot()), ImageSettings(max_side=480)))
    assert img.format == "PNG" and img.size == (216, 480)


def test_transparent_image_to_jpeg_is_flattened_on_white() -> None:
    rgba = _screenshot(100, 100, mode="RGBA")
    _, _, img = _decode(encode_image(rgba, ImageSettings(format="jpeg", jpeg_quality=95)))
    assert img.mode == "RGB"
    r, g, b = img.getpixel((50, 50))  # type: ignore[misc]
    assert min(r, g, b) > 240  # the transparent area is white, not black
    r, g, b = img.getpixel((50, 5))  # type: ignore[misc]
    assert min(r, g, b) > 240


def test_default_settings_and_list_parts() -> None:
    shots = [_screenshot(20, 40), _screenshot(40, 20)]
    message = user_message("compare", shots)
    assert message["role"] == "user"
    parts = message["content"]
    assert [p["type"] for p in parts] == ["text", "image_url", "image_url"]
    assert parts[1]["image_url"]["detail"] == "auto"
    assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")


def test_bad_parts_are_rejected() -> None:
    with pytest.raises(TypeError, match="not int"):
        user_message("x", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not an image"):
        encode_image(b"definitely not a png")
