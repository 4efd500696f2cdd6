"""What every Circle screen shares: the store in the owner's content language, relative times, avatars, and
the post card (author, text, topic, picture, like / comment / save / share) used by the feed, search,
profiles and the post page."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.apps.social.photos import PhotoView
from spa_bench.phone.apps.social.store import EN_MONTHS, Post, User
from spa_bench.phone.ui import LINEAR, Button, Callback, ImageView, Rect, TextView, View, tone
from spa_bench.phone.ui.fonts import text_width

if TYPE_CHECKING:
    from spa_bench.phone.apps.social import SocialApp

PACKAGE = "com.spa.social"
RID = f"{PACKAGE}:id/"
POST = "com.spa.social.PostActivity"
PROFILE = "com.spa.social.ProfileActivity"
TOPIC = "com.spa.social.TopicActivity"
COMPOSE = "com.spa.social.ComposeActivity"
CHAT_SHARE = ("com.spa.chat", "com.spa.chat.ShareActivity")
LIKE_RED = (237, 73, 86)


def count(n: int) -> str:
    return f"{n:,}"


class SocialActivity(Activity):
    app: SocialApp

    @property
    def lang(self) -> str:
        """The feed's language: the owner's content (the SIM's country), not the UI's."""
        return str(self.ctx.content_locale)

    def ago(self, at_ms: int) -> str:
        """Relative time as feeds show it: now, 5m, 3h, 2d, then the date."""
        when = datetime(1970, 1, 1) + timedelta(milliseconds=at_ms)
        seconds = (self.ctx.clock.now() - when).total_seconds()
        if seconds < 60:
            return self.t("now")
        if seconds < 3600:
            return self.t("minutes_ago", n=int(seconds // 60))
        if seconds < 86400:
            return self.t("hours_ago", n=int(seconds // 3600))
        if seconds < 7 * 86400:
            return self.t("days_ago", n=int(seconds // 86400))
        return (
            f"{when.month}月{when.day}日"
            if self.ctx.locale == "zh"  # a date: the UI's format
            else f"{EN_MONTHS[when.month - 1]} {when.day}"
        )

    def topic_label(self, topic: str) -> str:
        return f"#{topic}#" if self.lang == "zh" else f"#{topic}"  # the topic's (the feed's) convention

    # -- navigation ---------------------------------------------------------------------------------------
    def open_post(self, post_id: int, focus_comment: bool = False) -> None:
        self.ctx.start_activity(POST, {"post_id": post_id, "comment": focus_comment})

    def open_profile(self, user: User) -> None:
        if user.is_me:
            self.ctx.start_activity("com.spa.social.MainActivity", {"tab": "me"})
        else:
            self.ctx.start_activity(PROFILE, {"user_id": user.id})

    def open_topic(self, topic: str) -> None:
        self.ctx.start_activity(TOPIC, {"topic": topic})

    def toggle_like(self, post_id: int) -> None:
        self.app.store.toggle_like(post_id)
        self.ctx.invalidate()

    def toggle_saved(self, post_id: int) -> None:
        saved = self.app.store.toggle_saved(post_id)
        self.ctx.toast(self.t("saved_toast" if saved else "unsaved_toast"))

    def share(self, post: Post) -> None:
        """Hand the post to Chat's share target, as an Android share intent would."""
        package, activity = CHAT_SHARE
        title = f"{post.author.name}: {post.text}"
        self.ctx.start_activity(
            activity,
            {
                "kind": "post",
                "sku": f"post:{post.id}",
                "title_en": title,
                "title_zh": title,
                "glyph": "image",
                "caller": self.ctx.package,
            },
            package=package,
        )

    def toggle_follow(self, user: User) -> None:
        self.app.store.set_follow(user.id, not user.followed)
        self.ctx.invalidate()

    # -- pieces -------------------------------------------------------------------------------------------
    def avatar(self, rect: Rect, user: User, on_click: Callback | None = None) -> View:
        bg, fg = tone(user.hue, self.kit.palette.dark)
        disc = View(
            rect,
            bg=bg,
            radius=rect.height // 2,
            rid=RID + "avatar",
            on_click=on_click,
            desc=user.name if on_click else "",
        )
        name = user.name
        initial = name[:1] if not name[:1].isascii() else "".join(w[0] for w in name.split()[:2])
        disc.add(TextView(rect, initial, rect.height * 2 // 5, fg, align="center", bold=True))
        return disc

    def empty(self, area: Rect, top: int, key: str = "nothing_here") -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, top + kit.dp(40), area.right, top + kit.dp(88)),
            self.t(key),
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )

    def post_card(self, area: Rect, top: int, post: Post, *, detail: bool = False) -> View:
        """A post; in a list the card opens the post page, on the post page it is not clickable."""
        kit = self.kit
        p = kit.palette
        pad = kit.dp(16)
        left, right = area.left + pad, area.right - pad
        text_left = left + kit.dp(52)
        children: list[View] = []
        s = kit.dp(40)
        author_click = partial(self.open_profile, post.author)
        children.append(
            self.avatar(
                Rect(left, top + kit.dp(12), left + s, top + kit.dp(12) + s), post.author, author_click
            )
        )
        children.append(
            TextView(
                Rect(text_left, top + kit.dp(10), right, top + kit.dp(34)),
                post.author.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "author_name",
                bold=True,
                on_click=author_click,
            )
        )
        meta = f"@{post.author.handle} · {self.ago(post.created_at)}"
        if post.visibility == "friends":
            meta += f" · {self.t('friends_badge')}"
        children.append(
            TextView(
                Rect(text_left, top + kit.dp(34), right, top + kit.dp(56)),
                meta,
                kit.label,
                p.on_surface_variant,
                rid=RID + "post_meta",
            )
        )
        y = top + kit.dp(60)
        lines = 20 if detail else 5
        text_h = TextView.wrapped_height(post.text, kit.body_large, right - left, lines)
        children.append(
            TextView(
                Rect(left, y, right, y + text_h),
                post.text,
                kit.body_large,
                p.on_surface,
                rid=RID + "post_text",
                max_lines=lines,
            )
        )
        y += text_h + kit.dp(4)
        if post.topic:
            label = self.topic_label(post.topic)
            w = min(right - left, round(text_width(label, kit.body_medium)) + kit.dp(8))
            children.append(
                TextView(
                    Rect(left, y, left + w, y + kit.dp(28)),
                    label,
                    kit.body_medium,
                    p.primary,
                    rid=RID + "post_topic",
                    on_click=partial(self.open_topic, post.topic),
                )
            )
            y += kit.dp(30)
        if post.image:
            ih = (right - left) * (3 if detail else 9) // (4 if detail else 16)
            host = self.app.photo_host(post.image)
            children.append(
                PhotoView(
                    Rect(left, y + kit.dp(4), right, y + kit.dp(4) + ih),
                    post.image,
                    host,
                    radius=kit.dp(12),
                    rid=RID + "post_image",
                )
            )
            y += ih + kit.dp(8)
        children.append(self.actions(Rect(left - kit.dp(8), y, right, y + kit.dp(44)), post))
        y += kit.dp(48)
        card = View(
            Rect(area.left, top, area.right, y),
            class_name=LINEAR,
            rid=RID + ("post_detail" if detail else "post_card"),
            on_click=None if detail else partial(self.open_post, post.id),
        )
        card.extend(children)
        card.add(View(Rect(area.left, y - 1, area.right, y), bg=p.divider))
        return card

    def actions(self, rect: Rect, post: Post) -> View:
        """The action row: like (count), comment (count), save, share."""
        kit = self.kit
        p = kit.palette
        row = View(rect, class_name=LINEAR, rid=RID + "post_actions")
        s = kit.dp(44)
        cell = kit.dp(96)
        x = rect.left

        def counted(
            glyph: str, color: tuple[int, int, int], n: int, desc: str, rid: str, cb: Callback
        ) -> None:
            nonlocal x
            box = View(
                Rect(x, rect.top, x + cell, rect.bottom),
                class_name=LINEAR,
                rid=RID + rid,
                desc=desc,
                on_click=cb,
                selected=glyph == "heart_filled",
            )
            g = kit.dp(24)  # a 24dp glyph centred in the 44dp touch target
            gy = rect.top + (s - g) // 2
            gx = x + (s - g) // 2
            box.add(ImageView(Rect(gx, gy, gx + g, gy + g), glyph, color, circle=None))
            box.add(
                TextView(
                    Rect(x + s, rect.top, x + cell, rect.bottom),
                    count(n),
                    kit.body_medium,
                    p.on_surface_variant,
                    rid=RID + rid.replace("button", "count"),
                )
            )
            row.add(box)
            x += cell

        liked = post.liked
        counted(
            "heart_filled" if liked else "heart",
            LIKE_RED if liked else p.on_surface_variant,
            post.likes,
            self.t("unlike" if liked else "like"),
            "like_button",
            partial(self.toggle_like, post.id),
        )
        counted(
            "comment",
            p.on_surface_variant,
            post.comments,
            self.t("comment"),
            "comment_button",
            partial(self.open_post, post.id, True),
        )
        glyph = "bookmark_filled" if post.saved else "bookmark"
        row.add(
            icon_button(
                kit,
                Rect(rect.right - 2 * s, rect.top, rect.right - s, rect.bottom),
                glyph,
                self.t("unsave" if post.saved else "save"),
                partial(self.toggle_saved, post.id),
                rid=RID + "save_button",
                color=p.primary if post.saved else None,
            )
        )
        row.add(
            icon_button(
                kit,
                Rect(rect.right - s, rect.top, rect.right, rect.bottom),
                "share",
                self.t("share"),
                partial(self.share, post),
                rid=RID + "share_button",
            )
        )
        return row

    def post_rows(self, area: Rect, top: int, posts: list[Post]) -> tuple[list[View], int]:
        rows: list[View] = []
        y = top
        for post in posts:
            card = self.post_card(area, y, post)
            rows.append(card)
            y = card.bounds.bottom
        return rows, y

    def user_row(self, area: Rect, top: int, user: User) -> View:
        """A person in search results: avatar, name, @handle and a Follow button."""
        kit = self.kit
        p = kit.palette
        h = kit.dp(72)
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "user_item",
            on_click=partial(self.open_profile, user),
        )
        s = kit.dp(48)
        row.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(12), area.left + kit.dp(16) + s, top + kit.dp(12) + s
                ),
                user,
            )
        )
        left = area.left + kit.dp(80)
        bw = kit.dp(104)
        row.add(
            TextView(
                Rect(left, top + kit.dp(12), area.right - bw - kit.dp(24), top + kit.dp(38)),
                user.name,
                kit.body_large,
                p.on_surface,
                rid=RID + "user_name",
                bold=True,
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(38), area.right - bw - kit.dp(24), top + kit.dp(60)),
                f"@{user.handle}",
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "user_handle",
            )
        )
        if not user.is_me:
            row.add(
                self.follow_button(
                    Rect(
                        area.right - kit.dp(16) - bw,
                        top + kit.dp(18),
                        area.right - kit.dp(16),
                        top + kit.dp(54),
                    ),
                    user,
                )
            )
        row.add(View(Rect(left, top + h - 1, area.right, top + h), bg=p.divider))
        return row

    def follow_button(self, rect: Rect, user: User) -> View:
        kit = self.kit
        p = kit.palette
        if user.followed:
            return Button(
                rect,
                self.t("following"),
                kit.body_medium,
                p.on_surface,
                None,
                outline=p.outline,
                on_click=partial(self.toggle_follow, user),
                rid=RID + "follow_button",
            )
        return Button(
            rect,
            self.t("follow"),
            kit.body_medium,
            (255, 255, 255),
            LIKE_RED,
            on_click=partial(self.toggle_follow, user),
            rid=RID + "follow_button",
        )
