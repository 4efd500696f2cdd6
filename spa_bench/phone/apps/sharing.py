"""Sharing plain text (a web page, a place) from an app: the share sheet with the apps that take text -
Chat's share target (`com.spa.chat.ShareActivity`, extra `text`) and Messages' new conversation (extra
`sms_body`, as ACTION_SENDTO's) - and the intent each one is started with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from spa_bench.phone.apps.base import Activity
from spa_bench.phone.ui import Rect, View


@dataclass(frozen=True)
class TextTarget:
    key: str  # rid suffix and label key: share_<key>
    package: str
    activity: str
    glyph: str
    hue: str
    label: tuple[str, str]  # en, zh


TARGETS = (
    TextTarget("chat", "com.spa.chat", "com.spa.chat.ShareActivity", "chat", "green", ("Chat", "聊天")),
    TextTarget(
        "messages",
        "com.android.messaging",
        "com.android.messaging.ui.conversation.NewConversationActivity",
        "message",
        "blue",
        ("Messages", "信息"),
    ),
)
TITLE = ("Share via", "分享到")
CANCEL = ("Cancel", "取消")


def share_text(activity: Activity, target: TextTarget, text: str, title: str, glyph: str, hue: str) -> None:
    """Start `target` with `text`, as an ACTION_SEND / ACTION_SENDTO intent would."""
    if target.package == "com.spa.chat":
        args = {
            "text": text,
            "title_en": title,
            "title_zh": title,
            "caller": activity.ctx.package,
            "glyph": glyph,
            "hue": hue,
        }
    else:
        args = {"sms_body": text}
    activity.ctx.start_activity(target.activity, args, package=target.package)


def share_sheet(
    activity: Activity,
    area: Rect,
    rid_prefix: str,
    pick: Callable[[TextTarget], None],
    close: Callable[[], None],
) -> View:
    """The dialog listing the targets; `pick` is called with the one tapped."""
    kit = activity.kit
    zh = activity.ctx.locale == "zh"
    width = area.width - kit.dp(96)
    rows = [
        kit.list_item(
            Rect(0, 0, width, 0),
            i * kit.dp(56),
            t.label[zh],
            icon=t.glyph,
            hue=t.hue,
            on_click=partial(pick, t),
            rid=f"{rid_prefix}share_{t.key}",
        )
        for i, t in enumerate(TARGETS)
    ]
    return kit.dialog(area, TITLE[zh], rows, [(CANCEL[zh], close)], close, body_height=len(rows) * kit.dp(56))
