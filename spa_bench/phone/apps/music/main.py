"""The Music app's library (`com.android.music.MusicActivity`): tabs for songs, albums, playlists and
liked songs, a search button, and the mini player of what is playing."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.base import TabbedActivity
from spa_bench.phone.apps.music.base import ALBUM, PLAYLIST, RID, SEARCH, MusicActivity, art
from spa_bench.phone.apps.music.store import Track
from spa_bench.phone.apps.shop.widgets import title_with_search
from spa_bench.phone.ui import FRAME, LINEAR, ImageView, Rect, TextView, View
from spa_bench.phone.ui.fonts import text_width

TABS = ("songs", "albums", "playlists", "liked")


class MusicMainActivity(TabbedActivity, MusicActivity):
    name = "com.android.music.MusicActivity"
    first_tab = "songs"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "main", bg=p.background)
        for view in title_with_search(kit, area, self.t("app_name"), size_dp=28, color=p.on_surface, rid=RID,
                                      search_desc=self.t("search"),
                                      on_search=lambda: self.ctx.start_activity(SEARCH, {"focus": "1"})):
            root.add(view)
        tabs_top = area.top + kit.dp(64)
        root.add(self._tabs(Rect(area.left, tabs_top, area.right, tabs_top + kit.dp(48))))
        mini, mini_h = self.mini_player(area)
        body = Rect(area.left, tabs_top + kit.dp(48), area.right, area.bottom - mini_h)
        rows, anchors = self._rows(body)
        lst = self.scroll_list(body, rows, rid=RID + "list", padding_bottom=kit.dp(8))
        root.add(lst)
        if mini is not None:
            root.add(mini)
        target = str(self.menu_target() or "")
        if target.startswith("t:") and target in anchors:
            track = self.app.store.tracks()[int(target[2:])]
            root.add(
                self.context_menu(body, anchors[target].bounds, self.track_menu_items(track), cover=area)
            )
        dialog = self.dialogs(area)
        if dialog is not None:
            root.add(dialog)
        return root

    def _tabs(self, rect: Rect) -> View:
        kit = self.kit
        p = kit.palette
        bar = View(rect, class_name="android.widget.HorizontalScrollView", rid=RID + "tabs")
        w = rect.width // len(TABS)
        for i, key in enumerate(TABS):
            cell = Rect(rect.left + i * w, rect.top, rect.left + (i + 1) * w, rect.bottom)
            selected = key == self.tab
            tab = View(
                cell,
                class_name=LINEAR,
                rid=RID + f"tab_{key}",
                desc=self.t(f"tab_{key}"),
                on_click=partial(self.switch, key),
                selected=selected,
            )
            label = self.t(f"tab_{key}")
            tab.add(
                TextView(
                    cell,
                    label,
                    kit.body_medium,
                    p.primary if selected else p.on_surface_variant,
                    align="center",
                    bold=selected,
                )
            )
            if selected:
                half = round(text_width(label, kit.body_medium) / 2) + kit.dp(4)
                cx = cell.center[0]
                tab.add(
                    View(
                        Rect(cx - half, cell.bottom - kit.dp(3), cx + half, cell.bottom),
                        bg=p.primary,
                        radius=kit.dp(2),
                    )
                )
            bar.add(tab)
        bar.add(View(Rect(rect.left, rect.bottom - 1, rect.right, rect.bottom), bg=p.divider))
        return bar

    def _rows(self, body: Rect) -> tuple[list[View], dict[str, View]]:
        """The tab's rows, and the song rows by menu key (where a long press anchors its menu)."""
        kit = self.kit
        p = kit.palette
        rows: list[View] = []
        anchors: dict[str, View] = {}
        y = body.top
        current = self.app.store.playback().track_id

        def songs(tracks: list[Track]) -> None:
            nonlocal y
            for i, track in enumerate(tracks):
                row = self.track_row(
                    body, y, track, partial(self.play, tracks, i), current=track.id == current
                )
                rows.append(row)
                anchors[f"t:{track.id}"] = row
                y = row.bounds.bottom

        if self.tab == "songs":
            tracks = self.app.store.songs()
            row = kit.list_item(
                body,
                y,
                self.t("shuffle_all"),
                self.t("songs_count", n=len(tracks)),
                icon="shuffle",
                hue="blue",
                on_click=self._shuffle_all,
                rid=RID + "shuffle_all",
            )
            rows.append(row)
            y = row.bounds.bottom
            songs(tracks)
        elif self.tab == "liked":
            tracks = self.app.store.liked()
            if not tracks:
                rows.append(self._empty(body, self.t("liked_empty")))
            songs(tracks)
        elif self.tab == "albums":
            for album in self.app.store.albums():
                h = kit.dp(76)
                row = View(
                    Rect(body.left, y, body.right, y + h),
                    class_name=LINEAR,
                    rid=RID + "album_item",
                    on_click=partial(self.ctx.start_activity, ALBUM, {"album_id": album.id}),
                )
                s = kit.dp(56)
                row.add(
                    art(
                        Rect(
                            body.left + kit.dp(16),
                            y + kit.dp(10),
                            body.left + kit.dp(16) + s,
                            y + kit.dp(10) + s,
                        ),
                        album.id,
                        p.dark,
                        kit.dp(8),
                    )
                )
                left = body.left + kit.dp(88)
                row.add(
                    TextView(
                        Rect(left, y + kit.dp(12), body.right - kit.dp(16), y + kit.dp(40)),
                        album.title,
                        kit.body_large,
                        p.on_surface,
                        rid=RID + "album_title",
                    )
                )
                row.add(
                    TextView(
                        Rect(left, y + kit.dp(40), body.right - kit.dp(16), y + kit.dp(64)),
                        f"{album.artist} · {album.year}",
                        kit.body_medium,
                        p.on_surface_variant,
                        rid=RID + "album_artist",
                    )
                )
                rows.append(row)
                y += h
        else:
            row = View(
                Rect(body.left, y, body.right, y + kit.dp(64)),
                class_name=LINEAR,
                rid=RID + "new_playlist",
                on_click=self.ask_new_playlist,
            )
            s = kit.dp(48)
            row.add(
                ImageView(
                    Rect(body.left + kit.dp(16), y + kit.dp(8), body.left + kit.dp(16) + s, y + kit.dp(56)),
                    "plus",
                    p.on_primary_container,
                    circle=p.primary_container,
                    scale=0.5,
                )
            )
            row.add(
                TextView(
                    Rect(body.left + kit.dp(80), y, body.right, y + kit.dp(64)),
                    self.t("new_playlist"),
                    kit.body_large,
                    p.primary,
                )
            )
            rows.append(row)
            y += kit.dp(64)
            for pl in self.app.store.playlists():
                item = kit.list_item(
                    body,
                    y,
                    pl.name,
                    self.t("songs_count", n=len(pl.track_ids)),
                    icon="playlist",
                    hue="purple",
                    rid=RID + "playlist_item",
                    on_click=partial(self.ctx.start_activity, PLAYLIST, {"playlist_id": pl.id}),
                )
                rows.append(item)
                y = item.bounds.bottom
        return rows, anchors

    def _shuffle_all(self) -> None:
        tracks = self.app.store.songs()
        now = self.now_ms()
        self.app.store.set_shuffle(True, now)
        self.app.store.play([t.id for t in tracks], (now // 1000) % len(tracks), now)
        self.ctx.invalidate()

    def _empty(self, area: Rect, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, area.top + kit.dp(48), area.right, area.top + kit.dp(96)),
            text,
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )
