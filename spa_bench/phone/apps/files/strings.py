"""Every string of the Files app, English and Simplified Chinese (wording of Android's DocumentsUI)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Files", "文件"),
        "internal_storage": ("Internal storage", "内部存储空间"),
        "open_title": ("Select a file", "选择文件"),
        "search": ("Search", "搜索"),
        "search_hint": ("Search files", "搜索文件"),
        "no_results": ("No matches", "没有匹配项"),
        "empty_folder": ("No items", "没有任何项目"),
        "new_folder": ("New folder", "新建文件夹"),
        "folder_name": ("Folder name", "文件夹名称"),
        "rename": ("Rename", "重命名"),
        "rename_title": ("Rename", "重命名"),
        "name_hint": ("Name", "名称"),
        "delete": ("Delete", "删除"),
        "delete_one": ("Delete “{name}”?", "要删除“{name}”吗？"),
        "delete_many": ("Delete {n} items?", "要删除 {n} 项吗？"),
        "move_to": ("Move to…", "移至…"),
        "move_here": ("Move", "移动"),
        "move_title": ("Move {n} item(s) to…", "将 {n} 项移至…"),
        "cancel": ("Cancel", "取消"),
        "ok": ("OK", "确定"),
        "create": ("Create", "创建"),
        "selected": ("{n} selected", "已选择 {n} 项"),
        "close_selection": ("Clear selection", "取消选择"),
        "navigate_up": ("Navigate up", "向上导航"),
        "items": ("{n} items", "{n} 项"),
        "one_item": ("1 item", "1 项"),
        "exists": ("“{name}” already exists", "“{name}”已存在"),
        "bad_name": ("Invalid name", "名称无效"),
        "deleted": ("Deleted {n} item(s)", "已删除 {n} 项"),
        "moved": ("Moved {n} item(s)", "已移动 {n} 项"),
        "cant_move": ("Can't move a folder into itself", "无法将文件夹移至其自身内"),
        "no_app": ("No app can open this file", "没有可打开此文件的应用"),
    }
)

MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
