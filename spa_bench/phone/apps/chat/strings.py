"""Every string of the Chat app, English and Simplified Chinese (WeChat/WhatsApp wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Chat", "聊天"),
        "tab_chats": ("Chats", "消息"),
        "tab_contacts": ("Contacts", "通讯录"),
        "tab_me": ("Me", "我"),
        "search": ("Search", "搜索"),
        "search_hint": ("Search chats and contacts", "搜索聊天和联系人"),
        "no_results": ("No results", "无结果"),
        "navigate_up": ("Navigate up", "向上导航"),
        "message_hint": ("Message", "发消息"),
        "send": ("Send", "发送"),
        "product_card": ("Shop product", "购物 · 商品"),
        "photo": ("Photo", "图片"),
        "send_to": ("Send to", "发送给"),
        "recent_chats": ("Recent chats", "最近聊天"),
        "all_contacts": ("Contacts", "通讯录"),
        "share_to": ("Send to {name}?", "发送给 {name}？"),
        "leave_message": ("Add a message (optional)", "给朋友留言（选填）"),
        "cancel": ("Cancel", "取消"),
        "sent": ("Sent", "已发送"),
        "phone": ("Phone", "电话"),
        "my_profile": ("My profile", "个人信息"),
        "chat_id": ("Chat ID: {id}", "聊天号：{id}"),
        "settings": ("Settings", "设置"),
        "yesterday": ("Yesterday", "昨天"),
    }
)
