"""The coordinate frames GUI models answer in, and the mapping between each and the device screen.

A GUI model gives points in its own frame, fixed by how it was trained:
- absolute pixels on the image it saw, after Qwen-VL's `smart_resize` (both sides multiples of
  `factor` = 28, total pixels between min_pixels and max_pixels): UI-TARS-1.5, Qwen2.5-VL, GUI-Owl;
- relative 0-999 or 0-1000 (a grid over the screen, whatever the image size): Qwen3-VL, AutoGLM,
  CogAgent, UI-TARS 1.0, OS-Atlas, UGround;
- normalised 0-1 fractions.
A FrameSpec says which, once per adapter; `bind` fixes it to one screen (and, for absolute frames,
to the size of the image actually sent), giving a Frame that converts both ways. Adapters map replies
back with `to_screen`; the scripted native model of the tests maps targets forward with `from_screen`
from the image it received, so a test passes only if both sides agree on the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

FrameKind = Literal["absolute", "relative", "normalized"]

# Qwen2.5-VL's processor defaults (preprocessor_config.json: min_pixels 3136, max_pixels 12845056), which
# vLLM applies unless told otherwise; ui_tars.action_parser uses the same max and 100*28*28 as min.
QWEN_FACTOR = 28
QWEN_MIN_PIXELS = 4 * 28 * 28
QWEN_MAX_PIXELS = 16384 * 28 * 28


class FrameError(ValueError):
    """A point outside the model's frame (or a frame that cannot be built); the message says which."""


def smart_resize(width: int, height: int, factor: int = QWEN_FACTOR, min_pixels: int = QWEN_MIN_PIXELS,
                 max_pixels: int = QWEN_MAX_PIXELS) -> tuple[int, int]:
    """(width, height) of the image a Qwen-VL-family model sees for a width x height input.

    The computation is the model authors' own (ui_tars.action_parser.smart_resize, the same formula as
    qwen_vl_utils.smart_resize of Qwen2.5-VL); note their argument order is (height, width)."""
    from ui_tars.action_parser import smart_resize as authors_smart_resize

    if width <= 0 or height <= 0:
        raise FrameError(f"cannot resize a {width}x{height} image")
    resized_height, resized_width = authors_smart_resize(height, width, factor=factor,
                                                         min_pixels=min_pixels, max_pixels=max_pixels)
    return int(resized_width), int(resized_height)


@dataclass(frozen=True)
class SmartResize:
    """The resize of a Qwen-VL image processor (vLLM applies it to every image it receives)."""

    factor: int = QWEN_FACTOR
    min_pixels: int = QWEN_MIN_PIXELS
    max_pixels: int = QWEN_MAX_PIXELS

    def size(self, width: int, height: int) -> tuple[int, int]:
        return smart_resize(width, height, self.factor, self.min_pixels, self.max_pixels)

    def describe(self) -> str:
        return (f"smart_resize factor {self.factor}, {_pixels(self.min_pixels)}-{_pixels(self.max_pixels)} "
                "pixels")


def _pixels(n: int) -> str:
    per = n // (28 * 28)
    return f"{per}*28*28" if per * 28 * 28 == n else str(n)


