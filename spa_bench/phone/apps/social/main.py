"""Circle's main screen (`com.spa.social.MainActivity`, extra `tab`): the home feed (For you /
Following), search (people, hashtags, posts), notifications (likes and comments on your posts) and
your own profile (your posts and saved posts). The bottom bar's middle button opens Compose."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.shop.widgets import NavItem, bottom_nav, icon_button
from spa_bench.phone.apps.social.profile import profile_header
from spa_bench.phone.apps.social.seed import ME_ID
from spa_bench.phone.apps.social.store import Notice
from spa_bench.phone.apps.social.widgets import COMPOSE, PACKAGE, RID, SocialActivity
from spa_bench.phone.ui import FRAME, LINEAR, Rect, TextView, View

TABS = (
    ("home", "home"),
    ("search", "search"),
    ("compose", "add_box"),
    ("notifications", "bell"),
    ("me", "person"),
)


class MainActivity(SocialActivity):
    name = "com.spa.social.MainActivity"

    @property
    def tab(self) -> str:
        return str(self.ui("tab", self.record.args.get("tab", "home")))

    def switch(self, tab: str) -> None:
        if tab == "compose":
            self.ctx.start_activity(COMPOSE)
            return
        self.record.ui.pop("scroll", None)
        if tab == "search":
            self.record.ui["focus"] = "query"
            self.ctx.show_keyboard()
        self.set_ui("tab", tab)

    def on_back(self) -> bool:
        if super().on_back():
            return True
        if self.tab != "home":
            self.switch("home")
            return True
        return False

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "main")
        items = [NavItem(k, self.t(f"tab_{k}"), g, k == self.tab, partial(self.switch, k)) for k, g in TABS]
        nav, nav_h = bottom_nav(kit, area, items, PACKAGE)
        bar_h = kit.dp(56)
        bar = View(area.with_height(bar_h), class_name=FRAME, rid=RID + "toolbar", bg=p.background)
        title = self.t("app_name") if self.tab in ("home", "me") else self.t(f"tab_{self.tab}")
        bar.add(
            TextView(
                Rect(area.left + kit.dp(16), area.top, area.right - kit.dp(64), area.top + bar_h),
                title,
                kit.title_large,
                p.on_surface,
                rid="android:id/title",
                bold=True,
            )
        )
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom - nav_h)
        if self.tab == "search":
            root.add(self._search(body))
        elif self.tab == "notifications":
            root.add(self._notifications(body))
        elif self.tab == "me":
            root.add(self._me(body))
        else:
            root.add(self._home(body))
            s = kit.dp(48)
            bar.add(
                icon_button(
                    kit,
                    Rect(
                        area.right - kit.dp(4) - s,
                        area.top + kit.dp(4),
                        area.right - kit.dp(4),
                        area.top + kit.dp(4) + s,
                    ),
                    "search",
                    self.t("tab_search"),
                    partial(self.switch, "search"),
                    rid=RID + "action_search",
                )
            )
        root.add(bar)
        root.add(nav)
        return root

    # -- home ---------------------------------------------------------------------------------------------
    def _segments(self, area: Rect, top: int, keys: tuple[tuple[str, str], ...], ui_key: str) -> View:
        """Two or more text tabs under the toolbar (For you | Following, Posts | Saved)."""
        kit = self.kit
        p = kit.palette
        h = kit.dp(44)
        strip = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "segments",
            bg=p.background,
        )
        current = str(self.ui(ui_key, keys[0][0]))
        w = area.width // len(keys)
        for i, (key, label) in enumerate(keys):
            cell = Rect(area.left + i * w, top, area.left + (i + 1) * w, top + h)
            selected = key == current
            tab = View(
                cell,
                class_name=LINEAR,
                rid=RID + f"tab_{key}",
                selected=selected,
                on_click=partial(self._segment, ui_key, key),
            )
            tab.add(
                TextView(
                    cell,
                    self.t(label),
                    kit.body_large,
                    p.on_surface if selected else p.on_surface_variant,
                    align="center",
                    bold=selected,
                )
            )
            if selected:
                tab.add(
                    View(
                        Rect(
                            cell.center[0] - kit.dp(24),
                            cell.bottom - kit.dp(3),
                            cell.center[0] + kit.dp(24),
                            cell.bottom,
                        ),
                        bg=p.primary,
                        radius=kit.dp(2),
                    )
                )
            strip.add(tab)
        strip.add(View(Rect(area.left, top + h - 1, area.right, top + h), bg=p.divider))
        return strip

    def _segment(self, ui_key: str, key: str) -> None:
        self.record.ui.pop("scroll", None)
        self.set_ui(ui_key, key)

    def _home(self, area: Rect) -> View:
        view = View(area, class_name=FRAME)
        seg = self._segments(
            area, area.top, (("for_you", "for_you"), ("following", "following_feed")), "feed"
        )
        list_area = Rect(area.left, seg.bounds.bottom, area.right, area.bottom)
        posts = self.app.store.feed(self.lang, following_only=self.ui("feed") == "following")
        rows, _ = self.post_rows(list_area, list_area.top, posts)
        view.add(
            self.scroll_list(list_area, rows or [self.empty(list_area, list_area.top)], rid=RID + "feed")
        )
        view.add(seg)
        return view

    # -- search -------------------------------------------------------------------------------------------
    def _search(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        view = View(area, class_name=FRAME)
        field = self.text_field(
            Rect(
                area.left + kit.dp(16), area.top + kit.dp(4), area.right - kit.dp(16), area.top + kit.dp(52)
            ),
            "query",
            self.t("search_hint"),
            rid=RID + "search_input",
            on_submit=self._submit,
        )
        list_area = Rect(area.left, area.top + kit.dp(60), area.right, area.bottom)
        query = str(self.ui("text:query", "")).strip()
        rows: list[View] = []
        y = list_area.top
        if not query:
            rows.append(self._header(list_area, y, "trending"))
            y += kit.dp(40)
            for topic, n in self.app.store.topics(self.lang)[:10]:
                row = kit.list_item(
                    list_area,
                    y,
                    self.topic_label(topic),
                    self.t("n_posts", n=n),
                    on_click=partial(self.open_topic, topic),
                    rid=RID + "topic_item",
                )
                rows.append(row)
                y = row.bounds.bottom
        else:
            needle = query.strip("#").strip().casefold()
            people = [
                u
                for u in self.app.store.users(self.lang)
                if needle in u.name.casefold() or needle in u.handle.casefold()
            ]
            topics = [(t, n) for t, n in self.app.store.topics(self.lang) if needle in t.casefold()]
            posts = [
                x
                for x in self.app.store.feed(self.lang)
                if needle in x.text.casefold() or needle in x.topic.casefold()
            ]
            if query.startswith("#"):
                people = []
            if people:
                rows.append(self._header(list_area, y, "people"))
                y += kit.dp(40)
                for user in people:
                    row = self.user_row(list_area, y, user)
                    rows.append(row)
                    y = row.bounds.bottom
            if topics:
                rows.append(self._header(list_area, y, "tags"))
                y += kit.dp(40)
                for topic, n in topics:
                    row = kit.list_item(
                        list_area,
                        y,
                        self.topic_label(topic),
                        self.t("n_posts", n=n),
                        on_click=partial(self.open_topic, topic),
                        rid=RID + "topic_item",
                    )
                    rows.append(row)
                    y = row.bounds.bottom
            if posts:
                rows.append(self._header(list_area, y, "posts"))
                y += kit.dp(40)
                more, y = self.post_rows(list_area, y, posts)
                rows.extend(more)
            if not rows:
                rows.append(self.empty(list_area, y, "no_results"))
        view.add(self.scroll_list(list_area, rows, rid=RID + "search_results"))
        view.add(
            View(
                Rect(area.left, area.top, area.right, area.top + kit.dp(60)),
                bg=p.background,
                children=[field],
            )
        )
        return view

    def _header(self, area: Rect, top: int, key: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left + kit.dp(16), top, area.right - kit.dp(16), top + kit.dp(40)),
            self.t(key),
            kit.body_medium,
            kit.palette.primary,
            rid=RID + f"section_{key}",
            bold=True,
        )

    def _submit(self) -> None:
        self.record.ui.pop("focus", None)
        self.record.ui.pop("scroll", None)
        self.ctx.invalidate()

    # -- notifications ------------------------------------------------------------------------------------
    def _notifications(self, area: Rect) -> View:
        rows: list[View] = []
        y = area.top
        for notice in self.app.store.notices(self.lang):
            row = self._notice(area, y, notice)
            rows.append(row)
            y = row.bounds.bottom
        return self.scroll_list(area, rows or [self.empty(area, area.top)], rid=RID + "notification_list")

    def _notice(self, area: Rect, top: int, notice: Notice) -> View:
        kit = self.kit
        p = kit.palette
        if notice.kind == "like":
            title = self.t("liked_your_post", name=notice.who.name)
        else:
            title = self.t("commented", name=notice.who.name, text=notice.text)
        left = area.left + kit.dp(72)
        right = area.right - kit.dp(16)
        title_h = TextView.wrapped_height(title, kit.body_large, right - left, 2)
        h = title_h + kit.dp(52)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "notification_item",
            on_click=partial(self.open_post, notice.post_id),
        )
        s = kit.dp(44)
        row.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(12), area.left + kit.dp(16) + s, top + kit.dp(12) + s
                ),
                notice.who,
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(10), right, top + kit.dp(10) + title_h),
                title,
                kit.body_large,
                p.on_surface,
                rid=RID + "notification_text",
                max_lines=2,
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(12) + title_h, right, top + kit.dp(36) + title_h),
                f"{self.ago(notice.created_at)} · {notice.post_text}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "notification_post",
            )
        )
        row.add(View(Rect(left, top + h - 1, area.right, top + h), bg=p.divider))
        return row

    # -- me -----------------------------------------------------------------------------------------------
    def _me(self, area: Rect) -> View:
        kit = self.kit
        me = self.app.store.user(ME_ID, self.lang)
        assert me is not None
        mine = self.app.store.posts_by(ME_ID, self.lang)
        head, y = profile_header(self, area, area.top, me, len(mine))
        which = str(self.ui("me_list", "me_posts"))
        seg = self._segments(area, y, (("me_posts", "posts"), ("me_saved", "saved")), "me_list")
        y += kit.dp(44)
        posts = mine if which == "me_posts" else self.app.store.saved(self.lang)
        rows, _ = self.post_rows(area, y, posts)
        return self.scroll_list(area, [head, seg, *(rows or [self.empty(area, y)])], rid=RID + "me_list")
