"""What every Video screen shares: the store, the video row (thumbnail with its length, title, channel,
views and age, or the premiere date), its menu (watch later, share) and the premiere notice."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.apps.video.store import Video
from spa_bench.phone.apps.video.strings import clock, count, when
from spa_bench.phone.ui import FRAME, LINEAR, ImageView, Rect, TextView, View, tone
from spa_bench.phone.ui.menu import MenuItem

if TYPE_CHECKING:
    from spa_bench.phone.apps.video import VideoApp

PACKAGE = "com.spa.video"
RID = f"{PACKAGE}:id/"
PLAYER = f"{PACKAGE}.PlayerActivity"
SEARCH = f"{PACKAGE}.SearchActivity"
LIBRARY_LIST = f"{PACKAGE}.LibraryListActivity"
CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")
GLYPHS = {
    "food": "kettle",
    "tech": "phone_device",
    "travel": "public",
    "music": "music_note",
    "sports": "sports",
    "knowledge": "sparkle",
    "gaming": "apps",
}
HUES = {
    "food": "orange",
    "tech": "blue",
    "travel": "teal",
    "music": "purple",
    "sports": "green",
    "knowledge": "yellow",
    "gaming": "red",
}
WATCH_URL = "https://video.spa/watch?v={vid}"


def thumb(rect: Rect, video: Video, dark: bool, radius: int) -> View:
    bg, fg = tone(HUES[video.category], dark)
    return ImageView(rect, GLYPHS[video.category], fg, circle=bg, rounded=radius, scale=0.45)


class VideoActivity(Activity):
    app: VideoApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def title(self, video: Video) -> str:
        return video.title(self.ctx.content_locale)

    def premiere_when(self, video: Video) -> str:
        at = datetime.fromtimestamp((video.premiere_at or 0) / 1000, UTC).replace(tzinfo=None)
        return when(at, self.ctx.locale)

    def age(self, video: Video) -> str:
        days = (self.now_ms() - video.published_at) // 86_400_000
        if days <= 0:
            return self.t("today")
        return self.t("yesterday") if days == 1 else self.t("days_ago", n=days)

    def meta(self, video: Video) -> str:
        """The line under the channel: views and age, or when it premieres."""
        if video.premiere_at is not None:
            return self.t("premieres", when=self.premiere_when(video))
        return f"{self.t('views', n=count(video.views, self.ctx.locale))} · {self.age(video)}"

    def open_video(self, video: Video) -> None:
        if video.premiere_at is not None:
            self.set_ui("dialog", f"premiere:{video.vid}")
            return
        self.app.store.open(video.vid, self.now_ms())
        self.ctx.start_activity(PLAYER, {"vid": video.vid})

    def toggle_later(self, video: Video) -> None:
        saved = self.app.store.toggle_watch_later(video.vid, self.now_ms())
        self.ctx.toast(self.t("saved_later" if saved else "removed_later"))
        self.ctx.invalidate()

    def share(self, video: Video) -> None:
        """ACTION_SEND of the title and link, to the Chat app's share target."""
        package, activity = CHAT_SHARE
        self.ctx.start_activity(
            activity,
            {
                "text": f"{self.title(video)} {WATCH_URL.format(vid=video.vid)}",
                "title_en": video.title_en,
                "title_zh": video.title_zh,
                "glyph": "play_circle",
                "hue": "red",
                "caller": self.ctx.package,
            },
            package=package,
        )

    def menu_items(self, video: Video) -> list[MenuItem]:
        later = self.app.store.is_in("watch_later", video.vid)
        return [
            MenuItem(
                self.t("remove_watch_later" if later else "save_watch_later"),
                partial(self.toggle_later, video),
                RID + "menu_watch_later",
            ),
            MenuItem(self.t("share"), partial(self.share, video), RID + "menu_share"),
        ]

    def video_row(self, area: Rect, top: int, video: Video) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(112)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "video_item",
            on_click=partial(self.open_video, video),
            on_long_click=self.open_menu(video.vid),
        )
        pad = kit.dp(12)
        tw, th = kit.dp(160), kit.dp(90)
        pic = Rect(area.left + pad, top + kit.dp(11), area.left + pad + tw, top + kit.dp(11) + th)
        row.add(thumb(pic, video, p.dark, kit.dp(8)))
        label = self.t("premiere_title") if video.premiere_at is not None else clock(video.duration_s)
        bw = kit.dp(12) + round(len(label) * kit.dp(7.5))
        badge = View(
            Rect(
                pic.right - kit.dp(6) - bw,
                pic.bottom - kit.dp(26),
                pic.right - kit.dp(6),
                pic.bottom - kit.dp(6),
            ),
            class_name=FRAME,
            bg=(20, 20, 20),
            radius=kit.dp(4),
        )
        badge.add(
            TextView(
                badge.bounds, label, kit.label, (255, 255, 255), align="center", rid=RID + "video_duration"
            )
        )
        row.add(badge)
        left = pic.right + kit.dp(12)
        right = area.right - kit.dp(44)
        title = self.title(video)
        title_h = TextView.wrapped_height(title, kit.body_large, right - left, 2)
        row.add(
            TextView(
                Rect(left, top + kit.dp(10), right, top + kit.dp(10) + title_h),
                title,
                kit.body_large,
                p.on_surface,
                rid=RID + "video_title",
                max_lines=2,
            )
        )
        # channel and stats on lines of their own, as video apps lay them out (no number split from its unit)
        meta_top = top + kit.dp(14) + title_h
        for i, (text, rid) in enumerate(
            ((video.channel.name(self.ctx.content_locale), "video_channel"), (self.meta(video), "video_meta"))
        ):
            line_top = meta_top + i * kit.dp(20)
            row.add(
                TextView(
                    Rect(left, line_top, right, line_top + kit.dp(20)),
                    text,
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + rid,
                )
            )
        s = kit.dp(40)
        row.add(
            icon_button(
                kit,
                Rect(
                    area.right - kit.dp(4) - s, top + kit.dp(6), area.right - kit.dp(4), top + kit.dp(6) + s
                ),
                "more_vert",
                self.t("more_options"),
                self.open_menu(video.vid),
                rid=RID + "video_more",
            )
        )
        return row

    def video_rows(self, area: Rect, top: int, videos: list[Video]) -> tuple[list[View], dict[str, View]]:
        rows: list[View] = []
        anchors: dict[str, View] = {}
        y = top
        for video in videos:
            row = self.video_row(area, y, video)
            rows.append(row)
            anchors[video.vid] = row
            y = row.bounds.bottom
        return rows, anchors

    def overlays(self, root: View, list_area: Rect, anchors: dict[str, View], screen: Rect) -> None:
        """The open menu of a row, and the premiere notice."""
        target = self.menu_target()
        video = self.app.store.videos().get(str(target or ""))
        if video is not None and video.vid in anchors:
            root.add(
                self.context_menu(list_area, anchors[video.vid].bounds, self.menu_items(video), cover=screen)
            )
        dialog = str(self.ui("dialog", ""))
        if dialog.startswith("premiere:"):
            premiere = self.app.store.videos().get(dialog[len("premiere:") :])
            if premiere is not None:
                close = self.setter("dialog", None)
                root.add(
                    self.kit.dialog(
                        screen,
                        self.title(premiere),
                        self.t("premiere_body", when=self.premiere_when(premiere)),
                        [(self.t("ok"), close)],
                        close,
                    )
                )
