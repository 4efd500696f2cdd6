"""A person's profile (`com.spa.social.ProfileActivity`, extra `user_id`: header, Follow button, their
posts) and a hashtag's page (`com.spa.social.TopicActivity`, extra `topic`)."""

from __future__ import annotations

from spa_bench.phone.apps.social.store import User
from spa_bench.phone.apps.social.widgets import PACKAGE, RID, SocialActivity, count
from spa_bench.phone.ui import LINEAR, Rect, TextView, View


def profile_header(act: SocialActivity, area: Rect, top: int, user: User, n_posts: int) -> tuple[View, int]:
    """Avatar, name, @handle, bio, the three counts and (for others) Follow; returns (view, bottom)."""
    kit = act.kit
    p = kit.palette
    pad = kit.dp(16)
    s = kit.dp(72)
    head = View(
        Rect(area.left, top, area.right, top + kit.dp(10)), class_name=LINEAR, rid=RID + "profile_header"
    )
    head.add(act.avatar(Rect(area.left + pad, top + pad, area.left + pad + s, top + pad + s), user))
    left = area.left + pad + s + kit.dp(16)
    head.add(
        TextView(
            Rect(left, top + kit.dp(18), area.right - pad, top + kit.dp(48)),
            user.name,
            kit.dp(22),
            p.on_surface,
            rid=RID + "profile_name",
            bold=True,
        )
    )
    head.add(
        TextView(
            Rect(left, top + kit.dp(50), area.right - pad, top + kit.dp(74)),
            f"@{user.handle}",
            kit.body_medium,
            p.on_surface_variant,
            rid=RID + "profile_handle",
        )
    )
    y = top + pad + s + kit.dp(12)
    if user.bio:
        bh = TextView.wrapped_height(user.bio, kit.body_medium, area.width - 2 * pad, 3)
        head.add(
            TextView(
                Rect(area.left + pad, y, area.right - pad, y + bh),
                user.bio,
                kit.body_medium,
                p.on_surface,
                rid=RID + "profile_bio",
                max_lines=3,
            )
        )
        y += bh + kit.dp(8)
    stats = (
        (n_posts, "posts_count", "stat_posts"),
        (user.followers, "followers", "stat_followers"),
        (user.following, "following_count", "stat_following"),
    )
    w = (area.width - 2 * pad) // 3
    for i, (n, key, rid) in enumerate(stats):
        cell = Rect(area.left + pad + i * w, y, area.left + pad + (i + 1) * w, y + kit.dp(48))
        box = View(cell, class_name=LINEAR, rid=RID + rid)
        box.add(
            TextView(
                cell.with_height(kit.dp(26)),
                count(n),
                kit.body_large,
                p.on_surface,
                align="center",
                bold=True,
                rid=RID + "stat_value",
            )
        )
        box.add(
            TextView(
                Rect(cell.left, cell.top + kit.dp(26), cell.right, cell.bottom),
                act.t(key),
                kit.label,
                p.on_surface_variant,
                align="center",
            )
        )
        head.add(box)
    y += kit.dp(56)
    if not user.is_me:
        head.add(act.follow_button(Rect(area.left + pad, y, area.right - pad, y + kit.dp(40)), user))
        y += kit.dp(52)
    head.bounds = Rect(area.left, top, area.right, y)
    head.add(View(Rect(area.left, y - 1, area.right, y), bg=p.divider))
    return head, y


class ProfileActivity(SocialActivity):
    name = "com.spa.social.ProfileActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        root = View(area, class_name=LINEAR, rid=RID + "profile")
        user = self.app.store.user(int(self.record.args.get("user_id", 0)), self.lang)
        bar, bar_h = kit.app_bar(area, user.name if user else "", self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        if user is None:
            return root
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        posts = self.app.store.posts_by(user.id, self.lang)
        head, y = profile_header(self, body, body.top, user, len(posts))
        rows, _ = self.post_rows(body, y, posts)
        root.add(self.scroll_list(body, [head, *rows], rid=RID + "profile_list"))
        return root


class TopicActivity(SocialActivity):
    name = "com.spa.social.TopicActivity"

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        topic = str(self.record.args.get("topic", ""))
        root = View(area, class_name=LINEAR, rid=RID + "topic")
        bar, bar_h = kit.app_bar(area, self.topic_label(topic), self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        root.add(bar)
        body = Rect(area.left, area.top + bar_h, area.right, area.bottom)
        posts = self.app.store.with_topic(topic, self.lang)
        info = TextView(
            Rect(body.left + kit.dp(16), body.top, body.right, body.top + kit.dp(32)),
            self.t("n_posts", n=len(posts)),
            kit.body_medium,
            p.on_surface_variant,
            rid=RID + "topic_count",
        )
        rows, _ = self.post_rows(body, body.top + kit.dp(32), posts)
        root.add(
            self.scroll_list(
                body, [info, *rows] if posts else [info, self.empty(body, body.top)], rid=RID + "topic_list"
            )
        )
        return root
