"""`spa-bench run --vary DIMS[:SEED]`: each episode on a device varied from its default, drawn per episode.

DIMS is a comma list of screen, density, font-scale, dark, navigation, locale (B-MoCA randomises the same
things on its emulators). Each episode's draw comes from sha256(seed, task id, instance), so a retry, a
resumed run or another run with the same seed gets the same device; it is recorded in the episode log
(`EpisodeLog.variation`) and the report's robust view groups success by it.

The variation is applied through adb after the task's reset and before its setup commands, with the
commands a real device takes: `wm size`, `wm density`, `settings put system font_scale`, `cmd uimode
night`, the navigation overlay (`cmd overlay enable-exclusive --category ...navbar.<mode>`) and `setprop
persist.sys.locale`. Every named dimension is set in every episode, its default value included (`wm size
reset`, font scale 1.0, ...), so nothing carries over from one episode to the next whatever the task's
reset. Screen size and density are drawn together so that the screen stays at least 320 dp wide, as
Android's smallest phone configuration.

`locale` draws the system language, en-US or zh-CN, so about half of the episodes run with the UI in the
other language than the instruction's, as B-MoCA's language randomisation does: labels, dates and the clock
format change; the instruction and the content do not. The base snapshot's SIM country
(`gsm.sim.operator.iso-country`) keeps the owner's mailbox, shops and restaurants, as switching a real
phone's language keeps its accounts, and its `time_12_24` keeps how times are shown and typed. The
virtual phone applies the locale at once; an emulator applies `persist.sys.locale` at its next start.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from spa_bench.device.device import Device
from spa_bench.errors import ConfigError
from spa_bench.results.schema import DeviceVariation

DIMENSIONS = ("screen", "density", "font-scale", "dark", "navigation", "locale")
SCREENS = ("720x1280", "1080x1920", "1080x2340", "1080x2400", "1440x3120")  # phones' common sizes
DENSITIES = (320, 400, 420, 480, 560)
FONT_SCALES = (0.85, 1.0, 1.15, 1.3)  # Settings > Display > Font size (Android 14's steps up to 1.3)
NAVIGATION = ("threebutton", "gestural")
DEFAULT_FONT_SCALE = 1.0
MIN_WIDTH_DP = 320
NAVBAR_OVERLAY = "com.android.internal.systemui.navbar.{mode}"
LOCALES = {"en": "en-US", "zh": "zh-CN"}  # the system locale each task language's base snapshot has
SIM_COUNTRIES = {"en": "us", "zh": "cn"}  # and its SIM's country, which keeps the apps' content in it
CLOCK_FORMATS = {"en": "12", "zh": "24"}  # and its owner's 12/24-hour choice (`time_12_24`)


@dataclass(frozen=True)
class VarySpec:
    """What `--vary` asked for: the dimensions to draw, and the seed of the draws."""

    dimensions: tuple[str, ...]
    seed: int = 0


def parse_vary(text: str) -> VarySpec:
    """`screen,dark:7` -> VarySpec(("screen", "dark"), 7). ConfigError naming what is wrong."""
    spec, sep, seed_text = text.strip().partition(":")
    seed = 0
    if sep:
        try:
            seed = int(seed_text)
        except ValueError:
            raise ConfigError(f"--vary {text!r}: the seed after ':' must be an integer, not {seed_text!r}") \
                from None
    names = [n.strip().lower().replace("_", "-") for n in spec.split(",") if n.strip()]
    if not names:
        raise ConfigError(f"--vary {text!r}: name at least one of {', '.join(DIMENSIONS)}")
    for name in names:
        if name not in DIMENSIONS:
            raise ConfigError(f"--vary: unknown dimension {name!r}; expected some of {', '.join(DIMENSIONS)}")
    return VarySpec(tuple(dict.fromkeys(names)), seed)


def _width_dp(screen: str, density: int) -> float:
    width, height = (int(v) for v in screen.split("x"))
    return min(width, height) * 160 / density


def draw(spec: VarySpec, task_id: str, repeat: int, default_screen: str = "1080x2400",
         default_density: int = 420, language: str = "en") -> DeviceVariation:
    """This episode's device: each named dimension drawn (its default among the choices), the others left
    as they are (None)."""
    digest = hashlib.sha256(f"{spec.seed}\x1f{task_id}\x1f{repeat}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:8], "big"))
    dims = set(spec.dimensions)
    screen = rng.choice(SCREENS) if "screen" in dims else None
    density: int | None = None
    if "density" in dims:
        fits = [d for d in DENSITIES if _width_dp(screen or default_screen, d) >= MIN_WIDTH_DP]
        density = rng.choice(fits)
    elif screen is not None and _width_dp(screen, default_density) < MIN_WIDTH_DP:
        density = max(d for d in DENSITIES if _width_dp(screen, d) >= MIN_WIDTH_DP)  # the size needs it
    font_scale = rng.choice(FONT_SCALES) if "font-scale" in dims else None
    dark = rng.random() < 0.5 if "dark" in dims else None
    navigation = rng.choice(NAVIGATION) if "navigation" in dims else None
    # drawn last, so the other dimensions' draws of a seed stay what they were before locale existed
    locale = rng.choice(sorted(LOCALES.values())) if "locale" in dims else None
    variation = DeviceVariation(name="", seed=spec.seed, screen=screen, density=density,
                                font_scale=font_scale, dark=dark, navigation=navigation, locale=locale)
    name = variation_name(variation, default_screen, default_density, LOCALES.get(language))
    return variation.model_copy(update={"name": name})


def variation_name(v: DeviceVariation, default_screen: str = "1080x2400", default_density: int = 420,
                   default_locale: str | None = None) -> str:
    """A short label of what differs from the default device, e.g. '720x1280+320dpi+font1.3+dark+zh-CN'
    (the locale when it is not the task's own language's, `default_locale`)."""
    parts = []
    if v.screen is not None and v.screen != default_screen:
        parts.append(v.screen)
    if v.density is not None and v.density != default_density:
        parts.append(f"{v.density}dpi")
    if v.font_scale is not None and v.font_scale != DEFAULT_FONT_SCALE:
        parts.append(f"font{v.font_scale:g}")
    if v.dark:
        parts.append("dark")
    if v.navigation == "gestural":
        parts.append("gestural")
    if v.locale is not None and v.locale != default_locale:
        parts.append(v.locale)
    return "+".join(parts) or "default"


def variation_commands(v: DeviceVariation) -> list[str]:
    """The adb shell commands that put a device in `v` (every field that is not None, defaults included)."""
    commands = []
    if v.screen is not None:
        commands.append(f"wm size {v.screen}")
    if v.density is not None:
        commands.append(f"wm density {v.density}")
    if v.font_scale is not None:
        commands.append(f"settings put system font_scale {v.font_scale:g}")
    if v.dark is not None:
        commands.append(f"cmd uimode night {'yes' if v.dark else 'no'}")
    if v.navigation is not None:
        overlay = NAVBAR_OVERLAY.format(mode=v.navigation)
        commands.append(f"cmd overlay enable-exclusive --category {overlay}")
    if v.locale is not None:
        commands.append(f"setprop persist.sys.locale {v.locale}")
    return commands


def apply_variation(device: Device, v: DeviceVariation) -> None:
    """Put the device in `v`. DeviceCommandFailed naming the command the device refused."""
    for command in variation_commands(v):
        device.check(command, doing="--vary:", refused=("Error", "Exception", "Unknown"))
    if v.screen is not None or v.density is not None:
        device.forget_info()  # its screen size changed: the next info() reads it again
