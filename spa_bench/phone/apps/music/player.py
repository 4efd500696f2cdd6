"""The Music app's full player (`com.android.music.NowPlayingActivity`): cover, title, like, the seek bar
with position and length, and the transport row (shuffle, previous, play/pause, next, repeat)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.music.base import RID, MusicActivity, art
from spa_bench.phone.apps.music.strings import mmss
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, Button, Callback, ImageView, Rect, SeekBar, TextView, View


class NowPlayingActivity(MusicActivity):
    name = "com.android.music.NowPlayingActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        store = self.app.store
        now = self.now_ms()
        pb = store.current(now)
        root = View(area, class_name=FRAME, rid=RID + "now_playing", bg=p.background)
        bar, bar_h = kit.app_bar(area, self.t("now_playing"), self.ctx.finish, package="com.android.music")
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if pb.track_id is None:
            root.add(
                TextView(
                    Rect(area.left, area.top + kit.dp(200), area.right, area.top + kit.dp(240)),
                    self.t("nothing_playing"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
            return root
        track = store.tracks()[pb.track_id]
        pad = kit.dp(32)
        top = area.top + bar_h + kit.dp(16)
        # the cover gives way on a short screen: the title, seek bar and controls below it take 274 dp
        below = kit.dp(24 + 80 + 34 + 40 + 72 + 24)
        side = max(kit.dp(96), min(area.width - 2 * pad, kit.dp(300), area.bottom - top - below))
        cx = area.center[0]
        root.add(
            art(Rect(cx - side // 2, top, cx + side // 2, top + side), track.album_id, p.dark, kit.dp(20))
        )
        y = top + side + kit.dp(24)
        s = kit.dp(48)
        liked = store.is_liked(track.id)
        root.add(
            TextView(
                Rect(area.left + pad, y, area.right - pad - s, y + kit.dp(36)),
                track.title,
                kit.dp(24),
                p.on_surface,
                rid=RID + "np_title",
                bold=True,
            )
        )
        root.add(
            TextView(
                Rect(area.left + pad, y + kit.dp(36), area.right - pad - s, y + kit.dp(62)),
                f"{track.artist} · {track.album}",
                kit.body_large,
                p.on_surface_variant,
                rid=RID + "np_artist",
            )
        )
        heart = icon_button(
            kit,
            Rect(
                area.right - pad - s + kit.dp(8),
                y + kit.dp(6),
                area.right - pad + kit.dp(8),
                y + kit.dp(6) + s,
            ),
            "heart_filled" if liked else "heart",
            self.t("unlike" if liked else "like"),
            partial(self.like, track),
            rid=RID + "like",
            color=p.error if liked else None,
        )
        heart.checkable, heart.checked = True, liked
        root.add(heart)
        y += kit.dp(80)
        pos_s = min(track.duration_s, pb.position_at(now) // 1000)
        root.add(
            SeekBar(
                Rect(area.left + pad - kit.dp(8), y, area.right - pad + kit.dp(8), y + kit.dp(32)),
                pos_s,
                track.duration_s,
                on_set=self._seek,
                active=p.primary,
                inactive=p.surface_high,
                desc=self.t("seek"),
                rid=RID + "seek_bar",
            )
        )
        y += kit.dp(34)
        root.add(
            TextView(
                Rect(area.left + pad, y, cx, y + kit.dp(22)),
                mmss(pos_s),
                kit.label,
                p.on_surface_variant,
                rid=RID + "position",
            )
        )
        root.add(
            TextView(
                Rect(cx, y, area.right - pad, y + kit.dp(22)),
                mmss(track.duration_s),
                kit.label,
                p.on_surface_variant,
                align="right",
                rid=RID + "duration",
            )
        )
        y += kit.dp(40)
        big = kit.dp(72)
        slot = (area.width - 2 * kit.dp(16)) // 5
        row_cy = y + big // 2
        playing = pb.state == "playing"
        controls: tuple[tuple[str, str, str, Callback, bool | None], ...] = (
            ("shuffle", "shuffle", self.t("shuffle"), self._shuffle, pb.shuffle),
            ("previous", "skip_previous", self.t("previous"), partial(self._skip, -1), None),
            (
                "play_pause",
                "pause" if playing else "play",
                self.t("pause" if playing else "play"),
                self._toggle,
                None,
            ),
            ("next", "skip_next", self.t("next"), partial(self._skip, 1), None),
            (
                "repeat",
                "repeat_one" if pb.repeat == "one" else "repeat",
                self.t(f"repeat_{pb.repeat}"),
                self._repeat,
                pb.repeat != "off",
            ),
        )
        for i, (rid, glyph, desc, action, toggled) in enumerate(controls):
            c = area.left + kit.dp(16) + slot * i + slot // 2
            size = big if rid == "play_pause" else kit.dp(52)
            rect = Rect(c - size // 2, row_cy - size // 2, c + size // 2, row_cy + size // 2)
            if rid == "play_pause":
                view = ImageView(
                    rect,
                    glyph,
                    p.on_primary,
                    circle=p.primary,
                    desc=desc,
                    rid=RID + rid,
                    on_click=action,
                    scale=0.45,
                )
            else:
                color = p.primary if toggled else p.on_surface_variant
                view = icon_button(kit, rect, glyph, desc, action, rid=RID + rid, color=color)
                if toggled is not None:
                    view.checkable, view.checked = True, bool(toggled)
            root.add(view)
        y += big + kit.dp(24)
        root.add(
            Button(
                Rect(cx - kit.dp(100), y, cx + kit.dp(100), y + kit.dp(44)),
                self.t("add_to_playlist"),
                kit.body_medium,
                p.primary,
                None,
                outline=p.outline,
                rid=RID + "add_to_playlist",
                on_click=partial(self.ask_playlist, track.id),
            )
        )
        dialog = self.dialogs(area)
        if dialog is not None:
            root.add(dialog)
        return root

    def _seek(self, seconds: int) -> None:
        self.app.store.seek(seconds * 1000, self.now_ms())
        self.ctx.invalidate()

    def _shuffle(self) -> None:
        on = not self.app.store.playback().shuffle
        self.app.store.set_shuffle(on, self.now_ms())
        self.ctx.toast(self.t("shuffle_on" if on else "shuffle_off"))
        self.ctx.invalidate()

    def _repeat(self) -> None:
        mode = self.app.store.cycle_repeat(self.now_ms())
        self.ctx.toast(self.t(f"repeat_{mode}"))
        self.ctx.invalidate()
