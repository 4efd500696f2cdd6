"""The home screen (Pixel Launcher look): wallpaper, date, app icons, a dock with the search pill,
and the app drawer that a swipe up opens."""

from __future__ import annotations

from functools import lru_cache, partial

from PIL import Image

from spa_bench.phone.api import PackageInfo
from spa_bench.phone.apps.base import Activity, App
from spa_bench.phone.i18n import Strings
from spa_bench.phone.ui import FRAME, Callback, Canvas, Rect, TextView, View, tone
from spa_bench.phone.ui.fonts import ellipsize, sp

PACKAGE = "com.google.android.apps.nexuslauncher"
STRINGS = Strings(
    {
        "search": ("Search", "搜索"),
        "search_apps": ("Search apps", "搜索应用"),
        "weekday": ("{weekday}, {month} {day}", "{month}{day}日 {weekday}"),
    }
)
_WEEKDAYS = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "zh": ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"),
}
_MONTHS_EN = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# Apps that go in the dock when installed, in order (the rest fill the home grid).
DOCK = (
    "com.android.dialer",
    "com.google.android.dialer",
    "com.android.browser",
    "com.android.chrome",
    "com.android.camera2",
)


WALLPAPER_BAND = 128  # rows painted at a time: a band is 0.5 MB where the whole picture was 10 MB


@lru_cache(maxsize=8)
def wallpaper_column(height: int, dark: bool) -> Image.Image:
    """The wallpaper's one column: a soft vertical gradient, computed once per height and theme. Every
    column of the wallpaper is this one, so only it is kept: a whole wallpaper (10 MB at 1080x2400) cached
    here would count in the memory of every phone forked from the zygote (spa_bench.phone.zygote)."""
    top = (64, 92, 170) if not dark else (20, 30, 60)
    mid = (120, 96, 180) if not dark else (50, 30, 80)
    bottom = (232, 150, 140) if not dark else (90, 50, 60)
    column = Image.new("RGB", (1, 256))
    for i in range(256):
        t = i / 255
        a, b, u = (top, mid, t * 2) if t < 0.5 else (mid, bottom, (t - 0.5) * 2)
        column.putpixel((0, i), tuple(round(a[k] * (1 - u) + b[k] * u) for k in range(3)))
    return column.resize((1, height), Image.Resampling.BILINEAR)


def paint_wallpaper(image: Image.Image, left: int, top: int, width: int, height: int, dark: bool) -> None:
    """Paint the wallpaper at (left, top), band by band: each band is its column's rows widened, the same
    pixels as the gradient resized to the whole size at once (a one-pixel-wide source widens exactly)."""
    column = wallpaper_column(height, dark)
    for y in range(0, height, WALLPAPER_BAND):
        rows = min(WALLPAPER_BAND, height - y)
        band = column.crop((0, y, 1, y + rows)).resize((width, rows), Image.Resampling.NEAREST)
        image.paste(band, (left, top + y))


class Wallpaper(View):
    def __init__(self, bounds: Rect, dark: bool) -> None:
        super().__init__(bounds, class_name=FRAME, rid=f"{PACKAGE}:id/launcher")
        self.dark = dark

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        paint_wallpaper(canvas.image, b.left - canvas.origin[0], b.top - canvas.origin[1], b.width, b.height,
                        self.dark)


