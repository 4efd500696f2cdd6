"""The coordinate-frame layer: smart_resize rounding, each frame both ways, points outside a frame.

Expected smart_resize sizes are worked out by hand from the formula of Qwen2.5-VL's
qwen_vl_utils.smart_resize (h_bar = round(h / 28) * 28, w_bar likewise; when h_bar * w_bar > max_pixels,
beta = sqrt(h * w / max_pixels) and each side is floor(side / beta / 28) * 28; when below min_pixels,
ceil(side * beta / 28) * 28 with beta = sqrt(min_pixels / (h * w))); the code under test calls the model
authors' implementation (ui_tars.action_parser.smart_resize).
"""

from __future__ import annotations

import pytest

from spa_bench.agent.frames import FrameError, FrameSpec, SmartResize, smart_resize

SCREENS = [(1080, 2400), (720, 1280)]


@pytest.mark.parametrize(("screen", "resize", "expected"), [
    # 2400/28 = 85.71 -> 86 -> 2408; 1080/28 = 38.57 -> 39 -> 1092; 2408 * 1092 = 2,629,536 <= 12,845,056
    ((1080, 2400), SmartResize(), (1092, 2408)),
    # 1280/28 = 45.71 -> 46 -> 1288; 720/28 = 25.71 -> 26 -> 728
    ((720, 1280), SmartResize(), (728, 1288)),
    # max 1280*28*28 = 1,003,520 < 2,629,536: beta = sqrt(2,592,000 / 1,003,520) = 45/28, so
    # 2400 / beta = 1493.3 -> 53 * 28 = 1484 and 1080 / beta = 672 exactly -> 24 * 28 = 672
    ((1080, 2400), SmartResize(max_pixels=1280 * 28 * 28), (672, 1484)),
    # 728 * 1288 = 937,664 fits under 1,003,520: rounding only
    ((720, 1280), SmartResize(max_pixels=1280 * 28 * 28), (728, 1288)),
    # min 100*28*28 = 78,400 is far below both screens: no change from the default
    ((1080, 2400), SmartResize(min_pixels=100 * 28 * 28), (1092, 2408)),
    # a tiny image is scaled up: 100 x 200 = 20,000 < 78,400: beta = sqrt(3.92) = 1.9799,
    # 200 * beta = 395.98 -> ceil(14.14) = 15 -> 420; 100 * beta = 197.99 -> ceil(7.07) = 8 -> 224
    ((100, 200), SmartResize(min_pixels=100 * 28 * 28), (224, 420)),
])
def test_smart_resize_rounds_as_qwen_vl_does(screen: tuple[int, int], resize: SmartResize,
                                              expected: tuple[int, int]) -> None:
    assert resize.size(*screen) == expected
    assert smart_resize(*screen, min_pixels=resize.min_pixels, max_pixels=resize.max_pixels) == expected
    # the model's processor leaves an image already at that size as it is
    assert resize.size(*expected) == expected


def test_absolute_frame_is_the_resized_image() -> None:
    frame = FrameSpec.absolute(SmartResize()).bind(1080, 2400)
    assert (frame.extent_x, frame.extent_y) == (1092, 2408)
    assert frame.to_screen(546, 1204) == (540, 1200)
    assert frame.to_screen(1092, 2408) == (1079, 2399)  # the far edge is the last pixel
    assert frame.to_screen(0, 0) == (0, 0)
    # the frame follows the image that was sent: an image already resized by the adapter
    sent = FrameSpec.absolute(SmartResize(max_pixels=1280 * 28 * 28)).bind(1080, 2400, (672, 1484))
    assert (sent.extent_x, sent.extent_y) == (672, 1484)
    assert sent.to_screen(336, 742) == (540, 1200)
    # no processor: the pixels of the image as sent
    plain = FrameSpec.absolute().bind(720, 1280, (360, 640))
    assert plain.to_screen(180, 320) == (360, 640)


@pytest.mark.parametrize(("spec", "centre", "corner", "outside"), [
    (FrameSpec.relative(999, 1000), (500, 500), (999, 999), (1000, 10)),
    (FrameSpec.relative(999), (499.5, 499.5), (999, 999), (10, 1000)),
    (FrameSpec.relative(1000), (500, 500), (1000, 1000), (1001, 0)),
    (FrameSpec.normalized(), (0.5, 0.5), (1.0, 1.0), (1.01, 0.5)),
])
def test_relative_and_normalised_frames(spec: FrameSpec, centre: tuple[float, float],
                                        corner: tuple[float, float], outside: tuple[float, float]) -> None:
    for width, height in SCREENS:
        frame = spec.bind(width, height, (width // 3, height // 3))  # the image size does not matter
        assert frame.to_screen(*centre) == (width // 2, height // 2)
        x, y = frame.to_screen(*corner)  # the last cell of the grid (0-999 over 1000 falls short of it)
        assert width - 1 - width / frame.extent_x <= x <= width - 1
        assert height - 1 - height / frame.extent_y <= y <= height - 1
        with pytest.raises(FrameError, match="outside the model's frame"):
            frame.to_screen(*outside)
        with pytest.raises(FrameError):
            frame.to_screen(-1, 5)


@pytest.mark.parametrize("spec", [
    FrameSpec.absolute(SmartResize()), FrameSpec.absolute(SmartResize(max_pixels=1280 * 28 * 28)),
    FrameSpec.relative(999, 1000), FrameSpec.relative(999), FrameSpec.relative(1000), FrameSpec.normalized(),
], ids=lambda s: s.describe())
@pytest.mark.parametrize("screen", SCREENS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_pixel_survives_the_round_trip(spec: FrameSpec, screen: tuple[int, int]) -> None:
    """from_screen then to_screen lands within the rounding of one model unit, on every row and column."""
    width, height = screen
    frame = spec.bind(width, height)
    tolerance_x = width / frame.extent_x + 1 if spec.integral else 1.0  # one model unit, plus flooring
    tolerance_y = height / frame.extent_y + 1 if spec.integral else 1.0
    for x in range(width):
        mx, my = frame.from_screen(x, height // 2)
        assert frame.contains(mx, my)
        assert abs(frame.to_screen(mx, my)[0] - x) <= tolerance_x
    for y in range(height):
        mx, my = frame.from_screen(width // 2, y)
        assert abs(frame.to_screen(mx, my)[1] - y) <= tolerance_y


def test_frames_describe_themselves() -> None:
    assert FrameSpec.relative(999, 1000).describe() == "relative 0-999, /1000"
    assert FrameSpec.relative(1000).describe() == "relative 0-1000"
    assert FrameSpec.normalized().describe() == "normalised 0-1"
    assert "smart_resize factor 28, 4*28*28-16384*28*28" in FrameSpec.absolute(SmartResize()).describe()
    with pytest.raises(FrameError):
        FrameSpec.relative(1000).bind(0, 100)
