"""The display's geometry: physical size and density, `wm size` / `wm density` overrides, rotation.

Android keeps the overrides in settings (`global display_size_forced` = "W,H", `secure
display_density_forced` = "N") and the rotation in `system user_rotation` (0-3), which applies while
`system accelerometer_rotation` is 0. Everything an app or a client sees - screencap, uiautomator bounds,
`input` coordinates, `dumpsys input` logicalFrame - is in the logical frame: the override size, with width
and height swapped at 90 and 270 degrees. `wm size` still reports the physical size first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from spa_bench.phone.api import PhoneConfig

SIZE_KEY = ("global", "display_size_forced")
DENSITY_KEY = ("secure", "display_density_forced")
USER_ROTATION_KEY = ("system", "user_rotation")
AUTO_ROTATE_KEY = ("system", "accelerometer_rotation")
_SIZE = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*$")
# The smallest and largest sizes WindowManagerService accepts for a forced size (its own bounds are
# relative to the physical size: at most twice it, at least 200 px).
MIN_FORCED_PX = 200

SettingsGetter = Callable[[str, str], "str | None"]


@dataclass(frozen=True)
class DisplayState:
    physical_width: int
    physical_height: int
    physical_density: int
    override_size: tuple[int, int] | None
    override_density: int | None
    rotation: int  # Surface.ROTATION_0..3

    @property
    def natural_size(self) -> tuple[int, int]:
        """The size in the natural (portrait) orientation, override applied."""
        return self.override_size or (self.physical_width, self.physical_height)

    @property
    def logical_size(self) -> tuple[int, int]:
        w, h = self.natural_size
        return (h, w) if self.rotation % 2 else (w, h)

    @property
    def density(self) -> int:
        return self.override_density or self.physical_density


def _int(value: str | None) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def parse_size(value: str | None) -> tuple[int, int] | None:
    match = _SIZE.match(value or "")
    if not match:
        return None
    w, h = int(match.group(1)), int(match.group(2))
    return (w, h) if w > 0 and h > 0 else None


def display_state(config: PhoneConfig, get: SettingsGetter) -> DisplayState:
    density = _int(get(*DENSITY_KEY))
    rotation = 0
    if get(*AUTO_ROTATE_KEY) != "1":  # with auto-rotate on, the (motionless) sensor keeps portrait
        user = _int(get(*USER_ROTATION_KEY))
        rotation = user if user is not None and 0 <= user <= 3 else 0
    return DisplayState(config.width, config.height, config.density, parse_size(get(*SIZE_KEY)),
                        density if density is not None and density > 0 else None, rotation)
