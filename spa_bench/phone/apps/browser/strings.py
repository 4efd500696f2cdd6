"""Every string of the Browser, English and Simplified Chinese (Chrome's wording)."""

from __future__ import annotations

from spa_bench.phone.i18n import Strings

STRINGS = Strings(
    {
        "app_name": ("Browser", "浏览器"),
        "address_hint": ("Search or type web address", "搜索或输入网址"),
        "search_hint": ("Search the web", "搜索网页"),
        "tabs": ("Tabs", "标签页"),
        "switch_tabs": ("Switch or close tabs", "切换或关闭标签页"),
        "more_options": ("More options", "更多选项"),
        "new_tab": ("New tab", "新标签页"),
        "close_tab": ("Close tab", "关闭标签页"),
        "close_all_tabs": ("Close all tabs", "关闭所有标签页"),
        "bookmarks": ("Bookmarks", "书签"),
        "history": ("History", "历史记录"),
        "add_bookmark": ("Bookmark this page", "为此网页添加书签"),
        "remove_bookmark": ("Remove bookmark", "移除书签"),
        "bookmarked": ("Bookmarked", "已添加书签"),
        "bookmark_removed": ("Bookmark removed", "已移除书签"),
        "share": ("Share…", "分享…"),
        "cancel": ("Cancel", "取消"),
        "navigate_up": ("Navigate up", "向上导航"),
        "no_bookmarks": ("No bookmarks yet", "还没有书签"),
        "no_history": ("Your history appears here", "您的历史记录会显示在这里"),
        "clear_history": ("Clear browsing data", "清除浏览数据"),
        "clear_history_title": ("Clear browsing history?", "要清除浏览记录吗？"),
        "clear_history_body": (
            "This deletes every page from your history. Bookmarks and open tabs stay.",
            "这将删除历史记录中的所有网页。书签和打开的标签页会保留。",
        ),
        "clear": ("Clear data", "清除数据"),
        "delete": ("Delete", "删除"),
        "history_cleared": ("Browsing history cleared", "已清除浏览记录"),
        "results_for": ("Results for “{q}”", "“{q}”的搜索结果"),
        "no_results": (
            "Your search - {q} - did not match any documents.",
            "找不到和您查询的“{q}”相符的内容。",
        ),
        "results_count": ("About {n} results", "找到约 {n} 条结果"),
        "unresolved_title": ("This site can't be reached", "无法访问此网站"),
        "unresolved_body": (
            "Check if there is a typo in {host}. You're offline: check your connection.",
            "请检查 {host} 是否有拼写错误。您目前处于离线状态，请检查网络连接。",
        ),
        "not_found_title": ("404. That's an error.", "404 找不到网页"),
        "not_found_body": (
            "The requested URL was not found on {host}.",
            "在 {host} 上找不到请求的网址。",
        ),
        "required": ("Please fill in {field}", "请填写“{field}”"),
        "choose": ("Please choose {field}", "请选择“{field}”"),
        "submitted": ("Submitted", "已提交"),
        "shortcuts": ("Shortcuts", "快捷方式"),
        "today": ("Today", "今天"),
        "open_in_new_tab": ("Open in new tab", "在新标签页中打开"),
    }
)
