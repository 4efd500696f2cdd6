"""Every string of the notes app, English and Simplified Chinese (Google Keep's wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Keep Notes", "Keep 记事"),
        "search_hint": ("Search your notes", "搜索您的记事"),
        "drawer": ("Open navigation drawer", "打开抽屉式导航栏"),
        "notes": ("Notes", "记事"),
        "trash": ("Trash", "回收站"),
        "labels": ("Labels", "标签"),
        "pinned": ("Pinned", "已固定"),
        "others": ("Others", "其他"),
        "new_note": ("New note", "新建记事"),
        "title_hint": ("Title", "标题"),
        "body_hint": ("Note", "记事"),
        "pin": ("Pin", "固定"),
        "unpin": ("Unpin", "取消固定"),
        "delete": ("Delete", "删除"),
        "make_copy": ("Make a copy", "复制"),
        "restore": ("Restore", "恢复"),
        "delete_forever": ("Delete forever", "永久删除"),
        "moved_to_trash": ("Note moved to trash", "记事已移至回收站"),
        "restored": ("Note restored", "记事已恢复"),
        "create_label": ("Create label", "创建标签"),
        "done": ("Done", "完成"),
        "empty": ("Notes you add appear here", "您添加的记事会显示在此处"),
        "empty_trash": ("No notes in Trash", "回收站中没有记事"),
        "no_results": ("No matching notes", "没有匹配的记事"),
        "navigate_up": ("Navigate up", "向上导航"),
    }
)
