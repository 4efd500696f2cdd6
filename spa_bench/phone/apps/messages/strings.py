"""Every string of the Messages app, English and Simplified Chinese (Google Messages' wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Messages", "信息"),
        "search": ("Search", "搜索"),
        "search_hint": ("Search messages", "搜索信息"),
        "start_chat": ("Start chat", "发起聊天"),
        "new_conversation": ("New conversation", "新对话"),
        "to_hint": ("Type name, phone number", "输入姓名或电话号码"),
        "send_to": ("Send to {number}", "发送至 {number}"),
        "compose_hint": ("Text message", "短信"),
        "send": ("Send SMS", "发送短信"),
        "navigate_up": ("Navigate up", "向上导航"),
        "no_results": ("No messages found", "未找到信息"),
        "you": ("You", "您"),
        "yesterday": ("Yesterday", "昨天"),
        "top_contacts": ("Top contacts", "常用联系人"),
        "all_contacts": ("All contacts", "所有联系人"),
        "mark_read": ("Mark as read", "标记为已读"),
        "mark_unread": ("Mark as unread", "标记为未读"),
        "delete": ("Delete", "删除"),
        "copy_text": ("Copy text", "复制文字"),
    }
)
