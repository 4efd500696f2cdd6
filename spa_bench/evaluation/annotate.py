"""Screenshots annotated with the action taken on them, as SPA-Bench shows them to its MLLM judge.

A judge that sees only screenshots misses what happened between them (a tap on a toggle that closed a
pop-up, a typed string hidden by the keyboard). SPA-Bench therefore draws the action onto the screenshot
it was taken on: a semi-transparent red dot (radius 20 px) where a tap or long press landed, and a white
caption strip below a blue line reading "Action: ... / Detail: ...". We also draw an arrow for swipes
and scrolls. Three modes:

    annotated  dot/arrow + caption strip on every screenshot that has an action (the last has none)
    dots       dot/arrow only; the prompt gets a text list of the other actions (typed text, keys, ...)
    plain      the screenshots as recorded

Positions are the gesture the device executed (recorded on the step; resolved by the device's code for
older logs, see spa_bench.drawing.StepGestures): a scroll's arrow is the swipe that was made.
The drawing itself is spa_bench.drawing's, shared with the report and Set-of-Mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from spa_bench.actions import Action, Finish, Key, LongPress, OpenApp, Scroll, Swipe, Tap, TypeText, Wait
from spa_bench.device.gesture import Gesture
from spa_bench.drawing import DOT_RADIUS as DOT_RADIUS  # re-exported: tests and callers size dots by it
from spa_bench.drawing import STRIP_LINE_PX as STRIP_LINE_PX
from spa_bench.drawing import Arrow, StepGestures, add_caption, draw_touch, touch_marks
from spa_bench.errors import ResultsError
from spa_bench.results.schema import EpisodeLog

if TYPE_CHECKING:
    from PIL import Image

ActionMode = Literal["annotated", "dots", "plain"]
ACTION_MODES: tuple[ActionMode, ...] = ("annotated", "dots", "plain")

POINT_DETAIL = "The red dot was acted upon."


@dataclass(frozen=True)
class ActionMark:
    """What to draw for one step: `point` for taps, `arrow` (start, end) for swipes and scrolls,
    and the caption's two lines. `listed` is True for actions that a dot alone cannot show (they go into
    the text list of the "dots" mode)."""

    name: str
    detail: str
    point: tuple[int, int] | None = None
    arrow: Arrow | None = None
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


def describe_action(action: Action | None, gesture: Gesture | None = None, valid: bool = True) -> ActionMark:
    """The mark of one step's action, drawn where its gesture touched the screen (an invalid or missing
    action is captioned as such)."""
    if action is None or not valid:
        return ActionMark("Invalid action", "The agent's answer was not a valid action; nothing happened.",
                          listed=True)
    point, arrow = touch_marks(gesture)
    if isinstance(action, Tap | LongPress):
        name = "Tap" if isinstance(action, Tap) else "Long press"
        if point is None:
            return ActionMark(name, "at an element whose position is unknown", listed=True)
        return ActionMark(name, POINT_DETAIL, point=point)
    if isinstance(action, Swipe):
        return ActionMark("Swipe", f"from ({action.x1}, {action.y1}) to ({action.x2}, {action.y2})",
                          arrow=arrow, listed=True)
    if isinstance(action, Scroll):
        return ActionMark("Scroll", action.direction, arrow=arrow, listed=True)
    if isinstance(action, TypeText):
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
    gestures = StepGestures(episode_dir)
    for step in log.steps:
        if step.observation.screenshot is None:
            continue
        mark = describe_action(step.action, gestures.of(step), step.valid)
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


def render(frame: Frame, mode: ActionMode) -> Image.Image:
    """The image of one frame as the judge sees it in `mode`."""
    from PIL import Image

    with Image.open(frame.path) as opened:
        image = opened.convert("RGB")
    if mode == "plain" or frame.mark is None:
        return image
    image = draw_touch(image, frame.mark.point, frame.mark.arrow)
    return add_caption(image, frame.mark.name, frame.mark.detail) if mode == "annotated" else image


def action_list(frames: list[Frame]) -> str:
    """The text list of the "dots" mode: every action a dot cannot show, by screenshot number (1-based,
    as the prompt numbers them)."""
    lines = []
    for frame in frames:
        mark = frame.mark
        if mark is not None and mark.listed:
            lines.append(f"Screenshot {frame.position + 1}: {mark.name}: {mark.detail}")
    return "\n".join(lines)
