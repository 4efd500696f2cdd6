"""What every Music screen shares: the store, the song row with its menu, the mini player, and the
"add to playlist" / "new playlist" dialogs."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.music.store import Track
from spa_bench.phone.apps.music.strings import mmss
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import LINEAR, Callback, ImageView, Rect, TextView, View, tone
from spa_bench.phone.ui.menu import MenuItem

if TYPE_CHECKING:
    from spa_bench.phone.apps.music import MusicApp

PACKAGE = "com.android.music"
RID = f"{PACKAGE}:id/"
NOW_PLAYING = f"{PACKAGE}.NowPlayingActivity"
ALBUM = f"{PACKAGE}.AlbumActivity"
PLAYLIST = f"{PACKAGE}.PlaylistActivity"
SEARCH = f"{PACKAGE}.SearchActivity"
HUES = ("blue", "purple", "orange", "teal", "pink", "green", "red", "yellow")


def album_hue(album_id: int) -> str:
    return HUES[(album_id - 1) % len(HUES)]


def art(rect: Rect, album_id: int, dark: bool, radius: int) -> View:
    """An album cover stand-in: a note on the album's colour."""
    bg, fg = tone(album_hue(album_id), dark)
    return ImageView(rect, "music_note", fg, circle=bg, rounded=radius, scale=0.5)


