"""Material 3 colour roles for the light and dark themes (secure `ui_night_mode`: 1 off, 2 on).

Views ask the palette for a role ("surface", "primary") rather than holding colours, so switching the
dark theme in Settings re-skins every screen on the next frame.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Palette:
    dark: bool
    background: RGB
    surface: RGB
    surface_high: RGB  # search bars, text fields, cards on the background
    on_surface: RGB
    on_surface_variant: RGB
    primary: RGB
    on_primary: RGB
    primary_container: RGB
    on_primary_container: RGB
    outline: RGB
    divider: RGB
    switch_off_track: RGB
    switch_off_thumb: RGB
    key: RGB  # keyboard keys
    keyboard: RGB
    error: RGB


LIGHT = Palette(
    dark=False,
    background=(247, 249, 255),
    surface=(255, 255, 255),
    surface_high=(232, 236, 245),
    on_surface=(26, 28, 30),
    on_surface_variant=(68, 71, 78),
    primary=(11, 87, 208),
    on_primary=(255, 255, 255),
    primary_container=(211, 227, 253),
    on_primary_container=(4, 30, 73),
    outline=(116, 119, 127),
    divider=(224, 226, 234),
    switch_off_track=(226, 226, 233),
    switch_off_thumb=(116, 119, 127),
    key=(255, 255, 255),
    keyboard=(232, 234, 240),
    error=(179, 38, 30),
)

DARK = Palette(
    dark=True,
    background=(17, 19, 24),
    surface=(30, 32, 38),
    surface_high=(44, 47, 54),
    on_surface=(227, 226, 230),
    on_surface_variant=(196, 198, 208),
    primary=(168, 199, 250),
    on_primary=(6, 46, 111),
    primary_container=(4, 62, 148),
    on_primary_container=(214, 227, 255),
    outline=(142, 145, 153),
    divider=(58, 61, 68),
    switch_off_track=(44, 47, 54),
    switch_off_thumb=(142, 145, 153),
    key=(60, 63, 70),
    keyboard=(30, 32, 38),
    error=(242, 184, 181),
)


def palette(dark: bool) -> Palette:
    return DARK if dark else LIGHT


# Tonal pairs (container, glyph) for icon circles, by hue name; dark theme swaps the tones.
TONES: dict[str, tuple[RGB, RGB]] = {
    "blue": ((211, 227, 253), (11, 87, 208)),
    "green": ((196, 238, 208), (20, 108, 46)),
    "teal": ((190, 236, 236), (0, 106, 106)),
    "orange": ((255, 220, 190), (150, 73, 0)),
    "red": ((255, 218, 214), (179, 38, 30)),
    "purple": ((234, 221, 255), (103, 80, 164)),
    "pink": ((255, 216, 228), (155, 64, 102)),
    "yellow": ((250, 230, 160), (110, 90, 0)),
    "grey": ((225, 227, 232), (68, 71, 78)),
}


def tone(name: str, dark: bool) -> tuple[RGB, RGB]:
    """(circle colour, glyph colour) for a hue in the current theme."""
    light_bg, light_fg = TONES.get(name, TONES["grey"])
    if not dark:
        return light_bg, light_fg
    return _mix(light_fg, (0, 0, 0), 0.45), light_bg


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] * (1 - t) + b[0] * t),
        round(a[1] * (1 - t) + b[1] * t),
        round(a[2] * (1 - t) + b[2] * t),
    )


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend from `a` (t=0) to `b` (t=1)."""
    return _mix(a, b, t)
