"""Routes between two points: a great-circle distance stretched by a per-mode detour factor (streets are
not straight lines), and a time from a typical city speed plus a fixed overhead (parking, waiting for the
bus). Deterministic, so a task can ask for the walking time and check the number."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Mode = Literal["drive", "transit", "walk", "cycle"]
MODES: tuple[Mode, ...] = ("drive", "transit", "walk", "cycle")
# mode -> (detour factor, km/h, minutes of overhead)
PROFILE: dict[Mode, tuple[float, float, int]] = {
    "drive": (1.4, 24.0, 3),
    "transit": (1.3, 18.0, 6),
    "walk": (1.25, 4.8, 0),
    "cycle": (1.3, 14.0, 1),
}


@dataclass(frozen=True)
class Route:
    mode: Mode
    metres: int
    minutes: int


def great_circle_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def route(a: tuple[float, float], b: tuple[float, float], mode: Mode) -> Route:
    detour, speed, overhead = PROFILE[mode]
    km = great_circle_km(a, b) * detour
    minutes = max(1, round(km / speed * 60) + (overhead if km > 0 else 0))
    return Route(mode, round(km * 1000), minutes)


def distance_text(metres: int, imperial: bool) -> str:
    """ "2.4 mi" / "850 ft" on the US phone, "3.9 公里" / "620 米" on the Chinese one."""
    if imperial:
        miles = metres / 1609.344
        return f"{miles:.1f} mi" if miles >= 0.1 else f"{round(metres * 3.28084)} ft"
    return f"{metres / 1000:.1f} 公里" if metres >= 1000 else f"{metres} 米"


def duration_text(minutes: int, zh: bool) -> str:
    hours, mins = divmod(minutes, 60)
    if zh:
        return f"{hours} 小时 {mins} 分钟" if hours else f"{mins} 分钟"
    return f"{hours} hr {mins} min" if hours else f"{mins} min"
