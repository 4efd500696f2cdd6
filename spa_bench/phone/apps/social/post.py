"""A post's page (`com.spa.social.PostActivity`, extra `post_id`): the whole post, its comments oldest
first with a Reply action each, the comment box at the bottom, and for your own posts a menu that
deletes the post (after a confirmation)."""

from __future__ import annotations

from functools import partial

from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.apps.social.store import Comment, Post
from spa_bench.phone.apps.social.widgets import PACKAGE, RID, SocialActivity
from spa_bench.phone.ui import LINEAR, Button, Rect, TextView, View


class PostActivity(SocialActivity):
    name = "com.spa.social.PostActivity"

    @property
    def post(self) -> Post | None:
        return self.app.store.post(int(self.record.args.get("post_id", 0)), self.lang)

    def on_back(self) -> bool:
        if self.ui("reply_to") is not None and self.ui("dialog") is None:
            self.set_ui("reply_to", None)
            return True
        return super().on_back()

    def reply(self, comment: Comment) -> None:
        self.record.ui["reply_to"] = comment.id
        self.request_focus("comment")
        self.ctx.invalidate()

    def send(self) -> None:
        post = self.post
        text = str(self.ui("text:comment", "")).strip()
        if post is None or not text:
            return
        parent = self.ui("reply_to")
        self.app.store.add_comment(post.id, text, int(parent) if parent is not None else None)
        self.record.ui["text:comment"] = ""
        self.record.ui.pop("reply_to", None)
        self.record.ui.pop("focus", None)
        self.record.ui["scroll"] = 10**6
        self.ctx.invalidate()

    def delete(self) -> None:
        post = self.post
        self.set_ui("dialog", None)
        if post is None or not post.author.is_me:
            return
        self.app.store.delete_post(post.id)
        self.ctx.finish()
        self.ctx.toast(self.t("deleted"))

    def build(self, area: Rect) -> View:
        kit = self.kit
        p = kit.palette
        root = View(area, class_name=LINEAR, rid=RID + "post")
        post = self.post
        bar, bar_h = kit.app_bar(area, self.t("post_title"), self.ctx.finish, package=PACKAGE)
        bar.children[0].desc = self.t("navigate_up")
        if post is not None and post.author.is_me:
            s = kit.dp(48)
            bar.add(
                icon_button(
                    kit,
                    Rect(
                        area.right - kit.dp(4) - s,
                        area.top + kit.dp(8),
                        area.right - kit.dp(4),
                        area.top + kit.dp(8) + s,
                    ),
                    "more_vert",
                    self.t("more"),
                    self.setter("dialog", "delete"),
                    rid=RID + "post_menu",
                )
            )
        root.add(bar)
        if post is None:
            root.add(self.empty(area, area.top + bar_h))
            return root
        comments = self.app.store.comments(post.id, self.lang)
        replying = next((c for c in comments if c.id == self.ui("reply_to")), None)
        input_h = kit.dp(72) + (kit.dp(32) if replying else 0)
        list_area = Rect(area.left, area.top + bar_h, area.right, area.bottom - input_h)
        card = self.post_card(list_area, list_area.top, post, detail=True)
        rows: list[View] = [card]
        y = card.bounds.bottom
        rows.append(
            TextView(
                Rect(area.left + kit.dp(16), y, area.right, y + kit.dp(44)),
                self.t("comments_title", n=len(comments)),
                kit.body_large,
                p.on_surface,
                bold=True,
                rid=RID + "comments_header",
            )
        )
        y += kit.dp(44)
        for comment in comments:
            row = self._comment(list_area, y, comment)
            rows.append(row)
            y = row.bounds.bottom
        if not comments:
            rows.append(self.empty(list_area, y - kit.dp(32), "no_comments"))
        root.add(self.scroll_list(list_area, rows, rid=RID + "comment_list", padding_bottom=kit.dp(8)))
        root.add(self._input(Rect(area.left, area.bottom - input_h, area.right, area.bottom), replying))
        if self.ui("dialog") == "delete":
            root.add(
                kit.dialog(
                    area,
                    self.t("delete_post"),
                    self.t("delete_confirm"),
                    [(self.t("cancel"), self.setter("dialog", None)), (self.t("delete"), self.delete)],
                    self.setter("dialog", None),
                )
            )
        return root

    def _comment(self, area: Rect, top: int, comment: Comment) -> View:
        kit = self.kit
        p = kit.palette
        indent = kit.dp(40) if comment.parent is not None else 0
        left = area.left + kit.dp(68) + indent
        right = area.right - kit.dp(16)
        text = comment.text if comment.parent is None else f"@{comment.parent.name} {comment.text}"
        text_h = TextView.wrapped_height(text, kit.body_medium, right - left, 6)
        h = kit.dp(34) + text_h + kit.dp(36)
        row = View(Rect(area.left, top, area.right, top + h), class_name=LINEAR, rid=RID + "comment_item")
        s = kit.dp(36)
        row.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(20) + indent,
                    top + kit.dp(10),
                    area.left + kit.dp(20) + indent + s,
                    top + kit.dp(10) + s,
                ),
                comment.author,
                partial(self.open_profile, comment.author),
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(8), right - kit.dp(72), top + kit.dp(32)),
                comment.author.name,
                kit.body_medium,
                p.on_surface,
                bold=True,
                rid=RID + "comment_author",
            )
        )
        row.add(
            TextView(
                Rect(right - kit.dp(72), top + kit.dp(8), right, top + kit.dp(32)),
                self.ago(comment.created_at),
                kit.label,
                p.on_surface_variant,
                align="right",
                rid=RID + "comment_time",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right, top + kit.dp(34) + text_h),
                text,
                kit.body_medium,
                p.on_surface,
                rid=RID + "comment_text",
                max_lines=6,
            )
        )
        if not comment.author.is_me:
            row.add(
                TextView(
                    Rect(left, top + kit.dp(36) + text_h, left + kit.dp(72), top + h - kit.dp(2)),
                    self.t("reply"),
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "reply_button",
                    on_click=partial(self.reply, comment),
                    desc=self.t("reply_to", name=comment.author.name),
                )
            )
        return row

    def _input(self, rect: Rect, replying: Comment | None) -> View:
        kit = self.kit
        p = kit.palette
        box = View(rect, class_name=LINEAR, bg=p.background, rid=RID + "comment_bar")
        box.add(View(Rect(rect.left, rect.top, rect.right, rect.top + 1), bg=p.divider))
        top = rect.top
        if replying is not None:
            box.add(
                TextView(
                    Rect(rect.left + kit.dp(16), top, rect.right - kit.dp(64), top + kit.dp(32)),
                    self.t("replying_to", name=replying.author.name),
                    kit.label,
                    p.on_surface_variant,
                    rid=RID + "replying_to",
                )
            )
            box.add(
                icon_button(
                    kit,
                    Rect(rect.right - kit.dp(48), top, rect.right - kit.dp(16), top + kit.dp(32)),
                    "close",
                    self.t("cancel"),
                    self.setter("reply_to", None),
                    rid=RID + "cancel_reply",
                )
            )
            top += kit.dp(32)
        fy = top + kit.dp(10)
        hint = self.t("reply_to", name=replying.author.name) if replying else self.t("add_comment")
        box.add(
            self.text_field(
                Rect(rect.left + kit.dp(12), fy, rect.right - kit.dp(96), fy + kit.dp(52)),
                "comment",
                hint,
                rid=RID + "comment_input",
                on_submit=self.send,
            )
        )
        box.add(
            Button(
                Rect(rect.right - kit.dp(84), fy + kit.dp(4), rect.right - kit.dp(12), fy + kit.dp(48)),
                self.t("send"),
                kit.body_medium,
                (255, 255, 255),
                p.primary,
                on_click=self.send,
                rid=RID + "send_comment",
            )
        )
        return box
