"""System UI windows: status bar, navigation bar (3 buttons), the recents screen and toasts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from PIL import Image

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings
from spa_bench.phone.ui import FRAME, ImageView, Kit, Rect, ScrollList, TextView, View
from spa_bench.phone.ui.canvas import Canvas
from spa_bench.phone.ui.view import Callback

SYSTEMUI = "com.android.systemui"
STRINGS = Strings(
    {
        "bt": ("Bluetooth on.", "蓝牙已开启。"),
        "airplane": ("Airplane mode.", "飞行模式。"),
        "wifi": ("Wifi signal full.", "WLAN 信号满格。"),
        "signal": ("Phone signal full.", "手机信号满格。"),
        "battery": ("Battery {level} percent.", "电池电量为百分之 {level}。"),
        "back": ("Back", "返回"),
        "home": ("Home", "主屏幕"),
        "overview": ("Overview", "概览"),
        "no_recents": ("No recent items", "近期没有任何内容"),
        "remove": ("Remove {label}", "移除{label}"),
        "clear_all": ("Clear all", "全部清除"),
        "dnd": ("Do Not Disturb.", "勿扰模式。"),
        "notification": ("{app} notification: {title}", "{app}通知：{title}"),
    }
)


def status_bar_height(kit: Kit) -> int:
    return kit.dp(32)


def nav_bar_height(kit: Kit) -> int:
    return kit.dp(48)


def build_status_bar(
    kit: Kit,
    rect: Rect,
    *,
    time: str,
    wifi: bool,
    airplane: bool,
    bluetooth: bool,
    battery: int,
    show_percent: bool,
    light_content: bool,
    bg: tuple[int, int, int] | None,
    locale: Locale = "en",
    dnd: bool = False,
    notifications: Sequence[tuple[str, str]] = (),
) -> View:
    """The status bar; `notifications` are (icon, description) of posted notifications, shown after the
    clock in the notification icon area (at most four, as there is room for)."""
    fg = (255, 255, 255) if light_content else kit.palette.on_surface
    root = View(rect, class_name=FRAME, rid=f"{SYSTEMUI}:id/status_bar", bg=bg)
    size = kit.dp(14)
    cy = rect.center[1]
    root.add(
        TextView(
            Rect(rect.left + kit.dp(20), rect.top, rect.left + kit.dp(100), rect.bottom),
            time,
            size,
            fg,
            rid=f"{SYSTEMUI}:id/clock",
        )
    )
    if notifications:
        area = View(Rect(rect.left + kit.dp(100), rect.top, rect.left + kit.dp(240), rect.bottom),
                    class_name=FRAME, rid=f"{SYSTEMUI}:id/notification_icon_area")
        ns = kit.dp(16)
        for i, (glyph, desc) in enumerate(notifications[:4]):
            x0 = area.bounds.left + i * (ns + kit.dp(6))
            area.add(ImageView(Rect(x0, cy - ns // 2, x0 + ns, cy - ns // 2 + ns), glyph, fg, desc=desc))
        root.add(area)
    icons: list[tuple[str, str]] = []
    if dnd:
        icons.append(("dnd", STRINGS.get(locale, "dnd")))
    if bluetooth:
        icons.append(("bluetooth", STRINGS.get(locale, "bt")))
    if airplane:
        icons.append(("airplane", STRINGS.get(locale, "airplane")))
    if wifi:
        icons.append(("wifi", STRINGS.get(locale, "wifi")))
    if not airplane:
        icons.append(("signal", STRINGS.get(locale, "signal")))
    x = rect.right - kit.dp(16)
    bw, bh = kit.dp(12), kit.dp(18)
    root.add(
        _Battery(
            Rect(x - bw, cy - bh // 2, x, cy - bh // 2 + bh),
            battery,
            fg,
            STRINGS.get(locale, "battery", level=battery),
        )
    )
    x -= bw + kit.dp(6)
    if show_percent:
        label = f"{battery}%"
        w = kit.dp(36)
        root.add(TextView(Rect(x - w, rect.top, x, rect.bottom), label, size, fg, align="right"))
        x -= w + kit.dp(4)
    s = kit.dp(16)
    for name, desc in reversed(icons):
        root.add(ImageView(Rect(x - s, cy - s // 2, x, cy - s // 2 + s), name, fg, desc=desc))
        x -= s + kit.dp(6)
    return root


class _Battery(View):
    class_name = "android.widget.ImageView"

    def __init__(self, bounds: Rect, level: int, color: tuple[int, int, int], desc: str) -> None:
        super().__init__(bounds, desc=desc, rid=f"{SYSTEMUI}:id/battery")
        self.level = level
        self.color = color

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        cap = max(2, b.height // 9)
        body = Rect(b.left, b.top + cap, b.right, b.bottom)
        canvas.fill(Rect(b.left + b.width // 3, b.top, b.right - b.width // 3, b.top + cap + 1), self.color)
        canvas.fill(body, (*self.color, 90), max(2, b.width // 5))
        filled = round(body.height * self.level / 100)
        canvas.fill(
            Rect(body.left, body.bottom - filled, body.right, body.bottom), self.color, max(2, b.width // 5)
        )


def build_nav_bar(
    kit: Kit,
    rect: Rect,
    *,
    back: Callback,
    home: Callback,
    recents: Callback,
    light_content: bool,
    bg: tuple[int, int, int] | None,
    locale: Locale = "en",
) -> View:
    fg = (255, 255, 255) if light_content else kit.palette.on_surface_variant
    root = View(rect, class_name=FRAME, rid=f"{SYSTEMUI}:id/navigation_bar_frame", bg=bg)
    w = kit.dp(72)
    for cx, icon, desc, rid, cb in (
        (rect.width // 2 - kit.dp(110), "nav_back", STRINGS.get(locale, "back"), "back", back),
        (rect.width // 2, "nav_home", STRINGS.get(locale, "home"), "home", home),
        (
            rect.width // 2 + kit.dp(110),
            "nav_recents",
            STRINGS.get(locale, "overview"),
            "recent_apps",
            recents,
        ),
    ):
        button = ImageView(
            Rect(cx - w // 2, rect.top, cx + w // 2, rect.bottom),
            icon,
            fg,
            desc=desc,
            rid=f"{SYSTEMUI}:id/{rid}",
            on_click=cb,
        )
        button.scale = 0.42 * rect.height / w
        button.circle = None
        root.add(button)
    return root


def _dismiss_sideways(remove: Callback) -> Callable[[str], bool]:
    """A recents card flung left or right is dismissed (up and down scroll the grid)."""

    def on_swipe(direction: str) -> bool:
        if direction in ("left", "right"):
            remove()
            return True
        return False

    return on_swipe


class Thumbnail(View):
    """A downscaled picture of an app's last screen inside a recents card."""

    class_name = "android.widget.ImageView"

    def __init__(
        self, bounds: Rect, image: Image.Image | None, radius: int, fallback: tuple[int, int, int], desc: str
    ) -> None:
        super().__init__(bounds, desc=desc, rid=f"{SYSTEMUI}:id/snapshot")
        self.image = image
        self.radius = radius
        self.fallback = fallback

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        if self.image is None:
            canvas.fill(b, self.fallback, self.radius)
            return
        thumb = self.image.resize((b.width, b.height), Image.Resampling.BILINEAR)
        mask = Image.new("L", thumb.size, 0)
        from PIL import ImageDraw

        ImageDraw.Draw(mask).rounded_rectangle(
            (0, 0, b.width - 1, b.height - 1), radius=self.radius, fill=255
        )
        canvas.image.paste(thumb, (b.left - canvas.origin[0], b.top - canvas.origin[1]), mask)