class AppIcon(View):
    """A launcher icon: icon circle with the label below; one node (like Launcher3's BubbleTextView)."""

    class_name = "android.widget.TextView"

    def __init__(
        self,
        bounds: Rect,
        info: PackageInfo,
        label: str,
        icon: str,
        hue: str,
        *,
        dark: bool,
        on_light: bool,
        icon_size: int,
        text_size: int,
        on_click: Callback,
        draw_label: bool = True,
    ) -> None:
        super().__init__(
            bounds, text=label, desc=label, on_click=on_click, long_clickable=True, rid=f"{PACKAGE}:id/icon"
        )
        # A hotseat BubbleTextView keeps its label as text and description but does not draw it (a
        # Pixel's dump shows text="Messages" on the dock icon, so no NAF="true")
        self.draw_label = draw_label
        self.icon, self.hue, self.dark = icon, hue, dark
        self.on_light = on_light
        self.icon_size = icon_size
        self.text_size = sp(text_size)  # scaled as it is built, like TextView's
        self.package = info.name

    def paint(self, canvas: Canvas) -> None:
        b = self.bounds
        s = self.icon_size
        cx = b.center[0]
        circle, glyph = tone(self.hue, self.dark)
        rect = Rect(cx - s // 2, b.top, cx - s // 2 + s, b.top + s)
        canvas.ellipse(rect, circle)
        g = round(s * 0.55)
        canvas.icon(
            self.icon,
            Rect(cx - g // 2, rect.center[1] - g // 2, cx - g // 2 + g, rect.center[1] - g // 2 + g),
            glyph,
        )
        if self.text and self.draw_label:
            color = (30, 30, 34) if self.on_light and not self.dark else (250, 250, 252)
            label = ellipsize(self.text, self.text_size, b.width)
            canvas.text(cx, b.top + s + self.text_size * 1.1, label, self.text_size, color, "mm")


class Home(Activity):
    name = "com.google.android.apps.nexuslauncher.NexusLauncherActivity"
    fullscreen = True

    def launchable(self) -> list[PackageInfo]:
        return [p for p in self.ctx.packages() if p.launcher_activity and p.name != PACKAGE]

    def _icon(
        self, rect: Rect, info: PackageInfo, on_light: bool, with_label: bool = True, icon: int | None = None
    ) -> AppIcon:
        app_cls = _app_meta(info.name)
        label = info.label(self.ctx.locale)
        return AppIcon(
            rect,
            info,
            label,
            app_cls[0],
            app_cls[1],
            dark=self.kit.palette.dark,
            on_light=on_light,
            icon_size=self.kit.dp(56) if icon is None else icon,
            text_size=self.kit.dp(13),
            on_click=partial(self.ctx.launch, info.name),
            draw_label=with_label,
        )

    def build(self, area: Rect) -> View:
        kit = self.kit
        screen = kit.metrics.screen
        root = Wallpaper(screen, kit.palette.dark)
        if self.ui("drawer"):
            root.add(self._drawer(area))
            return root
        root.on_swipe = self._swipe_home
        now = self.ctx.clock.now()
        loc = self.ctx.locale
        wd = _WEEKDAYS[loc][now.weekday()]
        date = (
            STRINGS.get(loc, "weekday", weekday=wd, month=_MONTHS_EN[now.month - 1], day=now.day)
            if loc == "en"
            else STRINGS.get(loc, "weekday", weekday=wd, month=f"{now.month}月", day=now.day)
        )
        root.add(
            TextView(
                Rect(
                    area.left + kit.dp(24),
                    area.top + kit.dp(24),
                    area.right - kit.dp(24),
                    area.top + kit.dp(64),
                ),
                date,
                kit.dp(22),
                (255, 255, 255),
                rid=f"{PACKAGE}:id/date",
                on_click=None,
            )
        )
        apps = self.launchable()
        dock = [p for name in DOCK for p in apps if p.name == name]
        grid = [p for p in apps if p not in dock]
        cols = 4
        cell_w = (area.width - kit.dp(32)) // cols
        dock_top = area.bottom - kit.dp(96) - kit.dp(72)
        # rows shrink to fit between the date and the dock (a 640 dp screen has no room for 96 dp rows),
        # and the icons with them, as Launcher3's DeviceProfile sizes cells from the height it has
        rows = max(1, (len(grid) + cols - 1) // cols)
        grid_bottom = dock_top - kit.dp(24)
        cell_h = min(kit.dp(96), (grid_bottom - area.top - kit.dp(72)) // rows)
        icon = max(kit.dp(24), min(kit.dp(56), cell_h - kit.dp(8) - round(sp(kit.dp(13)) * 1.7)))
        top = grid_bottom - cell_h * rows
        for i, info in enumerate(grid):
            left = area.left + kit.dp(16) + (i % cols) * cell_w
            y = top + (i // cols) * cell_h
            root.add(self._icon(Rect(left, y, left + cell_w, y + cell_h - kit.dp(8)), info, False, icon=icon))
        for i, info in enumerate(dock[:cols]):
            left = area.left + kit.dp(16) + i * cell_w
            root.add(
                self._icon(Rect(left, dock_top, left + cell_w, dock_top + kit.dp(64)), info, False, False)
            )
        pill = Rect(
            area.left + kit.dp(24),
            area.bottom - kit.dp(80),
            area.right - kit.dp(24),
            area.bottom - kit.dp(24),
        )
        bar = kit.search_bar(
            pill,
            STRINGS.get(loc, "search"),
            rid=f"{PACKAGE}:id/search_container_hotseat",
            on_click=self._open_search,
        )
        bar.bg = (255, 255, 255) if not kit.palette.dark else (48, 50, 58)
        root.add(bar)
        return root

    @property
    def light_system_bars(self) -> bool:
        return not self.ui("drawer")

    def _open_search(self) -> None:
        self.request_focus("apps_search")
        self.set_ui("drawer", True)

    def _swipe_home(self, direction: str) -> bool:
        if direction == "up":
            self.set_ui("drawer", True)
            return True
        return False

    def _drawer(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        sheet = View(
            Rect(0, area.top - kit.dp(32), area.right, kit.metrics.height),
            class_name=FRAME,
            bg=p.surface if not p.dark else p.background,
            rid=f"{PACKAGE}:id/apps_view",
        )
        sheet.on_swipe = self._swipe_drawer
        field = self.text_field(
            Rect(
                area.left + kit.dp(16), area.top + kit.dp(16), area.right - kit.dp(16), area.top + kit.dp(72)
            ),
            "apps_search",
            STRINGS.get(self.ctx.locale, "search_apps"),
            rid=f"{PACKAGE}:id/search_box_input",
        )
        field.radius = field.bounds.height // 2
        field.underline = False
        field.icon = "search"
        sheet.add(field)
        query = str(self.ui("text:apps_search", "")).strip().casefold()
        apps = sorted(self.launchable(), key=lambda i: i.label(self.ctx.locale).casefold())
        if query:
            apps = [a for a in apps if query in a.label(self.ctx.locale).casefold() or query in a.name]
        cols = 4
        cell_w = (area.width - kit.dp(16)) // cols
        cell_h = kit.dp(104)
        list_area = Rect(0, area.top + kit.dp(88), area.right, area.bottom)
        icons: list[View] = []
        for i, info in enumerate(apps):
            left = kit.dp(8) + (i % cols) * cell_w
            y = list_area.top + kit.dp(8) + (i // cols) * cell_h
            icons.append(self._icon(Rect(left, y, left + cell_w, y + cell_h - kit.dp(8)), info, True))
        lst = self.scroll_list(list_area, icons, key="drawer_scroll", rid=f"{PACKAGE}:id/apps_list_view")
        sheet.add(lst)
        return sheet

    def _swipe_drawer(self, direction: str) -> bool:
        if direction == "down":
            self._close_drawer()
            return True
        return False

    def _close_drawer(self) -> None:
        for key in ("drawer", "focus", "text:apps_search", "drawer_scroll"):
            self.record.ui.pop(key, None)
        self.ctx.invalidate()

    def on_back(self) -> bool:
        if self.ui("drawer"):
            self._close_drawer()
        return True


def _app_meta(package: str) -> tuple[str, str]:
    """(icon, hue) of an installed app, from the app registry."""
    from spa_bench.phone.apps import APPS

    try:
        cls = APPS.get(package)
    except Exception:
        return "apps", "grey"
    return cls.icon, cls.hue


class Launcher(App):
    package = PACKAGE
    label_en = "Pixel Launcher"
    label_zh = "Pixel 启动器"
    launcher_activity = None
    apk_path = "/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk"
    icon = "apps"
    hue = "grey"
    activities = (Home,)
    exported_activities = frozenset({Home.name})  # the HOME filter
    strings = STRINGS
