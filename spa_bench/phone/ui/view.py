"""The view tree: one structure that is drawn, dumped as uiautomator XML and hit-tested.

Layout is absolute: builders compute every view's bounds (with `Metrics.dp`), so what the XML says is,
by construction, where the pixels are. A scrolling container shifts its content and clips it; views
entirely outside a clip are neither drawn, dumped nor tappable, exactly like recycled rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.geometry import Rect
from spa_bench.phone.ui.theme import RGB

Callback = Callable[[], None]
SwipeHandler = Callable[[str], bool]  # direction "up" | "down" | "left" | "right" -> handled?


class View:
    """A node of the screen. Subclasses override `paint` and set `class_name`."""

    class_name = "android.view.View"

    def __init__(
        self,
        bounds: Rect,
        *,
        rid: str = "",
        text: str = "",
        desc: str = "",
        clickable: bool = False,
        long_clickable: bool = False,
        checkable: bool = False,
        checked: bool = False,
        enabled: bool = True,
        focusable: bool = False,
        focused: bool = False,
        scrollable: bool = False,
        password: bool = False,
        selected: bool = False,
        on_click: Callback | None = None,
        on_long_click: Callback | None = None,
        bg: RGB | None = None,
        radius: int = 0,
        class_name: str | None = None,
        children: Sequence[View] = (),
    ) -> None:
        self.bounds = bounds
        self.rid = rid
        self.text = text
        self.desc = desc
        self.clickable = clickable or on_click is not None
        self.long_clickable = long_clickable or on_long_click is not None
        self.checkable = checkable
        self.checked = checked
        self.enabled = enabled
        self.focusable = focusable or self.clickable
        self.focused = focused
        self.scrollable = scrollable
        self.password = password
        self.selected = selected
        self.on_click = on_click
        self.on_long_click = on_long_click
        self.on_swipe: SwipeHandler | None = None
        self.on_tap_at: Callable[[int, int], None] | None = None
        self.bg = bg
        self.radius = radius
        if class_name:
            self.class_name = class_name
        self.children: list[View] = list(children)

    # -- tree -----------------------------------------------------------------------------------------
    def add(self, child: View) -> View:
        self.children.append(child)
        return child

    def extend(self, children: Sequence[View]) -> None:
        self.children.extend(children)

    def translate(self, dx: int, dy: int) -> None:
        self.bounds = self.bounds.offset(dx, dy)
        for c in self.children:
            c.translate(dx, dy)

    def walk(self) -> Iterator[View]:
        yield self
        for c in self.children:
            yield from c.walk()

    def child_clip(self, clip: Rect) -> Rect:
        """The clip applied to children (scrolling containers narrow it to their viewport)."""
        return clip

    @property
    def informative(self) -> bool:
        """Whether uiautomator's compressed dump keeps this node (it has text, an action or a state)."""
        return bool(
            self.text
            or self.desc
            or self.clickable
            or self.long_clickable
            or self.checkable
            or self.scrollable
            or self.focused
            or self.class_name.endswith("EditText")
        )

    # -- drawing --------------------------------------------------------------------------------------
    def paint(self, canvas: Canvas) -> None:
        if self.bg is not None:
            canvas.fill(self.bounds, self.bg, self.radius)

    def render(self, canvas: Canvas, clip: Rect) -> None:
        if self.bounds.intersect(clip).empty:
            return
        self.paint(canvas)
        inner = self.child_clip(clip)
        if inner is clip:
            for c in self.children:
                c.render(canvas, clip)
            return
        sub = canvas.sub(inner)
        for c in self.children:
            c.render(sub, inner)
        canvas.paste(sub)

    # -- input ----------------------------------------------------------------------------------------
    def hit(self, x: int, y: int, clip: Rect) -> View | None:
        """The top-most view under (x, y) that takes taps (clickable, long-clickable or focusable)."""
        visible = self.bounds.intersect(clip)
        if not visible.contains(x, y):
            return None
        inner = self.child_clip(clip)
        for c in reversed(self.children):
            found = c.hit(x, y, inner)
            if found is not None:
                return found
        if self.enabled and (
            self.clickable
            or self.long_clickable
            or self.on_tap_at is not None
            or self.class_name.endswith("EditText")
        ):
            return self
        return None

    def path_to(self, x: int, y: int, clip: Rect) -> list[View]:
        """Every view under (x, y), outermost first (for finding scroll containers and swipe handlers)."""
        if not self.bounds.intersect(clip).contains(x, y):
            return []
        inner = self.child_clip(clip)
        for c in reversed(self.children):
            below = c.path_to(x, y, inner)
            if below:
                return [self, *below]
        return [self]


class Window:
    """A top-level window: the app, the status bar, the keyboard, the navigation bar, a toast."""

    def __init__(
        self, package: str, root: View, name: str = "", focusable: bool = True, touchable: bool = True
    ) -> None:
        self.package = package
        self.root = root
        self.name = name or package
        # whether it can take input focus (FLAG_NOT_FOCUSABLE unset): only such a window can be the active
        # one that `uiautomator dump` shows; heads-ups, toasts and bars cannot
        self.focusable = focusable
        # FLAG_NOT_TOUCHABLE unset: a toast is drawn over the app but taps go through it to what is below
        self.touchable = touchable


class Frame:
    """Everything on screen at one state version, windows bottom to top."""

    def __init__(self, screen: Rect, windows: Sequence[Window]) -> None:
        self.screen = screen
        self.windows = list(windows)

    def hit(self, x: int, y: int) -> View | None:
        for w in reversed(self.windows):
            if not w.touchable:
                continue
            found = w.root.hit(x, y, self.screen)
            if found is not None:
                return found
            if w.root.bg is not None and w.root.bounds.contains(x, y):
                return None  # an opaque window swallows taps that hit nothing in it
        return None

    def path_to(self, x: int, y: int) -> list[View]:
        for w in reversed(self.windows):
            if not w.touchable:
                continue
            path = w.root.path_to(x, y, self.screen)
            if path:
                return path
        return []

    def views(self) -> Iterator[View]:
        """Every view that is at least partly on screen (not scrolled out of its list)."""
        for w in self.windows:
            yield from _visible(w.root, self.screen)

    def find(self, rid: str = "", text: str = "", desc: str = "") -> View | None:
        """First visible view matching all given fields (tests and the u2 RPC selectors use this)."""
        for v in self.views():
            if (not rid or v.rid == rid) and (not text or v.text == text) and (not desc or v.desc == desc):
                return v
        return None


def _visible(view: View, clip: Rect) -> Iterator[View]:
    if view.bounds.intersect(clip).empty:
        return
    yield view
    inner = view.child_clip(clip)
    for c in view.children:
        yield from _visible(c, inner)
