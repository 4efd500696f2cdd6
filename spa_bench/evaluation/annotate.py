"""Screenshots annotated with the action taken on them, as SPA-Bench shows them to its MLLM judge.

A judge that sees only screenshots misses what happened between them (a tap on a toggle that closed a
pop-up, a typed string hidden by the keyboard). SPA-Bench therefore draws the action onto the screenshot
it was taken on: a semi-transparent red dot (radius 20 px) where a tap or long press landed, and a white
caption strip below a blue line reading "Action: ... / Detail: ...". We also draw an arrow for swipes
and scrolls. Three modes:

    annotated  dot/arrow + caption strip on every screenshot that has an action (the last has none)
    dots       dot/arrow only; the prompt gets a text list of the other actions (typed text, keys, ...)
    plain      the screenshots as recorded

Positions come from the action's coordinates, or, for an element index or a selector, from the centre
of that element in the step's uiautomator dump (the same resolution the device used when acting).
Pillow is imported inside the functions: importing this module is cheap.
"""

from __future__ import annotations

import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from spa_bench.actions import (
    Action,
    Finish,
    Key,
    LongPress,
    OpenApp,
    Scroll,
    Swipe,
    Tap,
    TypeText,
    Wait,
)
from spa_bench.errors import ResultsError
from spa_bench.results.schema import EpisodeLog, StepRecord

if TYPE_CHECKING:
    from PIL import Image, ImageFont

    from spa_bench.device.elements import UIElement

ActionMode = Literal["annotated", "dots", "plain"]
ACTION_MODES: tuple[ActionMode, ...] = ("annotated", "dots", "plain")

DOT_RADIUS = 20
DOT_RGBA = (255, 0, 0, 128)  # red at 50% opacity, as SPA-Bench
STRIP_LINE_PX = 10  # the blue separator between screenshot and caption
POINT_DETAIL = "The red dot was acted upon."


@dataclass(frozen=True)
class ActionMark:
    """What to draw for one step: `point` for taps, `arrow` (x1, y1, x2, y2) for swipes and scrolls,
    and the caption's two lines. `listed` is True for actions that a dot alone cannot show (they go into
    the text list of the "dots" mode)."""

    name: str
    detail: str
    point: tuple[int, int] | None = None
    arrow: tuple[int, int, int, int] | None = None
    listed: bool = False


@dataclass(frozen=True)
class Frame:
    """One screenshot of the trajectory in order: `position` is its place in the judge's sequence
    (0-based), `step` the step it was taken before ("final" after the last step), `mark` the action
    taken on it (None for the final screenshot)."""

    position: int
    step: int | Literal["final"]
    path: Path
    package: str | None
    mark: ActionMark | None


def _elements(step: StepRecord, episode_dir: Path) -> list[UIElement] | None:
    if step.observation.hierarchy is None:
        return None
    path = episode_dir / step.observation.hierarchy
    if not path.is_file():
        return None
    from spa_bench.device.elements import parse_hierarchy
    from spa_bench.errors import DeviceCommandFailed

    try:
        return parse_hierarchy(path.read_text(encoding="utf-8"))
    except DeviceCommandFailed:
        return None


def _target_point(action: Tap | LongPress | TypeText | Scroll,
                  elements: list[UIElement] | None) -> tuple[int, int] | None:
    """Where an action landed: its coordinates, else the centre of the element it names."""
    x, y = getattr(action, "x", None), getattr(action, "y", None)
    if x is not None and y is not None:
        return int(x), int(y)
    if elements is None:
        return None
    from spa_bench.device.elements import actionable, find

    if action.element is not None:
        shown = actionable(elements)
        return shown[action.element].center if action.element < len(shown) else None
    if action.selector is not None:
        found = find(elements, action.selector)
        return found.center if found is not None else None
    return None


_SCROLL_VECTORS = {"up": (0, 1), "down": (0, -1), "left": (1, 0), "right": (-1, 0)}
"""A scroll moves the content so that what lies further in `direction` appears: the finger moves the
other way (scrolling down is a swipe up)."""


