"""What every Email screen shares: the account of the owner's content language, dates, avatars and the
row of a conversation list."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.apps.email.seed import ACCOUNTS
from spa_bench.phone.apps.email.store import Thread
from spa_bench.phone.apps.shop.widgets import icon_button
from spa_bench.phone.ui import LINEAR, Callback, Rect, TextView, View, tone
from spa_bench.phone.ui.fonts import text_width

if TYPE_CHECKING:
    from spa_bench.phone.apps.email import EmailApp

PACKAGE = "com.android.email"
RID = f"{PACKAGE}:id/"
MAIN = f"{PACKAGE}.MainActivity"
THREAD = f"{PACKAGE}.ThreadActivity"
COMPOSE = f"{PACKAGE}.ComposeActivity"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_HUES = ("blue", "green", "orange", "purple", "red", "teal", "pink", "yellow")


class EmailActivity(Activity):
    app: EmailApp

    @property
    def me(self) -> tuple[str, str]:
        """(name, address) of the account shown: the owner's content language (the SIM's country) picks the
        mailbox; the UI language only changes the labels and dates around it."""
        return ACCOUNTS[self.ctx.content_locale]

    @property
    def account(self) -> str:
        return self.me[1]

    def now_ms(self) -> int:
        return int(self.ctx.clock.now().timestamp() * 1000)

    def short_date(self, ms: int) -> str:
        t = datetime.fromtimestamp(ms / 1000, UTC)
        now = self.ctx.clock.now()
        if t.date() == now.date():
            return t.strftime("%H:%M")
        zh = self.ctx.locale == "zh"
        if t.year == now.year:
            return f"{t.month}月{t.day}日" if zh else f"{MONTHS[t.month - 1]} {t.day}"
        return f"{t.year}/{t.month}/{t.day}" if zh else f"{t.month}/{t.day}/{t:%y}"

    def long_date(self, ms: int) -> str:
        t = datetime.fromtimestamp(ms / 1000, UTC)
        if self.ctx.locale == "zh":
            return f"{t.year}年{t.month}月{t.day}日 {t:%H:%M}"
        hour = t.hour % 12 or 12
        return f"{MONTHS[t.month - 1]} {t.day}, {t.year}, {hour}:{t:%M} {'AM' if t.hour < 12 else 'PM'}"

    def avatar(self, rect: Rect, name: str) -> View:
        hue = _HUES[sum(map(ord, name)) % len(_HUES)]
        bg, fg = tone(hue, self.kit.palette.dark)
        tile = View(rect, bg=bg, radius=rect.height // 2, rid=RID + "avatar")
        tile.add(TextView(rect, name[:1].upper(), rect.height * 2 // 5, fg, align="center", bold=True))
        return tile

    def senders(self, thread: Thread) -> str:
        """The list's first line: who wrote in the conversation ("me" for the account owner)."""
        names: list[str] = []
        for m in thread.messages:
            name = (
                self.t("from_me")
                if m.from_addr == self.account
                else m.from_name.split(" ")[0]
                if (self.ctx.content_locale == "en" and len(thread.messages) > 1)  # the names' language
                else m.from_name
            )
            if name not in names:
                names.append(name)
        text = ", ".join(names)
        return f"{text} {len(thread.messages)}" if len(thread.messages) > 1 else text

    def thread_row(
        self,
        area: Rect,
        top: int,
        thread: Thread,
        on_click: Callback,
        title: str = "",
        on_star: Callback | None = None,
    ) -> View:
        kit = self.kit
        p = kit.palette
        h = kit.dp(88)
        last = thread.last
        row = View(
            Rect(area.left, top, area.right, top + h),
            class_name=LINEAR,
            rid=RID + "thread_item",
            on_click=on_click,
            desc=thread.subject,
        )
        s = kit.dp(40)
        row.add(
            self.avatar(
                Rect(
                    area.left + kit.dp(16), top + kit.dp(14), area.left + kit.dp(16) + s, top + kit.dp(14) + s
                ),
                last.from_name or "?",
            )
        )
        left = area.left + kit.dp(72)
        right = area.right - kit.dp(16)
        bold = thread.unread
        fg = p.on_surface
        date = self.short_date(last.timestamp)
        # the date keeps its width (a larger font scale widens it) and the sender gives way, as in Gmail
        date_w = max(kit.dp(72), math.ceil(text_width(date, kit.label)) + kit.dp(8))
        row.add(
            TextView(
                Rect(left, top + kit.dp(10), right - date_w, top + kit.dp(34)),
                title or self.senders(thread),
                kit.body_large,
                fg,
                bold=bold,
                rid=RID + "sender",
            )
        )
        row.add(
            TextView(
                Rect(right - date_w, top + kit.dp(10), right, top + kit.dp(34)),
                date,
                kit.label,
                fg if bold else p.on_surface_variant,
                align="right",
                bold=bold,
                rid=RID + "date",
            )
        )
        row.add(
            TextView(
                Rect(left, top + kit.dp(34), right - kit.dp(40), top + kit.dp(56)),
                thread.subject or "(no subject)",
                kit.body_medium,
                fg,
                bold=bold,
                rid=RID + "subject",
            )
        )
        snippet = " ".join(last.body.split())
        row.add(
            TextView(
                Rect(left, top + kit.dp(56), right - kit.dp(40), top + kit.dp(78)),
                snippet,
                kit.body_medium,
                p.on_surface_variant,
                rid=RID + "snippet",
            )
        )
        if on_star is not None:
            b = kit.dp(40)
            star = icon_button(
                kit,
                Rect(right - b + kit.dp(8), top + kit.dp(40), right + kit.dp(8), top + kit.dp(40) + b),
                "star" if thread.starred else "star_outline",
                self.t("unstar" if thread.starred else "star"),
                on_star,
                rid=RID + "star",
                color=(244, 180, 0) if thread.starred else None,
            )
            star.checkable = True
            star.checked = thread.starred
            row.add(star)
        return row

    def empty(self, area: Rect, text: str) -> View:
        kit = self.kit
        return TextView(
            Rect(area.left, area.top + kit.dp(48), area.right, area.top + kit.dp(96)),
            text,
            kit.body_large,
            kit.palette.on_surface_variant,
            align="center",
            rid=RID + "empty",
        )