def build_recents(
    kit: Kit,
    area: Rect,
    locale: Locale,
    entries: list[tuple[str, str, str, str]],
    thumbnail: Callable[[str], Image.Image | None],
    *,
    open_app: Callable[[str], None],
    remove_app: Callable[[str], None],
    clear_all: Callback,
    offset: int,
    on_scroll: Callable[[int], None],
) -> View:
    """Recent apps as a two-column grid of cards, most recent first; entries are
    (package, label, icon, hue). Tap opens, the x closes one, "Clear all" closes every task."""
    p = kit.palette
    root = View(
        area,
        class_name=FRAME,
        bg=p.surface_high if not p.dark else p.background,
        rid="com.google.android.apps.nexuslauncher:id/overview_panel",
    )
    if not entries:
        root.add(
            TextView(
                area,
                STRINGS.get(locale, "no_recents"),
                kit.body_large,
                p.on_surface_variant,
                align="center",
                rid="com.google.android.apps.nexuslauncher:id/empty",
            )
        )
        return root
    gap = kit.dp(16)
    card_w = (area.width - 3 * gap) // 2
    card_h = round(card_w * area.height / area.width) + kit.dp(48)
    cards: list[View] = []
    for i, (package, label, icon, hue) in enumerate(entries):
        col, row = i % 2, i // 2
        left = area.left + gap + col * (card_w + gap)
        top = area.top + kit.dp(72) + row * (card_h + gap)
        card = View(
            Rect(left, top, left + card_w, top + card_h),
            class_name=FRAME,
            rid="com.google.android.apps.nexuslauncher:id/task",
            desc=label,
            on_click=partial(open_app, package),
        )
        card.on_swipe = _dismiss_sideways(partial(remove_app, package))
        s = kit.dp(28)
        card.add(kit.icon_circle(Rect(left, top + kit.dp(8), left + s, top + kit.dp(8) + s), icon, hue))
        card.add(
            TextView(
                Rect(left + s + kit.dp(8), top, left + card_w - kit.dp(40), top + kit.dp(44)),
                label,
                kit.body_medium,
                p.on_surface,
                rid="com.google.android.apps.nexuslauncher:id/title",
            )
        )
        card.add(
            ImageView(
                Rect(left + card_w - kit.dp(36), top + kit.dp(6), left + card_w, top + kit.dp(42)),
                "close",
                p.on_surface_variant,
                desc=STRINGS.get(locale, "remove", label=label),
                on_click=partial(remove_app, package),
                scale=0.5,
            )
        )
        card.children[-1].scale = 0.5  # type: ignore[attr-defined]
        card.add(
            Thumbnail(
                Rect(left, top + kit.dp(48), left + card_w, top + card_h),
                thumbnail(package),
                kit.dp(16),
                p.surface,
                label,
            )
        )
        cards.append(card)
    lst = ScrollList(
        area,
        cards,
        offset,
        on_scroll,
        rid="com.google.android.apps.nexuslauncher:id/overview_grid",
        padding_bottom=gap,
    )
    root.add(lst)
    bw = kit.dp(120)
    from spa_bench.phone.ui import Button

    root.add(
        Button(
            Rect(
                area.center[0] - bw // 2,
                area.top + kit.dp(16),
                area.center[0] + bw // 2,
                area.top + kit.dp(56),
            ),
            STRINGS.get(locale, "clear_all"),
            kit.body_medium,
            p.on_primary_container,
            p.primary_container,
            on_click=clear_all,
            rid="com.google.android.apps.nexuslauncher:id/clear_all",
        )
    )
    return root
