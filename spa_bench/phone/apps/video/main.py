"""The Video app's main screen (`com.spa.video.MainActivity`): Home (category chips over the feed, premieres
first) and Library (history, watch later, liked videos), plus the list screen each library entry opens."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.base import TabbedActivity
from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, chip, icon_button, title_with_search
from spa_bench.phone.apps.video.base import RID, SEARCH, VideoActivity
from spa_bench.phone.apps.video.seed import CATEGORIES
from spa_bench.phone.apps.video.store import Video
from spa_bench.phone.ui import FRAME, Rect, TextView, View

LIBRARY = (("history", "history"), ("watch_later", "watch_later"), ("liked_videos", "thumb_up"))


class VideoMainActivity(TabbedActivity, VideoActivity):
    name = "com.spa.video.MainActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "main", bg=p.background)
        items = [
            NavItem("home", self.t("tab_home"), "home", self.tab == "home", partial(self.switch, "home")),
            NavItem(
                "library",
                self.t("tab_library"),
                "video_library",
                self.tab == "library",
                partial(self.switch, "library"),
            ),
        ]
        nav, nav_h = bottom_nav(kit, area, items, "com.spa.video")
        for view in title_with_search(kit, area, self.t("app_name"), size_dp=26, color=p.error, rid=RID,
                                      search_desc=self.t("search"),
                                      on_search=lambda: self.ctx.start_activity(SEARCH, {"focus": "1"})):
            root.add(view)
        body = Rect(area.left, area.top + kit.dp(64), area.right, area.bottom - nav_h)
        if self.tab == "home":
            self._home(root, body, area)
        else:
            self._library(root, body)
        root.add(nav)
        return root

    def _home(self, root: View, body: Rect, screen: Rect) -> None:
        kit = self.kit
        category = str(self.ui("category", ""))
        rows: list[View] = []
        x, y = body.left + kit.dp(12), body.top + kit.dp(4)
        for key in ("", *CATEGORIES):
            label = self.t(f"cat_{key}") if key else self.t("all")
            c = chip(
                kit,
                x,
                y,
                label,
                key == category,
                partial(self._category, key),
                rid=RID + f"chip_{key or 'all'}",
            )
            if c.bounds.right > body.right - kit.dp(12):
                x, y = body.left + kit.dp(12), y + kit.dp(44)
                c = chip(
                    kit,
                    x,
                    y,
                    label,
                    key == category,
                    partial(self._category, key),
                    rid=RID + f"chip_{key or 'all'}",
                )
            rows.append(c)
            x = c.bounds.right + kit.dp(8)
        y += kit.dp(44)
        videos = self.app.store.feed(category)
        video_rows, anchors = self.video_rows(body, y, videos)
        rows.extend(video_rows)
        root.add(self.scroll_list(body, rows, rid=RID + "feed", padding_bottom=kit.dp(8)))
        self.overlays(root, body, anchors, screen)

    def _category(self, key: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui("category", key or None)

    def _library(self, root: View, body: Rect) -> None:
        kit = self.kit
        store = self.app.store
        counts = {
            "history": len(store.history()),
            "watch_later": len(store.watch_later()),
            "liked_videos": len(store.liked()),
        }
        rows: list[View] = []
        y = body.top + kit.dp(8)
        for key, glyph in LIBRARY:
            row = kit.list_item(
                body,
                y,
                self.t(key),
                str(counts[key]),
                icon=glyph,
                hue="red",
                rid=RID + f"library_{key}",
                on_click=partial(self.ctx.start_activity, "com.spa.video.LibraryListActivity", {"list": key}),
            )
            rows.append(row)
            y = row.bounds.bottom
        root.add(self.scroll_list(body, rows, rid=RID + "library"))


class LibraryListActivity(VideoActivity):
    """History, Watch later or Liked videos: the videos, newest first (history can be cleared)."""

    name = "com.spa.video.LibraryListActivity"

    @property
    def kind(self) -> str:
        return str(self.record.args.get("list", "history"))

    def videos(self) -> list[Video]:
        store = self.app.store
        return {"history": store.history, "watch_later": store.watch_later, "liked_videos": store.liked}[
            self.kind
        ]()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "library_list", bg=p.background)
        bar, bar_h = kit.app_bar(area, self.t(self.kind), self.ctx.finish, package="com.spa.video")
        bar.children[0].desc = self.t("navigate_up")
        if self.kind == "history" and self.videos():
            s = kit.dp(48)
            top = area.top + kit.dp(8)
            bar.add(
                icon_button(
                    kit,
                    Rect(area.right - kit.dp(8) - s, top, area.right - kit.dp(8), top + s),
                    "delete",
                    self.t("clear_history"),
                    self.setter("dialog", "clear"),
                    rid=RID + "clear_history",
                )
            )
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        videos = self.videos()
        rows, anchors = self.video_rows(body, body.top, videos)
        if not videos:
            rows.append(
                TextView(
                    Rect(body.left, body.top + kit.dp(48), body.right, body.top + kit.dp(96)),
                    self.t("empty"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(self.scroll_list(body, rows, rid=RID + "list"))
        self.overlays(root, body, anchors, area)
        if self.ui("dialog") == "clear":
            close = self.setter("dialog", None)
            root.add(
                kit.dialog(
                    area,
                    self.t("clear_history"),
                    self.t("clear_history_confirm"),
                    [(self.t("cancel"), close), (self.t("clear"), self._clear)],
                    close,
                )
            )
        return root

    def _clear(self) -> None:
        self.app.store.clear_history()
        self.set_ui("dialog", None)