class MusicActivity(Activity):
    app: MusicApp

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    # -- actions --------------------------------------------------------------------------------------
    def play(self, queue: list[Track], index: int) -> None:
        self.app.store.play([t.id for t in queue], index, self.now_ms())
        self.ctx.invalidate()

    def like(self, track: Track) -> None:
        liked = self.app.store.toggle_like(track.id, self.now_ms())
        self.ctx.toast(self.t("liked_toast" if liked else "unliked_toast"))
        self.ctx.invalidate()

    def ask_playlist(self, track_id: int) -> None:
        self.set_ui("dialog", f"add:{track_id}")

    def add_to(self, playlist_id: int, track_id: int) -> None:
        playlist = self.app.store.playlist(playlist_id)
        self.set_ui("dialog", None)
        if playlist is None:
            return
        added = self.app.store.add_to_playlist(playlist_id, track_id)
        self.ctx.toast(self.t("added_to" if added else "already_in", name=playlist.name))

    def ask_new_playlist(self, track_id: int = 0) -> None:
        self.record.ui["text:playlist_name"] = ""
        self.set_ui("dialog", f"create:{track_id}")
        self.request_focus("playlist_name")

    def create_playlist(self, track_id: int) -> None:
        name = str(self.ui("text:playlist_name", "")).strip()
        if not name:
            return
        new_id = self.app.store.create_playlist(name, self.now_ms())
        if track_id:
            self.app.store.add_to_playlist(new_id, track_id)
            self.ctx.toast(self.t("added_to", name=name))
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)

    # -- views ----------------------------------------------------------------------------------------
    def track_menu_items(self, track: Track) -> list[MenuItem]:
        liked = self.app.store.is_liked(track.id)
        return [
            MenuItem(self.t("unlike" if liked else "like"), partial(self.like, track), RID + "menu_like"),
            MenuItem(
                self.t("add_to_playlist"), partial(self.ask_playlist, track.id), RID + "menu_add_to_playlist"
            ),
            MenuItem(
                self.t("go_to_album"),
                partial(self.ctx.start_activity, ALBUM, {"album_id": track.album_id}),
                RID + "menu_album",
            ),
        ]

    def track_row(
        self,
        area: Rect,
        top: int,
        track: Track,
        on_click: Callback,
        *,
        number: int = 0,
        current: bool = False,
    ) -> View:
        """A song: cover (or its number on an album page), title, artist · album, duration, ⋮ button."""
        kit = self.kit
        p = kit.palette
        h = kit.dp(68)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "track_item",
            on_click=on_click,
            on_long_click=self.open_menu(f"t:{track.id}"),
            selected=current,
        )
        pad = kit.dp(16)
        s = kit.dp(48)
        cy = top + h // 2
        if number:
            row.add(
                TextView(
                    Rect(area.left + pad, cy - s // 2, area.left + pad + s, cy + s // 2),
                    str(number),
                    kit.body_large,
                    p.primary if current else p.on_surface_variant,
                    align="center",
                )
            )
        else:
            row.add(
                art(
                    Rect(area.left + pad, cy - s // 2, area.left + pad + s, cy + s // 2),
                    track.album_id,
                    p.dark,
                    kit.dp(8),
                )
            )
        left = area.left + pad + s + kit.dp(16)
        right = area.right - kit.dp(112)
        row.add(
            TextView(
                Rect(left, top + kit.dp(10), right, top + kit.dp(36)),
                track.title,
                kit.body_large,
                p.primary if current else p.on_surface,
                rid=RID + "track_title",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(36), right, top + kit.dp(58)),
                f"{track.artist} · {track.album}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "track_subtitle",
            )
        )
        row.add(
            TextView(
                Rect(right, top, area.right - kit.dp(56), top + h),
                mmss(track.duration_s),
                kit.body_medium,
                p.on_surface_variant,
                align="right",
                rid=RID + "track_duration",
            )
        )
        b = kit.dp(48)
        row.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(52), cy - b // 2, area.right - kit.dp(4), cy + b // 2),
                "more_vert",
                self.t("more_options"),
                self.open_menu(f"t:{track.id}"),
                rid=RID + "track_more",
            )
        )
        return row

    def mini_player(self, area: Rect) -> tuple[View | None, int]:
        """The bar above the bottom edge while something is loaded: (view, height)."""
        kit = self.kit
        p = kit.palette
        pb = self.app.store.current(self.now_ms())
        if pb.track_id is None:
            return None, 0
        track = self.app.store.tracks()[pb.track_id]
        h = kit.dp(72)
        rect = Rect(area.left + kit.dp(8), area.bottom - h, area.right - kit.dp(8), area.bottom - kit.dp(8))
        bar = View(
            rect,
            class_name=LINEAR,
            rid=RID + "mini_player",
            bg=p.primary_container,
            radius=kit.dp(12),
            on_click=lambda: self.ctx.start_activity(NOW_PLAYING),
        )
        s = kit.dp(44)
        cy = rect.center[1]
        bar.add(
            art(
                Rect(rect.left + kit.dp(8), cy - s // 2, rect.left + kit.dp(8) + s, cy + s // 2),
                track.album_id,
                p.dark,
                kit.dp(6),
            )
        )
        left = rect.left + s + kit.dp(20)
        right = rect.right - kit.dp(104)
        bar.add(
            TextView(
                Rect(left, rect.top + kit.dp(6), right, cy + kit.dp(2)),
                track.title,
                kit.body_large,
                p.on_primary_container,
                rid=RID + "mini_title",
            )
        )
        bar.add(
            TextView(
                Rect(left, cy, right, rect.bottom - kit.dp(6)),
                track.artist,
                kit.body_medium,
                p.on_primary_container,
                rid=RID + "mini_artist",
            )
        )
        b = kit.dp(48)
        playing = pb.state == "playing"
        bar.add(
            ImageView(
                Rect(rect.right - kit.dp(100), cy - b // 2, rect.right - kit.dp(52), cy + b // 2),
                "pause" if playing else "play",
                p.on_primary_container,
                desc=self.t("pause" if playing else "play"),
                rid=RID + "mini_play_pause",
                on_click=self._toggle,
                circle=p.primary_container,
                scale=0.55,
            )
        )
        bar.add(
            ImageView(
                Rect(rect.right - kit.dp(52), cy - b // 2, rect.right - kit.dp(4), cy + b // 2),
                "skip_next",
                p.on_primary_container,
                desc=self.t("next"),
                rid=RID + "mini_next",
                on_click=partial(self._skip, 1),
                circle=p.primary_container,
                scale=0.55,
            )
        )
        return bar, h

    def _toggle(self) -> None:
        self.app.store.toggle_play(self.now_ms())
        self.ctx.invalidate()

    def _skip(self, delta: int) -> None:
        self.app.store.skip(delta, self.now_ms())
        self.ctx.invalidate()

    def dialogs(self, area: Rect) -> View | None:
        """The open dialog, if any: choose a playlist for a song, or name a new playlist."""
        kit = self.kit
        p = kit.palette
        dialog = str(self.ui("dialog", ""))
        close = self.setter("dialog", None)
        if dialog.startswith("add:"):
            track_id = int(dialog[4:])
            width = area.width - kit.dp(96)
            rows: list[View] = []
            y = 0
            row_h = kit.dp(52)
            options = [
                (pl.name, partial(self.add_to, pl.id, track_id), "playlist_option")
                for pl in self.app.store.playlists()
            ]
            options.append(
                (self.t("new_playlist"), partial(self.ask_new_playlist, track_id), "new_playlist_option")
            )
            for name, action, rid in options:
                row = View(Rect(0, y, width, y + row_h), class_name=LINEAR, rid=RID + rid, on_click=action)
                glyph = "plus" if rid == "new_playlist_option" else "playlist"
                row.add(
                    ImageView(
                        Rect(0, y + kit.dp(12), kit.dp(28), y + kit.dp(40)), glyph, p.on_surface_variant
                    )
                )
                row.add(
                    TextView(
                        Rect(kit.dp(44), y, width, y + row_h),
                        name,
                        kit.body_large,
                        p.on_surface,
                        rid=RID + "playlist_option_name",
                    )
                )
                rows.append(row)
                y += row_h
            return kit.dialog(
                area, self.t("add_to_playlist"), rows, [(self.t("cancel"), close)], close, body_height=y
            )
        if dialog.startswith("create:"):
            track_id = int(dialog[7:])
            width = area.width - kit.dp(96)
            field = self.text_field(
                Rect(0, 0, width, kit.dp(52)),
                "playlist_name",
                self.t("playlist_name"),
                rid=RID + "playlist_name",
                on_submit=partial(self.create_playlist, track_id),
            )
            return kit.dialog(
                area,
                self.t("new_playlist"),
                [field],
                [(self.t("cancel"), close), (self.t("create"), partial(self.create_playlist, track_id))],
                close,
                body_height=kit.dp(52),
            )
        return None
