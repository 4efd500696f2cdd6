"""The Music app's list screens below the library: an album, a playlist (play, rename, delete, reorder and
remove songs) and search."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.music.base import RID, MusicActivity, art
from spa_bench.phone.apps.music.store import Track
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import FRAME, Button, Rect, TextView, View
from spa_bench.phone.ui.menu import MenuItem


class _ListScreen(MusicActivity):
    """An app bar, a header, song rows with their menu, the mini player and the dialogs."""

    def title_text(self) -> str:
        raise NotImplementedError

    def tracks(self) -> list[Track]:
        raise NotImplementedError

    def header(self, area: Rect, top: int) -> list[View]:
        return []

    def bar_actions(self, bar: View, area: Rect) -> None:
        """Icon buttons at the right of the app bar."""

    def menu_items(self, track: Track) -> list[MenuItem]:
        return self.track_menu_items(track)

    def extra_dialog(self, area: Rect) -> View | None:
        return None

    def numbered(self) -> bool:
        return False

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "list_screen", bg=p.background)
        bar, bar_h = kit.app_bar(area, self.title_text(), self.ctx.finish, package="com.android.music")
        bar.children[0].desc = self.t("navigate_up")
        self.bar_actions(bar, area)
        root.add(bar)
        mini, mini_h = self.mini_player(area)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom - mini_h)
        rows = self.header(body, body.top)
        y = max((r.bounds.bottom for r in rows), default=body.top)
        tracks = self.tracks()
        current = self.app.store.playback().track_id
        anchors: dict[str, View] = {}
        for i, track in enumerate(tracks):
            row = self.track_row(
                body,
                y,
                track,
                partial(self.play, tracks, i),
                number=(track.track_no if self.numbered() else 0),
                current=track.id == current,
            )
            rows.append(row)
            anchors[f"t:{track.id}"] = row
            y = row.bounds.bottom
        root.add(self.scroll_list(body, rows, rid=RID + "list", padding_bottom=kit.dp(8)))
        if mini is not None:
            root.add(mini)
        target = str(self.menu_target() or "")
        if target in anchors:
            track = self.app.store.tracks()[int(target[2:])]
            root.add(self.context_menu(body, anchors[target].bounds, self.menu_items(track), cover=area))
        dialog = self.dialogs(area) or self.extra_dialog(area)
        if dialog is not None:
            root.add(dialog)
        return root

    def play_button(self, area: Rect, top: int, tracks: list[Track]) -> View:
        kit = self.kit
        p = kit.palette
        return Button(
            Rect(area.left + kit.dp(16), top, area.left + kit.dp(156), top + kit.dp(44)),
            self.t("play_all"),
            kit.body_medium,
            p.on_primary,
            p.primary,
            rid=RID + "play_all",
            on_click=(partial(self.play, tracks, 0) if tracks else None),
            enabled=bool(tracks),
        )


class AlbumActivity(_ListScreen):
    name = "com.android.music.AlbumActivity"

    @property
    def album_id(self) -> int:
        return int(self.record.args.get("album_id", 0))

    def title_text(self) -> str:
        album = next((a for a in self.app.store.albums() if a.id == self.album_id), None)
        return album.title if album else ""

    def tracks(self) -> list[Track]:
        return self.app.store.album_tracks(self.album_id)

    def numbered(self) -> bool:
        return True

    def header(self, area: Rect, top: int) -> list[View]:
        kit = self.kit
        p = kit.palette
        album = next((a for a in self.app.store.albums() if a.id == self.album_id), None)
        if album is None:
            return []
        s = kit.dp(112)
        views: list[View] = [
            art(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(8), area.left + kit.dp(16) + s, top + kit.dp(8) + s
                ),
                album.id,
                p.dark,
                kit.dp(12),
            )
        ]
        left = area.left + s + kit.dp(32)
        views.append(
            TextView(
                Rect(left, top + kit.dp(16), area.right - kit.dp(16), top + kit.dp(48)),
                album.title,
                kit.title_large,
                p.on_surface,
                rid=RID + "album_title",
            )
        )
        n = len(self.tracks())
        views.append(
            TextView(
                Rect(left, top + kit.dp(48), area.right - kit.dp(16), top + kit.dp(96)),
                self.t("album_info", artist=album.artist, year=album.year, n=n),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "album_info",
                max_lines=2,
            )
        )
        views.append(self.play_button(area, top + s + kit.dp(20), self.tracks()))
        views.append(View(Rect(area.left, top + s + kit.dp(76), area.right, top + s + kit.dp(80))))
        return views


class PlaylistActivity(_ListScreen):
    name = "com.android.music.PlaylistActivity"

    @property
    def playlist_id(self) -> int:
        return int(self.record.args.get("playlist_id", 0))

    def title_text(self) -> str:
        pl = self.app.store.playlist(self.playlist_id)
        return pl.name if pl else ""

    def tracks(self) -> list[Track]:
        pl = self.app.store.playlist(self.playlist_id)
        tracks = self.app.store.tracks()
        return [tracks[t] for t in pl.track_ids if t in tracks] if pl else []

    def bar_actions(self, bar: View, area: Rect) -> None:
        kit = self.kit
        s = kit.dp(48)
        top = area.top + kit.dp(8)
        bar.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(8) - 2 * s, top, area.right - kit.dp(8) - s, top + s),
                "pencil",
                self.t("rename_playlist"),
                self._ask_rename,
                rid=RID + "rename",
            )
        )
        bar.add(
            icon_button(
                kit,
                Rect(area.right - kit.dp(8) - s, top, area.right - kit.dp(8), top + s),
                "delete",
                self.t("delete_playlist"),
                self.setter("dialog", "delete"),
                rid=RID + "delete",
            )
        )
        title = bar.children[1]
        title.bounds = Rect(
            title.bounds.left, title.bounds.top, area.right - kit.dp(8) - 2 * s, title.bounds.bottom
        )

    def header(self, area: Rect, top: int) -> list[View]:
        kit = self.kit
        p = kit.palette
        tracks = self.tracks()
        views: list[View] = [
            TextView(
                Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(32)),
                self.t("songs_count", n=len(tracks)),
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "playlist_count",
            ),
            self.play_button(area, top + kit.dp(36), tracks),
        ]
        if not tracks:
            views.append(
                TextView(
                    Rect(area.left, top + kit.dp(96), area.right, top + kit.dp(140)),
                    self.t("playlist_empty"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        else:
            views.append(View(Rect(area.left, top + kit.dp(88), area.right, top + kit.dp(92))))
        return views

    def menu_items(self, track: Track) -> list[MenuItem]:
        store = self.app.store
        items = [
            MenuItem(self.t("move_up"), partial(self._move, track.id, -1), RID + "menu_move_up"),
            MenuItem(self.t("move_down"), partial(self._move, track.id, 1), RID + "menu_move_down"),
            MenuItem(self.t("remove_from_playlist"), partial(self._remove, track.id), RID + "menu_remove"),
        ]
        liked = store.is_liked(track.id)
        items.append(
            MenuItem(self.t("unlike" if liked else "like"), partial(self.like, track), RID + "menu_like")
        )
        return items

    def _move(self, track_id: int, delta: int) -> None:
        self.app.store.move_in_playlist(self.playlist_id, track_id, delta)
        self.ctx.invalidate()

    def _remove(self, track_id: int) -> None:
        self.app.store.remove_from_playlist(self.playlist_id, track_id)
        self.ctx.invalidate()

    def _ask_rename(self) -> None:
        self.record.ui["text:rename"] = self.title_text()
        self.set_ui("dialog", "rename")
        self.request_focus("rename")

    def _rename(self) -> None:
        name = str(self.ui("text:rename", "")).strip()
        if name:
            self.app.store.rename_playlist(self.playlist_id, name)
        self.record.ui.pop("focus", None)
        self.set_ui("dialog", None)

    def _delete(self) -> None:
        self.app.store.delete_playlist(self.playlist_id)
        self.set_ui("dialog", None)
        self.ctx.finish()

    def extra_dialog(self, area: Rect) -> View | None:
        kit = self.kit
        dialog = self.ui("dialog")
        close = self.setter("dialog", None)
        if dialog == "rename":
            width = area.width - kit.dp(96)
            field = self.text_field(
                Rect(0, 0, width, kit.dp(52)),
                "rename",
                self.t("playlist_name"),
                rid=RID + "playlist_name",
                on_submit=self._rename,
            )
            return kit.dialog(
                area,
                self.t("rename_playlist"),
                [field],
                [(self.t("cancel"), close), (self.t("save"), self._rename)],
                close,
                body_height=kit.dp(52),
            )
        if dialog == "delete":
            return kit.dialog(
                area,
                self.t("delete_playlist"),
                self.t("delete_confirm", name=self.title_text()),
                [(self.t("cancel"), close), (self.t("delete"), self._delete)],
                close,
            )
        return None


class SearchActivity(_ListScreen):
    name = "com.android.music.SearchActivity"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        if (
            self.record.args.get("focus")
            and "focus" not in self.record.ui
            and not self.record.ui.get("opened")
        ):
            self.record.ui["opened"] = True
            self.request_focus("q")

    @property
    def query(self) -> str:
        return str(self.ui("text:q", ""))

    def title_text(self) -> str:
        return ""

    def tracks(self) -> list[Track]:
        return self.app.store.search(self.query)

    def bar_actions(self, bar: View, area: Rect) -> None:
        kit = self.kit
        bar.children.pop(1)  # the title: the search field takes its place
        bar.add(
            self.text_field(
                Rect(
                    area.left + kit.dp(64),
                    area.top + kit.dp(8),
                    area.right - kit.dp(16),
                    area.top + kit.dp(56),
                ),
                "q",
                self.t("search_hint"),
                rid=RID + "search_src_text",
                on_submit=self.ctx.invalidate,
            )
        )

    def header(self, area: Rect, top: int) -> list[View]:
        kit = self.kit
        if self.query.strip() and not self.tracks():
            return [
                TextView(
                    Rect(area.left, top + kit.dp(48), area.right, top + kit.dp(96)),
                    self.t("no_results"),
                    kit.body_large,
                    kit.palette.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            ]
        return []
