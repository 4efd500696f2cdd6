"""What an agent sees before a step, and how it is read out of the device's answers."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from functools import cached_property

from PIL import Image

from spa_bench.device.elements import UIElement, actionable


@dataclass(frozen=True)
class Observation:
    """One screen: screenshot (PNG bytes), UI tree, foreground app, keyboard state."""

    screenshot_png: bytes
    hierarchy_xml: str
    all_elements: list[UIElement]
    package: str | None
    activity: str | None
    keyboard_shown: bool
    width: int
    height: int
    taken_at: float = field(default=0.0)
    user_reply: str | None = None  # the user's reply to the agent's last action, when it was ask_user

    @cached_property
    def elements(self) -> list[UIElement]:
        """The actionable elements; `Action.element` indexes this list."""
        return actionable(self.all_elements)

    def screenshot(self) -> Image.Image:
        """The screenshot as an RGB image (decoded on each call; keep the result if you reuse it)."""
        with Image.open(io.BytesIO(self.screenshot_png)) as img:
            return img.convert("RGB")

    def element(self, index: int) -> UIElement | None:
        elements = self.elements
        return elements[index] if 0 <= index < len(elements) else None

    def describe_elements(self) -> str:
        return "\n".join(e.describe() for e in self.elements)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FOCUS = re.compile(r"mCurrentFocus=Window\{[^}]*?\s(?:u\d+\s)?([\w.]+)/([\w.$]+)")
_FOCUSED_APP = re.compile(r"mFocusedApp=.*?\s([\w.]+)/([\w.$]+)")
_HIERARCHY_END = "</hierarchy>"


def png_length(data: bytes) -> int:
    """The length of the PNG file at the start of `data`: its chunks are walked up to IEND, so the PNG
    needs no delimiter before whatever follows it. ValueError when there is no whole PNG."""
    if not data.startswith(PNG_SIGNATURE):
        raise ValueError(f"screencap returned no PNG ({data[:80]!r})")
    pos = len(PNG_SIGNATURE)
    while pos + 12 <= len(data):
        length = int.from_bytes(data[pos:pos + 4], "big")
        kind = data[pos + 4:pos + 8]
        pos += 12 + length  # length, type, data, CRC
        if kind == b"IEND":
            if pos > len(data):
                break
            return pos
    raise ValueError(f"the PNG is cut short ({len(data)} bytes, no IEND chunk)")


def split_observation(stdout: bytes) -> tuple[bytes, str, str]:
    """(PNG, uiautomator XML, the text after it) out of the output of Device's observe command."""
    end = png_length(stdout)
    rest = stdout[end:].decode("utf-8", errors="replace")
    start = rest.find("<?xml")
    if start < 0:
        start = rest.find("<hierarchy")
    stop = rest.find(_HIERARCHY_END, max(start, 0))
    if start < 0 or stop < 0:
        raise ValueError(f"uiautomator dump failed: {rest.strip()[:300]!r}")
    stop += len(_HIERARCHY_END)
    return stdout[:end], rest[start:stop], rest[stop:]


def parse_focus(dumpsys: str) -> tuple[str | None, str | None, bool]:
    """(package, activity, keyboard shown) from the `mCurrentFocus`/`mFocusedApp` lines of `dumpsys
    window` and the `mInputShown` line of `dumpsys input_method`. The focused window wins; when it is
    not an activity (the notification shade, a dialog) the focused app's activity is used."""
    match = _FOCUS.search(dumpsys) or _FOCUSED_APP.search(dumpsys)
    package, activity = (match.group(1), match.group(2)) if match else (None, None)
    if package and activity and activity.startswith("."):
        activity = package + activity
    return package, activity, "mInputShown=true" in dumpsys
