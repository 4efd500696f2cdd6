"""The Video app's watch page (`com.spa.video.PlayerActivity`): the player (play/pause, back and forward
ten seconds, a seek bar, captions drawn over the picture), then the title, the action row (like, watch
later, share, speed, captions), the channel and the comments with a field to post one."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.shop.widgets import chip
from spa_bench.phone.apps.video.base import GLYPHS, RID, VideoActivity
from spa_bench.phone.apps.video.seed import SPEEDS
from spa_bench.phone.apps.video.store import Video
from spa_bench.phone.apps.video.strings import clock, count
from spa_bench.phone.ui import FRAME, LINEAR, Button, ImageView, Rect, SeekBar, TextView, View
from spa_bench.phone.ui.fonts import text_width

SEEK_STEP_MS = 10_000
CAPTION_LINES = {
    "en": "Hi everyone, and welcome back!",
    "zh": "大家好，欢迎回来！",
    "ja": "皆さん、こんにちは！",
}
SEARCH_SPEED_IDS = {s: f"speed_{round(s * 100):03d}" for s in SPEEDS}


def speed_label(speed: float) -> str:
    return f"{speed:g}x"


class PlayerActivity(VideoActivity):
    name = "com.spa.video.PlayerActivity"

    @property
    def video(self) -> Video | None:
        return self.app.store.videos().get(str(self.record.args.get("vid", "")))

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "player_screen", bg=p.background)
        video = self.video
        if video is None:
            return root
        now = self.now_ms()
        pl = self.app.store.current(now)
        if pl.vid != video.vid:  # opened from outside (e.g. a link): start it here
            self.app.store.open(video.vid, now)
            pl = self.app.store.current(now)
        video_h = area.width * 9 // 16
        stage = Rect(area.left, area.top, area.right, area.top + video_h)
        root.add(self._stage(stage, video, pl.state == "playing", pl.position_at(now) // 1000))
        body = Rect(area.left, stage.bottom, area.right, area.bottom)
        rows = self._details(body, video)
        root.add(self.scroll_list(body, rows, rid=RID + "details", padding_bottom=kit.dp(16)))
        dialog = self._dialog(area, video)
        if dialog is not None:
            root.add(dialog)
        return root

    # -- the picture and its controls -----------------------------------------------------------------
    def _stage(self, rect: Rect, video: Video, playing: bool, pos_s: int) -> View:
        kit = self.kit
        white = (255, 255, 255)
        stage = View(rect, class_name=FRAME, rid=RID + "player", bg=(16, 16, 18))
        cx, cy = rect.center
        g = kit.dp(28)
        stage.add(
            ImageView(
                Rect(
                    rect.left + kit.dp(12),
                    rect.top + kit.dp(10),
                    rect.left + kit.dp(12) + g,
                    rect.top + kit.dp(10) + g,
                ),
                GLYPHS[video.category],
                (150, 150, 160),
            )
        )
        b, big = kit.dp(56), kit.dp(68)
        stage.add(
            ImageView(
                Rect(cx - kit.dp(110) - b // 2, cy - b // 2, cx - kit.dp(110) + b // 2, cy + b // 2),
                "replay_10",
                white,
                desc=self.t("rewind"),
                rid=RID + "rewind",
                on_click=partial(self._seek_by, -SEEK_STEP_MS),
                circle=(0, 0, 0, 90),  # type: ignore[arg-type]
                scale=0.55,
            )
        )
        stage.add(
            ImageView(
                Rect(cx - big // 2, cy - big // 2, cx + big // 2, cy + big // 2),
                "pause" if playing else "play",
                white,
                desc=self.t("pause" if playing else "play"),
                rid=RID + "play_pause",
                on_click=self._toggle,
                circle=(0, 0, 0, 110),  # type: ignore[arg-type]
                scale=0.5,
            )
        )
        stage.add(
            ImageView(
                Rect(cx + kit.dp(110) - b // 2, cy - b // 2, cx + kit.dp(110) + b // 2, cy + b // 2),
                "forward_10",
                white,
                desc=self.t("forward"),
                rid=RID + "forward",
                on_click=partial(self._seek_by, SEEK_STEP_MS),
                circle=(0, 0, 0, 90),  # type: ignore[arg-type]
                scale=0.55,
            )
        )
        player = self.app.store.player()
        if player.subtitles_on and player.subtitle_lang in video.subtitles:
            line = CAPTION_LINES[player.subtitle_lang]
            w = round(text_width(line, kit.body_medium)) + kit.dp(16)
            cap = View(
                Rect(cx - w // 2, rect.bottom - kit.dp(80), cx + w // 2, rect.bottom - kit.dp(54)),
                class_name=FRAME,
                bg=(0, 0, 0, 170),  # type: ignore[arg-type]
            )
            cap.add(
                TextView(cap.bounds, line, kit.body_medium, white, align="center", rid=RID + "subtitle_text")
            )
            stage.add(cap)
        stage.add(
            TextView(
                Rect(
                    rect.left + kit.dp(12),
                    rect.bottom - kit.dp(48),
                    rect.right - kit.dp(12),
                    rect.bottom - kit.dp(28),
                ),
                f"{clock(pos_s)} / {clock(video.duration_s)}",
                kit.label,
                white,
                rid=RID + "position",
            )
        )
        if player.speed != 1.0:
            stage.add(
                TextView(
                    Rect(
                        rect.right - kit.dp(80),
                        rect.top + kit.dp(8),
                        rect.right - kit.dp(12),
                        rect.top + kit.dp(30),
                    ),
                    speed_label(player.speed),
                    kit.label,
                    white,
                    align="right",
                    rid=RID + "speed_badge",
                )
            )
        stage.add(
            SeekBar(
                Rect(rect.left, rect.bottom - kit.dp(24), rect.right, rect.bottom),
                pos_s,
                video.duration_s,
                on_set=lambda s: self._seek_to(s * 1000),
                active=(230, 40, 40),
                inactive=(90, 90, 96),
                desc=self.t("seek"),
                rid=RID + "seek_bar",
            )
        )
        return stage

    # -- below the picture ------------------------------------------------------------------------------
    def _details(self, body: Rect, video: Video) -> list[View]:
        kit = self.kit
        p = kit.palette
        store = self.app.store
        locale = self.ctx.locale
        rows: list[View] = []
        pad = kit.dp(16)
        y = body.top + kit.dp(12)
        title = self.title(video)
        th = TextView.wrapped_height(title, kit.dp(18), body.width - 2 * pad, 3)
        rows.append(
            TextView(
                Rect(body.left + pad, y, body.right - pad, y + th),
                title,
                kit.dp(18),
                p.on_surface,
                rid=RID + "player_title",
                bold=True,
                max_lines=3,
            )
        )
        y += th + kit.dp(4)
        meta = f"{self.t('views', n=count(video.views, locale))} · {self.age(video)}"
        rows.append(
            TextView(
                Rect(body.left + pad, y, body.right - pad, y + kit.dp(22)),
                meta,
                kit.label,
                p.on_surface_variant,
                rid=RID + "player_meta",
            )
        )
        y += kit.dp(32)
        liked = store.is_in("likes", video.vid)
        later = store.is_in("watch_later", video.vid)
        player = store.player()
        captions = self.t(f"lang_{player.subtitle_lang}") if player.subtitles_on else self.t("captions")
        actions = (
            ("like", self.t("liked") if liked else self.t("like"), liked, self._like),
            ("watch_later", self.t("saved") if later else self.t("watch_later"), later, self._later),
            ("share", self.t("share"), False, partial(self.share, video)),
            (
                "speed",
                speed_label(player.speed) if player.speed != 1.0 else self.t("speed"),
                player.speed != 1.0,
                self.setter("dialog", "speed"),
            ),
            ("captions", captions, player.subtitles_on, self.setter("dialog", "captions")),
        )
        x = body.left + pad
        for rid, label, on, action in actions:
            c = chip(kit, x, y, label, on, action, rid=RID + rid)
            if c.bounds.right > body.right - pad:
                x, y = body.left + pad, y + kit.dp(44)
                c = chip(kit, x, y, label, on, action, rid=RID + rid)
            rows.append(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(52)
        channel = video.channel
        rows.append(
            TextView(
                Rect(body.left + pad, y, body.right - pad, y + kit.dp(26)),
                channel.name(self.ctx.content_locale),
                kit.body_large,
                p.on_surface,
                rid=RID + "channel_name",
            )
        )
        rows.append(
            TextView(
                Rect(body.left + pad, y + kit.dp(26), body.right - pad, y + kit.dp(46)),
                self.t("subscribers", n=count(channel.subscribers, locale)),
                kit.label,
                p.on_surface_variant,
                rid=RID + "channel_subscribers",
            )
        )
        y += kit.dp(58)
        rows.append(View(Rect(body.left, y, body.right, y + 1), bg=p.divider))
        y += kit.dp(12)
        comments = store.comments(video.vid)
        rows.append(
            TextView(
                Rect(body.left + pad, y, body.right - pad, y + kit.dp(28)),
                self.t("comments", n=len(comments)),
                kit.body_large,
                p.on_surface,
                rid=RID + "comments_title",
                bold=True,
            )
        )
        y += kit.dp(36)
        field = self.text_field(
            Rect(body.left + pad, y, body.right - kit.dp(96), y + kit.dp(48)),
            "comment",
            self.t("add_comment"),
            rid=RID + "comment_input",
            on_submit=self._post,
        )
        rows.append(field)
        rows.append(
            Button(
                Rect(body.right - kit.dp(88), y + kit.dp(4), body.right - pad, y + kit.dp(44)),
                self.t("post"),
                kit.body_medium,
                p.on_primary,
                p.primary,
                on_click=self._post,
                rid=RID + "post_comment",
            )
        )
        y += kit.dp(60)
        for comment in comments:
            h = TextView.wrapped_height(comment.body, kit.body_medium, body.width - 2 * pad, 4)
            item = View(
                Rect(body.left, y, body.right, y + h + kit.dp(34)),
                class_name=LINEAR,
                rid=RID + "comment_item",
            )
            author = self.t("you") if comment.mine else comment.author
            item.add(
                TextView(
                    Rect(body.left + pad, y, body.right - pad, y + kit.dp(22)),
                    author,
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "comment_author",
                )
            )
            item.add(
                TextView(
                    Rect(body.left + pad, y + kit.dp(22), body.right - pad, y + kit.dp(22) + h),
                    comment.body,
                    kit.body_medium,
                    p.on_surface,
                    rid=RID + "comment_body",
                    max_lines=4,
                )
            )
            rows.append(item)
            y = item.bounds.bottom
        return rows

    # -- dialogs --------------------------------------------------------------------------------------
    def _dialog(self, area: Rect, video: Video) -> View | None:
        kit = self.kit
        p = kit.palette
        dialog = self.ui("dialog")
        close = self.setter("dialog", None)
        player = self.app.store.player()
        if dialog == "speed":
            options = [
                (
                    SEARCH_SPEED_IDS[s],
                    self.t("normal") if s == 1.0 else speed_label(s),
                    s == player.speed,
                    partial(self._speed, s),
                )
                for s in SPEEDS
            ]
            title = self.t("playback_speed")
        elif dialog == "captions":
            options = [
                (
                    "captions_off",
                    self.t("subtitles_off"),
                    not player.subtitles_on,
                    partial(self._captions, ""),
                )
            ]
            options += [
                (
                    f"captions_{lang}",
                    self.t(f"lang_{lang}"),
                    player.subtitles_on and player.subtitle_lang == lang,
                    partial(self._captions, lang),
                )
                for lang in video.subtitles
            ]
            title = self.t("captions")
        else:
            return None
        width = area.width - kit.dp(96)
        row_h = kit.dp(48)
        views: list[View] = []
        for i, (rid, label, selected, action) in enumerate(options):
            top = i * row_h
            row = View(
                Rect(0, top, width, top + row_h),
                class_name=LINEAR,
                rid=RID + rid,
                on_click=action,
                checkable=True,
                checked=selected,
                text=label,
            )
            s = kit.dp(20)
            ring = Rect(0, top + (row_h - s) // 2, s, top + (row_h + s) // 2)
            row.add(View(ring, bg=p.primary if selected else p.outline, radius=s // 2))
            row.add(View(ring.inset(kit.dp(3), kit.dp(3)), bg=p.surface_high, radius=s // 2))
            if selected:
                row.add(View(ring.inset(kit.dp(6), kit.dp(6)), bg=p.primary, radius=s // 2))
            row.add(TextView(Rect(kit.dp(36), top, width, top + row_h), label, kit.body_large, p.on_surface))
            views.append(row)
        return kit.dialog(
            area, title, views, [(self.t("cancel"), close)], close, body_height=len(options) * row_h
        )

    def on_back(self) -> bool:
        """Leaving the watch page pauses the video (its place is kept in the history)."""
        if super().on_back():
            return True
        if self.app.store.current(self.now_ms()).state == "playing":
            self.app.store.toggle_play(self.now_ms())
        return False

    # -- actions --------------------------------------------------------------------------------------
    def _toggle(self) -> None:
        self.app.store.toggle_play(self.now_ms())
        self.ctx.invalidate()

    def _seek_by(self, delta_ms: int) -> None:
        self.app.store.seek_by(delta_ms, self.now_ms())
        self.ctx.invalidate()

    def _seek_to(self, position_ms: int) -> None:
        self.app.store.seek(position_ms, self.now_ms())
        self.ctx.invalidate()

    def _speed(self, speed: float) -> None:
        self.app.store.set_speed(speed, self.now_ms())
        self.set_ui("dialog", None)

    def _captions(self, lang: str) -> None:
        self.app.store.set_subtitles(bool(lang), lang or None)
        self.set_ui("dialog", None)

    def _like(self) -> None:
        video = self.video
        if video is None:
            return
        liked = self.app.store.toggle_like(video.vid, self.now_ms())
        self.ctx.toast(self.t("like_added" if liked else "like_removed"))
        self.ctx.invalidate()

    def _later(self) -> None:
        video = self.video
        if video is not None:
            self.toggle_later(video)

    def _post(self) -> None:
        video = self.video
        body = str(self.ui("text:comment", "")).strip()
        if video is None or not body:
            return
        self.app.store.add_comment(video.vid, self.t("you"), body, self.now_ms())
        self.record.ui["text:comment"] = ""
        self.record.ui.pop("focus", None)
        self.ctx.toast(self.t("comment_posted"))
        self.ctx.invalidate()