@dataclass(frozen=True)
class FrameSpec:
    """One adapter's frame. relative: coordinates 0..`top`, screen = value / `divisor` * side;
    normalized: 0..1; absolute: pixels of the image sent, resized by `resize`."""

    kind: FrameKind
    top: float = 1.0  # the largest legal coordinate (999, 1000, 1.0); absolute: the image side
    divisor: float = 1.0  # relative / normalized: value / divisor = fraction of the screen side
    resize: SmartResize | None = None  # absolute: the processor's resize (None = the image as sent)

    @classmethod
    def absolute(cls, resize: SmartResize | None = None) -> FrameSpec:
        return cls("absolute", resize=resize)

    @classmethod
    def relative(cls, top: int, divisor: int | None = None) -> FrameSpec:
        """0..top, divided by `divisor` (default top; AutoGLM and CogAgent say 0-999 and divide by 1000)."""
        return cls("relative", top=float(top), divisor=float(divisor if divisor is not None else top))

    @classmethod
    def normalized(cls) -> FrameSpec:
        return cls("normalized", top=1.0, divisor=1.0)

    @property
    def integral(self) -> bool:
        """Whether the model writes integers (absolute pixels, 0-999 grids) rather than fractions."""
        return self.kind != "normalized"

    def describe(self) -> str:
        if self.kind == "absolute":
            how = self.resize.describe() if self.resize else "as sent"
            return f"absolute pixels on the resized image ({how})"
        if self.kind == "relative":
            scale = f", /{self.divisor:g}" if self.divisor != self.top else ""
            return f"relative 0-{self.top:g}{scale}"
        return "normalised 0-1"

    def image_size(self, screen_width: int, screen_height: int) -> tuple[int, int]:
        """The size the model sees a screen_width x screen_height image at: smart-resized for absolute
        frames (what the server's image processor does), else unchanged."""
        if self.kind == "absolute" and self.resize is not None:
            return self.resize.size(screen_width, screen_height)
        return screen_width, screen_height

    def bind(self, screen_width: int, screen_height: int,
             image_size: tuple[int, int] | None = None) -> Frame:
        """The frame for one screen, given the size of the image sent (default: the screen's). Absolute
        frames are the pixels of that image after `resize`, as the model's processor resizes it; an
        image already smart-resized stays as it is."""
        if screen_width <= 0 or screen_height <= 0:
            raise FrameError(f"no frame for a {screen_width}x{screen_height} screen")
        if self.kind == "absolute":
            sent = image_size or (screen_width, screen_height)
            width, height = self.image_size(*sent)
            return Frame(self, screen_width, screen_height, float(width), float(height))
        return Frame(self, screen_width, screen_height, self.divisor, self.divisor)


@dataclass(frozen=True)
class Frame:
    """A FrameSpec fixed to one screen: `extent_x` model units span the screen's width."""

    spec: FrameSpec
    screen_width: int
    screen_height: int
    extent_x: float
    extent_y: float

    @property
    def max_x(self) -> float:
        return self.extent_x if self.spec.kind == "absolute" else self.spec.top

    @property
    def max_y(self) -> float:
        return self.extent_y if self.spec.kind == "absolute" else self.spec.top

    def contains(self, x: float, y: float) -> bool:
        return 0 <= x <= self.max_x and 0 <= y <= self.max_y

    def check(self, x: float, y: float) -> None:
        """FrameError unless (x, y) is a point of this frame."""
        if not (math.isfinite(x) and math.isfinite(y)) or not self.contains(x, y):
            raise FrameError(f"point ({x:g}, {y:g}) is outside the model's frame "
                             f"(0-{self.max_x:g} x 0-{self.max_y:g}, {self.spec.describe()})")

    def to_screen(self, x: float, y: float) -> tuple[int, int]:
        """Screen pixels of a model point (checked, then clamped to the last pixel row/column)."""
        self.check(x, y)
        sx = math.floor(x * self.screen_width / self.extent_x)  # multiply first: exact for whole units
        sy = math.floor(y * self.screen_height / self.extent_y)
        return min(max(sx, 0), self.screen_width - 1), min(max(sy, 0), self.screen_height - 1)

    def from_screen(self, x: float, y: float) -> tuple[float, float]:
        """The model point of screen pixel (x, y): the pixel's centre, rounded to whole units when the
        model writes integers, so `to_screen(from_screen(p))` lands on p or next to it."""
        mx = (x + 0.5) / self.screen_width * self.extent_x
        my = (y + 0.5) / self.screen_height * self.extent_y
        if self.spec.integral:
            mx, my = float(math.floor(mx)), float(math.floor(my))
        else:
            mx, my = round(mx, 4), round(my, 4)
        return min(max(mx, 0.0), self.max_x), min(max(my, 0.0), self.max_y)
