"""The notification shade and quick settings, drawn as SystemUI's NotificationShade window.

One swipe down from the top edge shows the notifications with the first four tiles (Android's "quick
quick settings"); a second swipe, or `cmd statusbar expand-settings`, shows every tile and the brightness
slider. Tiles are toggle tiles as SystemUI's QSTileViewImpl exposes them to accessibility: class
`android.widget.Switch`, the tile label as content-desc, the state ("On"/"Off") as text, checkable.
Resource ids follow SystemUI's (`qs_frame`, `notification_stack_scroller`, `tile_label`, `dismiss_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Literal

from PIL import ImageDraw

from spa_bench.phone.api import Locale
from spa_bench.phone.i18n import Strings
from spa_bench.phone.system.systemui import SYSTEMUI
from spa_bench.phone.ui import (
    FRAME,
    LINEAR,
    Button,
    ImageView,
    Kit,
    Rect,
    ScrollList,
    SeekBar,
    TextView,
    View,
)
from spa_bench.phone.ui.fonts import text_width
from spa_bench.phone.ui.icons import icon
from spa_bench.phone.ui.theme import RGB

ID = f"{SYSTEMUI}:id/"
ShadeState = Literal["closed", "notifications", "settings"]
SHADE_WINDOW = "NotificationShade"  # WindowManager's title of SystemUI's shade window
HEADS_UP_WINDOW = "HeadsUp"

STRINGS = Strings(
    {
        "on": ("On", "开启"),
        "off": ("Off", "关闭"),
        "on_summary": ("On", "已开启"),
        "off_summary": ("Off", "已关闭"),
        "wifi": ("Wi‑Fi", "WLAN"),
        "bt": ("Bluetooth", "蓝牙"),
        "airplane": ("Airplane mode", "飞行模式"),
        "flashlight": ("Flashlight", "手电筒"),
        "dnd": ("Do Not Disturb", "勿扰模式"),
        "rotation": ("Auto-rotate", "自动旋转"),
        "brightness": ("Display brightness", "屏幕亮度"),
        "clear_all": ("Clear all", "全部清除"),
        "no_notifications": ("No notifications", "没有通知"),
        "settings": ("Open settings", "打开设置。"),
        "now": ("now", "现在"),
        "minutes": ("{n}m", "{n}分钟"),
        "hours": ("{n}h", "{n}小时"),
    }
)
_WEEKDAYS = {"en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"), "zh": "一二三四五六日"}
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class Tile:
    """A quick-settings tile bound to one setting (namespace, key, value when on, value when off)."""

    spec: str  # SystemUI's tile spec (sysui_qs_tiles): wifi, bt, airplane, flashlight, dnd, rotation
    label: str  # STRINGS key
    icon: str
    namespace: str
    key: str
    on: str = "1"
    off: str = "0"
    settings_page: str | None = None  # what a long press on the tile opens (QSTile.getLongClickIntent)


_S = "com.android.settings.Settings$"
# Pixel's default order; the first four are the "quick quick settings" of the collapsed shade.
TILES: tuple[Tile, ...] = (
    Tile("wifi", "wifi", "wifi", "global", "wifi_on", settings_page=_S + "NetworkDashboardActivity"),
    Tile("bt", "bt", "bluetooth", "global", "bluetooth_on",
         settings_page=_S + "ConnectedDeviceDashboardActivity"),
    Tile("dnd", "dnd", "dnd", "global", "zen_mode", settings_page=_S + "SoundSettingsActivity"),
    Tile("flashlight", "flashlight", "flashlight", "secure", "flashlight_enabled"),
    Tile("rotation", "rotation", "rotate", "system", "accelerometer_rotation",
         settings_page=_S + "DisplaySettingsActivity"),
    Tile("airplane", "airplane", "airplane", "global", "airplane_mode_on",
         settings_page=_S + "NetworkDashboardActivity"),
)
QUICK_TILES = 4


def tile(spec: str) -> Tile:
    for t in TILES:
        if t.spec == spec:
            return t
    raise KeyError(spec)


@dataclass(frozen=True)
class ShadeEntry:
    """A notification row as the shade shows it."""

    key: str
    app_label: str
    app_icon: str
    title: str
    text: str
    when: str


@dataclass(frozen=True)
class ShadeActions:
    toggle: Callable[[str], None]
    open_tile_settings: Callable[[str], None]
    open_entry: Callable[[str], None]
    dismiss_entry: Callable[[str], None]
    clear_all: Callable[[], None]
    swipe: Callable[[str], bool]
    set_brightness: Callable[[int], None]
    open_settings: Callable[[], None]
    scroll: Callable[[int], None]


def relative_time(locale: Locale, posted_ms: int, now_ms: int) -> str:
    minutes = max(0, (now_ms - posted_ms) // 60000)
    if minutes < 1:
        return STRINGS.get(locale, "now")
    if minutes < 60:
        return STRINGS.get(locale, "minutes", n=minutes)
    return STRINGS.get(locale, "hours", n=minutes // 60)


def shade_date(locale: Locale, now: datetime) -> str:
    wd = now.weekday()
    if locale == "zh":
        return f"{now.month}月{now.day}日周{_WEEKDAYS['zh'][wd]}"
    return f"{_WEEKDAYS['en'][wd]}, {_MONTHS[now.month - 1]} {now.day}"


def build_shade(
    kit: Kit,
    screen: Rect,
    locale: Locale,
    state: ShadeState,
    *,
    time: str,
    date: str,
    values: dict[str, bool],
    brightness: int,
    entries: list[ShadeEntry],
    scroll: int,
    actions: ShadeActions,
) -> View:
    """The shade window's root: header, tiles (4 or all), brightness (expanded only), notifications."""
    p = kit.palette
    bg = p.surface if p.dark else p.surface_high
    root = View(screen, class_name=FRAME, rid=f"{ID}notification_panel", bg=bg)
    root.on_swipe = actions.swipe
    pad = kit.dp(16)
    qs = View(Rect(screen.left, screen.top, screen.right, screen.top), class_name=FRAME, rid=f"{ID}qs_frame")
    root.add(qs)
    y = screen.top + kit.dp(8)
    header = View(Rect(pad, y, screen.right - pad, y + kit.dp(56)), class_name=LINEAR, rid=f"{ID}header")
    header.add(TextView(Rect(pad, y, pad + kit.dp(96), y + kit.dp(36)), time, kit.dp(22), p.on_surface,
                        rid=f"{ID}clock"))
    header.add(TextView(Rect(pad, y + kit.dp(34), screen.right - kit.dp(80), y + kit.dp(56)), date,
                        kit.body_medium, p.on_surface_variant, rid=f"{ID}date"))
    s = kit.dp(48)
    gear = ImageView(Rect(screen.right - pad - s, y + kit.dp(4), screen.right - pad, y + kit.dp(4) + s),
                     "gear", p.on_surface_variant, desc=STRINGS.get(locale, "settings"),
                     rid=f"{ID}settings_button", on_click=actions.open_settings)
    gear.scale = 0.5
    header.add(gear)
    qs.add(header)
    y += kit.dp(64)
    shown = TILES if state == "settings" else TILES[:QUICK_TILES]
    gap = kit.dp(8)
    tile_w = (screen.width - 2 * pad - gap) // 2
    tile_h = kit.dp(68)
    page = View(Rect(pad, y, screen.right - pad, y), class_name="android.view.ViewGroup",
                rid=f"{ID}tile_page")
    for i, t in enumerate(shown):
        left = pad + (i % 2) * (tile_w + gap)
        top = y + (i // 2) * (tile_h + gap)
        view = _tile_view(kit, Rect(left, top, left + tile_w, top + tile_h), locale, t,
                          values.get(t.spec, False), partial(actions.toggle, t.spec))
        if t.settings_page is not None:
            view.on_long_click = partial(actions.open_tile_settings, t.spec)
            view.long_clickable = True
        page.add(view)
    rows = (len(shown) + 1) // 2
    y += rows * (tile_h + gap)
    page.bounds = Rect(pad, page.bounds.top, screen.right - pad, y - gap)
    qs.add(page)
    if state == "settings":
        y += kit.dp(8)
        label = STRINGS.get(locale, "brightness")
        slider = View(Rect(pad, y, screen.right - pad, y + kit.dp(48)), class_name=FRAME,
                      rid=f"{ID}brightness_slider", desc=label)
        slider.add(SeekBar(slider.bounds, brightness, 255, on_set=actions.set_brightness, active=p.primary,
                           inactive=p.background, desc=label, rid=f"{ID}slider"))
        slider.children[-1].text = label
        qs.add(slider)
        y += kit.dp(56)
    qs.bounds = Rect(screen.left, screen.top, screen.right, y)
    root.add(_notification_list(kit, Rect(screen.left, y + kit.dp(8), screen.right, screen.bottom), locale,
                                entries, scroll, actions))
    return root


def _tile_view(kit: Kit, rect: Rect, locale: Locale, t: Tile, on: bool, toggle: Callable[[], None]) -> View:
    p = kit.palette
    label = STRINGS.get(locale, t.label)
    bg, fg = (p.primary, p.on_primary) if on else (p.background, p.on_surface)
    view = View(rect, class_name="android.widget.Switch", text=STRINGS.get(locale, "on" if on else "off"),
                desc=label, checkable=True, checked=on, on_click=toggle, bg=bg, radius=rect.height // 2)
    s = kit.dp(24)
    cy = rect.center[1]
    view.add(ImageView(Rect(rect.left + kit.dp(20), cy - s // 2, rect.left + kit.dp(20) + s, cy + s // 2),
                       t.icon, fg, rid="android:id/icon"))
    tx = rect.left + kit.dp(56)
    view.add(TextView(Rect(tx, rect.top + kit.dp(12), rect.right - kit.dp(12), cy + kit.dp(2)), label,
                      kit.body_medium, fg, rid=f"{ID}tile_label", bold=True))
    view.add(TextView(Rect(tx, cy + kit.dp(2), rect.right - kit.dp(12), rect.bottom - kit.dp(10)),
                      STRINGS.get(locale, "on_summary" if on else "off_summary"), kit.label, fg,
                      rid=f"{ID}app_label"))
    return view


def _notification_list(
    kit: Kit, area: Rect, locale: Locale, entries: list[ShadeEntry], scroll: int, actions: ShadeActions
) -> View:
    p = kit.palette
    pad = kit.dp(12)
    rows: list[View] = []
    y = area.top
    for e in entries:
        row = notification_row(kit, Rect(area.left + pad, y, area.right - pad, y + kit.dp(96)), locale, e,
                               partial(actions.open_entry, e.key))
        row.on_swipe = _dismisser(actions.dismiss_entry, e.key)
        rows.append(row)
        y = row.bounds.bottom + kit.dp(4)
    if entries:
        w = kit.dp(112)
        rows.append(Button(Rect(area.right - pad - w, y + kit.dp(8), area.right - pad, y + kit.dp(48)),
                           STRINGS.get(locale, "clear_all"), kit.body_medium, p.on_surface, p.background,
                           on_click=actions.clear_all, rid=f"{ID}dismiss_text"))
    else:
        rows.append(TextView(Rect(area.left, y + kit.dp(16), area.right, y + kit.dp(64)),
                             STRINGS.get(locale, "no_notifications"), kit.body_large, p.on_surface_variant,
                             align="center", rid=f"{ID}no_notifications"))
    lst = ScrollList(area, rows, scroll, actions.scroll, rid=f"{ID}notification_stack_scroller",
                     class_name="android.widget.ScrollView", padding_bottom=kit.dp(16))
    return lst


def _dismisser(dismiss: Callable[[str], None], key: str) -> Callable[[str], bool]:
    def on_swipe(direction: str) -> bool:
        if direction in ("left", "right"):
            dismiss(key)
            return True
        return False

    return on_swipe


def notification_row(
    kit: Kit, rect: Rect, locale: Locale, e: ShadeEntry, on_click: Callable[[], None], bg: RGB | None = None
) -> View:
    """One notification as SystemUI lays it out (header line: icon, app name, time; then title, text)."""
    p = kit.palette
    row = View(rect, class_name=FRAME, rid=f"{ID}expandableNotificationRow", on_click=on_click,
               bg=bg or p.background, radius=kit.dp(20))  # no content-desc: real rows have none
    x = rect.left + kit.dp(16)
    s = kit.dp(20)
    top = rect.top + kit.dp(12)
    row.add(ImageView(Rect(x, top, x + s, top + s), e.app_icon, p.primary, rid="android:id/icon"))
    name_w = round(text_width(e.app_label, kit.label)) + kit.dp(6)
    row.add(TextView(Rect(x + s + kit.dp(8), top, x + s + kit.dp(8) + name_w, top + s), e.app_label,
                     kit.label, p.on_surface_variant, rid="android:id/app_name_text"))
    tx = x + s + kit.dp(8) + name_w
    row.add(TextView(Rect(tx, top, tx + kit.dp(12), top + s), "•", kit.label, p.on_surface_variant,
                     rid="android:id/time_divider", align="center"))
    row.add(TextView(Rect(tx + kit.dp(12), top, tx + kit.dp(80), top + s), e.when, kit.label,
                     p.on_surface_variant, rid="android:id/time"))
    y = top + s + kit.dp(6)
    row.add(TextView(Rect(x, y, rect.right - kit.dp(16), y + kit.dp(22)), e.title, kit.body_medium,
                     p.on_surface, rid="android:id/title", bold=True))
    row.add(TextView(Rect(x, y + kit.dp(22), rect.right - kit.dp(16), y + kit.dp(44)), e.text,
                     kit.body_medium, p.on_surface_variant, rid="android:id/text"))
    return row


# -- glyphs the tiles need -------------------------------------------------------------------------
@icon("flashlight")
def _flashlight(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.polygon([(6 * u, 2 * u), (18 * u, 2 * u), (18 * u, 6 * u), (15 * u, 11 * u), (15 * u, 22 * u),
               (9 * u, 22 * u), (9 * u, 11 * u), (6 * u, 6 * u)], fill=c)


@icon("dnd")
def _dnd(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.ellipse((2 * u, 2 * u, 22 * u, 22 * u), fill=c)
    d.rectangle((7 * u, 11 * u, 17 * u, 13 * u), fill=(*c, 0))


@icon("rotate")
def _rotate(d: ImageDraw.ImageDraw, u: float, c: RGB) -> None:
    d.arc((3 * u, 3 * u, 21 * u, 21 * u), 200, 520, fill=c, width=max(1, round(2 * u)))
    d.polygon([(2 * u, 8 * u), (8 * u, 8 * u), (5 * u, 13 * u)], fill=c)