def describe_action(action: Action | None, elements: list[UIElement] | None = None,
                    size: tuple[int, int] = (1080, 2400), valid: bool = True) -> ActionMark:
    """The mark of one step's action (an invalid or missing action is captioned as such)."""
    if action is None or not valid:
        return ActionMark("Invalid action", "The agent's answer was not a valid action; nothing happened.",
                          listed=True)
    if isinstance(action, Tap | LongPress):
        name = "Tap" if isinstance(action, Tap) else "Long press"
        point = _target_point(action, elements)
        if point is None:
            return ActionMark(name, "at an element whose position is unknown", listed=True)
        return ActionMark(name, POINT_DETAIL, point=point)
    if isinstance(action, Swipe):
        return ActionMark("Swipe", f"from ({action.x1}, {action.y1}) to ({action.x2}, {action.y2})",
                          arrow=(action.x1, action.y1, action.x2, action.y2), listed=True)
    if isinstance(action, Scroll):
        width, height = size
        centre = _target_point(action, elements) if (action.element is not None or action.selector) else None
        cx, cy = centre or (width // 2, height // 2)
        dx, dy = _SCROLL_VECTORS[action.direction]
        reach = min(width, height) // 4
        return ActionMark("Scroll", action.direction,
                          arrow=(cx - dx * reach, cy - dy * reach, cx + dx * reach, cy + dy * reach),
                          listed=True)
    if isinstance(action, TypeText):
        point = _target_point(action, elements) if (action.element is not None or action.selector) else None
        return ActionMark("Type", action.text, point=point, listed=True)
    if isinstance(action, Key):
        return ActionMark("Press key", action.key, listed=True)
    if isinstance(action, OpenApp):
        return ActionMark("Open app", action.app, listed=True)
    if isinstance(action, Wait):
        return ActionMark("Wait", f"{action.seconds:g} s", listed=True)
    assert isinstance(action, Finish)
    answer = f"; answer: {action.answer}" if action.answer else ""
    return ActionMark("Finish", f"{action.status}{answer}", listed=True)


def trajectory(log: EpisodeLog, episode_dir: Path) -> list[Frame]:
    """The episode's screenshots in order (steps, then final.png), each with the action taken on it.
    A screenshot the log names but the folder lacks is a broken results folder (ResultsError)."""
    frames: list[Frame] = []
    for step in log.steps:
        if step.observation.screenshot is None:
            continue
        size = (step.observation.width or 1080, step.observation.height or 2400)
        mark = describe_action(step.action, _elements(step, episode_dir), size, step.valid)
        frames.append(Frame(len(frames), step.index, episode_dir / step.observation.screenshot,
                            step.observation.package, mark))
    final = log.final_observation.screenshot if log.final_observation else None
    if final is None and (episode_dir / "screenshots" / "final.png").is_file():
        final = "screenshots/final.png"
    if final is not None:
        package = log.final_observation.package if log.final_observation else None
        frames.append(Frame(len(frames), "final", episode_dir / final, package, None))
    for frame in frames:
        if not frame.path.is_file():
            raise ResultsError(f"{frame.path}: screenshot named by episode {log.episode_id} is missing")
    return frames


_fonts = threading.local()


def _font(size: int) -> ImageFont.FreeTypeFont:
    """Loaded once per size and thread: the CJK collection is large and every caption needs it; a
    FreeType face must not be shared by threads drawing at once."""
    cache: dict[int, ImageFont.FreeTypeFont] = _fonts.__dict__.setdefault("by_size", {})
    if size not in cache:
        cache[size] = _load_font(size)
    return cache[size]


def _load_font(size: int) -> ImageFont.FreeTypeFont:
    import noto_cjk_sans_otc
    from PIL import ImageFont

    return ImageFont.truetype(noto_cjk_sans_otc.FONT_PATH, size, index=2)  # Simplified Chinese face


def draw_marks(image: Image.Image, mark: ActionMark) -> Image.Image:
    """The screenshot with a translucent red dot at the action's point and an arrow along its path.
    Only the region around the marks is blended (a full-screen alpha composite costs ~100 ms)."""
    from PIL import Image, ImageDraw

    width = max(6, image.size[0] // 120)  # of the arrow's line
    head = width * 5
    boxes = []
    if mark.point is not None:
        x, y = mark.point
        boxes.append((x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS))
    if mark.arrow is not None:
        x1, y1, x2, y2 = mark.arrow
        boxes.append((min(x1, x2) - head, min(y1, y2) - head, max(x1, x2) + head, max(y1, y2) + head))
    out = image.convert("RGB")  # a copy
    if not boxes:
        return out
    left, top = max(0, min(b[0] for b in boxes) - 1), max(0, min(b[1] for b in boxes) - 1)
    right = min(out.size[0], max(b[2] for b in boxes) + 2)
    bottom = min(out.size[1], max(b[3] for b in boxes) + 2)
    if left >= right or top >= bottom:
        return out  # the marks lie outside the screen
    region = out.crop((left, top, right, bottom)).convert("RGBA")
    layer = Image.new("RGBA", region.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    if mark.point is not None:
        x, y = mark.point[0] - left, mark.point[1] - top
        draw.ellipse((x - DOT_RADIUS, y - DOT_RADIUS, x + DOT_RADIUS, y + DOT_RADIUS), fill=DOT_RGBA)
    if mark.arrow is not None:
        ax1, ay1, ax2, ay2 = mark.arrow
        x1, y1, x2, y2 = ax1 - left, ay1 - top, ax2 - left, ay2 - top
        draw.line((x1, y1, x2, y2), fill=DOT_RGBA, width=width)
        draw.ellipse((x1 - width, y1 - width, x1 + width, y1 + width), fill=DOT_RGBA)
        length = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        side_a = (x2 - ux * head - uy * head * 0.6, y2 - uy * head + ux * head * 0.6)
        side_b = (x2 - ux * head + uy * head * 0.6, y2 - uy * head - ux * head * 0.6)
        draw.polygon([(x2, y2), side_a, side_b], fill=DOT_RGBA)
    out.paste(Image.alpha_composite(region, layer).convert("RGB"), (left, top))
    return out


def add_caption(image: Image.Image, mark: ActionMark) -> Image.Image:
    """The screenshot with a blue line and a white strip below it: "Action:" and "Detail:" in red, their
    values in black, wrapped to the image width (CJK text included)."""
    from PIL import Image, ImageDraw

    width, height = image.size
    font = _font(max(16, width // 18))
    spacing = max(4, width // 100)
    line_height = int(font.getbbox("Ag国")[3]) + spacing
    average = max(1.0, font.getlength("abcdefghijklmnopqrstuvwxyz") / 26)
    columns = max(8, int((width - 2 * spacing) / average))
    lines: list[tuple[str, tuple[int, int, int]]] = []
    for label, value in (("Action:", mark.name), ("Detail:", mark.detail)):
        lines.append((label, (220, 0, 0)))
        wide = any(ord(ch) > 0x2E80 for ch in value)  # CJK glyphs are about twice as wide
        for chunk in textwrap.wrap(value, width=columns // 2 if wide else columns) or [""]:
            lines.append((chunk, (0, 0, 0)))
    strip = len(lines) * line_height + 2 * spacing
    out = Image.new("RGB", (width, height + STRIP_LINE_PX + strip), (255, 255, 255))
    out.paste(image.convert("RGB"), (0, 0))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, height, width, height + STRIP_LINE_PX - 1), fill=(0, 0, 255))
    y = height + STRIP_LINE_PX + spacing
    for text, colour in lines:
        x = max(spacing, int((width - font.getlength(text)) / 2))
        draw.text((x, y), text, fill=colour, font=font)
        y += line_height
    return out


def render(frame: Frame, mode: ActionMode) -> Image.Image:
    """The image of one frame as the judge sees it in `mode`."""
    from PIL import Image

    with Image.open(frame.path) as opened:
        image = opened.convert("RGB")
    if mode == "plain" or frame.mark is None:
        return image
    image = draw_marks(image, frame.mark)
    return add_caption(image, frame.mark) if mode == "annotated" else image


def action_list(frames: list[Frame]) -> str:
    """The text list of the "dots" mode: every action a dot cannot show, by screenshot number (1-based,
    as the prompt numbers them)."""
    lines = []
    for frame in frames:
        mark = frame.mark
        if mark is not None and mark.listed:
            lines.append(f"Screenshot {frame.position + 1}: {mark.name}: {mark.detail}")
    return "\n".join(lines)
