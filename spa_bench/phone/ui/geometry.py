"""Rectangles and density-independent pixels: the only units the toolkit lays out with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rect:
    """A screen rectangle, right/bottom exclusive, like Android's `Rect` and uiautomator's bounds."""

    left: int
    top: int
    right: int
    bottom: int

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top

    @property
    def center(self) -> tuple[int, int]:
        return (self.left + self.right) // 2, (self.top + self.bottom) // 2

    @property
    def empty(self) -> bool:
        return self.right <= self.left or self.bottom <= self.top

    def contains(self, x: int, y: int) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def intersect(self, other: Rect) -> Rect:
        return Rect(
            max(self.left, other.left),
            max(self.top, other.top),
            min(self.right, other.right),
            min(self.bottom, other.bottom),
        )

    def offset(self, dx: int, dy: int) -> Rect:
        return Rect(self.left + dx, self.top + dy, self.right + dx, self.bottom + dy)

    def inset(self, dx: int, dy: int | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.left + dx, self.top + dy, self.right - dx, self.bottom - dy)

    def with_height(self, height: int) -> Rect:
        return Rect(self.left, self.top, self.right, self.top + height)

    def uia(self) -> str:
        """Bounds as uiautomator writes them: `[l,t][r,b]`."""
        return f"[{self.left},{self.top}][{self.right},{self.bottom}]"

    def box(self) -> tuple[int, int, int, int]:
        """Pillow's inclusive box for shapes drawn exactly inside this rect."""
        return self.left, self.top, self.right - 1, self.bottom - 1


@dataclass(frozen=True)
class Metrics:
    """Screen size and density; `dp()` converts Material's dp sizes to pixels (420 dpi -> x2.625)."""

    width: int
    height: int
    density: int

    @property
    def scale(self) -> float:
        return self.density / 160.0

    def dp(self, value: float) -> int:
        return round(value * self.scale)

    @property
    def screen(self) -> Rect:
        return Rect(0, 0, self.width, self.height)
