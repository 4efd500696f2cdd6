"""Every string of the Contacts app, English and Simplified Chinese (Google Contacts' wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Contacts", "通讯录"),
        "search_hint": ("Search contacts", "搜索联系人"),
        "favourites": ("Favourites", "收藏"),
        "create": ("Create contact", "新建联系人"),
        "edit": ("Edit contact", "修改联系人"),
        "first_name": ("First name", "名字"),
        "last_name": ("Last name", "姓氏"),
        "phone": ("Phone", "电话"),
        "email": ("Email", "电子邮件"),
        "mobile": ("Mobile", "手机"),
        "home": ("Home", "住宅"),
        "save": ("Save", "保存"),
        "cancel": ("Cancel", "取消"),
        "delete": ("Delete", "删除"),
        "delete_title": ("Delete this contact?", "要删除此联系人吗？"),
        "delete_body": (
            "This contact will be removed from your device.",
            "系统会将此联系人从您的设备中移除。",
        ),
        "deleted": ("Contact deleted", "已删除联系人"),
        "saved": ("Contact saved", "已保存联系人"),
        "star": ("Add to favourites", "添加到收藏"),
        "unstar": ("Remove from favourites", "从收藏中移除"),
        "copy_number": ("Copy phone number", "复制电话号码"),
        "message": ("Send message", "发送短信"),
        "call": ("Call", "拨打电话"),
        "contact_info": ("Contact info", "联系方式"),
        "no_results": ("No contacts found", "未找到联系人"),
        "count": ("{n} contacts", "{n} 位联系人"),
        "navigate_up": ("Navigate up", "向上导航"),
        "name_required": ("Add a name or a phone number", "请添加姓名或电话号码"),
    }
)
