"""The Video app's search (`com.spa.video.SearchActivity`): a field in the app bar, results by views."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spa_bench.phone.apps.video.base import RID, VideoActivity
from spa_bench.phone.system.tasks import ActivityRecord
from spa_bench.phone.ui import FRAME, Rect, TextView, View

if TYPE_CHECKING:
    from spa_bench.phone.apps.video import VideoApp


class SearchActivity(VideoActivity):
    name = "com.spa.video.SearchActivity"

    def __init__(self, app: VideoApp, record: ActivityRecord) -> None:
        super().__init__(app, record)
        if (
            self.record.args.get("focus")
            and "focus" not in self.record.ui
            and not self.record.ui.get("opened")
        ):
            self.record.ui["focus"] = "q"
            self.record.ui["opened"] = True
            self.ctx.show_keyboard()

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=FRAME, rid=RID + "search_screen", bg=p.background)
        bar, bar_h = kit.app_bar(area, "", self.ctx.finish, package="com.spa.video")
        bar.children[0].desc = self.t("navigate_up")
        bar.children.pop(1)
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
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        query = str(self.ui("text:q", ""))
        videos = self.app.store.search(query)
        rows, anchors = self.video_rows(body, body.top, videos)
        if query.strip() and not videos:
            rows.append(
                TextView(
                    Rect(body.left, body.top + kit.dp(48), body.right, body.top + kit.dp(96)),
                    self.t("no_results"),
                    kit.body_large,
                    p.on_surface_variant,
                    align="center",
                    rid=RID + "empty",
                )
            )
        root.add(self.scroll_list(body, rows, rid=RID + "results"))
        self.overlays(root, body, anchors, area)
        return root
